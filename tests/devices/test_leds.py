"""LED frames for the sensor board: the mapping, the real packing, and the board showing them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from controller.devices import (
    DARK,
    BoardLeds,
    Colour,
    DeviceClosedError,
    Lamp,
    Pattern,
    Scene,
    SceneError,
    blink_forever,
)
from firmware_bridge import (
    Blink,
    FrameDecoder,
    Led,
    LedFrame,
    LinkState,
    encode_frame,
    led_frame,
    pack,
    unpack,
)
from hardware.simulator import BoardSimulator
from tests.firmware_bridge.conftest import FAST, PATIENCE_S, fast_link

SCENE = Scene.of(
    {
        0: Lamp(Colour.RED, Pattern.FAST),
        5: Lamp(Colour.GREEN),
        24: Lamp(Colour.AMBER, Pattern.SLOW),
        27: Lamp(Colour.OFF, Pattern.FLASH),
    },
    status=Lamp(Colour.GREEN, Pattern.FLASH),
)


def test_led_frame_mapping() -> None:
    leds = led_frame(SCENE).leds
    expected = [Led()] * 29
    expected[0] = Led(255, 0, 0, Blink.FAST)
    expected[5] = Led(0, 255, 0, Blink.STEADY)
    expected[24] = Led(255, 159, 0, Blink.SLOW)
    expected[28] = Led(0, 255, 0, Blink.FLASH)
    assert list(leds) == expected


def test_led_frame_level() -> None:
    assert led_frame(SCENE, level=64).leds[24] == Led(64, 40, 0, Blink.SLOW)


class Wire:
    """A send callable that packs each frame for real and decodes it back off the wire."""

    def __init__(self) -> None:
        self.decoder = FrameDecoder()
        self.received: list[LedFrame] = []
        self.seq = 0

    def __call__(self, frame: LedFrame) -> None:
        self.seq += 1
        data = encode_frame(pack(frame, self.seq))
        for decoded in self.decoder.feed(data):
            message = unpack(decoded)
            assert isinstance(message, LedFrame)
            self.received.append(message)


def test_show_sends_each_new_frame_once() -> None:
    wire = Wire()
    leds = BoardLeds(wire)
    scenes = [SCENE, SCENE, Scene.of({3: Lamp(Colour.RED)}), Scene.of({3: Lamp(Colour.RED)})]
    for scene in scenes:
        asyncio.run(leds.show(scene))
        leds.tick()
    assert wire.received == [led_frame(SCENE), led_frame(scenes[2])]
    assert leds.frames == 2
    assert leds.scene == scenes[2]


def test_lamps_that_are_off_compare_equal() -> None:
    wire = Wire()
    leds = BoardLeds(wire)
    asyncio.run(leds.show(Scene.of({9: Lamp(Colour.OFF, Pattern.FAST)})))
    asyncio.run(leds.show(DARK))
    assert wire.received == [LedFrame((Led(),) * 29)]


def test_closing_the_leds_then_the_link_darkens_the_board(tmp_path: Path) -> None:
    """The service's shutdown order: the dark frame is written before the port closes.

    It used to be a task scheduled on the loop, which met a closed link and was logged as
    "Task exception was never retrieved ... LinkClosedError" at every stop.
    """
    lit: list[tuple[int, int, int]] = []

    async def main(sim: BoardSimulator) -> None:
        async with fast_link(sim.path) as link:
            await link.wait_for(LinkState.LIVE, timeout=PATIENCE_S)
            leds = BoardLeds(link.send_leds)
            await leds.show(SCENE)
            async with asyncio.timeout(PATIENCE_S):
                while all(pixel == (0, 0, 0) for pixel in sim.leds.pixels):
                    await asyncio.sleep(0.01)
            lit.extend(sim.leds.pixels)
            leds.close()
            leds.close()
            with pytest.raises(DeviceClosedError, match=r"^board LEDs are closed$"):
                await leds.show(SCENE)

    with BoardSimulator(link=tmp_path / "board", settings=FAST, seed=3) as sim:
        asyncio.run(main(sim))
        # Written before the link closed; the firmware reads it at its next step.
        deadline = time.monotonic() + PATIENCE_S
        while any(pixel != (0, 0, 0) for pixel in sim.leds.pixels):
            assert time.monotonic() < deadline, "the dark frame never reached the board"
            time.sleep(0.01)
    assert any(pixel != (0, 0, 0) for pixel in lit)


def test_bad_level() -> None:
    with pytest.raises(SceneError, match=r"^LED level 0: expected 1\.\.255$"):
        BoardLeds(Wire(), level=0)


def test_blink_forever_ticks_until_cancelled() -> None:
    class Counting(BoardLeds):
        ticks = 0

        def tick(self) -> None:
            self.ticks += 1

    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) == 3:
            raise asyncio.CancelledError

    leds = Counting(Wire())
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(blink_forever(leds, period_s=0.05, sleep=sleep))
    assert (leds.ticks, sleeps) == (3, [0.05, 0.05, 0.05])


def test_the_simulated_board_shows_the_scene(tmp_path: Path) -> None:
    scene = Scene.of({2: Lamp(Colour.RED), 20: Lamp(Colour.GREEN), 26: Lamp(Colour.AMBER)})

    async def main(sim: BoardSimulator) -> list[tuple[int, int, int]]:
        async with fast_link(sim.path) as link:
            await link.wait_for(LinkState.LIVE, timeout=PATIENCE_S)
            leds = BoardLeds(link.send_leds)
            await leds.show(scene)
            async with asyncio.timeout(PATIENCE_S):
                while sim.leds.pixels[2] == (0, 0, 0):
                    await asyncio.sleep(0.01)
            return list(sim.leds.pixels)

    with BoardSimulator(link=tmp_path / "board", settings=FAST, seed=3) as sim:
        pixels = asyncio.run(main(sim))
    expected = [(0, 0, 0)] * 29
    expected[2] = (255, 0, 0)
    expected[20] = (0, 255, 0)
    expected[26] = (255, 159, 0)
    assert pixels == expected

"""The LEDs' share of the latency budget: from a new scene to the pins (or the frame) out.

Target (issue 6): under 20 ms p99 from a board change to the LED pins, all stages
together; this measures the last stage on gpiozero's MockFactory (a real Pi with lgpio
adds roughly 5 to 10 us per pin write, about 170 writes a frame), and the cost of the
blink tick the service runs 40 times a second.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from controller.devices import (
    BoardLeds,
    Colour,
    Lamp,
    Pattern,
    Scene,
    ShiftRegisterLeds,
    frame_bits,
)
from firmware_bridge import LedFrame, encode_frame, pack

ROUNDS = 2000


def _scenes(count: int) -> list[Scene]:
    rng = random.Random(1)
    colours = list(Colour)
    patterns = list(Pattern)
    return [
        Scene.of(
            {
                location: Lamp(rng.choice(colours), rng.choice(patterns))
                for location in rng.sample(range(28), rng.randint(1, 8))
            }
        )
        for _ in range(count)
    ]


def _timings(function: Callable[[int], object]) -> list[float]:
    times = []
    for index in range(ROUNDS):
        start = time.perf_counter()
        function(index)
        times.append(time.perf_counter() - start)
    return times


def _report(name: str, times: list[float]) -> None:
    times = sorted(times)
    median = statistics.median(times) * 1e6
    p99 = times[int(len(times) * 0.99)] * 1e6
    print(f"{name:<44} median {median:9.1f} us   p99 {p99:9.1f} us")


def main() -> None:
    scenes = _scenes(ROUNDS)
    _report("frame_bits (pure)", _timings(lambda i: frame_bits(scenes[i], i % 1000)))

    factory = MockFactory()
    with ShiftRegisterLeds(
        10, 11, 8, enable=7, status_pins=(24, 23, 25), pin_factory=factory
    ) as leds:
        _report(
            "ShiftRegisterLeds.display, new scene (mock)",
            _timings(lambda i: leds.display(scenes[i])),
        )
        leds.display(scenes[0])
        _report("ShiftRegisterLeds.tick, nothing to do", _timings(lambda i: leds.tick()))

    seq = 0

    def send(frame: LedFrame) -> None:
        nonlocal seq
        seq += 1
        encode_frame(pack(frame, seq & 0xFFFF))

    async def shows() -> list[float]:
        board = BoardLeds(send)
        times = []
        for scene in scenes:
            start = time.perf_counter()
            await board.show(scene)
            times.append(time.perf_counter() - start)
        return times

    _report("BoardLeds.show, new scene (packed + COBS)", asyncio.run(shows()))
    factory.close()


if __name__ == "__main__":
    main()

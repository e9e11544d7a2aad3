"""The LEDs' share of the latency budget: from a new scene to the pins (or the frame) out.

Target (issue 6): under 20 ms p99 from a board change to the LED pins, all stages
together; this measures the last stage on gpiozero's MockFactory (a real Pi with lgpio
adds roughly 5 to 10 us per pin write, about 170 writes a frame), and the blink tick the
service runs 40 times a second. References, the least the same work can cost: the same
frames' bits written straight to three MockFactory pins (what any driver of the chain must
write, without the devices); the bits of the scene alone (what a tick computes to find
that nothing changed); the same LED frame packed and COBS-encoded alone (what the board
back-end must send, without its checks).
"""

from __future__ import annotations

import argparse
import asyncio
import random

from gpiozero.pins.mock import MockFactory

from benchmarks.measure import Interleaved, Row, best_of, count, timed_row
from controller.devices import (
    BoardLeds,
    Colour,
    Lamp,
    Pattern,
    Scene,
    ShiftRegisterLeds,
    frame_bits,
)
from firmware_bridge import LedFrame, encode_frame, led_frame, pack

SMALL = ("--rounds", "20", "--repeats", "1")

_DATA, _CLOCK, _LATCH = 17, 27, 22
"""The pins of the reference's bare chain (the LED class has 10, 11 and 8)."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--rounds", type=count, default=2000, help="scenes shown a pass")
    parser.add_argument("--repeats", type=count, default=5, help="interleaved repeats")


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


def _shift_register_rows(scenes: list[Scene], repeats: int) -> list[Row]:
    factory = MockFactory()
    frames = [frame_bits(scene, 0) for scene in scenes]
    data, clock, latch = (factory.pin(number) for number in (_DATA, _CLOCK, _LATCH))
    for pin in (data, clock, latch):
        pin.function = "output"

    def bare_chain() -> None:
        for bits in frames:
            for bit in bits:
                data.state = bit
                clock.state = 1
                clock.state = 0
            latch.state = 1
            latch.state = 0

    try:
        with ShiftRegisterLeds(10, 11, 8, enable=7, status_pins=(24, 23, 25),
                               pin_factory=factory) as leds:  # fmt: skip

            def display() -> None:
                for scene in scenes:
                    leds.display(scene)

            shown, written = best_of(display, bare_chain, repeats=repeats)
            leds.display(scenes[0])

            def tick() -> None:
                for _ in scenes:
                    leds.tick()

            def bits() -> None:
                for _ in scenes:
                    frame_bits(scenes[0], 0)

            ticks, computed = best_of(tick, bits, repeats=repeats)
    finally:
        factory.close()
    return [
        timed_row("ShiftRegisterLeds.display, new scene (MockFactory), per scene", shown,
                  written, per=len(scenes), reference_name="the same bits written straight to "
                  "three MockFactory pins"),
        timed_row("ShiftRegisterLeds.tick, nothing to do, per tick", ticks, computed,
                  per=len(scenes), reference_name="frame_bits of the scene shown"),
    ]  # fmt: skip


async def _board_row(scenes: list[Scene], repeats: int) -> Row:
    sequence = 0

    def send(frame: LedFrame) -> None:
        nonlocal sequence
        sequence += 1
        encode_frame(pack(frame, sequence & 0xFFFF))

    pair = Interleaved()
    for _ in range(repeats):
        board = BoardLeds(send)
        with pair.subject():
            for scene in scenes:
                await board.show(scene)
        with pair.reference():
            for scene in scenes:
                send(led_frame(scene))
    shown, encoded = pair.best
    return timed_row("BoardLeds.show, new scene (packed + COBS), per scene", shown, encoded,
                     per=len(scenes), reference_name="led_frame of the same scene, packed "
                     "and COBS-encoded alone")  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    scenes = _scenes(options.rounds)
    return [
        *_shift_register_rows(scenes, options.repeats),
        asyncio.run(_board_row(scenes, options.repeats)),
    ]

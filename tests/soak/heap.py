"""The sensor board's heap on MicroPython over a long session: what it holds does not grow.

``python -m tests.soak heap --passes 300`` runs the scripted board
(:mod:`tests.hardware.board_script`: moves, noise, a dead sensor, the host's requests,
garbage on the wire, a reboot) again and again in MicroPython's WebAssembly build, whose
32-bit words are a Pico's, then leaves it idle; it measures the heap held after a
collection after each pass and twice while idle, and prints the figures. It fails if the
heap after the last tenth of the passes (their median) is more than :data:`SLACK` bytes
above that after the first tenth, or the idle board's at the end above its own halfway.
Medians, as one measure now and then holds a little more (the collector is conservative:
a stale word may keep a dead object), where a leak climbs pass after pass.

Why: a Pico has about 210 KB of heap, and a leak of a few bytes a step ends the board in
a MemoryError within hours of a club evening. The driver itself leaked 30 bytes a step
(each call from node made a proxy that MicroPython kept), which this caught.
"""

from __future__ import annotations

import argparse
import sys
from statistics import median_high

from hardware.pinmap import PINMAP_PATH
from hardware.runtimes import MicroPythonRuntime
from tests.hardware.board_script import board_script

SLACK = 1024
"""Bytes the collector's own bookkeeping may move by between two measures."""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak heap")
    parser.add_argument("--passes", type=int, default=100, help="passes of the board script")
    parser.add_argument("--idle", type=int, default=20_000, help="idle steps (ms) at the end")
    parser.add_argument("--seed", type=int, default=5, help="the sensors' noise")
    options = parser.parse_args(argv)
    script = board_script()
    firmware = MicroPythonRuntime(PINMAP_PATH.read_text(), options.seed)
    try:
        after_pass = []
        for turn in range(options.passes):
            for request in script:
                firmware.step({**request, "now": request["now"] + len(script) * turn})
            after_pass.append(firmware.heap(0)[0])
        now = len(script) * options.passes
        idle = []
        for _ in range(2):
            for _ in range(options.idle // 2):
                firmware.step({"now": now})
                now += 1
            idle.append(firmware.heap(0)[0])
        per_second = firmware.heap(1000)[1]
    finally:
        firmware.close()
    tenth = max(1, options.passes // 10)
    first, last = median_high(after_pass[:tenth]), median_high(after_pass[-tenth:])
    grew = max(last - first, idle[1] - idle[0])
    print(f"  {options.passes} passes of {len(script)} steps, then {options.idle} idle: "
          f"{now / 1000:.1f} s of board time")  # fmt: skip
    print(f"  heap held: {first} bytes after the first tenth of the passes, {last} after the "
          f"last (from {min(after_pass)} to {max(after_pass)}); idle {idle[0]} then "
          f"{idle[1]}")  # fmt: skip
    print(f"  garbage a second of the board's loop: {per_second} bytes")
    held = grew <= SLACK
    print(f"heap {'steady' if held else 'grows'}: {grew} bytes more at most (slack {SLACK})")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

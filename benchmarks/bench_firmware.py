"""The sensor board's scan loop on MicroPython, against the 2 ms scan period first assumed.

The subject is the firmware's own scan (``Firmware.scan``, what a step does when a scan
is due: the matrix read into the readings, then ``Scanner.update`` over the 158 slots),
run by :mod:`hardware.firmware.lockstep` on MicroPython 1.27's WebAssembly build
under node and timed inside it with ``time.ticks_us``. References: the same code on
CPython in this process (the simulator's default runtime); and, to say what a Pico would
take, a loop whose time on a Pico is published (:data:`PICO_ADDITION_US`), run here on
the same MicroPython: the scan's Pico estimate is its time here scaled by that loop's
Pico/here ratio, set beside the 2 ms scan period protocol 1.0 first assumed (this
benchmark's figures made it 20 ms: ``hardware/PROTOCOL.md`` section 5). Both runtimes time
themselves, in wall
time: MicroPython's ``ticks_us`` counts whole milliseconds under node, so each timing
spans many scans. What the estimate leaves out: the real sensor matrix (158 multiplexer
selects and ADC reads, ``hal_rp2040``), which only a Pico can time.
"""

from __future__ import annotations

import argparse

from benchmarks.measure import Row, count, timed_row
from hardware.board.geometry import cells_from_board
from hardware.pinmap import PINMAP_PATH, load_pinmap, slots_per_location
from hardware.runtimes import FirmwareRuntime, MicroPythonRuntime, open_runtime
from hardware.simulator import START, VirtualBoard

SMALL = ("--scans", "50", "--answers", "5", "--additions", "50000", "--repeats", "1")

#: One turn of ``lockstep.time_additions``'s loop on a Raspberry Pi Pico (RP2040, 125 MHz,
#: MicroPython 1.23.0): 7984 ms for 1,000,000 turns of ``C = p[1] + p[2]``, published in
#: https://github.com/shaoziyang/micropython_benchmarks (README, "Integer addition 1000000
#: times", RP2040 MicroPython column; added by its pull request #1, 2024).
PICO_ADDITION_US = 7.984
#: The heap free at a Pico's prompt (RP2040, MicroPython 1.20): ``gc.mem_free()`` gave
#: 209,936 bytes in https://github.com/micropython/micropython/issues/12557 (2023).
PICO_HEAP_FREE = 209_936
#: The scan period protocol 1.0 first assumed (pinmap.toml now has 20 ms).
SCAN_PERIOD_US = 2000.0
#: The scan period of the shipped pin map (``scan_period_ms``).
PICO_SCAN_PERIOD_US = 20_000.0


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--scans", type=count, default=400, help="scans timed a repeat")
    parser.add_argument(
        "--answers", type=count, default=40, help="diagnostic answers timed a repeat"
    )
    parser.add_argument(
        "--additions", type=count, default=300_000, help="turns of the reference loop"
    )
    parser.add_argument("--repeats", type=count, default=5, help="interleaved repeats")


def _settled(name: str) -> FirmwareRuntime:
    """A runtime whose firmware has booted on the starting position and debounced it."""
    pins = load_pinmap()
    slots = slots_per_location(pins)
    published: list[list[int]] = []
    board = VirtualBoard(slots, pins["hall"]["mid"], published.append, sleep=lambda _: None)
    board.set_cells(cells_from_board(START))
    runtime = open_runtime(name, PINMAP_PATH.read_text(), seed=1)
    runtime.step({"now": 0, "boot": (1, 1, 0, None), "readings": published[-1]})
    for now in range(2, 40, 2):
        runtime.step({"now": now})
    return runtime


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    micropython = _settled("micropython")
    cpython = _settled("cpython")
    scans_mp, scans_cp, answers_mp, answers_cp, additions = [], [], [], [], []
    try:
        for _ in range(options.repeats):
            scans_mp.append(micropython.time_scans(options.scans) / 1e6)
            scans_cp.append(cpython.time_scans(options.scans) / 1e6)
            answers_mp.append(micropython.time_diagnostics(options.answers) / 1e6)
            answers_cp.append(cpython.time_diagnostics(options.answers) / 1e6)
            additions.append(micropython.time_additions(options.additions) / 1e6)
        assert isinstance(micropython, MicroPythonRuntime)
        live, per_second = micropython.heap(1000)
    finally:
        micropython.close()
        cpython.close()
    collected_every_s = (PICO_HEAP_FREE - live) / max(per_second, 1)
    scan_s, addition_s = min(scans_mp), min(additions)
    per_turn_us = addition_s * 1e6 / options.additions
    scan_us = scan_s * 1e6 / options.scans
    pico_scan_s = scan_s * PICO_ADDITION_US / per_turn_us
    answer_s = min(answers_mp)
    pico_answer_s = answer_s * PICO_ADDITION_US / per_turn_us
    return [
        timed_row("Firmware.scan of 158 slots, MicroPython 1.27 (WebAssembly, "
                  "node), per scan", scan_s, min(scans_cp), per=options.scans,
                  reference_name="the same code on CPython in process", clock="wall"),
        timed_row("reference loop (a list items' sum), MicroPython 1.27 (WebAssembly), per "
                  "turn", addition_s, PICO_ADDITION_US / 1e6 * options.additions,
                  per=options.additions, reference_name="the same loop on a Pico (RP2040 "
                  "125 MHz, MicroPython 1.23), published", clock="wall", unit="ns"),
        timed_row(f"Pico estimate of that scan ({scan_us:.0f} us here x "
                  f"{PICO_ADDITION_US / per_turn_us:.1f}, the loop's Pico/here ratio), per "
                  "scan; sensor reads not included", pico_scan_s, SCAN_PERIOD_US / 1e6 *
                  options.scans, per=options.scans, reference_name="the scan period first "
                  "assumed (2 ms; now 20 ms, PROTOCOL.md section 5)", clock="wall"),
        timed_row("answer to DIAGNOSTIC_REQUEST (158 raw readings in 3 frames), MicroPython "
                  "1.27 (WebAssembly, node), per answer", answer_s, min(answers_cp),
                  per=options.answers, reference_name="the same code on CPython in process",
                  clock="wall"),
        Row("heap held after a collection, the firmware booted and settled (with the "
            "driver and virtual sensors of lockstep.py), MicroPython 1.27 on wasm32 (a Pico's "
            "word size)", live, "bytes", PICO_HEAP_FREE, "the heap free at a Pico's prompt "
            "(RP2040, MicroPython 1.20, micropython#12557)", clock=None),
        Row("garbage the board's loop makes, MicroPython 1.27 on wasm32, per second (a step "
            "each ms: its scans, heartbeats and LED refreshes as they fall due)", per_second,
            "bytes", None, "", reason=f"a Pico would collect every {collected_every_s:.1f} s: "
            f"the heap left free ({PICO_HEAP_FREE - live} bytes) filled so", clock=None),
        timed_row("Pico estimate of that answer (the loop's Pico/here ratio), per answer",
                  pico_answer_s, PICO_SCAN_PERIOD_US / 1e6 * options.answers,
                  per=options.answers, reference_name="the scan period (20 ms, pinmap.toml), "
                  "which an answer delays once", clock="wall"),
    ]  # fmt: skip

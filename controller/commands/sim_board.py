"""``tabula sim-board``: run the simulated sensor board on a pseudo-terminal.

Prints the device path on the first line, then serves until SIGINT or SIGTERM. With
``--script FILE`` it plays JSON lines ``{"board": [26 ints], "hold_ms": N}``, reaching
each position from the previous one by lifting and placing one checker at a time, and
keeps the last position afterwards. ``--runtime micropython`` runs the firmware on real
MicroPython (``hardware/runtimes.py``) instead of in this CPython process. ``--fault
13/2=dead`` breaks the second sensor of point 13 (dead, noisy, stuck or open), as
``tabula doctor`` and the set-up page must find it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from firmware_bridge.errors import BridgeError
from firmware_bridge.slot_health import SLOT_FAULTS, parse_slot
from hardware.board import json_types
from hardware.board.errors import LayoutError, os_reason
from hardware.board.geometry import cells_from_board
from hardware.pinmap import load_pinmap, slots_per_location
from hardware.runtimes import RUNTIMES

HELP = "run the simulated sensor board on a pseudo-terminal (prints its path first)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula sim-board``."""
    parser.add_argument("--script", type=Path, help="JSON lines of {board, hold_ms} to play")
    parser.add_argument(
        "--link", type=Path, help="keep this symlink pointing at the pty (e.g. /tmp/tabula-board)"
    )
    parser.add_argument(
        "--step-ms", type=int, default=100, help="pause between two checker gestures (100)"
    )
    parser.add_argument("--heartbeat-ms", type=int, default=500, help="heartbeat period (500)")
    parser.add_argument("--seed", type=int, help="seed of the boot id and injected faults")
    parser.add_argument(
        "--runtime",
        choices=RUNTIMES,
        default=RUNTIMES[0],
        help="where the firmware runs: CPython in this process (default), or MicroPython "
        "(its WebAssembly build under node; `make micropython` installs it)",
    )
    parser.add_argument(
        "--protocol",
        default="1.1",
        help="protocol version the board announces, MAJOR.MINOR (1.1); try 1.0 for a board "
        "without diagnostics, 2.0 to see a host refuse it",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="SLOT=KIND",
        help=f"break a sensor slot, e.g. 13/2=dead (point 13, second sensor); KIND is "
        f"{', '.join(SLOT_FAULTS)}; repeatable",
    )


def _version(text: str) -> tuple[int, int]:
    major, dot, minor = text.partition(".")
    if not (major.isdigit() and dot and minor.isdigit()) or max(int(major), int(minor)) > 255:
        raise BridgeError(f"--protocol {text!r}: expected MAJOR.MINOR, each 0..255")
    return int(major), int(minor)


def read_faults(texts: list[str]) -> list[tuple[int, int, str]]:
    """The (location, slot, kind) of each ``--fault SLOT=KIND``, all checked first.

    Raises:
        LayoutError: naming the first bad ``--fault``.
    """
    layout = slots_per_location(load_pinmap())
    faults = []
    for text in texts:
        label, equals, kind = text.partition("=")
        if not equals or kind not in SLOT_FAULTS:
            raise LayoutError(
                f"--fault {text!r}: expected SLOT=KIND, KIND one of {', '.join(SLOT_FAULTS)}"
            )
        try:
            faults.append((*parse_slot(label, layout), kind))
        except LayoutError as error:
            raise LayoutError(f"--fault {text!r}: {error}") from None
    return faults


def read_script(path: Path) -> list[tuple[tuple[int, ...], int]]:
    """Read and check a whole script before anything plays.

    Raises:
        LayoutError: naming the file and line of the first bad line.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise LayoutError(f"script {str(path)!r}: {os_reason(error)}") from None
    except ValueError as error:  # not UTF-8
        raise LayoutError(f"script {str(path)!r}: {error}") from None
    steps = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"script {str(path)!r} line {number}"
        try:
            item = json_types.loads(line)
        except ValueError as error:
            raise LayoutError(f"{where}: not JSON ({error})") from None
        if not isinstance(item, dict) or "board" not in item:
            raise LayoutError(f'{where}: expected {{"board": [26 ints], "hold_ms": N}}')
        board, hold = item["board"], item.get("hold_ms", 0)
        if not isinstance(hold, int) or isinstance(hold, bool) or hold < 0:
            raise LayoutError(f"{where}: hold_ms {hold!r} must be an integer >= 0")
        if not isinstance(board, list) or any(isinstance(v, bool) for v in board):
            raise LayoutError(f"{where}: board {board!r} must be a list of 26 integers")
        try:
            cells_from_board(board)
        except LayoutError as error:
            raise LayoutError(f"{where}: {error}") from None
        steps.append((tuple(board), hold))
    return steps


def run(args: argparse.Namespace) -> int:
    """Serve the simulated board until a signal; 0 on a clean stop."""
    from hardware.simulator import BoardSimulator

    steps = read_script(args.script) if args.script else []
    protocol = _version(args.protocol)
    faults = read_faults(args.fault)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        simulator = BoardSimulator(
            link=args.link,
            seed=args.seed,
            settings={"heartbeat_ms": args.heartbeat_ms},
            protocol=protocol,
            runtime=args.runtime,
            on_failure=lambda error: stop.set(),
        )
        for location, slot, kind in faults:
            simulator.fault(location, slot, kind)
        simulator.start()
    except (OSError, BridgeError, LayoutError) as error:
        raise BridgeError(f"cannot start the simulator: {error}") from None
    with simulator:
        simulator.board.sleep = stop.wait
        print(simulator.path, flush=True)
        for board, hold_ms in steps:
            if stop.is_set():
                break
            simulator.board.set_board(board, hold_s=args.step_ms / 1000)
            print(json.dumps({"type": "reached", "board": list(board)}), flush=True)
            stop.wait(hold_ms / 1000)
        stop.wait()
    sys.stdout.flush()
    if simulator.failure is not None:
        raise BridgeError(f"the simulated board stopped: {simulator.failure}")
    return 0

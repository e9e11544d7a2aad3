"""A scripted sensor board: the requests of the firmware's lockstep driver, one per ms.

Why a module: the runtimes' test puts them through CPython and MicroPython and compares
the bytes, and the heap soak runs them again and again on MicroPython.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge import frames, messages
from hardware.board.geometry import cells_from_board
from hardware.pinmap import load_pinmap, slots_per_location
from hardware.simulator import START, VirtualBoard

PINS = load_pinmap()
SLOTS = slots_per_location(PINS)
#: Debounce on one scan, so that the noise's every draw can reach the wire.
SETTINGS = {"heartbeat_ms": 100, "stable_scans": 1, "scan_period_ms": 2}


def board_script() -> list[dict[str, Any]]:
    """A scripted board's requests, one per ms: moves, noise, a dead sensor, host frames.

    Raw readings are asked twice: of the board (noise on), then of a board rebooted as
    protocol 1.0, which refuses them.
    """
    published: list[list[int]] = []
    board = VirtualBoard(SLOTS, PINS["hall"]["mid"], published.append, sleep=lambda _: None)
    board.set_cells(cells_from_board(START))
    requests: list[dict[str, Any]] = [
        {"boot": [0xC0FFEE, 1, 1, SETTINGS], "readings": published[-1]}
    ]
    requests += [{} for _ in range(699)]
    moves = [(23, 19), (12, 8), (19, 23)] * 3
    for at, (source, destination) in zip(range(40, 700, 80), moves, strict=True):
        board.move(source, destination)
        requests[at]["readings"] = published[-2]  # lifted
        requests[at + 8]["readings"] = published[-1]  # placed
    # Noise across the threshold of an empty slot: the generator's numbers reach the wire.
    requests[100]["noise"] = [[3, 6000], [27, 2500]]
    requests[300]["stuck"] = [[40, 0]]
    requests[450]["stuck"] = []
    requests[600]["noise"] = []
    requests[640]["boot"] = [0xBEEF, 1, 0, SETTINGS]
    host = {
        10: messages.HelloRequest(1, 0),
        200: messages.LedFrame(
            (messages.Led(0, 255, 0), messages.Led(9, 0, 9, messages.Blink.FAST))
        ),
        350: messages.ReplayRequest(2),
        500: messages.SnapshotRequest(),
        520: messages.DiagnosticRequest(7),
        660: messages.DiagnosticRequest(8),
    }
    for at, message in host.items():
        requests[at]["rx"] = list(frames.encode_frame(messages.pack(message, at)))
    requests[250]["rx"] = list(b"\x05garbage\x00\x00\x07")
    for now, request in enumerate(requests):
        request["now"] = now
    return requests

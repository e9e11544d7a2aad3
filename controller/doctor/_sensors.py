"""Every sensor slot of the board, judged from its raw readings (protocol 1.1's diagnostics).

Why the checkers on the board matter: a stuck slot reads a checker whether or not one lies
on it, so it shows only against what really lies there: the starting position, set up for
the first game, unless told otherwise.
"""

from __future__ import annotations

from controller.doctor._finding import Finding, fail, ok
from controller.rules import Xgid
from firmware_bridge import (
    BoardLink,
    DiagnosticsUnsupportedError,
    Health,
    RawSetError,
    classify_slots,
)
from firmware_bridge.slot_health import NOISE_SETS
from hardware.board.geometry import Cell, cells_from_board

__all__ = ["CHECKERS", "FIRMWARE", "check_sensors"]

#: What may lie on the board during the check, by name: its cells (None: anything, so no
#: slot can be called stuck), and how a person says it.
CHECKERS: dict[str, tuple[tuple[Cell, ...] | None, str]] = {
    "start": (cells_from_board(Xgid().board), "the checkers as they start"),
    "none": (cells_from_board((0,) * 26), "no checker on the board"),
    "any": (None, "the checkers unknown: stuck slots not sought"),
}
#: What to do about a board whose firmware is older or newer than this host's.
FIRMWARE = (
    "flash the firmware of this Tabula version on the board (make firmware; hardware/README.md)"
)


async def check_sensors(link: BoardLink, checkers: str, *, timeout: float) -> list[Finding]:
    """One line for the slots if all read right, else one per bad slot with its reason.

    Args:
        link: a live link to the board.
        checkers: what lies on the board, a key of :data:`CHECKERS`.
        timeout: seconds the board may take to send its :data:`NOISE_SETS` sets.
    """
    try:
        sets = await link.read_raw_sets(NOISE_SETS, timeout)
    except DiagnosticsUnsupportedError as error:
        return [fail("sensors", str(error), FIRMWARE)]
    except (RawSetError, TimeoutError) as error:
        return [fail("sensors", f"no raw readings: {error}",
                     "run it again; if it fails again, the link drops frames: try another "
                     "USB cable or port")]  # fmt: skip
    cells, holding = CHECKERS[checkers]
    verdicts = classify_slots(sets, cells)
    bad = [verdict for verdict in verdicts if verdict.health is not Health.OK]
    if not bad:
        return [ok("sensors", f"{len(verdicts)} slots read right over {len(sets)} scans "
                   f"({holding})")]  # fmt: skip
    return [
        fail(
            f"sensor {verdict.label}",
            verdict.reason,
            "mend the slot as the line says (the wiring is in hardware/README.md), "
            "then run tabula doctor again",
        )
        for verdict in bad
    ]

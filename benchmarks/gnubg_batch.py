"""The GNU Backgammon oracle as a batch: ``tabula plays --batch``'s requests on standard
input, each answered with GNU Backgammon's distinct plays (0-ply, PyPI bindings).

Why a module of its own, importing little: ``python -m benchmarks rules`` runs it as a
child beside ``tabula plays --batch`` on the same lines, so that both pay a start and JSON,
and their CPU times compare. The bindings exist for x86-64 only.
"""

from __future__ import annotations

import json
import sys

from controller.rules.position_id import gnubg_board


def main() -> int:
    """Answer every line of standard input with ``{"id", "n"}``."""
    import gnubg  # type: ignore[import-untyped]  # x86-64 only: imported when run

    cube, zero_ply = gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0)
    for line in sys.stdin:
        request = json.loads(line)
        position = gnubg_board(tuple(request["board"]), request["player"])
        plays = gnubg.findbestmoves(position, cube, zero_ply, tuple(request["dice"]))
        sys.stdout.write(json.dumps({"id": request["id"], "n": len(plays)}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

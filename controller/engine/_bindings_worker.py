"""Child process of :class:`~controller.engine.gnubg_bindings.GnubgBindingsEngine`.

Run as ``python -m controller.engine._bindings_worker``: reads one JSON request per line
on stdin and writes one JSON answer per line, prefixed ``{"tabula":``, on the protocol
stream (the original stdout; the C library's own prints go to stderr).

The PyPI bindings crash when called from any thread but the main one, and cannot be
interrupted inside their C code: hence a child process, killed when it is late.
Boards arrive in the bindings' layout, the player on roll's index being 0 in the
``cubeinfo`` (owner 0 = the player on roll, 1 = the opponent, -1 = centred).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _cubeinfo(gnubg: Any, cube: dict[str, Any], value: int, owner: int) -> Any:
    info = gnubg.cubeinfo(
        value, owner, 0, cube["match_length"], tuple(cube["score"]), int(cube["crawford"]), 0
    )
    info["jacoby"] = int(cube["jacoby"])
    info["beavers"] = int(cube["beavers"])
    return info


def _context(gnubg: Any, ply: int) -> Any:
    return gnubg.evalcontext(1, ply, 1, 1, 0.0)  # cubeful, deterministic, pruning nets


def _board(raw: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(raw[0]), tuple(raw[1])


def _swap(board: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
    return board[1], board[0]


def _no_double(gnubg: Any, board: Any, info: Any, ply: int) -> float:
    """Cubeful equity of not doubling: the mean over the 36 rolls of the best play's equity."""
    context = _context(gnubg, ply)
    total = 0.0
    for roll in _ROLLS:
        moves = gnubg.findbestmoves(board, info, context, roll)
        if moves:
            score = float(moves[0]["score"])
        else:  # no legal move: the opponent rolls on the same board (cubeless estimate)
            score = -float(gnubg.evaluate(_swap(board), info, context)[5])
        total += score * (1 if roll[0] == roll[1] else 2)
    return total / 36


def answer(gnubg: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request (see the engine for the fields)."""
    op = request["op"]
    board = _board(request["board"])
    cube = request["cube"]
    ply = int(request["ply"])
    info = _cubeinfo(gnubg, cube, cube["value"], cube["owner"])
    if op == "moves":
        moves = gnubg.findbestmoves(board, info, _context(gnubg, ply), tuple(request["dice"]))
        return {"moves": [[list(move["move"]), float(move["score"])] for move in moves]}
    if op == "evaluate":  # cubeless outputs of positions, for the player on roll in each
        context = _context(gnubg, ply)
        outputs = [gnubg.evaluate(_board(raw), info, context) for raw in request["boards"]]
        return {
            "equities": [float(output[5]) for output in outputs],
            "probabilities": [[float(p) for p in output[:5]] for output in outputs],
        }
    if op == "cube":
        inner = max(ply - 1, 0)
        no_double = _no_double(gnubg, board, info, inner)
        if request.get("no_double_only"):
            return {"no_double": no_double}
        doubled = _cubeinfo(gnubg, cube, 2 * cube["value"], 1)
        take = _no_double(gnubg, board, doubled, inner)  # in units of the doubled cube
        if cube["match_length"]:
            take = gnubg.mwc2eq(gnubg.eq2mwc(take, doubled), info)
        else:
            take *= 2
        chances = gnubg.evaluate(board, info, _context(gnubg, inner + 1))[:5]
        return {"no_double": no_double, "double_take": float(take), "ply": inner + 1,
                "probabilities": [float(p) for p in chances]}
    raise ValueError(f"unknown op {op!r}")


def serve(stdin: TextIO, out: TextIO) -> None:
    """Answer requests until stdin ends; a failed request gets an ``error`` answer."""
    try:
        import gnubg  # type: ignore[import-untyped]
    except ImportError as error:
        out.write(json.dumps({"tabula": "error", "error": f"cannot import gnubg: {error}"}))
        out.write("\n")
        out.flush()
        sys.exit(1)
    out.write(json.dumps({"tabula": "ready", "version": str(gnubg.version)}) + "\n")
    out.flush()
    for line in stdin:
        request = json.loads(line)
        try:
            reply = {"tabula": "answer", "id": request["id"], **answer(gnubg, request)}
        except Exception as error:  # reported to the parent, which raises it there
            reply = {"tabula": "error", "id": request.get("id"), "error": repr(error)}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def main() -> None:
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the C library's prints stay apart
    serve(sys.stdin, protocol)


if __name__ == "__main__":
    main()

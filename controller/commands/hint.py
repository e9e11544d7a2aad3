"""``tabula hint``: GNU Backgammon's best play of a roll, for people and for tests.

``tabula hint POSITION DICE`` prints the best play in GNU Backgammon notation with its
equity, then the next best ones with what each gives up; ``tabula hint --batch`` answers
the JSON lines of ``tabula plays --batch`` with ``{"id", "best", "result", "equity"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from controller.engine.model import Engine

HELP = "the engine's best play of a roll and the next best ones (POSITION DICE, or --batch)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", nargs="?", help="an XGID or a GNU Backgammon Position ID")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 31")
    parser.add_argument("--ply", type=int, default=0, help="search depth, 0 to 7 (default 0)")
    parser.add_argument(
        "--engine",
        choices=("bindings", "cli"),
        help="GNU Backgammon's Python bindings or its gnubg program (default: what is installed)",
    )
    parser.add_argument("--gnubg", metavar="PATH", help="the gnubg program (for --engine cli)")
    parser.add_argument("--top", type=int, default=5, help="plays to print (default 5)")
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds an answer may take (default 30)"
    )
    parser.add_argument(
        "--batch",
        action="store_true",
        help='read the {"id", "board", "player", "dice"} lines of `tabula plays --batch`',
    )


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position or args.dice:
            raise SystemExit("tabula hint: --batch reads stdin and takes no POSITION or DICE")
    elif not (args.position and args.dice):
        raise SystemExit("tabula hint: give POSITION and DICE, or --batch")
    if not 0 <= args.ply <= 7:
        raise SystemExit(f"tabula hint: --ply is 0 to 7, got {args.ply}")
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    from controller.engine import EngineUnavailableError, available_engine, make_engine

    if args.engine:
        engine = make_engine(args.engine, ply=args.ply, budget=args.budget, program=args.gnubg)
    else:
        choice = available_engine(ply=args.ply, budget=args.budget, program=args.gnubg)
        if choice.engine is None:
            raise EngineUnavailableError(choice.message)
        engine = choice.engine
    try:
        if args.batch:
            return await run_batch(engine, sys.stdin, sys.stdout)
        return await print_hint(engine, args.position, args.dice, args.top, sys.stdout)
    finally:
        await engine.close()


async def print_hint(engine: Engine, position: str, dice_text: str, top: int, out: TextIO) -> int:
    """Print the ``top`` best plays: rank, notation, equity, and the loss against the best."""
    from controller.commands.plays import parse_dice, parse_position

    state = parse_position(position)
    hint = await engine.hint(state, parse_dice(dice_text))
    width = max(len(ranked.play.notation) for ranked in hint.plays[:top]) or 1
    for rank, ranked in enumerate(hint.plays[: max(top, 1)], 1):
        notation = ranked.play.notation or "(no legal move)"
        loss = hint.best.equity - ranked.equity
        behind = f"  ({-loss:+.3f})" if rank > 1 else ""
        out.write(f"{rank}. {notation:<{width}}  {ranked.equity:+.3f}  {ranked.ply}-ply{behind}\n")
    return 0


async def answer(engine: Engine, request: Any) -> dict[str, Any]:
    """The answer to one batch request, or ``{"id", "error"}`` naming what is wrong.

    Raises:
        EngineUnavailableError: when no engine runs at all (no line could be answered).
    """
    from controller.commands.plays import VARIANTS
    from controller.engine import EngineError, EngineUnavailableError
    from controller.rules.board import check_board
    from controller.rules.errors import RulesError
    from controller.rules.plays import check_dice
    from controller.rules.xgid import Xgid

    identifier = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise ValueError(f"a request is a JSON object, got {request!r}")
        variant = request.get("variant", "backgammon")
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        for key in ("board", "player", "dice"):
            if key not in request:
                raise ValueError(f"missing {key!r}")
        player = request["player"]
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        position = Xgid(board=check_board(request["board"]), turn=player)
        hint = await engine.hint(position, check_dice(request["dice"]))
    except EngineUnavailableError:
        raise
    except (RulesError, EngineError, ValueError, TypeError) as error:
        return {"id": identifier, "error": str(error)}
    return {
        "id": identifier,
        "best": hint.best.play.notation,
        "result": list(hint.best.play.result),
        "equity": round(hint.best.equity, 5),
    }


async def run_batch(engine: Engine, lines: TextIO, out: TextIO) -> int:
    """Answer every line of ``lines``; non-zero if any line failed, but every line is answered."""
    failed = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            response: dict[str, Any] = {"id": None, "error": f"line {number}: bad JSON: {error}"}
        else:
            response = await answer(engine, request)
        failed += "error" in response
        out.write(json.dumps(response, separators=(",", ":")) + "\n")
        out.flush()
    return 1 if failed else 0

"""``tabula hint``: GNU Backgammon's best play of a roll, for people and for tests.

``tabula hint POSITION DICE`` prints the best play in GNU Backgammon notation with its
equity, then the next best ones with what each gives up; ``tabula hint --batch`` answers
the JSON lines of ``tabula plays --batch`` with ``{"id", "best", "result", "equity"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any, TextIO

from controller.commands import plays
from controller.commands.errors import UsageError

if TYPE_CHECKING:
    from controller.engine.model import Engine

HELP = "the engine's best play of a roll and the next best ones (POSITION DICE, or --batch)"


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """``--ply``, ``--engine``, ``--gnubg`` and ``--budget``: the engine a command asks."""
    parser.add_argument("--ply", type=int, default=0, help="search depth, 0 to 7 (default 0)")
    parser.add_argument(
        "--engine",
        choices=("bindings", "cli"),
        help="GNU Backgammon's Python bindings or its gnubg program (default: what is installed)",
    )
    parser.add_argument("--gnubg", metavar="PATH", help="the gnubg program (for --engine cli)")
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds an answer may take (default 30)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    plays.add_arguments(parser)  # POSITION DICE and --batch, read as `tabula plays` reads them
    add_engine_arguments(parser)
    parser.add_argument("--top", type=int, default=5, help="plays to print (default 5)")


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position or args.dice:
            raise UsageError("--batch reads stdin and takes no POSITION or DICE")
    elif not (args.position and args.dice):
        raise UsageError("give POSITION and DICE, or --batch")
    if not 0 <= args.ply <= 7:
        raise UsageError(f"--ply is 0 to 7, got {args.ply}")
    engine = open_engine(args)
    with asyncio.Runner() as runner:  # one loop: the engine's child process belongs to it
        try:
            if args.batch:
                return plays.run_batch(
                    sys.stdin, sys.stdout, lambda request: runner.run(answer(engine, request))
                )
            return runner.run(print_hint(engine, args.position, args.dice, args.top, sys.stdout))
        finally:
            runner.run(engine.close())


def open_engine(args: argparse.Namespace, missing: str | None = None) -> Engine:
    """The engine of :func:`add_engine_arguments`, else the one installed.

    Raises:
        EngineUnavailableError: with ``missing`` (default: the engine's own message)
            when no engine is installed.
    """
    from controller.engine import EngineUnavailableError, available_engine, make_engine

    if args.engine:
        return make_engine(args.engine, ply=args.ply, budget=args.budget, program=args.gnubg)
    choice = available_engine(ply=args.ply, budget=args.budget, program=args.gnubg)
    if choice.engine is None:
        raise EngineUnavailableError(missing or choice.message)
    return choice.engine


async def print_hint(engine: Engine, position: str, dice_text: str, top: int, out: TextIO) -> int:
    """Print the ``top`` best plays: rank, notation, equity, and the loss against the best."""
    from controller.rules.gnubg_ids import parse_position

    state = parse_position(position)
    hint = await engine.hint(state, plays.parse_dice(dice_text))
    width = max(len(ranked.play.notation) for ranked in hint.plays[:top]) or 1
    for rank, ranked in enumerate(hint.plays[: max(top, 1)], 1):
        notation = ranked.play.notation or "(no legal move)"
        loss = hint.best.equity - ranked.equity
        behind = f"  ({-loss:+.3f})" if rank > 1 else ""
        out.write(f"{rank}. {notation:<{width}}  {ranked.equity:+.3f}  {ranked.ply}-ply{behind}\n")
    return 0


async def answer(engine: Engine, request: Any) -> dict[str, Any]:
    """The answer to one batch request, or ``{"id", "error"}`` naming what is wrong.

    The request is checked as ``tabula plays --batch`` checks it, by the same code.

    Raises:
        EngineUnavailableError: when no engine runs at all (no line could be answered).
    """
    from controller.engine import EngineError, EngineUnavailableError
    from controller.rules.variants import variant_named
    from controller.rules.xgid import Xgid

    listed = plays.answer(request)
    if "error" in listed:
        return listed
    if not variant_named(request.get("variant", "backgammon")).has_backgammon_ids:
        return {"id": listed["id"], "error": "GNU Backgammon gives hints for backgammon only"}
    try:
        position = Xgid(board=tuple(request["board"]), turn=request["player"])
        hint = await engine.hint(position, tuple(request["dice"]))
    except EngineUnavailableError:
        raise
    except EngineError as error:
        return {"id": listed["id"], "error": str(error)}
    return {
        "id": listed["id"],
        "best": hint.best.play.notation,
        "result": list(hint.best.play.result),
        "equity": round(hint.best.equity, 5),
    }

"""``tabula plays``: the legal plays of a roll, for people and for tests.

``tabula plays POSITION DICE`` prints each distinct legal play and the XGID it leaves;
``tabula plays --batch`` answers JSON lines in the golden cases' layout: the resulting
boards, and the plays' notation when asked (``--notation``, or ``"notation": true`` in a
request), since writing it costs more than finding the plays.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TextIO

from controller.commands.errors import UsageError
from controller.rules.errors import IllegalActionError, InvalidDiceError, RulesError
from controller.rules.gnubg_ids import parse_position
from controller.rules.jacquet import jacquet_result
from controller.rules.plays import Play, check_dice, legal_plays, legal_results
from controller.rules.variants import Unplayable, Variant, variant_named
from controller.rules.xgid import xgid
from hardware.board import json_types

HELP = "list the legal plays of a roll (POSITION DICE, or JSON lines with --batch)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", nargs="?", help="an XGID or a GNU Backgammon Position ID")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 52")
    parser.add_argument(
        "--batch",
        action="store_true",
        help='read {"id", "variant", "board", "player", "dice"} lines on stdin',
    )
    parser.add_argument(
        "--notation",
        action="store_true",
        help='with --batch: add each play\'s notation ("plays"), as a request\'s '
        '"notation": true does',
    )


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position or args.dice:
            raise UsageError("--batch reads stdin and takes no POSITION or DICE")
        return run_batch(sys.stdin, sys.stdout, functools.partial(answer, notation=args.notation))
    if not (args.position and args.dice):
        raise UsageError("give POSITION and DICE, or --batch")
    return print_plays(args.position, args.dice, sys.stdout)


def print_plays(position: str, dice_text: str, out: TextIO) -> int:
    """Print ``notation<TAB>XGID`` for each legal play of ``dice_text`` from ``position``."""
    state = parse_position(position)
    if state.offer is not None:
        raise IllegalActionError(
            f"{position!r} has a {state.offer.name.lower()} pending: take or drop it first"
        )
    dice = parse_dice(dice_text)
    for play in sorted(legal_plays(state.board, state.turn, dice), key=lambda p: p.notation):
        after = replace(state, board=play.result, turn=1 - state.turn, dice=None)
        out.write(f"{play.notation or '(no legal move)'}\t{xgid(after)}\n")
    return 0


def parse_dice(text: str) -> tuple[int, int]:
    """Dice written as two digits, ``52``.

    Raises:
        InvalidDiceError: naming the text.
    """
    if len(text) == 2 and text.isdigit():
        return check_dice((int(text[0]), int(text[1])))
    raise InvalidDiceError(f"dice are two digits from 1 to 6 such as 52, got {text!r}")


def answer(request: Any, *, notation: bool = False) -> dict[str, Any]:
    """The answer to one batch request, or ``{"id", "error"}`` naming what is wrong.

    The plays' notation is written when ``notation`` or the request asks for it.
    """
    identifier = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise ValueError(f"a request is a JSON object, got {request!r}")
        variant = variant_named(request.get("variant", "backgammon"))
        for key in ("board", "player", "dice"):
            if key not in request:
                raise ValueError(f"missing {key!r}")
        player = request["player"]
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        board, dice = request["board"], request["dice"]  # each checked by the generator
        notation = notation or request.get("notation") is True
        if variant.unplayable is Unplayable.FORFEIT and not notation:
            results = sorted(legal_results(board, player, dice, variant))
            return {"id": identifier, "results": results}
        plays = legal_plays(board, player, dice, variant)
    except (RulesError, ValueError) as error:
        return {"id": identifier, "error": str(error)}
    response: dict[str, Any] = {"id": identifier, "results": [play.result for play in plays]}
    if notation:
        response["plays"] = [play.notation for play in plays]
    if variant.unplayable is not Unplayable.FORFEIT:
        response["handed_over"] = list(handed_over(plays, variant))
    return response


def handed_over(plays: tuple[Play, ...], variant: Variant) -> tuple[int, ...]:
    """The numbers a Jacquet roll hands to the opponent (rule 10); none in Ludii's rules.

    The obligation to play both dice or the higher makes them the same for every play,
    except a play that ends the game, which hands nothing over (rule 12).
    """
    if variant.unplayable is not Unplayable.HANDED_OVER:
        return ()
    ongoing = (play.unused for play in plays if jacquet_result(play.result) is None)
    return next(ongoing, ())


def run_batch(lines: TextIO, out: TextIO, respond: Callable[[Any], dict[str, Any]] = answer) -> int:
    """Answer every line of ``lines``; non-zero if any line failed, but every line is answered.

    ``respond`` answers one decoded request (``tabula hint --batch`` passes its own). The
    answers are written in blocks, and all of them before waiting for more input: a
    program that writes one request and waits for its answer gets it.
    """
    failed = 0
    for number, line in enumerate(_flushing_lines(lines, out), 1):
        if not line.strip():
            continue
        try:
            request = json_types.loads(line)
        except ValueError as error:
            response: dict[str, Any] = {"id": None, "error": f"line {number}: bad JSON: {error}"}
        else:
            response = respond(request)
        failed += "error" in response
        out.write(json_line(response))
    out.flush()
    return 1 if failed else 0


_compact_json = json.JSONEncoder(separators=(",", ":")).encode

_NUMBER_TEXT = {count: str(count) for count in range(-15, 16)}.__getitem__
"""The text of a point's count: a board holds 15 checkers a side."""


def json_line(response: dict[str, Any]) -> str:
    """``response`` as one line of compact JSON.

    Its ``"results"``, when there, are boards, and written here: JSON's encoder spent a
    quarter of a batch on their numbers (26 small integers a board), which the table of
    their texts writes in 40% less time.
    """
    boards = response.get("results")
    if not boards:
        return _compact_json(response) + "\n"
    rest = _compact_json({key: value for key, value in response.items() if key != "results"})
    rows = "],[".join([",".join(map(_NUMBER_TEXT, board)) for board in boards])
    return f'{rest[:-1]}{"," if len(rest) > 2 else ""}"results":[[{rows}]]}}\n'


def _flushing_lines(lines: TextIO, out: TextIO) -> Iterator[str]:
    """The lines of ``lines``, with ``out`` flushed whenever reading on would wait.

    A file descriptor is read directly, in blocks, so that what is waiting can be known; a
    line that is not UTF-8 is read with replacement characters (its JSON is then refused).
    Anything else (a StringIO) is read as it is.
    """
    import select  # batch only: `tabula plays POSITION DICE` starts without it

    try:
        descriptor = lines.fileno()
    except (OSError, ValueError):
        yield from lines
        return
    pending = b""
    while True:
        if not select.select([descriptor], [], [], 0)[0]:
            out.flush()
        block = os.read(descriptor, 1 << 16)
        if not block:
            break
        *complete, pending = (pending + block).split(b"\n")
        for line in complete:
            yield line.decode("utf-8", errors="replace")
    if pending:
        yield pending.decode("utf-8", errors="replace")

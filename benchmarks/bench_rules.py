"""Legal plays over the golden cases, beside GNU Backgammon's own move generator.

Target (issue 2): at least 20,000 cases/s on one core (50 us a case), under 2 ms for the
worst roll. The reference is GNU Backgammon's ``GenerateMoves`` (C, called through ctypes
in the PyPI bindings' library): the same work, every distinct resulting position of a
roll, without its neural net; the benchmark checks that both find as many positions. The
bindings install on x86-64 only: elsewhere those rows say so and have no ratio. The
referee's tree of partial plays is compared with the same generator asked for partial
plays too. The same results made alone (the board checked, each result copied, changed,
made a tuple and kept) are the floor under ``legal_results`` of any generator in pure Python
that returns them. The variants' general generator is compared with the backgammon fast
path on the golden cases, and on Jacquet turns (no other engine plays Jacquet) with the general
generator as it was before it was made fast (``tests/rules/reference_general.py``).
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any

from benchmarks.measure import Row, best_of, best_per_item, count, timed_row
from controller.rules.board import Board, check_board
from controller.rules.moves import _new_play  # how the generator makes its plays
from controller.rules.plays import Play, legal_plays, legal_results, plays_of_numbers
from controller.rules.position_id import gnubg_board
from controller.rules.tree import PlayTree
from controller.rules.variants import BACKGAMMON, JACQUET, JACQUET_LUDII, Variant
from controller.simulated.players import JacquetPlayed, play_jacquet_game
from tests.rules.reference_general import reference_plays

GOLDEN = Path(__file__).parent.parent / "tests" / "data" / "backgammon-golden" / "cases.jsonl"

Work = Callable[[], None]

SMALL = ("--cases", "40", "--repeats", "1", "--games", "1")

_Case = tuple[Board, int, tuple[int, int]]
"""A golden case: board, player on roll, dice."""
_Generator = Callable[[Any, tuple[int, int], bool], int]
"""GNU Backgammon's generator: how many plays a board has (partial ones too if asked)."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--cases", type=count, default=5000, help="golden cases (all: 5000)")
    parser.add_argument("--repeats", type=count, default=5, help="interleaved repeats")
    parser.add_argument("--games", type=count, default=10, help="random Jacquet games")


class _MoveList(ctypes.Structure):
    """GNU Backgammon's ``movelist`` (eval.h); its moves stay in the library's buffer."""

    _fields_ = (
        ("cMoves", ctypes.c_uint),
        ("cMaxMoves", ctypes.c_uint),
        ("cMaxPips", ctypes.c_uint),
        ("iMoveBest", ctypes.c_int),
        ("rBestScore", ctypes.c_float),
        ("amMoves", ctypes.c_void_p),
    )


_TanBoard = (ctypes.c_uint * 25) * 2
"""GNU Backgammon's ``TanBoard``: :func:`gnubg_board` as C arrays."""


def _tan_board(case: _Case) -> Any:
    theirs, mine = gnubg_board(case[0], case[1])
    return _TanBoard((ctypes.c_uint * 25)(*theirs), (ctypes.c_uint * 25)(*mine))


def gnubg_bindings() -> tuple[Any, str | None]:
    """GNU Backgammon's PyPI bindings, or None and why they are missing."""
    try:
        import gnubg  # type: ignore[import-untyped]
    except ImportError as error:
        return None, (
            f"GNU Backgammon's bindings are not installed ({error}); their PyPI wheels are "
            f"for x86-64 only, this is {platform.machine()}"
        )
    return gnubg, None


def gnubg_generator() -> tuple[_Generator | None, str | None]:
    """GNU Backgammon's ``GenerateMoves`` through ctypes, or None and the reason."""
    bindings, reason = gnubg_bindings()
    if bindings is None:
        return None, reason
    generate = ctypes.CDLL(bindings._gnubg.__file__).GenerateMoves
    generate.argtypes = (ctypes.POINTER(_MoveList), _TanBoard, ctypes.c_int, ctypes.c_int,
                         ctypes.c_int)  # fmt: skip
    generate.restype = ctypes.c_int
    moves = ctypes.byref(_MoveList())

    def plays(board: Any, dice: tuple[int, int], partial: bool) -> int:
        return int(generate(moves, board, dice[0], dice[1], partial))

    return plays, None


def _golden(cases: int) -> list[_Case]:
    with GOLDEN.open() as handle:
        lines = handle.read().splitlines()[:cases]
    found: list[_Case] = []
    for line in lines:
        case = json.loads(line)
        found.append((tuple(case["board"]), case["player"], (case["dice"][0], case["dice"][1])))
    return found


def _each(function: Callable[..., object], arguments: Sequence[tuple[Any, ...]]) -> Work:
    """One pass of ``function`` over ``arguments``, a tuple of them a call."""

    def whole_pass() -> None:
        for each in arguments:
            function(*each)

    return whole_pass


def _results_alone(cases: list[_Case]) -> Work:
    """One pass making each case's results of ``legal_results`` and nothing else, as a
    search in pure Python must at least (:func:`_rebuilt`), into the set it returns.

    Why: the floor under ``legal_results`` (issue 18's 60,000 cases/s is 16.7 us a case).
    What legal_results costs above it is finding the plays.
    """
    prepared = _rebuilt([(case[0], legal_results(*case)) for case in cases])

    def whole_pass() -> None:
        for board, start, results in prepared:
            check_board(board)
            found: dict[Board, tuple[()]] = {}
            for changes in results:
                after = start.copy()
                for index, checkers in changes:
                    after[index] = checkers
                found.setdefault(tuple(after), ())
            frozenset(found)

    return whole_pass


def _plays_alone(turns: list[tuple[Board, int, tuple[int, ...], Variant]]) -> Work:
    """:func:`_results_alone` for the variants' generator: each turn's plays made from
    their moves and results, as ``plays_of_numbers`` returns them (sorted by result)."""
    plays = [plays_of_numbers(*turn) for turn in turns]
    prepared = _rebuilt([(turn[0], [play.result for play in each])
                         for turn, each in zip(turns, plays, strict=True)])  # fmt: skip

    def whole_pass() -> None:
        for (board, start, results), made in zip(prepared, plays, strict=True):
            check_board(board)
            found: dict[Board, Play] = {}
            for changes, play in zip(results, made, strict=True):
                after = start.copy()
                for index, checkers in changes:
                    after[index] = checkers
                result = tuple(after)
                found.setdefault(result, _new_play((play.moves, result, play.unused, play.before)))
            ordered = list(found.values())
            ordered.sort(key=_by_result)
            tuple(ordered)

    return whole_pass


_by_result = attrgetter("result")


def _rebuilt(
    boards: Iterable[tuple[Board, Iterable[Board]]],
) -> list[tuple[Board, list[int], list[list[tuple[int, int]]]]]:
    """Each board, as a list, and how each of its results differs from it: the points (and
    bars) to change and their counts. A result is then made as a search makes it: the
    board copied, those points changed, the copy made a tuple and kept once."""
    return [
        (board, list(board), [
            [(index, after) for index, after in enumerate(result) if after != board[index]]
            for result in results
        ])
        for board, results in boards
    ]  # fmt: skip


def _golden_rows(cases: list[_Case], repeats: int) -> list[Row]:
    """legal_results and PlayTree per golden case, and the worst case, beside GNU Backgammon."""
    generator, reason = gnubg_generator()
    name = "GNU Backgammon's GenerateMoves (C) on the same case"
    boards = [_tan_board(case) for case in cases] if generator is not None else []

    def gnubg(index: int, partial: bool = False) -> int:
        return 0 if generator is None else generator(boards[index], cases[index][2], partial)

    def results(index: int) -> object:
        return legal_results(*cases[index])

    indices = range(len(cases))
    if generator is not None:  # a roll that cannot be played has one result, the board
        differ = [cases[i] for i in indices if len(legal_results(*cases[i])) != max(gnubg(i), 1)]
        print(f"  GNU Backgammon finds as many positions in {len(cases) - len(differ)} of "
              f"{len(cases)} cases{f'; not in {differ[:3]}' if differ else ''}")  # fmt: skip
    made, found = best_of(_results_alone(cases), _each(legal_results, cases), repeats=repeats)
    rows = [
        timed_row("the same results made alone, per golden case", made, found, per=len(cases),
                  reference_name="legal_results on the same cases"),
    ]  # fmt: skip
    for label, subject, partial in (
        ("legal_results", legal_results, False),
        ("PlayTree (the referee's, once a roll)", PlayTree, True),
    ):
        ours, theirs = best_of(
            _each(subject, cases), _each(gnubg, [(i, partial) for i in indices]), repeats=repeats
        )
        rows.append(timed_row(f"{label}, per golden case", ours, theirs if generator else None,
                              reference_name=name + ("s, partial plays too" if partial else "s"),
                              per=len(cases), reason=reason))  # fmt: skip
    for label, subject, partial in (("legal_results", legal_results, False),
                                    ("PlayTree", PlayTree, True)):  # fmt: skip
        ours_each, theirs_each = best_per_item(
            indices,
            functools.partial(_on_case, subject, cases),
            functools.partial(gnubg, partial=partial),
            repeats=repeats,
        )
        worst = max(indices, key=ours_each.__getitem__)
        _, player, dice = cases[worst]
        rows.append(timed_row(
            f"{label}, worst golden case (dice {dice[0]}{dice[1]}, player {player})",
            ours_each[worst], theirs_each[worst] if generator else None, unit="ms",
            reference_name=name, reason=reason,
        ))  # fmt: skip
        rows.append(timed_row(
            f"{label}, median golden case", statistics.median(ours_each),
            statistics.median(theirs_each) if generator else None, unit="ms",
            reference_name=name, reason=reason,
        ))  # fmt: skip
    return rows


def _on_case(subject: Callable[..., object], cases: list[_Case], index: int) -> object:
    return subject(*cases[index])


def _batch_rows(cases: list[_Case], repeats: int) -> list[Row]:
    """``tabula plays --batch`` on the cases as JSON lines, as a child, beside the GNU
    Backgammon oracle's batch (:mod:`benchmarks.gnubg_batch`) on the same lines: CPU time
    of each child, its start included, as a user of the command pays it. The best of
    interleaved repeats of each. And the modules the command loads, beside a bare start."""
    lines = "".join(
        json.dumps({"id": index, "board": board, "player": player, "dice": dice}) + "\n"
        for index, (board, player, dice) in enumerate(cases)
    )
    reason = None if platform.machine() == "x86_64" else "GNU Backgammon's bindings: x86-64 only"
    name = "GNU Backgammon's plays of each line (PyPI bindings, 0-ply), as a batch child"
    commands = {
        flag: ["-m", "controller.cli", "plays", "--batch", *flag.split()]
        for flag in ("", " --notation")
    }
    if not reason:
        commands["oracle"] = ["-m", "benchmarks.gnubg_batch"]
    with tempfile.TemporaryDirectory(prefix="tabula-pycache-") as cache:
        # A user's installed modules are compiled once; PYTHONDONTWRITEBYTECODE (set in
        # some environments) would make every start compile every module of both sides.
        environment = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        for arguments in commands.values():  # the first start compiles: not counted
            _child_cpu(arguments, "", environment)
        best = dict.fromkeys(commands, math.inf)
        for _ in range(repeats):
            for key, arguments in commands.items():
                best[key] = min(best[key], _child_cpu(arguments, lines, environment))
        modules = [_modules_loaded(code, environment) for code in (_PLAYS_MODULES, "")]
    oracle = best.get("oracle")
    return [
        *(timed_row(f"tabula plays --batch{flag}, per case ({len(cases)} cases)", best[flag],
                    oracle, per=len(cases), reference_name=name, reason=reason)
          for flag in ("", " --notation")),
        Row("modules loaded by tabula plays --batch (issue 18: at most 130)", modules[0],
            "modules", modules[1], "a bare start of the same Python (its site, this "
            "install's path finder)", clock=None),
    ]  # fmt: skip


_PLAYS_MODULES = """
import io, sys
sys.stdin = io.StringIO("")
from controller.cli import main
main(["plays", "--batch"])
"""
"""``tabula plays --batch`` answering no line, in the process that counts its modules."""


def _modules_loaded(code: str, environment: dict[str, str]) -> int:
    """How many modules ``python -c CODE`` holds when it is done (``sys.modules``)."""
    counted = f"{code}\nimport sys\nprint(len(sys.modules))"
    done = subprocess.run([sys.executable, "-c", counted], env=environment, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return int(done.stdout.split()[-1])


def _child_cpu(arguments: list[str], stdin: str, environment: dict[str, str]) -> float:
    """The CPU seconds (user and system) of ``python ARGUMENTS`` reading ``stdin``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *arguments], input=stdin, text=True, check=True,
                   stdout=subprocess.DEVNULL, env=environment)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _general_rows(cases: list[_Case], games: int, repeats: int) -> list[Row]:
    """The variants' general generator: golden cases, then Jacquet turns and trees."""
    general = [(board, player, BACKGAMMON.moves_of(dice), BACKGAMMON)
               for board, player, dice in cases]  # fmt: skip
    ours, fast = best_of(
        _each(plays_of_numbers, general), _each(legal_plays, cases), repeats=repeats
    )
    rows = [timed_row("plays_of_numbers (general path), per golden case", ours, fast,
                      per=len(cases), reference_name="legal_plays (the backgammon fast path) "
                      "on the same cases")]  # fmt: skip
    for variant in (JACQUET, JACQUET_LUDII):
        turns = [
            (event.turn.board, event.turn.player, event.turn.numbers, variant)
            for seed in range(games)
            for event in play_jacquet_game(random.Random(seed), variant)
            if isinstance(event, JacquetPlayed)
        ]
        now, before = best_of(
            _each(plays_of_numbers, turns), _each(reference_plays, turns), repeats=repeats
        )
        made, found = best_of(_plays_alone(turns), _each(plays_of_numbers, turns),
                              repeats=repeats)  # fmt: skip
        rows.append(timed_row(f"the same plays made alone, per {variant.name} turn", made, found,
                              per=len(turns), reference_name="plays_of_numbers on the same "
                              "turns"))  # fmt: skip
        rows.append(timed_row(
            f"plays_of_numbers, per {variant.name} turn ({len(turns)} of {games} games)", now,
            before, per=len(turns), reference_name="the general generator before it was made "
            "fast (tests/rules/reference_general.py), same turns",
        ))  # fmt: skip
        trees, plain = best_of(
            _each(PlayTree.of_numbers, turns), _each(plays_of_numbers, turns), repeats=repeats
        )
        rows.append(timed_row(f"PlayTree, per {variant.name} turn", trees, plain,
                              per=len(turns), reference_name="plays_of_numbers on the same "
                              "turns (the plays without the tree)"))  # fmt: skip
    return rows


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    cases = _golden(options.cases)
    return (
        _golden_rows(cases, options.repeats)
        + _batch_rows(cases, options.repeats)
        + _general_rows(cases, options.games, options.repeats)
    )

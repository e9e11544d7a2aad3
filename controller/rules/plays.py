"""Legal plays of a roll: every distinct position a complete legal play reaches.

The generator (:mod:`controller.rules.search`) works on the mover's own view of the
board (the 26-integer layout flipped so that the mover is player 0): the mover's checkers
are positive and travel from 24 towards 1, the mover's bar is index 25, the opponent's
bar index 0 (negative), and a checker that bears off leaves the board. Results are
flipped back for player 1.

The seed's rules (``regles-du-backgammon.txt``, "Mouvement des dames"):

* a checker lands only on a point not held by two or more opposing checkers;
* each die is a separate move; one checker playing both needs the intermediate point open;
* doubles are played four times;
* both dice (all four of a double) must be used when possible, as many as possible
  otherwise; if either die but not both can be played, the higher one;
* checkers on the bar enter first;
* bearing off needs every checker home; a die may bear off a checker from its point, or
  from the highest occupied point when no checker stands higher.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import TypeGuard, TypeVar

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.errors import InvalidDiceError
from controller.rules.moves import _MOVES, Move, Play, _new_play
from controller.rules.search import search
from controller.rules.steps import Steps, single_steps
from controller.rules.variant_search import _search_all, _search_two, _viewers
from controller.rules.variants import BACKGAMMON, Variant
from hardware.board.json_types import is_integer

__all__ = [
    "Move",
    "Play",
    "check_dice",
    "legal_plays",
    "legal_results",
    "play_reaching",
    "plays_of_numbers",
    "plays_of_results",
    "step_moves",
]


def check_dice(dice: Iterable[int]) -> tuple[int, int]:
    """Return ``dice`` as a pair if it is two numbers from 1 to 6.

    Raises:
        InvalidDiceError: for anything else, naming it.
    """
    try:
        pair = tuple(dice)
    except TypeError:  # not a sequence at all: dice read from a request may be anything
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {dice!r}") from None
    if len(pair) == 2:
        first, second = pair
        if _is_die(first) and _is_die(second):
            return first, second
    raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {list(pair)!r}")


def _is_die(number: object) -> TypeGuard[int]:
    return is_integer(number) and 1 <= number <= 6


def step_moves(view: Board, die: int) -> list[Move]:
    """Every single move of ``die`` pips the mover may make on ``view`` (the mover's view)."""
    return [_MOVES[source][target] for source, target in single_steps(view, die)]


def _view(board: Board, player: Player) -> Board:
    return board if player == 0 else flip(board)


def legal_results(
    board: Board, player: Player, dice: Iterable[int], variant: Variant = BACKGAMMON
) -> frozenset[Board]:
    """Every distinct board a complete legal play reaches (``{board}`` if none can move).

    The fast path of :func:`legal_plays`, without notation.
    """
    pair = check_dice(dice)
    board = check_board(board)
    if not variant.is_backgammon_movement:
        return frozenset(play.result for play in legal_plays(board, player, pair, variant))
    results = search(board, player, pair)
    return frozenset(results) if results else frozenset({board})


def legal_plays(
    board: Board, player: Player, dice: Iterable[int], variant: Variant = BACKGAMMON
) -> tuple[Play, ...]:
    """One :class:`Play` per distinct resulting board, ordered by resulting board.

    With no legal move, a single empty play whose result is the board itself (the turn is
    lost, or in Jacquet its numbers pass to the opponent).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6.
    """
    pair = check_dice(dice)
    board = check_board(board)
    if not variant.is_backgammon_movement:
        return plays_of_numbers(board, player, variant.moves_of(pair), variant)
    return plays_of_results(
        board, _view(board, player), variant.moves_of(pair), search(board, player, pair)
    )


def play_reaching(
    board: Board, player: Player, dice: Iterable[int], after: Board, variant: Variant = BACKGAMMON
) -> Play | None:
    """The legal play from ``board`` that leaves ``after``, as :func:`legal_plays` has it
    (the same moves, so the same notation); None if no legal play leaves it.

    Why not a scan of :func:`legal_plays`: what a record names (its writers and readers,
    a replay's check) is one play, and making every play of a roll to find it cost as much
    as the search again (half of writing a match's ``.sgf``).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6.
    """
    pair = check_dice(dice)
    board = check_board(board)
    after = tuple(after)
    if not variant.is_backgammon_movement:
        plays = plays_of_numbers(board, player, variant.moves_of(pair), variant)
        return next((play for play in plays if play.result == after), None)
    view, numbers = _view(board, player), variant.moves_of(pair)
    results = search(board, player, pair)
    if not results:
        return _no_move(board, view, numbers) if after == board else None
    steps = results.get(after)
    return None if steps is None else backgammon_play(view, numbers, after, steps)


def plays_of_results(
    board: Board, view: Board, numbers: tuple[int, ...], results: dict[Board, Steps]
) -> tuple[Play, ...]:
    """The plays of a backgammon search's ``results`` (layout boards, each with the first
    steps found on ``view``), ordered by resulting board; the empty play if there is none.
    """
    if not results:
        return (_no_move(board, view, numbers),)
    plays = [backgammon_play(view, numbers, result, steps) for result, steps in results.items()]
    plays.sort(key=_by_result)
    return tuple(plays)


def _no_move(board: Board, view: Board, numbers: tuple[int, ...]) -> Play:
    """The empty play of a roll that cannot move: the board stays, every number unused."""
    return Play((), board, numbers, view)


def backgammon_play(view: Board, numbers: tuple[int, ...], result: Board, steps: Steps) -> Play:
    """The :class:`Play` of ``steps`` (found by the search on ``view``) that leaves ``result``."""
    moves = tuple([_MOVES[source][target] for source, target in steps])
    return _new_play((moves, result, _forfeited(view, numbers, steps), view))


def _forfeited(view: Board, numbers: tuple[int, ...], steps: Steps) -> tuple[int, ...]:
    """The numbers a backgammon play leaves unplayed."""
    if len(steps) == len(numbers):
        return ()
    if len(steps) == 1 and len(numbers) == 2:
        return numbers[1:] if steps[0] in single_steps(view, numbers[0]) else numbers[:1]
    return numbers[len(steps) :]


def plays_of_numbers(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """The legal plays of a list of numbers, highest first (a roll's, or numbers handed over).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
    """
    return _plays_of_numbers(check_board(board), player, tuple(numbers), variant)


@functools.lru_cache(maxsize=4)
def _plays_of_numbers(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """:func:`plays_of_numbers` of a checked board, cached: a variant's turn asks for its
    plays on every observation, and its referee's tree once more.

    Those asks come together, so a few entries serve them. Each entry held keeps a turn's
    plays alive (a doublet's hundred), and 64 of them (up to 2 MB, tracemalloc once) slowed
    every search made meanwhile, as a replay or the hub's check of a match makes them:
    68-70 us a Jacquet turn of ten games, against 62-63 us with 4 (``python -m benchmarks
    rules``, two runs each).
    """
    plays = list(_gc_paused(_search_plays, board, player, numbers, variant).values())
    plays.sort(key=_by_result)  # a key: sorting (moves, board, ...) tuples cost twice
    return tuple(plays)


def _search_plays(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, Play]:
    """The legal plays of ``numbers`` by result: the one search of a turn's numbers."""
    track = variant.tracks[player]
    view = _viewers(track, player)[0](board)
    search = _search_two if len(numbers) == 2 and numbers[0] != numbers[1] else _search_all
    return search(board, player, view, numbers, variant)


_by_result = attrgetter("result")


_T = TypeVar("_T")


def _gc_paused(function: Callable[..., _T], *arguments: object) -> _T:
    """``function(*arguments)`` with the cyclic garbage collector paused (if it runs).

    Why: a search makes thousands of containers that form no cycle (a big double some
    15,000), and each 700 made start a collection that walks them again, and now and then
    the whole heap: a fifth of a referee's tree, and more in a process holding much (the
    service).
    """
    if not gc.isenabled():
        return function(*arguments)
    gc.disable()
    try:
        return function(*arguments)
    finally:
        gc.enable()

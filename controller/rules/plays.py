"""Legal plays of a roll: every distinct position a complete legal play reaches.

The generator works on the mover's own view of the board (the 26-integer layout flipped
so that the mover is player 0): the mover's checkers are positive and travel from 24
towards 1, the mover's bar is index 25, the opponent's bar index 0 (negative), and a
checker that bears off leaves the board. Results are flipped back for player 1.

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
from collections.abc import Iterable
from dataclasses import dataclass
from operator import neg
from typing import NamedTuple

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.errors import InvalidDiceError
from controller.rules.notation import format_play
from controller.rules.variants import BACKGAMMON, BearOff, Unplayable, Variant

__all__ = [
    "Move",
    "Play",
    "check_dice",
    "legal_plays",
    "legal_results",
    "plays_of_numbers",
    "step_moves",
]

BAR = 25
"""Index of the mover's bar in the mover's view."""

OFF = 0
"""Destination of a checker borne off, in the mover's numbering."""


class Move(NamedTuple):
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    source: int
    destination: int


@dataclass(frozen=True, slots=True)
class Play:
    """A complete legal play: its moves in playing order and the board after it."""

    moves: tuple[Move, ...]
    result: Board
    unused: tuple[int, ...]
    """Numbers of the roll left unplayed: forfeited in backgammon, handed over to the
    opponent in Jacquet de Versailles, lost in Ludii's Jacquet."""
    before: Board
    """The board before the play as the mover sees it (the generator's view)."""

    @property
    def notation(self) -> str:
        """The play as GNU Backgammon writes it (``""`` for no move); computed on demand,
        as a turn has many plays and a referee reads one."""
        return format_play(self.before, self.moves)


def check_dice(dice: Iterable[int]) -> tuple[int, int]:
    """Return ``dice`` as a pair if it is two numbers from 1 to 6.

    Raises:
        InvalidDiceError: for anything else, naming it.
    """
    pair = tuple(dice)
    if len(pair) != 2 or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in pair
    ):
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {list(pair)!r}")
    return pair[0], pair[1]


def step_moves(view: Board, die: int) -> list[Move]:
    """Every single move of ``die`` pips the mover may make on ``view`` (the mover's view)."""
    return [Move(source, target) for source, target in _steps(view, die)]


def _steps(view: Board, die: int) -> list[tuple[int, int]]:
    """:func:`step_moves` as plain pairs: the generator's inner loop."""
    if view[BAR] > 0:
        target = BAR - die
        return [(BAR, target)] if view[target] >= -1 else []
    highest = 24
    while highest and view[highest] <= 0:
        highest -= 1
    steps = []
    can_bear_off = highest <= 6
    for source in range(highest, 0, -1):
        if view[source] > 0:
            target = source - die
            if target >= 1:
                if view[target] >= -1:
                    steps.append((source, target))
            elif can_bear_off and (target == 0 or source == highest):
                steps.append((source, OFF))
    return steps


def _apply(view: Board, source: int, target: int) -> Board:
    """The mover's view after one step; a blot on the target goes to the opponent's bar."""
    board = list(view)
    board[source] -= 1
    if target != OFF:
        if board[target] == -1:
            board[target] = 1
            board[0] -= 1
        else:
            board[target] += 1
    return tuple(board)


_Steps = tuple[tuple[int, int], ...]


def _enumerate(view: Board, dice: tuple[int, int]) -> dict[Board, _Steps]:
    """Results of the legal plays on the mover's view, each with the first play found.

    Doubles are searched with non-increasing sources, which reaches every result: moving
    a higher checker first never blocks a lower one.
    """
    high, low = max(dice), min(dice)
    found: dict[Board, _Steps] = {}
    if high == low:
        best = 0
        stack: list[tuple[Board, _Steps, int]] = [(view, (), BAR)]
        while stack:
            board, steps, ceiling = stack.pop()
            extended = False
            if len(steps) < 4:
                for source, target in _steps(board, high):
                    if source <= ceiling:
                        extended = True
                        stack.append(
                            (_apply(board, source, target), (*steps, (source, target)), source)
                        )
            if not extended and len(steps) >= best:
                if len(steps) > best:
                    best = len(steps)
                    found = {}
                found.setdefault(board, steps)
        return found if best else {}
    # Plays of one die only matter when no play uses both; the higher die wins then.
    singles: dict[int, dict[Board, _Steps]] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for step in _steps(view, first):
            after = _apply(view, *step)
            for follow_up in _steps(after, second):
                found.setdefault(_apply(after, *follow_up), (step, follow_up))
            if not found:
                singles[first].setdefault(after, (step,))
    return found or singles[high] or singles[low]


def _view(board: Board, player: Player) -> Board:
    return board if player == 0 else flip(board)


def _general_steps(view: Board, die: int, variant: Variant) -> list[tuple[int, int]]:
    """The single moves of ``die`` under any variant's description (the slower path)."""
    on_bar = view[BAR] > 0
    steps = []
    if on_bar:
        target = BAR - die
        if view[target] >= -1:
            steps.append((BAR, target))
        if variant.must_enter_first:
            return _within_home_limit(view, steps, variant)
    highest = 24
    while highest and view[highest] <= 0:
        highest -= 1
    can_bear_off = not on_bar and highest <= 6
    any_higher = variant.bear_off is BearOff.ANY_HIGHER
    for source in range(highest, 0, -1):
        if view[source] <= 0:
            continue
        if source == START_INDEX and variant.courier and not _courier_lets_go(view):
            continue
        target = source - die
        if target >= 1:
            if view[target] >= -1:
                steps.append((source, target))
        elif can_bear_off and (any_higher or target == 0 or source == highest):
            steps.append((source, OFF))
    return _within_home_limit(view, steps, variant)


START_INDEX = 24
"""The view index of ``pos`` 1, where Jacquet's checkers start."""


def _courier_lets_go(view: Board) -> bool:
    """Jacquet's rule 5: may a checker leave the start point now?

    Yes if no other checker is out, one is on the bar, fewer than 14 remain at the start,
    or one has reached the last quadrant.
    """
    out = any(view[index] > 0 for index in range(1, START_INDEX))
    return (
        not out
        or view[BAR] > 0
        or view[START_INDEX] < 14
        or any(view[index] > 0 for index in range(1, 7))
    )


def _within_home_limit(
    view: Board, steps: list[tuple[int, int]], variant: Variant
) -> list[tuple[int, int]]:
    """Jacquet's rule 8: keep the steps after which few enough first-quadrant points are made."""
    limit = variant.home_point_limit
    # Only a checker joining a lone one in the first quadrant can make a point there.
    if limit is None or not any(19 <= target <= 24 and view[target] == 1 for _, target in steps):
        return steps
    made = sum(1 for n in view[19:25] if n >= 2)
    kept = []
    for source, target in steps:
        after = made - (19 <= source <= 24 and view[source] == 2)
        after += 19 <= target <= 24 and view[target] == 1
        if after <= limit:
            kept.append((source, target))
    return kept


def _search_all(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[tuple[Board, tuple[int, ...]], _Steps]:
    """Every end of a play in any order: the board and the numbers left, with one way there.

    A play ends when no number left can be played, which includes the moment the mover has
    borne off every checker.
    """
    ends: dict[tuple[Board, tuple[int, ...]], _Steps] = {}
    if len(numbers) == 2 and numbers[0] != numbers[1]:  # the common case, unrolled
        for first, second in (numbers, numbers[::-1]):
            for step in _general_steps(view, first, variant):
                after = _apply(view, *step)
                follow_ups = _general_steps(after, second, variant) if max(after) > 0 else []
                for follow_up in follow_ups:
                    ends.setdefault((_apply(after, *follow_up), ()), (step, follow_up))
                if not follow_ups:
                    ends.setdefault((after, (second,)), (step,))
        return ends or {(view, numbers): ()}
    seen: set[tuple[Board, tuple[int, ...]]] = set()
    stack: list[tuple[Board, _Steps, tuple[int, ...]]] = [(view, (), numbers)]
    while stack:
        board, steps, left = stack.pop()
        if (board, left) in seen:
            continue
        seen.add((board, left))
        moved = False
        if left and max(board) > 0:
            for index, number in enumerate(left):
                if number in left[:index]:
                    continue
                rest = left[:index] + left[index + 1 :]
                for step in _general_steps(board, number, variant):
                    moved = True
                    stack.append((_apply(board, *step), (*steps, step), rest))
        if not moved:
            ends.setdefault((board, left), steps)
    return ends


def _search_in_order(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[tuple[Board, tuple[int, ...]], _Steps]:
    """Ludii's way: the player picks an order; each number is played if it can be, else lost."""
    ends: dict[tuple[Board, tuple[int, ...]], _Steps] = {}
    orders = {numbers, tuple(reversed(numbers))}
    for order in orders:
        stack: list[tuple[Board, _Steps, int, tuple[int, ...]]] = [(view, (), 0, ())]
        seen: set[tuple[Board, int, tuple[int, ...]]] = set()
        while stack:
            board, steps, index, lost = stack.pop()
            if (board, index, lost) in seen:
                continue
            seen.add((board, index, lost))
            if index == len(order) or max(board) <= 0:
                ends.setdefault((board, (*lost, *order[index:])), steps)
                continue
            moves = _general_steps(board, order[index], variant)
            if not moves:
                stack.append((board, steps, index + 1, (*lost, order[index])))
            stack.extend(
                (_apply(board, *step), (*steps, step), index + 1, lost) for step in moves
            )
    return ends


def _enumerate_variant(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, tuple[_Steps, tuple[int, ...]]]:
    """Results of the legal plays of ``numbers`` under ``variant``, with the numbers unused."""
    if variant.unplayable is Unplayable.LOST:
        ends = _search_in_order(view, numbers, variant)
    else:
        ends = _search_all(view, numbers, variant)
        most = max(len(numbers) - len(left) for _, left in ends)
        ends = {end: steps for end, steps in ends.items() if len(numbers) - len(end[1]) == most}
        if most == 1 and len(numbers) == 2 and numbers[0] != numbers[1]:
            # Either number but not both: the higher one (the numbers come highest first).
            higher = {end: steps for end, steps in ends.items() if end[1] == numbers[1:]}
            ends = higher or ends
    results: dict[Board, tuple[_Steps, tuple[int, ...]]] = {}
    for (board, left), steps in ends.items():
        # Jacquet's rule 12: the game ends with the last checker off, even mid-turn, and
        # nothing is left to hand over.
        results.setdefault(board, (steps, left if max(board) > 0 else ()))
    return results


def _to_view(board: Board, player: Player, variant: Variant) -> Board:
    """The board as ``player`` sees it along their track under ``variant``."""
    view = map(board.__getitem__, variant.tracks[player])
    return tuple(view) if player == 0 else tuple(map(neg, view))


def _from_view(view: Board, player: Player, variant: Variant) -> Board:
    """The layout board of a view of ``player`` (the inverse of :func:`_to_view`)."""
    board = map(view.__getitem__, _inverse(variant.tracks[player]))
    return tuple(board) if player == 0 else tuple(map(neg, board))


@functools.cache
def _inverse(track: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(track)
    for view_index, layout_index in enumerate(track):
        inverse[layout_index] = view_index
    return tuple(inverse)


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
    view = _view(board, player)
    results = _enumerate(view, pair)
    if not results:
        return frozenset({board})
    if player == 0:
        return frozenset(results)
    return frozenset(flip(result) for result in results)


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
    view = _view(board, player)
    results = _enumerate(view, pair)
    numbers = variant.moves_of(pair)
    if not results:
        return (Play((), board, numbers, view),)
    plays = [
        Play(
            tuple(Move(*step) for step in steps),
            result if player == 0 else flip(result),
            _forfeited(view, numbers, steps),
            view,
        )
        for result, steps in results.items()
    ]
    return tuple(sorted(plays, key=lambda play: play.result))


def _forfeited(view: Board, numbers: tuple[int, ...], steps: _Steps) -> tuple[int, ...]:
    """The numbers a backgammon play leaves unplayed."""
    if len(steps) == len(numbers):
        return ()
    if len(steps) == 1 and len(numbers) == 2:
        return numbers[1:] if steps[0] in _steps(view, numbers[0]) else numbers[:1]
    return numbers[len(steps) :]


def plays_of_numbers(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """The legal plays of a list of numbers, highest first (a roll's, or numbers handed over).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
    """
    board = check_board(board)
    view = _to_view(board, player, variant)
    results = _enumerate_variant(view, numbers, variant)
    if not results:
        return (Play((), board, numbers, view),)
    plays = [
        Play(
            tuple(Move(*step) for step in steps), _from_view(result, player, variant), unused, view
        )
        for result, (steps, unused) in results.items()
    ]
    return tuple(sorted(plays, key=lambda play: play.result))

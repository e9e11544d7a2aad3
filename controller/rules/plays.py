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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.errors import InvalidDiceError
from controller.rules.notation import format_play

__all__ = ["Move", "Play", "check_dice", "legal_plays", "legal_results", "step_moves"]

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
    """A complete legal play: its moves in playing order, the board after it, its notation."""

    moves: tuple[Move, ...]
    result: Board
    notation: str


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


def legal_results(board: Board, player: Player, dice: Iterable[int]) -> frozenset[Board]:
    """Every distinct board a complete legal play reaches (``{board}`` if none can move).

    The fast path of :func:`legal_plays`, without notation.
    """
    pair = check_dice(dice)
    check_board(board)
    view = _view(tuple(board), player)
    results = _enumerate(view, pair)
    if not results:
        return frozenset({tuple(board)})
    if player == 0:
        return frozenset(results)
    return frozenset(flip(result) for result in results)


def legal_plays(board: Board, player: Player, dice: Iterable[int]) -> tuple[Play, ...]:
    """One :class:`Play` per distinct resulting board, sorted by notation.

    With no legal move, a single empty play whose result is the board itself (the turn is
    lost).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6.
    """
    pair = check_dice(dice)
    board = check_board(board)
    view = _view(board, player)
    results = _enumerate(view, pair)
    if not results:
        return (Play((), board, ""),)
    plays = []
    for result, steps in results.items():
        moves = tuple(Move(*step) for step in steps)
        plays.append(Play(moves, result if player == 0 else flip(result), format_play(view, moves)))
    return tuple(sorted(plays, key=lambda play: play.notation))

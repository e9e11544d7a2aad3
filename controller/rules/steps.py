"""The mover's view and its single moves: what every backgammon search shares (the
searches in :mod:`controller.rules.search`, the referee's tree, the variants' searches).

The view is the 26-integer layout flipped so that the mover is player 0: the mover's
checkers are positive and travel from 24 towards 1, the mover's bar is index 25, the
opponent's bar index 0 (negative), and a checker that bears off leaves the board.

Boards inside a search are lists, and each result is made once, as a tuple, straight in
the frame asked for (the view, or player 1's layout): flipping every result back cost more
than finding it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from controller.rules.board import Board

__all__ = [
    "BAR",
    "OFF",
    "STEPS_BY_DIE",
    "Steps",
    "apply_step",
    "going_on",
    "inserted",
    "moves_after",
    "moves_on",
    "single_steps",
]

BAR = 25
"""Index of the mover's bar in the mover's view."""

OFF = 0
"""Destination of a checker borne off, in the mover's numbering."""


def single_steps(view: Board | list[int], die: int, top: int = 24) -> list[tuple[int, int]]:
    """:func:`~controller.rules.plays.step_moves` as plain pairs: the generator's inner loop.

    ``top``: no checker of the mover stands above it. A search passes its start's highest
    point, as no move raises it: finding it from 24 took a quarter of a bear-off's search.
    """
    if view[BAR] > 0:
        target = BAR - die
        return [(BAR, target)] if view[target] >= -1 else []
    highest = _highest(view, top)
    # Sources above the die move on the board, from the highest down; then at most one
    # bears off: the exact point, or the highest when no checker stands higher.
    steps = [
        (source, source - die)
        for source in range(highest, die, -1)
        if view[source] > 0 and view[source - die] >= -1
    ]
    if highest <= 6:
        if highest <= die:
            if highest:
                steps.append((highest, OFF))
        elif view[die] > 0:
            steps.append((die, OFF))
    return steps


_Frame = tuple[tuple[int, ...], int]
"""Where a search writes its results: the layout index of each view index, and the sign
of the mover's checkers there."""

_VIEW: _Frame = (tuple(range(BAR + 1)), 1)
"""Results as the mover sees them."""

_FLIPPED: _Frame = (tuple(range(BAR, -1, -1)), -1)
"""Results flipped back to player 1's layout: made so, as flipping each cost more than
the search."""


def _highest(view: Board | list[int], top: int = 24) -> int:
    """The mover's highest point with a checker, from ``top`` down (0 if none is on a point)."""
    while top and view[top] <= 0:
        top -= 1
    return top


def _after_each(
    board: list[int],
    frame: _Frame,
    steps: Iterable[tuple[int, int]],
    results: dict[Board, Steps] | None = None,
    played: Steps = (),
) -> list[list[int]]:
    """Copies of ``board`` (written in ``frame``), each after one of ``steps`` of the view;
    or, given ``results``, each added there as the result of ``played`` then its step
    (unless there), and none returned.

    One loop for many steps: most of a search's time is spent here, making results; a call
    for each cost a quarter of it, and a list of results to walk again a tenth.
    """
    at, sign = frame
    bar = at[0]
    boards = []
    for step in steps:
        source, target = step
        after = board.copy()
        after[at[source]] -= sign
        if target != OFF:
            point = at[target]
            if after[point] == -sign:  # a blot hit: to the opponent's bar
                after[point] = sign
                after[bar] -= sign
            else:
                after[point] += sign
        if results is None:
            boards.append(after)
        else:
            results.setdefault(tuple(after), played + (step,))  # noqa: RUF005 (faster)
    return boards


def apply_step(view: Board, source: int, target: int) -> Board:
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


Steps = tuple[tuple[int, int], ...]


_Step = TypeVar("_Step", bound=tuple[int, int])

STEPS_BY_DIE: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((source, source - die) for source in range(BAR + 1)) for die in range(7)
)
"""The step of each die from each source, ``STEPS_BY_DIE[die][source]`` (a source above
the die only)."""


def moves_after(
    moves: list[_Step],
    board: Board,
    step: tuple[int, int],
    die: int,
    *,
    by_source: Sequence[_Step],
    start: Board,
) -> list[_Step]:
    """The moves of ``die`` on the board after ``step`` on ``board``, from ``moves``, its
    moves on the board before (sources from the highest down; no bear-off, no entry).

    One move changes the next one's moves on the board only at its ends: its source may
    lose its last checker, its target becomes the mover's, and which points are open (as
    on ``start``, the play's first board) does not change. An entering step (from the bar)
    or a bearing-off one changes them only at its one end on the board. Whether the next
    move may enter or bear off is the caller's to add. ``by_source[source]`` is the move of
    ``die`` from ``source``, as the caller writes moves.
    """
    source, target = step
    if board[source] == 1:
        moves = [move for move in moves if move[0] != source]
    if moves_on(board[target], target, die, start):
        moves = inserted(moves, by_source[target])
    return moves


def moves_on(held: int, target: int, die: int, start: Board) -> bool:
    """Whether a checker landing on ``target``, where the mover held ``held`` checkers,
    adds a move of ``die`` on the board from there: the point was not the mover's, and
    the end is on the board and open (as on ``start``: a play opens no point)."""
    return held <= 0 and target > die and start[target - die] >= -1


def going_on(moves: list[_Step], view: Board, die: int) -> list[_Step]:
    """The first ``moves`` on ``view`` after which their checker, alone on its new point,
    can go on with ``die``: where two checkers' moves commute (no checker enters or bears
    off), the only pairs a second order of two dice adds to the first's.
    """
    return [move for move in moves if moves_on(view[move[1]], move[1], die, view)]


def inserted(moves: list[_Step], move: _Step) -> list[_Step]:
    """``moves`` (sources from the highest down) with ``move`` at its source's place."""
    place = 0
    while place < len(moves) and moves[place][0] > move[0]:
        place += 1
    return [*moves[:place], move, *moves[place:]]

"""A doublet's search in one order: the variants' search
(:func:`~controller.rules.variant_search._search_all`) of a doublet whose moves commute,
each play walked once, in the first order the search of every order finds it.

Apart from :mod:`~controller.rules.variant_search` for its size; it is that module's
fast path for most doublets of Jacquet.
"""

from __future__ import annotations

from controller.rules.board import Board
from controller.rules.moves import Move, Play, _Moves, _new_play
from controller.rules.steps import BAR, _Frame, moves_on
from controller.rules.variant_steps import _BY_DIE

__all__: list[str] = []


def _search_in_order(
    view: Board,
    numbers: tuple[int, ...],
    moves: list[Move],
    frame: _Frame,
    start: list[int],
    *,
    lost: bool,
    limit: int | None = None,
) -> dict[Board, Play] | None:
    """The search of every order of a doublet whose moves commute (the module docstring):
    a plain play (no entering first, no bearing off) that the courier cannot constrain,
    nor the home limit, so that every order of a play's moves that keeps each checker's
    own in order is legal; or None if the home limit ``limit`` (given where it may bind)
    forbids a move.

    Why the home limit may be checked here: it forbids a move by the board it leaves, and
    every board a play of the doublet passes through, in any order, is a board of this
    search (that of the moves made so far, walked in their first order). So if none of
    them has more than ``limit`` points made, the limit forbids no move of any order.

    The search walks each play in one order only, the first way the search of every order
    finds to it: the lowest source that can move at each step. A move from a source passes
    over for good the lower ones that could move then, so a node's moves are those of its
    parent from the step's source up, and the move on of a checker that lands on a point
    the mover did not hold. No node is met twice and none needs a code; a node whose only
    moves were passed over is no end of a play. Each node's board is written in the
    layout, as its results are: ``start`` is ``view`` written so.
    """
    at, sign = frame
    bar = at[0]
    die, count = numbers[0], len(numbers)
    by_die = _BY_DIE[die]
    found: dict[int, dict[Board, Play]] = {}
    # A node: its board, way there, moves (sources from the highest down), and whether a
    # move was passed over on the way (the node then has a move, if not among these).
    stack: list[tuple[list[int], _Moves, list[Move], bool]] = [(start, (), moves, False)]
    while stack:
        board, steps, moves, passed = stack.pop()
        if not moves:
            if not passed:  # no number left can move: Ludii's ruleset keeps every end
                left = numbers[len(steps) :]
                result = tuple(board)
                plays = found.setdefault(-1 if lost else len(left), {})
                plays[result] = _new_play((steps, result, left, view))
            continue
        if limit is not None and _over_limit(board, moves, frame, limit):
            return None
        leaves = len(steps) == count - 1  # the last moves: straight to their results
        if leaves:
            plays = found.setdefault(-1 if lost else 0, {})
        last = len(moves) - 1
        # Each child made as _after_each makes it, inlined to read the step's ends on the way.
        for index, step in enumerate(moves):
            source, target = step
            after = board.copy()
            after[at[source]] -= sign
            point = at[target]
            held = after[point] * sign
            if held == -1:  # a blot hit: to the opponent's bar
                after[point] = sign
                after[bar] -= sign
            else:
                after[point] += sign
            if leaves:
                result = tuple(after)
                plays[result] = _new_play(((*steps, step), result, (), view))
                continue
            kept = moves[: index + 1]
            if not after[at[source]]:  # its last checker gone
                kept.pop()
            if moves_on(held, target, die, view):
                kept.append(by_die[target])  # the checker goes on: below every source kept
            stack.append((after, (*steps, step), kept, passed or index < last))
    return found[min(found)]


def _over_limit(board: list[int], moves: list[Move], frame: _Frame, limit: int) -> bool:
    """Whether one of ``moves`` from ``board`` (written in ``frame``) leaves more than
    ``limit`` first-quadrant points made (Jacquet's rule 8, as
    :func:`~controller.rules.variant_steps._points_after` counts them): a move makes one
    only by joining a lone checker there, so the board's points are counted only if a move
    does."""
    at, sign = frame
    made = -1
    for source, target in moves:
        if target >= 19 and board[at[target]] * sign == 1:
            if made < 0:
                made = sum(board[index] * sign >= 2 for index in at[19:BAR])
            if made + 1 - (19 <= source < BAR and board[at[source]] * sign == 2) > limit:
                return True
    return False

"""The variants' single moves: a die's moves from a board under a variant's description
(:mod:`controller.rules.variants`), Jacquet's courier (rule 5) and home limit (rule 8),
and the moves a plain play carries from one board to the next.

Apart from :mod:`controller.rules.variant_search` (the searches of whole plays), which
:mod:`controller.rules.tree` shares: both ask these rules before every move. Boards are
the mover's view along their track (the module docstring of
:mod:`~controller.rules.variants`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from controller.rules.board import Board
from controller.rules.moves import _MOVES, Move
from controller.rules.steps import BAR, OFF, moves_after
from controller.rules.variants import BearOff, Variant

__all__: list[str] = []


_Left = tuple[int, ...]
"""Numbers still to play, highest first."""


_StepFunction = Callable[[Board, int], list[Move]]


@functools.cache
def _general_steps(variant: Variant) -> _StepFunction:
    """The single moves of a die under ``variant``'s description (the slower path).

    Built once per variant, with its rules read into local flags: the searches call it for
    every board they reach, and re-reading the description each time cost more than the
    moves themselves. The moves come from :data:`~controller.rules.moves._MOVES`, so that
    a play's moves need no copying.
    """
    must_enter_first = variant.must_enter_first
    any_higher = variant.bear_off is BearOff.ANY_HIGHER
    courier = variant.courier
    limit = variant.home_point_limit
    enter, bear_off = _MOVES[BAR], [moves[OFF] for moves in _MOVES]

    def steps_of(view: Board, die: int) -> list[Move]:
        # The order is the one a plain scan gives (the bar, then sources from the highest
        # down): the searches keep the first way they find to each result.
        steps = []
        on_bar = view[BAR] > 0
        if on_bar:
            if view[BAR - die] >= -1:
                steps.append(enter[BAR - die])
            if must_enter_first:
                return steps if limit is None else _within_home_limit(view, steps, limit)
        steps += _scan(view, die, START_INDEX - 1 if courier and _start_held(view) else START_INDEX)
        if not on_bar and max(view[7:BAR]) <= 0:  # every checker home: bearing off
            highest = 6
            while highest and view[highest] <= 0:
                highest -= 1
            steps += [
                bear_off[source]
                for source in range(min(highest, die), 0, -1)
                if view[source] > 0 and (any_higher or source in (die, highest))
            ]
        # Rule 8 needs a lone checker in the first quadrant to join (most boards have none).
        if limit is None or 1 not in view[19:BAR]:
            return steps
        return _within_home_limit(view, steps, limit)

    return steps_of


_BY_DIE: tuple[tuple[Move, ...], ...] = tuple(
    tuple(_MOVES[source][max(source - die, 0)] for source in range(BAR + 1)) for die in range(7)
)
"""The moves of each die: ``_BY_DIE[die][source]`` (the off moves unused)."""

START_INDEX = 24
"""The view index of ``pos`` 1, where Jacquet's checkers start."""


def _scan(view: Board, die: int, top: int) -> list[Move]:
    """The moves of ``die`` from ``top`` down (the bar is 25), not bearing off."""
    row = _BY_DIE[die]
    return [
        row[source]
        for source in range(top, die, -1)
        if view[source] > 0 and view[source - die] >= -1
    ]


def _start_held(view: Board) -> bool:
    """Jacquet's rule 5 holds the checkers of the start point back now."""
    return view[START_INDEX] > 0 and not _courier_lets_go(view)


def _courier_may_hold(view: Board, variant: Variant) -> bool:
    """Whether the courier (rule 5) may hold the start point back at some step of a play
    from ``view``: only while 14 checkers stand there, and only a checker entering from the
    bar (a 1) adds one. Most of a game is past it, and a search then skips the test."""
    return variant.courier and view[START_INDEX] + view[BAR] >= 14


def _courier_lets_go(view: Board) -> bool:
    """Jacquet's rule 5: may a checker leave the start point now?

    Yes if one is on the bar, fewer than 14 remain at the start, no other checker is out,
    or one has reached the last quadrant (the cheap tests first).
    """
    return (
        view[BAR] > 0
        or view[START_INDEX] < 14
        or max(view[1:START_INDEX]) <= 0
        or max(view[1:7]) > 0
    )


def _within_home_limit(view: Board, steps: list[Move], limit: int) -> list[Move]:
    """Jacquet's rule 8: keep the steps after which few enough first-quadrant points are made.

    ``steps`` come in a scan's order (the bar's entry, then the sources from the highest
    down), so their targets come from the highest down: those in the first quadrant first.
    """
    # One step makes at most one more point, and only by joining a lone checker there.
    for _, target in steps:
        if target < 19:
            return steps
        if view[target] == 1:
            break
    else:
        return steps
    made = _points_made(view)
    if made < limit:
        return steps
    return [step for step in steps if _points_after(view, made, *step) <= limit]


def _points_made(view: Board) -> int:
    """Rule 8's count: the first-quadrant points (``pos`` 1 to 6) holding two or more."""
    return len([n for n in view[19:BAR] if n >= 2])


def _points_after(view: Board, made: int, source: int, target: int) -> int:
    """:func:`_points_made` after one step on ``view`` (which has ``made``): the step may
    break a point of two there, and make one by joining a lone checker."""
    return made - (19 <= source <= 24 and view[source] == 2) + (target >= 19 and view[target] == 1)


def _home_limit_may_bind(view: Board, die: int, count: int, limit: int) -> bool:
    """Whether rule 8 may forbid a move of a play of ``count`` moves of ``die`` on ``view``.

    A point is made only where checkers land, so only the first-quadrant points open to the
    mover that a checker can reach in ``count`` moves may be made: one move makes a point of
    a lone checker, two moves any other (a point broken and made again adds none). If even
    the most that ``count`` moves can make leave at most ``limit``, no order of the play's
    moves is forbidden.
    """
    lone = other = 0
    for target in range(19, BAR):
        sources = range(target + die, min(BAR, target + count * die) + 1, die)
        if -1 <= view[target] <= 1 and any(view[source] > 0 for source in sources):
            if view[target] == 1:
                lone += 1
            else:
                other += 1
    joined = min(lone, count)
    return _points_made(view) + joined + min(other, (count - joined) // 2) > limit


def _is_plain(view: Board, numbers: int, variant: Variant) -> bool:
    """Whether a play of ``numbers`` numbers on ``view`` neither must enter first nor can
    bear off (as many checkers outside the last quadrant, the bar counted).

    There one move changes the next one's moves only at its ends, as in backgammon
    (:func:`~controller.rules.steps.moves_after`), but for the courier and the home limit
    (:func:`_checked`).
    """
    if variant.must_enter_first and view[BAR] > 0:
        return False
    return sum(n for n in view[7:] if n > 0) >= numbers


def _checked(view: Board, moves: list[Move], courier: bool, limit: int | None) -> list[Move]:
    """The ``moves`` of a plain board (:func:`_is_plain`) that the courier (rule 5) and the
    home limit (rule 8) allow: what :func:`_general_steps` would give on ``view``."""
    if courier and _start_held(view):  # never with a checker on the bar
        moves = [move for move in moves if move[0] != START_INDEX]
    if limit is not None and 1 in view[19:BAR]:
        return _within_home_limit(view, moves, limit)
    return moves


_Unchecked = dict[int, list[Move]]
"""Each number's moves from a board of a plain play (:func:`_is_plain`), sources from the
highest down (the bar first), before the courier and the home limit (:func:`_checked`)."""


def _unchecked_moves(view: Board, numbers: tuple[int, ...], variant: Variant) -> _Unchecked | None:
    """The :data:`_Unchecked` moves of ``numbers`` on ``view`` if a play of them is plain,
    else None (each board is then scanned under the variant's rules)."""
    if not numbers or not _is_plain(view, len(numbers), variant):
        return None
    return {number: _scan(view, number, BAR) for number in set(numbers)}


def _unchecked_after(
    unchecked: _Unchecked, view: Board, step: Move, left: _Left, start: Board
) -> _Unchecked:
    """The :data:`_Unchecked` moves of the numbers ``left`` after ``step`` on ``view``, from
    those on ``view`` (:func:`~controller.rules.steps.moves_after`; ``start``: the play's
    first board)."""
    return {
        number: moves_after(
            unchecked[number], view, step, number, by_source=_BY_DIE[number], start=start
        )
        for number in set(left)
    }

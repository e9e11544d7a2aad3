"""Backgammon's search on the mover's view: every distinct result of a roll, with the
first way found to reach it.

Why apart from :mod:`controller.rules.plays`: this is the inner loop that the referee's
tree, the batch command and the engine's checks all run, and it has fast paths for the
common positions that must agree move for move with the plain scan
(:func:`search_by_scan`); :mod:`~controller.rules.plays` turns its results into plays.

The view is the 26-integer layout flipped so that the mover is player 0: the mover's
checkers are positive and travel from 24 towards 1, the mover's bar is index 25, the
opponent's bar index 0 (negative), and a checker that bears off leaves the board.

Boards inside a search are lists, and each result is made once, as a tuple, straight in
the frame asked for (the view, or player 1's layout): flipping every result back cost more
than finding it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import neg
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
    "search",
    "search_by_scan",
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


_Node = tuple[list[int], list[int]]
"""A board of the search: the mover's view (read), and the same board in the results'
frame (written); one list when that frame is the view."""


def _start(view: Board, frame: _Frame) -> _Node:
    board = list(view)
    if frame is _VIEW:
        return board, board
    return board, list(map(neg, reversed(view)))  # _FLIPPED, in one C pass: a third the time


def _children(node: _Node, frame: _Frame, steps: Sequence[tuple[int, int]]) -> list[_Node]:
    """``node`` after each of ``steps``."""
    view, written = node
    afters = _after_each(view, _VIEW, steps)
    written_afters = afters if written is view else _after_each(written, frame, steps)
    return list(zip(afters, written_afters, strict=True))


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


def search(view: Board, dice: tuple[int, int], *, flipped: bool = False) -> dict[Board, Steps]:
    """Results of the legal plays on the mover's view, each with the first play found.

    With ``flipped``, each result is written as player 1's layout (the view flipped back).
    Most positions take a fast path (:func:`_search_plain`,
    :func:`_search_plain_double`): nothing on the bar and no bearing off possible
    during the play; two different dice with at most one checker on the bar take
    :func:`_search_two`. They give the same results, first plays and order as
    :func:`search_by_scan`, which a test checks.
    """
    high, low = max(dice), min(dice)
    frame = _FLIPPED if flipped else _VIEW
    if high == low:
        if sum(n for n in view[7:] if n > 0) >= 4:  # outside home, the bar counted
            return _search_plain_double(view, high, frame)
        return search_by_scan(view, high, low, frame)
    if view[BAR] == 0 and sum(n for n in view[7:BAR] if n > 0) >= 2:
        found = _search_plain(view, high, low, frame)
        if found:
            return found
    if view[BAR] <= 1:
        return _search_two(view, high, low, frame)
    return search_by_scan(view, high, low, frame)


def search_by_scan(view: Board, high: int, low: int, frame: _Frame = _VIEW) -> dict[Board, Steps]:
    """:func:`search` by scanning the board for every move of every node.

    Doubles are searched with non-increasing sources, which reaches every result: moving
    a higher checker first never blocks a lower one.
    """
    found: dict[Board, Steps] = {}
    start = _start(view, frame)
    top = 24 if view[BAR] > 0 else _highest(view)  # an entering checker may land higher
    if high == low:
        best = 0
        stack: list[tuple[_Node, Steps, int]] = [(start, (), BAR)]
        while stack:
            node, steps, ceiling = stack.pop()
            moves = [step for step in single_steps(node[0], high, top) if step[0] <= ceiling]
            if moves and len(steps) == 3:  # the last moves: straight to their results
                if best < 4:
                    best, found = 4, {}
                _after_each(node[1], frame, moves[::-1], found, steps)
            elif moves:
                children = zip(moves, _children(node, frame, moves), strict=True)
                stack += [(child, (*steps, step), step[0]) for step, child in children]
            elif len(steps) >= best:
                if len(steps) > best:
                    best, found = len(steps), {}
                found.setdefault(tuple(node[1]), steps)
        return found if best else {}
    # Plays of one die only matter when no play uses both; the higher die wins then.
    singles: dict[int, dict[Board, Steps]] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        firsts = single_steps(view, first, top)
        for step, (after, written) in zip(firsts, _children(start, frame, firsts), strict=True):
            _after_each(written, frame, single_steps(after, second, top), found, (step,))
            if not found:
                singles[first].setdefault(tuple(written), (step,))
    return found or singles[high] or singles[low]


def _search_plain(view: Board, high: int, low: int, frame: _Frame) -> dict[Board, Steps]:
    """:func:`search` of two different dice with no checker on the bar and none able to
    bear off during the play (two or more checkers outside home): the common case.

    There, one move changes the next one's options only at its ends: its source may lose
    its last checker, its target becomes the mover's, and which points are open stays the
    same. So each die's moves are listed once, and a play of the low die first is a new
    result only when the same checker then moves on with the high die (any other pair was
    reached high first). Same results, first plays and order as the general loop.
    """
    found: dict[Board, Steps] = {}
    written = _start(view, frame)[1]
    highs = [(s, s - high) for s in range(24, high, -1) if view[s] > 0 and view[s - high] >= -1]
    lows = [(s, s - low) for s in range(24, low, -1) if view[s] > 0 and view[s - low] >= -1]
    by_source = STEPS_BY_DIE[low]
    for step, after in zip(highs, _after_each(written, frame, highs), strict=True):
        follow_ups = moves_after(lows, view, step, low, by_source=by_source, start=view)
        _after_each(after, frame, follow_ups, found, (step,))
    # The same checker moving on after the low die: the only new results low first.
    goes_on = going_on(lows, view, high)
    for step, after in zip(goes_on, _after_each(written, frame, goes_on), strict=True):
        _after_each(after, frame, ((step[1], step[1] - high),), found, (step,))
    return found


def _search_two(view: Board, high: int, low: int, frame: _Frame) -> dict[Board, Steps]:
    """:func:`search_by_scan` of two different dice with at most one checker on the bar:
    the bar's and the bear-off's positions, which :func:`_search_plain` does not cover.

    The same two orders, each first move's second moves in the same order, but those come
    from the start's moves of the second die (:func:`moves_after`: entering or moving a
    checker changes them only at its ends), and the bear-off's from where the highest
    checker stands after the first move: no board is made for a first move, and none
    scanned. Bear-offs are why both orders are searched: which one a die allows depends
    on the highest checker, so two checkers' moves need not commute.
    """
    at, sign = frame
    bar = at[0]
    found: dict[Board, Steps] = {}
    written = _start(view, frame)[1]
    entering = view[BAR] > 0
    # The points the mover's checkers stand on, from the highest down (the bar apart): each
    # die's moves are read from them, not from a scan of the board.
    sources = [s for s in range(24, 0, -1) if view[s] > 0]
    top = sources[0] if sources else 0
    # The highest after a move is the second of them only when the move takes the last
    # checker from the first; a checker entering stands higher than any bear-off allows.
    second_top = sources[1] if len(sources) > 1 else 0
    singles: dict[int, dict[Board, Steps]] = {high: {}, low: {}}
    follow_ups_of: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for first, second in ((high, low), (low, high)):
        by_source = STEPS_BY_DIE[second]
        on_board = [by_source[s] for s in sources if s > second and view[s - second] >= -1]
        if entering:
            firsts = [(BAR, BAR - first)] if view[BAR - first] >= -1 else []
        else:
            by_first = STEPS_BY_DIE[first]
            firsts = [by_first[s] for s in sources if s > first and view[s - first] >= -1]
            if top <= 6:  # bearing off (single_steps' rule)
                if top <= first:
                    firsts.append((top, OFF))
                elif view[first] > 0:
                    firsts.append((first, OFF))
        for step in firsts:
            source, target = step
            follow_ups = moves_after(on_board, view, step, second, by_source=by_source, start=view)
            highest = top
            if entering:
                highest = 24
            elif source == top and view[source] == 1:
                highest = max(target, second_top)
            if highest <= 6:  # the second die may bear off
                if highest <= second:
                    if highest:
                        follow_ups = [*follow_ups, (highest, OFF)]
                elif target == second or view[second] - (source == second) > 0:
                    follow_ups = [*follow_ups, (second, OFF)]
            if first == high:
                follow_ups_of[step] = new = follow_ups
            else:  # a pair played high first too left the same board: passed over
                new = [f for f in follow_ups if step not in follow_ups_of.get(f, ())]
            # The board after the first move, as _after_each makes it (inlined: once a move).
            after = written.copy()
            after[at[source]] -= sign
            if target != OFF:
                point = at[target]
                if after[point] == -sign:
                    after[point] = sign
                    after[bar] -= sign
                else:
                    after[point] += sign
            if new:
                _after_each(after, frame, new, found, (step,))
            if not found:
                singles[first].setdefault(tuple(after), (step,))
    return found or singles[high] or singles[low]


def _search_plain_double(view: Board, die: int, frame: _Frame) -> dict[Board, Steps]:
    """:func:`search` of a double where no checker can bear off during the play (four or
    more checkers outside home, the bar's counted).

    The same search (non-increasing sources, the same order), but each node's moves come
    from its parent's instead of a scan of the board: as in :func:`_search_plain`, a
    move changes the sources only at its ends, and which points are open not at all. So a
    node needs only its board in the results' frame, read back through the frame: no view
    of it is made. Checkers on the bar enter first, each by the one move from the bar;
    once the last is in, every checker's moves follow.
    """
    at, sign = frame
    bar = at[0]
    found: dict[Board, Steps] = {}
    best = 0
    moves = [(s, s - die) for s in range(24, die, -1) if view[s] > 0 and view[s - die] >= -1]
    entry = BAR - die
    if view[BAR]:
        if view[entry] < -1:
            return {}  # the bar's checkers cannot enter: no move at all
        entered = moves  # the moves once every checker is in, the entry point a source too
        if view[entry] <= 0 and view[entry - die] >= -1:
            entered = inserted(moves, (entry, entry - die))
        moves = [(BAR, entry)]
    stack: list[tuple[list[int], Steps, list[tuple[int, int]]]] = [
        (_start(view, frame)[1], (), moves)
    ]
    while stack:
        board, steps, candidates = stack.pop()
        if candidates and len(steps) == 3:  # the last moves: straight to their results
            if best < 4:
                best, found = 4, {}
            _after_each(board, frame, candidates[::-1], found, steps)
        elif candidates:
            # Each child made as _after_each makes it, inlined to read the step's ends on the
            # way: a list of children walked again cost 14% more (the worst case's share).
            for index, step in enumerate(candidates):
                source, target = step
                after = board.copy()
                after[at[source]] -= sign
                point = at[target]
                held = after[point] * sign  # the mover's checkers there before the move
                if held == -1:  # a blot hit: to the opponent's bar
                    after[point] = sign
                    after[bar] -= sign
                else:
                    after[point] += sign
                if source == BAR:  # entering: until the bar is empty, only the entry
                    rest = candidates if after[at[BAR]] else entered
                else:
                    rest = candidates[index:] if after[at[source]] else candidates[index + 1 :]
                    if held <= 0 and target > die and view[target - die] >= -1:
                        rest = inserted(rest, (target, target - die))  # a new source below
                stack.append((after, steps + (step,), rest))  # noqa: RUF005 (faster)
        elif len(steps) >= best:
            if len(steps) > best:
                best, found = len(steps), {}
            found.setdefault(tuple(board), steps)
    return found if best else {}


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
    """The moves of ``die`` after ``step`` on ``board``, from ``moves``, its moves before
    (sources from the highest down), in a play where no checker enters or bears off.

    There one move changes the next one's options only at its ends: its source may lose
    its last checker, its target becomes the mover's, and which points are open (as on
    ``start``, the play's first board) does not change. ``by_source[source]`` is the move
    of ``die`` from ``source``, as the caller writes moves.
    """
    source, target = step
    if board[source] == 1:
        moves = [move for move in moves if move[0] != source]
    if board[target] <= 0 and target > die and start[target - die] >= -1:
        moves = inserted(moves, by_source[target])  # the checker can move on from there
    return moves


def going_on(moves: list[_Step], view: Board, die: int) -> list[_Step]:
    """The first ``moves`` on ``view`` after which their checker, alone on its new point,
    can go on with ``die``: where two checkers' moves commute (no checker enters or bears
    off), the only pairs a second order of two dice adds to the first's.
    """
    return [
        move for move in moves if move[1] > die and view[move[1]] <= 0 and view[move[1] - die] >= -1
    ]


def inserted(moves: list[_Step], move: _Step) -> list[_Step]:
    """``moves`` (sources from the highest down) with ``move`` at its source's place."""
    place = 0
    while place < len(moves) and moves[place][0] > move[0]:
        place += 1
    return [*moves[:place], move, *moves[place:]]

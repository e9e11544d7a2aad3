"""Backgammon's search on the mover's view (:mod:`controller.rules.steps`): every distinct
result of a roll, with the first way found to reach it.

Why apart from :mod:`controller.rules.plays`: this is the inner loop that the referee's
tree, the batch command and the engine's checks all run, by fast paths that must agree
move for move with a plain scan of every board (``tests/rules/reference_search.py``);
:mod:`~controller.rules.plays` turns its results into plays.
"""

from __future__ import annotations

from controller.rules.board import Board, Player, flip
from controller.rules.steps import (
    _FLIPPED,
    _VIEW,
    BAR,
    OFF,
    STEPS_BY_DIE,
    Steps,
    _after_each,
    _Frame,
    _highest,
    going_on,
    inserted,
    moves_after,
    moves_on,
)

__all__ = ["search"]


def search(board: Board, player: Player, dice: tuple[int, int]) -> dict[Board, Steps]:
    """Results of ``player``'s legal plays on ``board`` (the layout), each with the first
    play found, as steps of the mover's view (player 1's board flipped).

    Each result is written in the layout, straight from ``board``: flipping the view back
    cost as much as flipping it. Each roll takes a fast path, where a node's moves come
    from its parent's and no board is scanned:

    - two dice, no checker on the bar and none able to bear off during the play (two or
      more outside home): :func:`_search_plain`, the common case;
    - two dice with two or more checkers on the bar: :func:`_search_entering`;
    - the rest of two dice (the bar's positions and the bear-off's): :func:`_search_two`;
    - every double: :func:`_search_double`.

    They give the same results, first plays and order as the plain scan they replace
    (``tests/rules/reference_search.py``), which a test checks.
    """
    high, low = ordered = dice if dice[0] >= dice[1] else (dice[1], dice[0])
    if player:
        view, frame = flip(board), _FLIPPED
    else:
        view, frame = board, _VIEW
    written = list(board)
    if high == low:
        return _search_double(view, high, frame, written)
    if view[BAR] > 1:
        return _search_entering(view, ordered, frame, written)
    # The points the mover's checkers stand on, from the highest down (the bar apart): each
    # die's moves are read from them, not from a scan of the board.
    sources = [s for s in range(24, 0, -1) if view[s] > 0]
    if (  # none on the bar, two or more outside home: on the highest point, or two points
        not view[BAR]
        and sources
        and sources[0] > 6
        and (view[sources[0]] > 1 or (len(sources) > 1 and sources[1] > 6))
    ):
        found = _search_plain(view, ordered, frame, written, sources)
        if found:
            return found
    return _search_two(view, ordered, frame, written, sources)


def _search_plain(
    view: Board, dice: tuple[int, int], frame: _Frame, written: list[int], sources: list[int]
) -> dict[Board, Steps]:
    """:func:`search` of two different dice with no checker on the bar and none able to
    bear off during the play (two or more checkers outside home): the common case.

    There, one move changes the next one's options only at its ends: its source may lose
    its last checker, its target becomes the mover's, and which points are open stays the
    same. So each die's moves are listed once, and a play of the low die first is a new
    result only when the same checker then moves on with the high die (any other pair was
    reached high first). Same results, first plays and order as the plain scan.

    ``dice``: the high die first. ``written``: the start written in ``frame``, each result a
    copy of it with the play's points changed. ``sources``: the points the mover's checkers
    stand on, from the highest down.
    """
    high, low = dice
    at, sign = frame
    bar = at[0]
    found: dict[Board, Steps] = {}
    by_high, by_low = STEPS_BY_DIE[high], STEPS_BY_DIE[low]
    highs = [by_high[s] for s in sources if s > high and view[s - high] >= -1]
    lows = [by_low[s] for s in sources if s > low and view[s - low] >= -1]
    for step in highs:
        follow_ups = moves_after(lows, view, step, low, by_source=by_low, start=view)
        if not follow_ups:
            continue
        # Each result made as _after_each makes it, inlined: a call for each first move
        # cost a tenth of the search.
        after = _after_each(written, frame, (step,))[0]
        for follow_up in follow_ups:
            source, target = follow_up
            result = after.copy()
            result[at[source]] -= sign
            point = at[target]
            if result[point] == -sign:
                result[point] = sign
                result[bar] -= sign
            else:
                result[point] += sign
            found.setdefault(tuple(result), (step, follow_up))
    # The same checker moving on after the low die: the only new results low first.
    for step in going_on(lows, view, high):
        source, target = step
        result = written.copy()
        result[at[source]] -= sign
        for point in (at[target], at[target - high]):
            if result[point] == -sign:
                result[point] = sign
                result[bar] -= sign
            else:
                result[point] += sign
        result[at[target]] -= sign  # it moves on
        found.setdefault(tuple(result), (step, by_high[target]))
    return found


def _search_entering(
    view: Board, dice: tuple[int, int], frame: _Frame, written: list[int]
) -> dict[Board, Steps]:
    """:func:`search` of two different dice with two or more checkers on the bar: each die
    can only enter one. Both enter, the high first (the scan's first order), or the one
    that can alone: one result at most."""
    steps = tuple((BAR, BAR - die) for die in dice if view[BAR - die] >= -1)
    if not steps:
        return {}
    result = written
    for step in steps:
        result = _after_each(result, frame, (step,))[0]
    return {tuple(result): steps}


def _search_two(
    view: Board, dice: tuple[int, int], frame: _Frame, written: list[int], sources: list[int]
) -> dict[Board, Steps]:
    """The search of two different dice where :func:`_search_plain` does not serve: the
    bar's and the bear-off's positions.

    The scan's two orders, each first move's second moves in the same order, but those
    come from the start's moves of the second die (:func:`moves_after`: entering or moving
    a checker changes them only at its ends; one checker at most is on the bar, as two go
    to :func:`_search_entering`), and the bear-off from where the highest checker stands
    after the first move: no board is scanned. Bear-offs are why both orders are
    searched: which one a die allows depends on the highest checker, so two checkers'
    moves need not commute; a pair the first order played is passed over in the second.
    The arguments are :func:`_search_plain`'s.
    """
    high, low = dice
    found: dict[Board, Steps] = {}
    entering = view[BAR] > 0
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
            # The board after the first move is made only if a result needs it: in most
            # bear-offs, every pair of the second order was played in the first.
            if new or not found:
                after = _after_each(written, frame, (step,))[0]
                if new:
                    _after_each(after, frame, new, found, (step,))
                else:
                    singles[first].setdefault(tuple(after), (step,))
    return found or singles[high] or singles[low]


def _search_double(view: Board, die: int, frame: _Frame, written: list[int]) -> dict[Board, Steps]:
    """The search of a double: the scan's (non-increasing sources, the same order), but
    each node's moves come from its parent's.

    A move changes the moves on the board only at its ends, as in :func:`_search_plain`,
    and which points are open not at all. The one bear-off a node may have
    (:func:`single_steps`' rule) comes from where its highest checker stands, which each
    move updates; a bear-off's source is below every move on the board, so after one only
    bear-offs follow, from no higher point. Checkers on the bar enter first, each by the
    one move from the bar; once the last is in, every checker's moves follow (none can
    then bear off within the play). So a node needs only its board in the results' frame,
    read back through the frame: no view of it is made, and none scanned.
    """
    at, sign = frame
    bar = at[0]
    found: dict[Board, Steps] = {}
    best = 0
    top = _highest(view)
    moves = [(s, s - die) for s in range(top, die, -1) if view[s] > 0 and view[s - die] >= -1]
    entered = moves
    if view[BAR]:
        entry = BAR - die
        if view[entry] < -1:
            return {}  # the bar's checkers cannot enter: no move at all
        if view[entry] <= 0 and view[entry - die] >= -1:
            entered = inserted(moves, (entry, entry - die))
        moves, top = [(BAR, entry)], BAR
    # A node: its board, way there, moves on the board, highest source allowed (the search's
    # order), and highest point held (the bar while a checker is on it).
    stack: list[tuple[list[int], Steps, list[tuple[int, int]], int, int]] = [
        (written, (), moves, BAR, top)
    ]
    while stack:
        board, steps, candidates, ceiling, highest = stack.pop()
        moves = candidates
        if highest <= 6:  # every checker home: one may bear off
            if highest <= die:
                if highest and highest <= ceiling:
                    moves = [*candidates, (highest, OFF)]
            elif die <= ceiling and board[at[die]] * sign > 0:
                moves = [*candidates, (die, OFF)]
        if moves and len(steps) == 3:  # the last moves: straight to their results
            if best < 4:
                best, found = 4, {}
            _after_each(board, frame, moves[::-1], found, steps)
        elif moves:
            # Each child made as _after_each makes it, inlined to read the step's ends on the
            # way: a list of children walked again cost 14% more (the worst case's share).
            for index, step in enumerate(moves):
                source, target = step
                after = board.copy()
                after[at[source]] -= sign
                left = after[at[source]]
                below = highest
                if not left and source == highest:  # the highest point emptied: the next
                    below = source - 1
                    while below > target and after[at[below]] * sign <= 0:
                        below -= 1
                if target == OFF:
                    stack.append((after, steps + (step,), [], source, below))  # noqa: RUF005 (faster)
                    continue
                point = at[target]
                held = after[point] * sign  # the mover's checkers there before the move
                if held == -1:  # a blot hit: to the opponent's bar
                    after[point] = sign
                    after[bar] -= sign
                else:
                    after[point] += sign
                if source == BAR:  # entering: until the bar is empty, only the entry
                    rest = candidates if left else entered
                else:
                    rest = candidates[index:] if left else candidates[index + 1 :]
                    if moves_on(held, target, die, view):
                        rest = inserted(rest, (target, target - die))  # a new source below
                stack.append((after, steps + (step,), rest, source, below))  # noqa: RUF005 (faster)
        elif len(steps) >= best:
            if len(steps) > best:
                best, found = len(steps), {}
            found.setdefault(tuple(board), steps)
    return found if best else {}

"""Backgammon's search on the mover's view: every distinct result of a roll, with the
first way found to reach it.

Why apart from :mod:`controller.rules.plays`: this is the inner loop that the referee's
tree, the batch command and the engine's checks all run, and it has fast paths for the
common positions that must agree move for move with the plain scan
(:func:`search_by_scan`); :mod:`~controller.rules.plays` turns its results into plays.

The view is the 26-integer layout flipped so that the mover is player 0: the mover's
checkers are positive and travel from 24 towards 1, the mover's bar is index 25, the
opponent's bar index 0 (negative), and a checker that bears off leaves the board.
"""

from __future__ import annotations

from controller.rules.board import Board

__all__ = ["BAR", "OFF", "Steps", "apply_step", "search", "search_by_scan", "single_steps"]

BAR = 25
"""Index of the mover's bar in the mover's view."""

OFF = 0
"""Destination of a checker borne off, in the mover's numbering."""


def single_steps(view: Board, die: int) -> list[tuple[int, int]]:
    """:func:`~controller.rules.plays.step_moves` as plain pairs: the generator's inner loop."""
    if view[BAR] > 0:
        target = BAR - die
        return [(BAR, target)] if view[target] >= -1 else []
    highest = 24
    while highest and view[highest] <= 0:
        highest -= 1
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


def search(view: Board, dice: tuple[int, int]) -> dict[Board, Steps]:
    """Results of the legal plays on the mover's view, each with the first play found.

    Most positions take a fast path (:func:`_search_plain`,
    :func:`_search_plain_double`): nothing on the bar and no bearing off possible
    during the play. They give the same results, first plays and order as
    :func:`search_by_scan`, which a test checks.
    """
    high, low = max(dice), min(dice)
    if view[BAR] == 0:
        outside = sum(n for n in view[7:BAR] if n > 0)
        if high == low and outside >= 4:
            return _search_plain_double(view, high)
        if high != low and outside >= 2:
            found = _search_plain(view, high, low)
            if found:
                return found
    return search_by_scan(view, high, low)


def search_by_scan(view: Board, high: int, low: int) -> dict[Board, Steps]:
    """:func:`search` by scanning the board for every move of every node.

    Doubles are searched with non-increasing sources, which reaches every result: moving
    a higher checker first never blocks a lower one.
    """
    found: dict[Board, Steps] = {}
    if high == low:
        best = 0
        stack: list[tuple[Board, Steps, int]] = [(view, (), BAR)]
        while stack:
            board, steps, ceiling = stack.pop()
            extended = False
            if len(steps) < 4:
                for source, target in single_steps(board, high):
                    if source <= ceiling:
                        extended = True
                        stack.append(
                            (apply_step(board, source, target), (*steps, (source, target)), source)
                        )
            if not extended and len(steps) >= best:
                if len(steps) > best:
                    best = len(steps)
                    found = {}
                found.setdefault(board, steps)
        return found if best else {}
    # Plays of one die only matter when no play uses both; the higher die wins then.
    singles: dict[int, dict[Board, Steps]] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for step in single_steps(view, first):
            after = apply_step(view, *step)
            for follow_up in single_steps(after, second):
                found.setdefault(apply_step(after, *follow_up), (step, follow_up))
            if not found:
                singles[first].setdefault(after, (step,))
    return found or singles[high] or singles[low]


def _search_plain(view: Board, high: int, low: int) -> dict[Board, Steps]:
    """:func:`search` of two different dice with no checker on the bar and none able to
    bear off during the play (two or more checkers outside home): the common case.

    There, one move changes the next one's options only at its ends: its source may lose
    its last checker, its target becomes the mover's, and which points are open stays the
    same. So each die's moves are listed once, and a play of the low die first is a new
    result only when the same checker then moves on with the high die (any other pair was
    reached high first). Same results, first plays and order as the general loop.
    """
    found: dict[Board, Steps] = {}
    highs = [(s, s - high) for s in range(24, high, -1) if view[s] > 0 and view[s - high] >= -1]
    lows = [(s, s - low) for s in range(24, low, -1) if view[s] > 0 and view[s - low] >= -1]
    for step in highs:
        source, target = step
        after = apply_step(view, source, target)
        follow_ups = lows if view[source] > 1 else [m for m in lows if m[0] != source]
        if view[target] <= 0 and target > low and view[target - low] >= -1:
            # The same checker moving on: a new source, where a scan of ``after`` lists it.
            follow_ups = _inserted(follow_ups, (target, target - low))
        for follow_up in follow_ups:
            found.setdefault(apply_step(after, *follow_up), (step, follow_up))
    for step in lows:
        source, target = step
        if view[target] <= 0 and target > high and view[target - high] >= -1:
            follow_up = (target, target - high)
            found.setdefault(
                apply_step(apply_step(view, source, target), *follow_up), (step, follow_up)
            )
    return found


def _search_plain_double(view: Board, die: int) -> dict[Board, Steps]:
    """:func:`search` of a double with no checker on the bar and none able to bear off
    during the play (four or more checkers outside home).

    The same search (non-increasing sources, the same order), but each node's moves come
    from its parent's instead of a scan of the board: as in :func:`_search_plain`, a
    move changes the sources only at its ends, and which points are open not at all.
    """
    found: dict[Board, Steps] = {}
    best = 0
    moves = [(s, s - die) for s in range(24, die, -1) if view[s] > 0 and view[s - die] >= -1]
    stack: list[tuple[Board, Steps, list[tuple[int, int]]]] = [(view, (), moves)]
    while stack:
        board, steps, candidates = stack.pop()
        if candidates and len(steps) < 4:
            for index, step in enumerate(candidates):
                source, target = step
                after = apply_step(board, source, target)
                rest = candidates[index:] if after[source] else candidates[index + 1 :]
                if board[target] <= 0 and target > die and view[target - die] >= -1:
                    rest = _inserted(rest, (target, target - die))  # a new source below
                stack.append((after, (*steps, step), rest))
        elif len(steps) >= best:
            if len(steps) > best:
                best = len(steps)
                found = {}
            found.setdefault(board, steps)
    return found if best else {}


def _inserted(moves: list[tuple[int, int]], move: tuple[int, int]) -> list[tuple[int, int]]:
    """``moves`` (sources from the highest down) with ``move`` at its source's place."""
    place = 0
    while place < len(moves) and moves[place][0] > move[0]:
        place += 1
    return [*moves[:place], move, *moves[place:]]

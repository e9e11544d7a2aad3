"""Backgammon's search as a plain scan: the reference of the fast paths.

:func:`controller.rules.search.search` takes a fast path for every roll, each of which
reads a node's moves from its parent's; ``tests/rules/test_plays.py`` checks that they
give exactly what this scan gives (the same results, the same first play to each, in the
same order), on every roll of a fifth of the golden positions. The scan asks
:func:`~controller.rules.steps.single_steps` for the moves of every board it reaches, and
nothing else. Frozen on purpose: do not optimise it.
"""

from __future__ import annotations

from controller.rules.board import Board
from controller.rules.steps import BAR, Steps, _highest, apply_step, single_steps


def search_by_scan(view: Board, high: int, low: int) -> dict[Board, Steps]:
    """The results of ``high`` and ``low`` on the mover's ``view``, each with the first
    play found, in the order found.

    Two dice are played in both orders, the higher first; a play of one die counts only
    when none plays both, and then the higher's. Doubles are searched depth first with
    non-increasing sources, which reaches every result (moving a higher checker first
    never blocks a lower one), the last move found tried first.
    """
    found: dict[Board, Steps] = {}
    top = 24 if view[BAR] > 0 else _highest(view)  # an entering checker may land higher
    if high == low:
        best = 0
        stack: list[tuple[Board, Steps, int]] = [(view, (), BAR)]
        while stack:
            board, steps, ceiling = stack.pop()
            moves = [step for step in single_steps(board, high, top) if step[0] <= ceiling]
            if moves and len(steps) == 3:  # the last moves: their results, as if popped
                if best < 4:
                    best, found = 4, {}
                for step in reversed(moves):
                    found.setdefault(apply_step(board, *step), (*steps, step))
            elif moves:
                stack += [(apply_step(board, *step), (*steps, step), step[0]) for step in moves]
            elif len(steps) >= best:
                if len(steps) > best:
                    best, found = len(steps), {}
                found.setdefault(board, steps)
        return found if best else {}
    singles: dict[int, dict[Board, Steps]] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for step in single_steps(view, first, top):
            after = apply_step(view, *step)
            for follow_up in single_steps(after, second, top):
                found.setdefault(apply_step(after, *follow_up), (step, follow_up))
            if not found:
                singles[first].setdefault(after, (step,))
    return found or singles[high] or singles[low]

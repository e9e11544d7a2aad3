"""The general (variant) move generator as it was before it was made fast: a reference.

``tests/rules/test_general_path.py`` checks that :func:`controller.rules.plays.plays_of_numbers`
still finds exactly the plays this straightforward version finds (same results, same moves,
same numbers left) on thousands of positions, and ``python -m benchmarks rules`` times
both in the same run. Frozen on purpose: do not optimise it (it shares with the package
only the one-step board update, ``apply_step``, which the fast backgammon path uses too). It
changes only with the rules: Ludii's ruleset now loses a number only when no number left
can move (JACQUET.md), not whenever it is blocked at its turn in an order.

:func:`reference_partials` does the same for the referee's tree of a variant
(``tests/rules/test_tree.py``): every board on the way to a legal play, by brute force.
"""

from __future__ import annotations

import functools
from operator import neg

from controller.rules.board import Board, check_board
from controller.rules.plays import Move, Play
from controller.rules.steps import BAR, OFF, apply_step
from controller.rules.variants import BearOff, Unplayable, Variant

_Steps = tuple[tuple[int, int], ...]


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
                after = apply_step(view, *step)
                follow_ups = _general_steps(after, second, variant) if max(after) > 0 else []
                for follow_up in follow_ups:
                    ends.setdefault((apply_step(after, *follow_up), ()), (step, follow_up))
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
                    stack.append((apply_step(board, *step), (*steps, step), rest))
        if not moved:
            ends.setdefault((board, left), steps)
    return ends


def _enumerate_variant(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, tuple[_Steps, tuple[int, ...]]]:
    """Results of the legal plays of ``numbers`` under ``variant``, with the numbers unused."""
    ends = _search_all(view, numbers, variant)
    if variant.unplayable is not Unplayable.LOST:  # Ludii: a number is lost only when stuck
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


def _to_view(board: Board, player: int, variant: Variant) -> Board:
    view = map(board.__getitem__, variant.tracks[player])
    return tuple(view) if player == 0 else tuple(map(neg, view))


def _from_view(view: Board, player: int, variant: Variant) -> Board:
    board = map(view.__getitem__, _inverse(variant.tracks[player]))
    return tuple(board) if player == 0 else tuple(map(neg, board))


@functools.cache
def _inverse(track: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(track)
    for view_index, layout_index in enumerate(track):
        inverse[layout_index] = view_index
    return tuple(inverse)


def reference_plays(
    board: Board, player: int, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """``plays_of_numbers`` as it was."""
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


Partials = dict[Board, tuple[frozenset[tuple[int, ...]], dict[Move, Board]]]
"""Layout boards on the way to a legal play, each with the numbers that may still be left
there and the single moves that keep it so (with the boards they leave)."""


def reference_partials(
    board: Board, player: int, numbers: tuple[int, ...], variant: Variant
) -> Partials:
    """What a variant's :class:`~controller.rules.tree.PlayTree` holds, by brute force over
    every order of every move (this module's single steps).

    A partial play ends on a legal play's result with that play's unused numbers left (or
    with the mover's last checker off, rule 12); in Ludii's ruleset (LOST) every order is a
    legal way to play, so every board reached counts.
    """
    board = check_board(board)
    view = _to_view(board, player, variant)
    ends = {
        _to_view(play.result, player, variant): tuple(sorted(play.unused, reverse=True))
        for play in reference_plays(board, player, numbers, variant)
    }
    every_order = variant.unplayable is Unplayable.LOST
    alive: dict[tuple[Board, tuple[int, ...]], set[tuple[Move, Board]] | None] = {}

    def visit(node: Board, left: tuple[int, ...]) -> bool:
        if (node, left) not in alive:
            children: set[tuple[Move, Board]] = set()
            for index, number in enumerate(left if max(node) > 0 else ()):
                if number not in left[:index]:
                    rest = left[:index] + left[index + 1 :]
                    for step in _general_steps(node, number, variant):
                        after = apply_step(node, *step)
                        if visit(after, rest):
                            children.add((Move(*step), after))
            unused = ends.get(node)
            end = unused is not None and (unused == left or max(node) <= 0)
            alive[node, left] = children if children or end or every_order else None
        return alive[node, left] is not None

    visit(view, numbers)
    partials: Partials = {}
    for (node, left), children in alive.items():
        if children is not None:
            layout = _from_view(node, player, variant)
            lefts, steps = partials.get(layout, (frozenset(), {}))
            steps.update((move, _from_view(after, player, variant)) for move, after in children)
            partials[layout] = (lefts | {left}, steps)
    return partials

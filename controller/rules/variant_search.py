"""The variants' search: every legal play of a list of numbers under a variant's
description (:mod:`controller.rules.variants`), the path every variant but backgammon's
movement takes (:func:`controller.rules.plays.plays_of_numbers`).

It works on the mover's view along their track (the module docstring of
:mod:`~controller.rules.variants`) and writes each result back in the layout. The single
moves of a die follow the variant's rules (:mod:`~controller.rules.variant_steps`: the
courier, the two-point limit, bearing off with any higher number); the searches find
every end of a play in any order, keep the first way found to each result, and apply what
the variant says of numbers that cannot be played. :mod:`controller.rules.tree` walks the
same moves, and shares the nodes' code.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from operator import itemgetter, neg

from controller.rules.board import Board, Player, flip
from controller.rules.moves import Move, Play, _Moves, _new_play
from controller.rules.steps import (
    BAR,
    OFF,
    _after_each,
    _Frame,
    apply_step,
    going_on,
    moves_after,
)
from controller.rules.variant_doublets import _search_in_order
from controller.rules.variant_steps import (
    _BY_DIE,
    START_INDEX,
    _checked,
    _courier_may_hold,
    _general_steps,
    _home_limit_may_bind,
    _is_plain,
    _Left,
    _points_after,
    _points_made,
    _scan,
    _start_held,
    _unchecked_moves,
    _within_home_limit,
)
from controller.rules.variants import Unplayable, Variant

__all__: list[str] = []


_UNIT = tuple(1 << (5 * index) for index in range(BAR + 1))
"""What one more checker on each index of a view adds to its integer code (:func:`_child`)."""

_HIT = tuple(2 * unit - _UNIT[0] for unit in _UNIT)
"""What hitting a blot on each index adds to a code: the mover's checker replaces it, and
it goes to the opponent's bar (index 0)."""


def _child(node: int, view: Board, source: int, target: int) -> int:
    """The code of ``view`` after one step (:func:`~controller.rules.steps.apply_step`),
    from the code ``node`` of ``view``, by a few additions.

    Each index's count has a field of 5 bits. A code stands for one board while each
    field holds the count plus 15 (:func:`_code`), or its difference from a start coded 0
    stays under 16 either way (borrows between fields then still give one sum for one
    board: :data:`~controller.rules.tree._Node`).
    """
    node -= _UNIT[source]
    if target == OFF:
        return node
    return node + (_HIT[target] if view[target] == -1 else _UNIT[target])


def _code(view: Board) -> int:
    """The integer code of ``view``: each count plus 15 in its 5-bit field, so that the
    codes :func:`_child` derives stay exact however many steps a play makes."""
    return sum((count + 15) << shift for count, shift in zip(view, _SHIFTS, strict=True))


_SHIFTS = tuple(5 * index for index in range(BAR + 1))

_NUMBERS_SHIFT = 5 * (BAR + 1)
"""Where a code (:func:`_child`) codes the numbers left: above the counts."""


_Ways = dict[_Left, list[tuple[int, _Left, int]]]
"""For each numbers left (highest first), each distinct number that may be played next,
the numbers then left, and what playing it adds to a node."""


@functools.cache
def _numbers_left(numbers: _Left) -> _Ways:
    """Every multiset of ``numbers`` left as play goes on, and the ways on from each."""
    codes = {numbers: 0}
    ways: _Ways = {}
    pending = [numbers]
    while pending:
        left = pending.pop()
        ways[left] = []
        for index, number in enumerate(left):
            if number in left[:index]:
                continue
            rest = left[:index] + left[index + 1 :]
            if rest not in codes:
                codes[rest] = len(codes)
                pending.append(rest)
            ways[left].append((number, rest, (codes[rest] - codes[left]) << _NUMBERS_SHIFT))
    return ways


def _search_all(
    board: Board, player: Player, view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, Play]:
    """The legal plays of ``numbers`` in any order on ``view``, by result (``board``, the
    same in the layout, is ``player``'s).

    A play ends when no number left can be played, which includes the moment the mover has
    borne off every checker. The search is depth first, the last move found tried first,
    and a result keeps the first way found to it. A node is known by its integer code
    (:func:`_child`), so that a child met before (most of a doublet's) is passed over
    without making its board; a board is made only when its node is visited, and the last
    moves' results are written straight in the layout.

    On a plain board (:func:`~controller.rules.variant_steps._is_plain`) each node's moves
    come from its parent's, as in :func:`_search_two`, instead of a scan of its board: the
    scans were two fifths of a doublet's time. Where a doublet's moves commute, each play
    is walked in one order only (:func:`_search_in_order`).
    """
    steps_of = _general_steps(variant)
    from_view, frame = _viewers(variant.tracks[player], player)[1], _frame(variant, player)
    # The plays by how many numbers they leave: all must use as many as they can, but
    # Ludii's ruleset (LOST), where a number is lost only when no number left can move,
    # which is where the search stops, keeps every end.
    lost = variant.unplayable is Unplayable.LOST
    found: dict[int, dict[Board, Play]] = {}
    ways = _numbers_left(numbers)
    # A doublet's moves of its die from a node, from its parent's where the play is plain
    # (variant_steps._Unchecked, as a list: a dict for each node cost 9% more); else None.
    die = numbers[0] if numbers else 0
    by_number = (
        _unchecked_moves(view, numbers, variant) if numbers.count(die) == len(numbers) else None
    )
    doublet_moves = None if by_number is None else by_number[die]
    by_die, limit = _BY_DIE[die], variant.home_point_limit
    courier = _courier_may_hold(view, variant)
    if doublet_moves is not None and not courier:
        may_bind = limit is not None and _home_limit_may_bind(view, die, len(numbers), limit)
        in_order = _search_in_order(
            view, numbers, doublet_moves, frame, list(from_view(view)), lost=lost,
            limit=limit if may_bind else None,
        )  # fmt: skip
        if in_order is not None:
            return in_order
    # The nodes visited: a node's code holds its board and the numbers left.
    seen: set[int] = set()
    # A node to visit: its code, its parent's board, way there and unchecked moves, the
    # step from the parent (None for the start, whose board it carries) and the numbers left.
    stack: list[tuple[int, Board, _Moves, list[Move] | None, Move | None, _Left]] = [
        (_code(view), view, (), doublet_moves, None, numbers)
    ]
    while stack:
        node, after, steps, unchecked, step, left = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if step is not None:
            if unchecked is not None:
                unchecked = moves_after(unchecked, after, step, die, by_source=by_die, start=view)
            after = apply_step(after, *step)
            steps = (*steps, step)
        moved = False
        # A plain play keeps a checker outside the last quadrant to its last move.
        if left and (unchecked is not None or max(after) > 0):
            for number, rest, numbers_change in ways[left]:
                moves = (
                    steps_of(after, number)
                    if unchecked is None
                    else _checked(after, unchecked, courier, limit)
                )
                if not moves:
                    continue
                moved = True
                played = node + numbers_change
                # A child not met yet is pushed, or with the last number, ends a play: those
                # are visited here as they would be popped (the last first).
                last = []
                for move in moves if rest else reversed(moves):
                    source, target = move
                    child = played - _UNIT[source]  # _child's sum, inlined: the inner loop
                    if target != OFF:
                        child += _HIT[target] if after[target] == -1 else _UNIT[target]
                    if child in seen:  # it would be passed over when popped
                        continue
                    if rest:
                        stack.append((child, after, steps, unchecked, move, rest))
                    else:  # a node's children are different boards
                        seen.add(child)
                        last.append(move)
                if last:
                    plays = found.setdefault(-1 if lost else 0, {})
                    ends = _after_each(list(from_view(after)), frame, last)
                    for move, end in zip(last, ends, strict=True):
                        result = tuple(end)
                        plays.setdefault(result, _new_play(((*steps, move), result, (), view)))
        if not moved:
            result = from_view(after)
            # Jacquet's rule 12: the game ends with the last checker off, even mid-turn, and
            # nothing is left to hand over.
            unused = left if not left or max(after) > 0 else ()
            plays = found.setdefault(len(left) if not lost else -1, {})
            plays.setdefault(result, _new_play((steps, result, unused, view)))
    return found[min(found)]


def _search_two(
    board: Board, player: Player, view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, Play]:
    """:func:`_search_all` of two different numbers (the same plays, each with the same first way),
    unrolled.

    Two moves legal in either order leave the same board: the second order makes only the
    boards of the pairs the first did not play. Where two or more checkers are outside the
    last quadrant (the bar counts) and none must enter first, no move of the play bears
    off, and one move changes the next one's options only at its ends (as in
    :func:`~controller.rules.search.search`'s plain path; the bar is the highest source):
    the second moves come from one scan of the view, and only the courier and the home
    limit are checked again on each board; and where neither can tell the orders apart,
    the second order only moves a checker on (:func:`_second_order_commuting`). Each
    result is written straight in ``board``'s layout, as the backgammon search does.
    """
    steps_of = _general_steps(variant)
    frame = _frame(variant, player)
    at, sign = frame
    plain = _is_plain(view, 2, variant)
    courier = _courier_may_hold(view, variant)
    held = courier and _start_held(view)
    top = START_INDEX - 1 if held else BAR  # held only with no checker on the bar
    limit = variant.home_point_limit
    made = _points_made(view)
    # Ludii's ruleset (LOST) keeps every end, the first found on each board; the others
    # keep the plays of both numbers if any, else those of the higher alone, else the lower.
    both: dict[Board, Play] = {}
    singles: dict[int, dict[Board, Play]] = {number: {} for number in numbers}
    lost = variant.unplayable is Unplayable.LOST
    if lost:
        singles = dict.fromkeys(numbers, both)
    # The second moves of each first move of the higher number first.
    follow_ups_of: dict[Move, list[Move]] = {}
    start = list(board)
    # On a plain board each number's scan gives the first moves of one order (checked for
    # the home limit, as the variant's steps would be) and the second moves of the other.
    scans = {number: _scan(view, number, top) for number in numbers} if plain else {}
    # Two checkers' moves commute as in backgammon where neither the courier nor the home
    # limit can tell the orders apart: the courier cannot hold, and no first move can
    # exceed the limit (a second move's end is the same board in either order).
    commute = plain and not courier and (limit is None or made < limit)
    for first, second in (numbers, numbers[::-1]):
        if first != numbers[0] and commute and both:
            _second_order_commuting(
                both,
                view,
                start,
                frame,
                firsts=scans[first],
                second=second,
                seconds=scans[second],
                lost=lost,
            )
            break
        if not plain:
            scan, firsts = [], steps_of(view, first)
        elif limit is not None and 1 in view[19:BAR]:
            scan, firsts = scans[second], _within_home_limit(view, scans[first], limit)
        else:
            scan, firsts = scans[second], scans[first]
        for step in firsts:
            source, target = step
            ends_game = False
            if plain:
                follow_ups = moves_after(
                    scan, view, step, second, by_source=_BY_DIE[second], start=view
                )
                # The board after the step is made only where a rule reads it: the courier
                # (a step from the start point or into the last quadrant), or the home limit
                # once the step has made as many first-quadrant points as it allows (a move
                # there may join a lone checker; the first move has the highest target).
                if courier and (source >= START_INDEX or target <= 6):
                    after = apply_step(view, source, target)
                    if _start_held(after) != held:
                        follow_ups = steps_of(after, second)  # the start point let go, or held
                    elif limit is not None and 1 in after[19:BAR]:
                        follow_ups = _within_home_limit(after, follow_ups, limit)
                elif (
                    limit is not None
                    and follow_ups
                    and follow_ups[0][1] >= 19
                    and _points_after(view, made, source, target) >= limit
                ):
                    follow_ups = _within_home_limit(
                        apply_step(view, source, target), follow_ups, limit
                    )
            else:
                after = apply_step(view, source, target)
                # Only a bear-off (destination 0) can have taken the last checker off.
                ends_game = not target and max(after) <= 0
                follow_ups = [] if ends_game else steps_of(after, second)
            if first == numbers[0]:
                follow_ups_of[step] = new = follow_ups
            else:
                new = [
                    follow_up
                    for follow_up in follow_ups
                    if step not in follow_ups_of.get(follow_up, ())
                ]
            # The board after the step only if a result needs it (half the second order's make
            # none); each result made from it as _after_each makes it, inlined (7% faster).
            if new or not follow_ups:
                written = _after_each(start, frame, (step,))[0]
            for follow_up in new:
                end = written.copy()
                end[at[follow_up[0]]] -= sign
                if follow_up[1] != OFF:
                    point = at[follow_up[1]]
                    if end[point] == -sign:  # a blot hit: to the opponent's bar
                        end[point] = sign
                        end[at[0]] -= sign
                    else:
                        end[point] += sign
                result = tuple(end)
                both.setdefault(result, _new_play(((step, follow_up), result, (), view)))
            if not follow_ups:
                # Jacquet's rule 12: the game ends with the last checker off, even mid-turn,
                # and nothing is left to hand over.
                result, left = tuple(written), () if ends_game else (second,)
                singles[first].setdefault(result, _new_play(((step,), result, left, view)))
    found = both or singles[numbers[0]] or singles[numbers[1]]
    return found or {board: _new_play(((), board, numbers if max(view) > 0 else (), view))}


def _second_order_commuting(
    plays: dict[Board, Play],
    view: Board,
    start: list[int],
    frame: _Frame,
    *,
    firsts: list[Move],
    second: int,
    seconds: list[Move],
    lost: bool,
) -> None:
    """Add to ``plays`` those of the second order of two numbers where moves commute
    (:func:`_search_two`): ``firsts`` and ``seconds``, the moves on ``view`` of the order's
    first number and of its second, ``second``.

    Every pair of two checkers' moves was played in the first order, so only a checker
    that goes on with ``second`` from a point it alone holds after its first move makes a
    new board, as in :func:`~controller.rules.search.search`'s plain path. Neither
    the courier nor the home limit can forbid it: the end has at most one more point than
    ``view``. In Ludii's ruleset (``lost``) a first move that no second move can follow is
    an end too.
    """
    goes_on = going_on(firsts, view, second)
    for step, written in zip(goes_on, _after_each(start, frame, goes_on), strict=True):
        follow_up = _BY_DIE[second][step[1]]
        result = tuple(_after_each(written, frame, (follow_up,))[0])
        plays.setdefault(result, _new_play(((step, follow_up), result, (), view)))
    if not lost:
        return
    # A single move's end differs from every pair's, so it is added after them. No second
    # move follows a first one only if they all leave the point it empties (or there are none).
    sources = {move[0] for move in seconds}
    if len(sources) > 1 or (sources and view[next(iter(sources))] != 1):
        return
    for step in firsts:
        if step not in goes_on and (not sources or step[0] in sources):
            result = tuple(_after_each(start, frame, (step,))[0])
            plays.setdefault(result, _new_play(((step,), result, (second,), view)))


def _frame(variant: Variant, player: Player) -> _Frame:
    """Where a search writes ``player``'s results: back in the layout, from their view."""
    return variant.tracks[player], 1 - 2 * player


_Viewer = Callable[[Board], Board]


@functools.cache
def _viewers(track: tuple[int, ...], player: Player) -> tuple[_Viewer, _Viewer]:
    """The functions from a layout board to ``player``'s view along ``track``, and back.

    Made once per track: a turn converts every result back to the layout.
    """
    if track == _IDENTITY and player == 0:
        return _same, _same
    if track == _IDENTITY[::-1] and player == 1:
        return flip, flip
    to_view, from_view = itemgetter(*track), itemgetter(*_inverse(track))
    if player == 0:
        return to_view, from_view
    return (
        lambda board: tuple(map(neg, to_view(board))),
        lambda view: tuple(map(neg, from_view(view))),
    )


_IDENTITY = tuple(range(BAR + 1))


def _same(board: Board) -> Board:
    return board


def _inverse(track: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(track)
    for view_index, layout_index in enumerate(track):
        inverse[layout_index] = view_index
    return tuple(inverse)

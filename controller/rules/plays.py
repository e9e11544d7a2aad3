"""Legal plays of a roll: every distinct position a complete legal play reaches.

The generator (:mod:`controller.rules.search`) works on the mover's own view of the
board (the 26-integer layout flipped so that the mover is player 0): the mover's checkers
are positive and travel from 24 towards 1, the mover's bar is index 25, the opponent's
bar index 0 (negative), and a checker that bears off leaves the board. Results are
flipped back for player 1.

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

import functools
from collections.abc import Callable, Iterable
from operator import attrgetter, itemgetter, neg
from typing import NamedTuple, TypeGuard

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.errors import InvalidDiceError
from controller.rules.notation import format_play
from controller.rules.search import (
    BAR,
    OFF,
    Steps,
    apply_step,
    moves_after,
    search,
    single_steps,
)
from controller.rules.variants import BACKGAMMON, BearOff, Unplayable, Variant

__all__ = [
    "Move",
    "Play",
    "check_dice",
    "legal_plays",
    "legal_results",
    "plays_of_numbers",
    "plays_of_results",
    "step_moves",
]


class Move(NamedTuple):
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    source: int
    destination: int


class Play(NamedTuple):
    """A complete legal play: its moves in playing order and the board after it.

    A named tuple, not a frozen dataclass: a turn makes dozens, and each was made three
    times slower.
    """

    moves: tuple[Move, ...]
    result: Board
    unused: tuple[int, ...]
    """Numbers of the roll left unplayed: forfeited in backgammon, handed over to the
    opponent in Jacquet de Versailles, lost in Ludii's Jacquet."""
    before: Board
    """The board before the play as the mover sees it (the generator's view)."""

    @property
    def notation(self) -> str:
        """The play as GNU Backgammon writes it (``""`` for no move); computed on demand,
        as a turn has many plays and a referee reads one."""
        return format_play(self.before, self.moves)


def check_dice(dice: Iterable[int]) -> tuple[int, int]:
    """Return ``dice`` as a pair if it is two numbers from 1 to 6.

    Raises:
        InvalidDiceError: for anything else, naming it.
    """
    pair = tuple(dice)
    if len(pair) == 2:
        first, second = pair
        if _is_die(first) and _is_die(second):
            return first, second
    raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {list(pair)!r}")


def _is_die(number: object) -> TypeGuard[int]:
    return isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 6


def step_moves(view: Board, die: int) -> list[Move]:
    """Every single move of ``die`` pips the mover may make on ``view`` (the mover's view)."""
    return [Move(source, target) for source, target in single_steps(view, die)]


def _view(board: Board, player: Player) -> Board:
    return board if player == 0 else flip(board)


_StepFunction = Callable[[Board, int], list[Move]]
_Moves = tuple[Move, ...]


@functools.cache
def _general_steps(variant: Variant) -> _StepFunction:
    """The single moves of a die under ``variant``'s description (the slower path).

    Built once per variant, with its rules read into local flags: the searches call it for
    every board they reach, and re-reading the description each time cost more than the
    moves themselves. The moves come from :data:`_MOVES`, so that a play's moves need no
    copying.
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


_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(source, destination) for destination in range(BAR + 1)) for source in range(BAR + 1)
)
"""Every move, made once: ``_MOVES[source][destination]``."""

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
    """Jacquet's rule 8: keep the steps after which few enough first-quadrant points are made."""
    made = len([n for n in view[19:BAR] if n >= 2])
    # One step makes at most one more point, and only by joining a lone checker there.
    if made < limit or not any(target >= 19 and view[target] == 1 for _, target in steps):
        return steps
    kept = []
    for step in steps:
        source, target = step
        after = made - (19 <= source <= 24 and view[source] == 2)
        after += 19 <= target <= 24 and view[target] == 1
        if after <= limit:
            kept.append(step)
    return kept


def _search_all(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[tuple[Board, tuple[int, ...]], _Moves]:
    """Every end of a play in any order: the board and the numbers left, with one way there.

    A play ends when no number left can be played, which includes the moment the mover has
    borne off every checker.
    """
    if len(numbers) == 2 and numbers[0] != numbers[1]:  # the common case
        return _search_two(view, numbers, variant)
    steps_of = _general_steps(variant)
    ends: dict[tuple[Board, tuple[int, ...]], _Moves] = {}
    # The boards reached, by the numbers left, so that a node (board, numbers left) is
    # hashed as its board alone, and once when popped: 6% fewer instructions on Jacquet's
    # doublets than a set of pairs.
    seen: dict[tuple[int, ...], set[Board]] = {}
    stack: list[tuple[Board, _Moves, tuple[int, ...]]] = [(view, (), numbers)]
    while stack:
        board, steps, left = stack.pop()
        boards = seen.setdefault(left, set())
        known = len(boards)
        boards.add(board)
        if len(boards) == known:
            continue
        moved = False
        if left and max(board) > 0:
            for number in (left[0],) if left.count(left[0]) == len(left) else dict.fromkeys(left):
                index = left.index(number)
                rest = left[:index] + left[index + 1 :]
                moves = steps_of(board, number)
                moved = moved or bool(moves)
                known_after = seen.setdefault(rest, set())
                for step in moves:
                    after = apply_step(board, *step)
                    if after not in known_after:  # it would be skipped when popped
                        stack.append((after, (*steps, step), rest))
        if not moved:
            ends.setdefault((board, left), steps)
    return ends


def _search_two(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[tuple[Board, tuple[int, ...]], _Moves]:
    """:func:`_search_all` of two different numbers, unrolled.

    Two moves legal in either order leave the same board: the second order makes only the
    boards of the pairs the first did not play. Where two or more checkers are outside the
    last quadrant (the bar counts) and none must enter first, no move of the play bears
    off, and one move changes the next one's options only at its ends (as in
    :func:`~controller.rules.search.search`'s plain path; the bar is the highest source):
    the second moves come from one scan of the view, and only the courier and the home
    limit are checked again on each board. The same ends, first ways and order as a scan of
    each board, which the differential tests check.
    """
    steps_of = _general_steps(variant)
    plain = not (variant.must_enter_first and view[BAR] > 0) and (
        sum(n for n in view[7:] if n > 0) >= 2
    )
    courier = variant.courier
    held = courier and _start_held(view)
    top = START_INDEX - 1 if held else BAR  # held only with no checker on the bar
    limit = variant.home_point_limit
    ends: dict[tuple[Board, tuple[int, ...]], _Moves] = {}
    played: set[tuple[Move, Move]] = set()
    for first, second in (numbers, numbers[::-1]):
        scan = _scan(view, second, top) if plain else []
        for step in steps_of(view, first):
            source, target = step
            after = apply_step(view, source, target)
            if not plain:
                # Only a bear-off (destination 0) can have taken the last checker off.
                follow_ups = steps_of(after, second) if target or max(after) > 0 else []
            elif courier and (source >= START_INDEX or target <= 6) and _start_held(after) != held:
                follow_ups = steps_of(after, second)  # the start point let go, or held back
            else:
                follow_ups = moves_after(
                    scan, view, step, second, by_source=_BY_DIE[second], start=view
                )
                if limit is not None and 1 in after[19:BAR]:
                    follow_ups = _within_home_limit(after, follow_ups, limit)
            if first == numbers[0]:
                played.update((step, follow_up) for follow_up in follow_ups)
                new = follow_ups
            else:
                new = [follow_up for follow_up in follow_ups if (follow_up, step) not in played]
            for follow_up in new:
                ends.setdefault((apply_step(after, *follow_up), ()), (step, follow_up))
            if not follow_ups:
                ends.setdefault((after, (second,)), (step,))
    return ends or {(view, numbers): ()}


def _enumerate_variant(
    view: Board, numbers: tuple[int, ...], variant: Variant
) -> dict[Board, tuple[_Moves, tuple[int, ...]]]:
    """Results of the legal plays of ``numbers`` under ``variant``, with the numbers unused."""
    ends = _search_all(view, numbers, variant)
    # Ludii's ruleset (LOST) keeps every end: a number is lost only when no number left
    # can move, which is where the search stops. The others must use as many as they can.
    if variant.unplayable is not Unplayable.LOST:
        fewest_left = min(map(len, map(itemgetter(1), ends)))
        if any(len(left) != fewest_left for _, left in ends):
            ends = {end: steps for end, steps in ends.items() if len(end[1]) == fewest_left}
        if len(numbers) - fewest_left == 1 and len(numbers) == 2 and numbers[0] != numbers[1]:
            # Either number but not both: the higher one (the numbers come highest first).
            higher = {end: steps for end, steps in ends.items() if end[1] == numbers[1:]}
            ends = higher or ends
    results: dict[Board, tuple[_Moves, tuple[int, ...]]] = {}
    for (board, left), steps in ends.items():
        # Jacquet's rule 12: the game ends with the last checker off, even mid-turn, and
        # nothing is left to hand over.
        if board not in results:
            results[board] = (steps, left if not left or max(board) > 0 else ())
    return results


def _to_view(board: Board, player: Player, variant: Variant) -> Board:
    """The board as ``player`` sees it along their track under ``variant``."""
    return _viewers(variant.tracks[player], player)[0](board)


def _from_view(view: Board, player: Player, variant: Variant) -> Board:
    """The layout board of a view of ``player`` (the inverse of :func:`_to_view`)."""
    return _viewers(variant.tracks[player], player)[1](view)


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


def legal_results(
    board: Board, player: Player, dice: Iterable[int], variant: Variant = BACKGAMMON
) -> frozenset[Board]:
    """Every distinct board a complete legal play reaches (``{board}`` if none can move).

    The fast path of :func:`legal_plays`, without notation.
    """
    pair = check_dice(dice)
    board = check_board(board)
    if not variant.is_backgammon_movement:
        return frozenset(play.result for play in legal_plays(board, player, pair, variant))
    results = search(_view(board, player), pair, flipped=player == 1)
    return frozenset(results) if results else frozenset({board})


def legal_plays(
    board: Board, player: Player, dice: Iterable[int], variant: Variant = BACKGAMMON
) -> tuple[Play, ...]:
    """One :class:`Play` per distinct resulting board, ordered by resulting board.

    With no legal move, a single empty play whose result is the board itself (the turn is
    lost, or in Jacquet its numbers pass to the opponent).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6.
    """
    pair = check_dice(dice)
    board = check_board(board)
    if not variant.is_backgammon_movement:
        return plays_of_numbers(board, player, variant.moves_of(pair), variant)
    view = _view(board, player)
    return plays_of_results(
        board, view, variant.moves_of(pair), search(view, pair, flipped=player == 1)
    )


def plays_of_results(
    board: Board, view: Board, numbers: tuple[int, ...], results: dict[Board, Steps]
) -> tuple[Play, ...]:
    """The plays of a backgammon search's ``results`` (layout boards, each with the first
    steps found on ``view``), ordered by resulting board; the empty play if there is none.
    """
    if not results:
        return (Play((), board, numbers, view),)
    plays = [backgammon_play(view, numbers, result, steps) for result, steps in results.items()]
    plays.sort(key=_by_result)
    return tuple(plays)


def backgammon_play(view: Board, numbers: tuple[int, ...], result: Board, steps: Steps) -> Play:
    """The :class:`Play` of ``steps`` (found by the search on ``view``) that leaves ``result``."""
    moves = tuple(Move(*step) for step in steps)
    return Play(moves, result, _forfeited(view, numbers, steps), view)


def _forfeited(view: Board, numbers: tuple[int, ...], steps: Steps) -> tuple[int, ...]:
    """The numbers a backgammon play leaves unplayed."""
    if len(steps) == len(numbers):
        return ()
    if len(steps) == 1 and len(numbers) == 2:
        return numbers[1:] if steps[0] in single_steps(view, numbers[0]) else numbers[:1]
    return numbers[len(steps) :]


def plays_of_numbers(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """The legal plays of a list of numbers, highest first (a roll's, or numbers handed over).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
    """
    return _plays_of_numbers(check_board(board), player, tuple(numbers), variant)


@functools.lru_cache(maxsize=64)
def _plays_of_numbers(
    board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
) -> tuple[Play, ...]:
    """:func:`plays_of_numbers` of a checked board, cached: a variant's turn asks for its
    plays on every observation, and its referee's tree once more."""
    to_view, from_view = _viewers(variant.tracks[player], player)
    view = to_view(board)
    results = _enumerate_variant(view, numbers, variant)
    if not results:
        return (Play((), board, numbers, view),)
    plays = [
        Play(steps, from_view(result), unused, view) for result, (steps, unused) in results.items()
    ]
    plays.sort(key=_by_result)  # a key: sorting (board, moves, numbers) tuples cost twice
    return tuple(plays)


_by_result = attrgetter("result")

"""The verdict on one observation, given the position before the turn and the dice.

Why a class: the tree of partial plays (:class:`~controller.rules.PlayTree`) and the index
of its positions are built once per roll; each stable observation is then judged in a
few milliseconds.

How a board is read. Everything is compared in the mover's view, two rows of 26 counts
indexed by the mover's points: the mover's checkers (0 = borne off, 25 = the bar) and the
opponent's (0 = the opponent's bar, 25 = borne off). Each position of the tree is read
the same way. The observation then matches a position when

* each of the mover's counts is at most the position's (the missing ones are in hand);
* the opponent's counts are the position's, except that a blot the position has hit may
  still stand on its point (the moment of a hit) or be in hand on its way to the bar.

No match at all makes the board illegal; the reason comes from :mod:`._diagnosis`,
which replays the observed change against the rules one die at a time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import sub
from typing import Protocol

from controller.referee._diagnosis import Diagnosis, View, diagnose, variant_diagnosis
from controller.referee._wording import describe_dice, in_hand_text, to_play
from controller.referee.cells import check_cells, location_of
from controller.referee.verdict import Kind, Lifted, Verdict
from controller.rules import (
    BACKGAMMON,
    CHECKERS,
    Board,
    InvalidDiceError,
    Play,
    Player,
    PlayTree,
    Variant,
    check_dice,
    legal_results,
)
from hardware.board.geometry import BARS, TRAYS, Cell, Location, location_name

__all__ = ["Diagnosis", "Judge", "Tree", "View", "explaining_dice", "judge"]

_ROLLS = tuple((high, low) for high in range(6, 0, -1) for low in range(high, 0, -1))
"""The 21 distinct rolls, highest first."""


class Tree(Protocol):
    """What the judge needs of a variant's tree of partial plays (:class:`PlayTree`'s API)."""

    @property
    def plays(self) -> tuple[Play, ...]: ...

    @property
    def dice_left_by_position(self) -> dict[Board, frozenset[tuple[int, ...]]]: ...

    @property
    def most_moves(self) -> int: ...

    def play_for(self, board: Board) -> Play | None: ...

    def dice_left(self, board: Board) -> frozenset[tuple[int, ...]]: ...


def explaining_dice(
    board: Board, player: Player, result: Board, variant: Variant = BACKGAMMON
) -> tuple[tuple[int, int], ...]:
    """Every roll (highest die first) for which ``result`` is a legal play from ``board``.

    Used when the camera and the checkers disagree: the dice read 5-3, the checkers moved
    6-2; this names 6-2 so the referee can ask.
    """
    result = tuple(result)
    return tuple(roll for roll in _ROLLS if result in legal_results(board, player, roll, variant))


@dataclass(frozen=True, slots=True)
class _Node:
    board: Board
    view: View
    used: int
    """Dice used to reach it: the earliest reading of a board is preferred."""


class Judge:
    """Judges observations of one roll: ``Judge(board, player, dice).verdict(cells)``.

    Args:
        board: the position before the turn (26 integers).
        player: the player to move.
        dice: the roll (for numbers handed over in Jacquet, the throw they came from).
        variant: the game (backgammon by default); it sets the tree, the locations and
            the diagnosis unless these are given.
        numbers: the numbers to play when not the whole roll: the numbers handed over
            (Jacquet's rule 10), highest first.
        tree: how to build the tree of partial plays (by default :class:`PlayTree` of
            ``variant``).
        locate: the location of a point in a player's numbering (by default along the
            player's track in ``variant``).
        diagnosis: how to name the rule an illegal board breaks (``variant``'s by default).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6, or ``numbers`` are
            not numbers from 1 to 6 that the roll gives.
    """

    __slots__ = (
        "_before_view",
        "_by_mover",
        "_exact",
        "_max_used",
        "_nodes",
        "_point_indices",
        "_read_order",
        "before",
        "diagnosis",
        "dice",
        "locate",
        "numbers",
        "player",
        "tree",
        "variant",
    )

    def __init__(
        self,
        board: Board,
        player: Player,
        dice: Sequence[int],
        *,
        variant: Variant = BACKGAMMON,
        numbers: Sequence[int] | None = None,
        tree: Callable[[Board, Player, tuple[int, int]], Tree] | None = None,
        locate: Callable[[Player, int], Location] | None = None,
        diagnosis: Diagnosis | None = None,
    ) -> None:
        self.dice = check_dice(dice)
        self.variant = variant
        self.numbers = self._numbers(numbers)
        given = numbers is not None
        self.player = player
        if diagnosis is None:
            plain = variant.is_backgammon_movement and not given
            diagnosis = diagnose if plain else variant_diagnosis(variant, self.numbers)
        self.diagnosis = diagnosis
        self.locate = locate or functools.partial(location_of, variant=variant)
        points = [self.locate(player, point) for point in range(1, 25)]
        self._read_order = (*TRAYS, *points, *BARS)
        self._point_indices = tuple(location + 1 for location in points)  # geometry's layout
        if tree is not None:
            self.tree = tree(board, player, self.dice)
        elif given:
            self.tree = PlayTree.of_numbers(board, player, self.numbers, variant)
        else:
            self.tree = PlayTree(board, player, self.dice, variant=variant)
        self.before = tuple(board)
        self._before_view = self._position_view(self.before)
        total = len(self.numbers)
        self._nodes: list[_Node] = []
        self._exact: dict[View, _Node] = {}
        self._by_mover: dict[tuple[int, ...], list[_Node]] = {}
        for position, lefts in self.tree.dice_left_by_position.items():
            left = max(map(len, lefts), default=0)
            node = _Node(position, self._position_view(position), total - left)
            self._nodes.append(node)
            self._exact[node.view] = node
            self._by_mover.setdefault(node.view[0], []).append(node)
        self._nodes.sort(key=lambda node: node.used)
        self._max_used = self.tree.most_moves  # without making every play (a 2-2 has 910)

    def _numbers(self, numbers: Sequence[int] | None) -> tuple[int, ...]:
        """The numbers to play, highest first, checked against the roll they came from."""
        whole = self.variant.moves_of(self.dice)
        if numbers is None:
            return whole
        ordered = tuple(sorted(numbers, reverse=True))
        rest = list(whole)
        for number in ordered:
            if number not in rest:
                raise InvalidDiceError(
                    f"numbers {list(ordered)!r} are not part of the roll {describe_dice(self.dice)}"
                )
            rest.remove(number)
        return ordered

    @property
    def before_view(self) -> View:
        """The position before the turn in the mover's view."""
        return self._before_view

    def _view(self, cells: Sequence[Cell]) -> View:
        """The mover's and the opponent's counts by the mover's points (module docstring).

        The bar is shared in play and a checker dropped in the wrong tray is still off, so
        both bars (and both trays) count for the colour found there. A Judge reads one for
        every position of its tree (a thousand for a big double), so the locations are
        looked up once (``_read_order``).
        """
        me, you = self.player, 1 - self.player
        row = [cell for location in self._read_order if (cell := cells[location]) is not None]
        assert len(row) == len(self._read_order)  # unknown cells are refused before
        trays, points, bars = row[:2], row[2:-2], row[-2:]
        mover = (
            trays[0][me] + trays[1][me],
            *[cell[me] for cell in points],
            bars[0][me] + bars[1][me],
        )
        opponent = (
            bars[0][you] + bars[1][you],
            *[cell[you] for cell in points],
            trays[0][you] + trays[1][you],
        )
        return mover, opponent

    def _position_view(self, board: Board) -> View:
        """``_view(cells_from_board(board))``, straight from the counts of a possible board:
        a Judge reads one for every position of its tree, and the cells cost twice."""
        sign = 1 - 2 * self.player
        counts = [board[index] * sign for index in self._point_indices]
        mine = [count if count > 0 else 0 for count in counts]
        theirs = [-count if count < 0 else 0 for count in counts]
        bars = (board[25], -board[0])
        my_bar, their_bar = bars[self.player], bars[1 - self.player]
        return (
            (CHECKERS - my_bar - sum(mine), *mine, my_bar),
            (their_bar, *theirs, CHECKERS - their_bar - sum(theirs)),
        )

    def _location(self, point: int, *, mover: bool = True) -> Location:
        """The location of a point of the mover's view (of the opponent's row if not mover)."""
        if mover or 1 <= point <= 24:
            return self.locate(self.player, point)
        return BARS[1 - self.player] if point == 0 else TRAYS[1 - self.player]

    # Matching.

    def _hits(self, node: _Node, opponent: tuple[int, ...]) -> list[int] | None:
        """The points whose hit blot still stands, or None if ``opponent`` cannot match."""
        before = self._before_view[1]
        expected = node.view[1]
        stale = []
        for point in range(1, 25):
            seen, want = opponent[point], expected[point]
            if seen != want:
                if want == 0 and before[point] == 1 and seen == 1:
                    stale.append(point)
                else:
                    return None
        if opponent[25] != expected[25] or not before[0] <= opponent[0] <= expected[0]:
            return None
        return stale

    def _match(self, view: View) -> tuple[_Node, list[int]] | None:
        """The earliest position ``view`` matches with the fewest hits left standing."""
        mover, opponent = view
        best: tuple[_Node, list[int]] | None = None
        for node in self._nodes:
            if all(map(int.__le__, mover, node.view[0])):
                stale = self._hits(node, opponent)
                if stale is not None and (best is None or len(stale) < len(best[1])):
                    best = node, stale
                    if not stale:
                        break
        return best

    def _fits(self, mover: tuple[int, ...], opponent: tuple[int, ...]) -> bool:
        """Whether these mover counts (nothing in hand) with ``opponent`` match a position."""
        return any(self._hits(node, opponent) is not None for node in self._by_mover.get(mover, ()))

    # The verdict.

    def verdict(self, cells: Sequence[Cell]) -> Verdict:
        """What ``cells`` (one stable observation, 28 locations) show.

        Raises:
            InvalidObservationError: if ``cells`` is not 28 cells of two counts or None.
        """
        cells = check_cells(cells)
        unknown = frozenset(location for location, cell in enumerate(cells) if cell is None)
        if unknown:
            names = ", ".join(location_name(location) for location in sorted(unknown))
            return Verdict(
                Kind.INCONSISTENT, f"check the board: cannot read {names}", locations=unknown
            )
        view = self._view(cells)
        problem = self._inconsistency(view)
        if problem is not None:
            return problem
        node = self._exact.get(view)
        if node is not None:
            return self._settled(node)
        match = self._match(view)
        if match is None:
            if sum(view[1]) < CHECKERS:  # no hit explains the opponent's missing checkers
                count = sum(view[1])
                return Verdict(
                    Kind.INCONSISTENT,
                    f"check the board: {count} checkers of player {1 - self.player}, expected 15",
                )
            return self._illegal(view)
        node, stale = match
        in_hand = CHECKERS - sum(view[0]), CHECKERS - sum(view[1])
        pending = frozenset(self._location(point) for point in stale)
        left = self._left(node.board)
        if not any(in_hand):
            return Verdict(
                Kind.PARTIAL,
                "hit: put the hit checker on the bar",
                pending_hits=pending,
                dice_left=left,
                board=node.board,
            )
        lifted = self._lifted(view, node, stale, in_hand[1])
        return Verdict(
            Kind.IN_HAND,
            in_hand_text(lifted, self.player),
            lifted=lifted,
            pending_hits=pending,
            dice_left=left,
        )

    def final_verdict(self, cells: Sequence[Cell]) -> Verdict:
        """The verdict if the turn ended now: a board short of a legal play is illegal.

        ``waiting`` and ``partial`` become ``illegal`` (must use both dice, ...) with the
        locations that differ from the nearest complete play; other verdicts are unchanged.

        Raises:
            InvalidObservationError: if ``cells`` is not 28 cells of two counts or None.
        """
        verdict = self.verdict(cells)
        if verdict.kind not in (Kind.WAITING, Kind.PARTIAL) or verdict.pending_hits:
            return verdict
        return self._illegal(self._view(cells), finals_only=True)

    def _inconsistency(self, view: View) -> Verdict | None:
        """An ``inconsistent`` verdict if the counts cannot be right, else None."""
        mover, opponent = view
        before = self._before_view[1]
        problems = []
        locations = set()
        for whose, row in (self.player, mover), (1 - self.player, opponent):
            if sum(row) > CHECKERS:
                problems.append(f"{sum(row)} checkers of player {whose}, at most {CHECKERS}")
        for point in range(1, 25):
            if mover[point] and opponent[point]:
                is_hit = before[point] == 1 == opponent[point]
                is_blocked = before[point] >= 2 and opponent[point] == before[point]
                if not (is_hit or is_blocked):
                    location = self._location(point)
                    locations.add(location)
                    problems.append(f"both colours on {location_name(location)}")
        if not problems:
            return None
        return Verdict(
            Kind.INCONSISTENT,
            "check the board: " + "; ".join(problems),
            locations=frozenset(locations),
        )

    def _left(self, board: Board) -> tuple[int, ...]:
        return max(self.tree.dice_left(board), key=len, default=())

    def _settled(self, node: _Node) -> Verdict:
        """The verdict on a board that is exactly a position of the tree."""
        play = self.tree.play_for(node.board)
        if play is not None and (node.board != self.before or not play.moves):
            text = f"complete: {play.notation}" if play.moves else "no legal move"
            return Verdict(Kind.COMPLETE, text, play=play, board=node.board)
        left = self._left(node.board)
        kind = Kind.WAITING if node.board == self.before else Kind.PARTIAL
        whole = self.numbers == self.variant.moves_of(self.dice)
        text = to_play(left, self.dice if whole else None, len(self.numbers))
        return Verdict(kind, text, dice_left=left, board=node.board)

    def _lifted(
        self, view: View, node: _Node, stale: list[int], opponent_missing: int
    ) -> tuple[Lifted, ...]:
        """The checkers in hand and where each may go with the others put back."""
        mover, opponent = view
        sources = [point for point in range(26) for _ in range(node.view[0][point] - mover[point])]
        lifted = []
        for source in dict.fromkeys(sources):
            rest = list(mover)
            for point in sources:
                rest[point] += 1
            rest[source] -= 1
            destinations = set()
            for point in range(25):
                if point != source:
                    rest[point] += 1
                    if self._fits(tuple(rest), opponent):
                        destinations.add(self._location(point))
                    rest[point] -= 1
            lifted.append(Lifted(self.player, self._location(source), frozenset(destinations)))
        before = self._before_view[1]
        hit_points = [
            point
            for point in range(1, 25)
            if before[point] == 1 and node.view[1][point] == 0 and point not in stale
        ]
        bar = frozenset({BARS[1 - self.player]})
        lifted += [
            Lifted(1 - self.player, self._location(point), bar)
            for point in hit_points[:opponent_missing]
        ]
        return tuple(lifted)

    # Illegal boards.

    def _illegal(self, view: View, *, finals_only: bool = False) -> Verdict:
        """The ``illegal`` verdict: where the board differs from the nearest position, and why."""
        mover, opponent = view
        # The nearest node has the fewest checkers seen beyond its counts. Its counts total
        # 15 a side, so these are half the counts' absolute differences and a constant: the
        # differences rank the nodes alike, in C-level passes (an illegal board is measured
        # against every position of the tree).
        best: tuple[int, _Node] | None = None
        for node in self._nodes:
            if finals_only and self.tree.play_for(node.board) is None:
                continue
            mine, theirs = node.view
            distance = sum(map(abs, map(sub, mover, mine)))
            distance += sum(map(abs, map(sub, opponent, theirs)))
            if (
                best is None
                or distance < best[0]
                or (distance == best[0] and node.used > best[1].used)
            ):
                best = distance, node
        assert best is not None  # there is always a legal play, if only the empty one
        nearest = best[1]
        locations = {
            self._location(point) for point in range(26) if mover[point] != nearest.view[0][point]
        }
        locations |= {
            self._location(point, mover=False)
            for point in range(26)
            if opponent[point] != nearest.view[1][point]
        }
        filled = list(mover)
        missing = CHECKERS - sum(mover)
        for point in range(26):
            gap = min(missing, max(0, nearest.view[0][point] - mover[point]))
            filled[point] += gap
            missing -= gap
        fault, detail = self.diagnosis(
            self._before_view,
            (tuple(filled), opponent),
            self.dice,
            max_used=self._max_used,
            plays=self.tree.plays,
        )
        return Verdict(
            Kind.ILLEGAL,
            f"{fault}: {detail}",
            fault=fault,
            locations=frozenset(locations),
            nearest=nearest.board,
            board=self._board_of(view),
        )

    def _board_of(self, view: View) -> Board | None:
        """The 26 integers of a whole board (a hit blot still standing sent to the bar).

        None when checkers are in hand or a checker stands on an opponent's point.
        """
        mover, opponent = list(view[0]), list(view[1])
        if sum(mover) != CHECKERS or sum(opponent) != CHECKERS:
            return None
        board = [0] * 26
        sign = 1 if self.player == 0 else -1  # the layout counts player 1's checkers negative
        for point in range(1, 25):
            if mover[point] and opponent[point]:
                if opponent[point] != 1 or self._before_view[1][point] != 1:
                    return None
                opponent[point] = 0
                opponent[0] += 1
            index = self.locate(self.player, point) + 1
            board[index] = sign * (mover[point] - opponent[point])
        bars = {self.player: mover[25], 1 - self.player: opponent[0]}
        board[25], board[0] = bars[0], -bars[1]
        return tuple(board)


def judge(board: Board, player: Player, dice: Sequence[int], cells: Sequence[Cell]) -> Verdict:
    """The verdict on ``cells`` for one roll (builds a :class:`Judge`; keep one per roll)."""
    return Judge(board, player, dice).verdict(cells)

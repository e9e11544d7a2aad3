"""The tree of partial plays of one roll, for a referee that watches a play being made.

A player moves checkers one at a time, in any order, and may carry one checker over
several points before putting it down. :class:`PlayTree` is built once per roll (a few
milliseconds at worst) and then answers in constant time: is this board a legal complete
play, a legal part of one, and where may a lifted checker go.

Only the positions on the way to a legal complete play count as partial plays: after 6-5
from the start, ``13/8`` alone is partial, but in a position where playing the 5 first
would leave the 6 unplayable while another order plays both, that 5 is not.

Variants. Backgammon keeps its own fast path (the board flipped for player 1, the plain
single-step generator). Any other variant (:mod:`controller.rules.variants`) is walked in
the mover's view along their track with the variant's own single steps, so the courier
and the two-point limit are checked before every move, as the rules say; the nodes then
carry the numbers still to play, since in Jacquet the order of the moves matters. In
Ludii's ruleset (:attr:`~controller.rules.variants.Unplayable.LOST`) the player plays, at
each step, any number left that can move now; the play ends (the numbers left are lost)
only when none can, so every node of the walk is on the way to a legal play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.errors import InvalidDiceError
from controller.rules.moves import _MOVES
from controller.rules.plays import (
    Move,
    Play,
    _gc_paused,
    backgammon_play,
    check_dice,
    plays_of_numbers,
    plays_of_results,
)
from controller.rules.search import search
from controller.rules.steps import (
    BAR,
    OFF,
    STEPS_BY_DIE,
    Steps,
    _highest,
    apply_step,
    moves_after,
    single_steps,
)
from controller.rules.variant_search import _HIT, _UNIT, _child, _numbers_left, _viewers
from controller.rules.variant_steps import (
    _checked,
    _courier_may_hold,
    _general_steps,
    _Left,
    _Unchecked,
    _unchecked_after,
    _unchecked_moves,
)
from controller.rules.variants import BACKGAMMON, Unplayable, Variant

__all__ = ["PlayTree"]

_Node = int
"""A node of the tree as one exact integer: its board's counts and the numbers still to
play, as their differences from the start's (0). A step changes it by a few additions
(:func:`~controller.rules.variant_search._child`), so a child already met is found
without making its board: most of a big double's edges lead to one. Exact: a step changes
a count by 2 at most (a hit) and a play has 6 steps at most (Jacquet's 6-6), so each
count's difference stays within 12 either way, under half its field's base (32):
differences that borrow from the field above still give one sum for one board. The
numbers left are coded above every count
(:func:`~controller.rules.variant_search._numbers_left`)."""

_Edge = tuple[int, int, _Node]
"""A step to a child: its source, its target, the child."""

_NO_CHILDREN: tuple[_Edge, ...] = ()
"""The children of a legal play's end."""


class PlayTree:
    """Every legal way to play ``dice`` from ``board`` under ``variant``, step by step.

    Points are in the mover's numbering, as in notation: 1..24 along the mover's track
    (from the end of it: 24 is ``pos`` 1), 25 the bar, 0 off the board.
    :meth:`of_numbers` builds the tree of numbers that are not a throw (handed over).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6.
    """

    __slots__ = (
        "_boards",
        "_by_board",
        "_children",
        "_dead",
        "_finals",
        "_from_view",
        "_plays",
        "_results",
        "_rules",
        "_start",
        "_steps_of",
        "_to_view",
        "_top",
        "_unsure",
        "_ways",
        "board",
        "dice",
        "numbers",
        "player",
        "variant",
    )

    def __init__(
        self, board: Board, player: Player, dice: Iterable[int], *, variant: Variant = BACKGAMMON
    ) -> None:
        self.dice: tuple[int, int] | None = check_dice(dice)
        _gc_paused(self._build, check_board(board), player, variant.moves_of(self.dice), variant)

    @classmethod
    def of_numbers(
        cls, board: Board, player: Player, numbers: Iterable[int], variant: Variant
    ) -> PlayTree:
        """The tree of playing ``numbers`` (highest first), e.g. numbers handed over.

        Raises:
            InvalidPositionError: if ``board`` is not a possible board.
            InvalidDiceError: if a number is not from 1 to 6, or there are more than six
                (no turn plays more: Jacquet's 6-6; the nodes' code, :data:`_Node`, is
                exact only so).
        """
        ordered = tuple(sorted(numbers, reverse=True))
        if any(not isinstance(n, int) or not 1 <= n <= 6 for n in ordered):
            raise InvalidDiceError(f"numbers must be from 1 to 6, got {list(ordered)!r}")
        if len(ordered) > 6:
            raise InvalidDiceError(f"a turn plays six numbers at most, got {list(ordered)!r}")
        tree = cls.__new__(cls)
        tree.dice = None
        _gc_paused(tree._build, check_board(board), player, ordered, variant)
        return tree

    def _build(
        self, board: Board, player: Player, numbers: tuple[int, ...], variant: Variant
    ) -> None:
        self.board = board
        self.player = player
        self.numbers = numbers
        self.variant = variant
        self._ways = _numbers_left(numbers)
        self._children: dict[_Node, Sequence[_Edge]] = {}
        self._boards: dict[_Node, Board] = {}
        self._dead: set[_Node] = set()
        self._by_board: dict[Board, list[tuple[_Node, _Left]]] = {}
        self._plays: dict[Board, Play] | None = None
        if variant.is_backgammon_movement and self.dice is not None:
            self._to_view = self._from_view = _flipper(player)
            view = self._start = self._to_view(board)
            # The results, made into plays only when asked: a big double has hundreds,
            # and a referee asks for the one the player made.
            self._top = 24 if view[BAR] > 0 else _highest(view)  # as the search's scan
            self._results: dict[Board, Steps] = {}
            if self.dice[0] != self.dice[1]:
                # Every order of two different dice is walked anyway: when one plays both,
                # the walk finds the results, in the search's order.
                self._finals = None
                self._unsure: list[tuple[_Node, tuple[int, int], _Left]] = []
                self._visit(0, view, numbers, (), self._plain_moves(view))
                if self._results:
                    self._end_early(view)
                    return
                self._children, self._boards, self._by_board = {}, {}, {}
                self._dead = set()
            self._results = search(view, 0, self.dice)
            self._finals = set(self._results) or {view}
            self._visit(0, view, numbers, (), self._plain_moves(view))
            return
        self._steps_of = _general_steps(variant)
        self._to_view, self._from_view = _viewers(variant.tracks[player], player)
        plays = plays_of_numbers(board, player, numbers, variant)
        self._plays = {play.result: play for play in plays}
        view = self._start = self._to_view(board)
        unchecked = _unchecked_moves(view, numbers, variant)
        # What _checked checks on each node of a plain play: the courier, the home limit.
        self._rules = _courier_may_hold(view, variant), variant.home_point_limit
        if variant.unplayable is Unplayable.LOST:
            self._visit_every_order(view, unchecked)
        else:
            ends = {
                self._to_view(play.result): tuple(sorted(play.unused, reverse=True))
                for play in plays
            }
            self._visit_variant(0, view, numbers, ends, unchecked)

    def _alive(self, node: _Node, board: Board, left: _Left, children: Sequence[_Edge]) -> None:
        """Record ``node``, on the way to a legal play, and its children that are too."""
        self._children[node] = children
        self._boards[node] = board
        self._by_board.setdefault(board, []).append((node, left))

    def _end_early(self, view: Board) -> None:
        """Add the steps of one die that end where a play of both dice does, found by the
        walk of two different dice only once it is over.

        Bearing off a checker with a die too high may leave no number to play the other
        die with, on a board that the other order reaches with both (one checker on 4,
        4-1: 4/off, or 4/3/off).
        """
        start = self._children[0]
        assert isinstance(start, list)
        for node, step, rest in self._unsure:
            board = apply_step(view, *step)
            if board in self._results:
                self._dead.discard(node)
                self._alive(node, board, rest, _NO_CHILDREN)
                start.append((*step, node))

    def _plain_moves(self, view: Board) -> _Moves | None:
        """Each number's moves at the start, when a node's moves follow from its parent's
        (:func:`~controller.rules.steps.moves_after`): nothing on the bar, and as many
        checkers outside home as numbers, so none is borne off during the play."""
        if view[BAR] > 0 or sum(n for n in view[7:BAR] if n > 0) < len(self.numbers):
            return None
        return {
            number: single_steps(view, number, self._top)
            for number, _, _ in self._ways[self.numbers]
        }

    def _visit(
        self, node: _Node, board: Board, left: _Left, path: Steps, moves: _Moves | None
    ) -> bool:
        """Record the legal children of ``node``, reached by ``path``; whether a legal play
        goes through it.

        Both answers are remembered: a dead end reached again by another order of the same
        moves is not explored again (a 1-1 reaches most nodes by many paths). A child's
        node is found from its parent's by a few additions, and its board made only the
        first time it is met; a last move's child is a legal play's end or nothing. With
        no finals known (two different dice), every last move ends a legal play, and the
        first path to each end is kept as the search keeps it. ``moves``: each number's
        moves from ``board`` when they follow from its parent's (:meth:`_plain_moves`).
        """
        finals, top = self._finals, self._top
        children = []
        known, dead = self._children, self._dead
        for number, rest, numbers_change in self._ways[left]:
            moved = node + numbers_change
            steps = single_steps(board, number, top) if moves is None else moves[number]
            for step in steps:
                source, target = step
                child = moved - _UNIT[source]  # _child's sum, inlined: the walk's inner loop
                if target != OFF:
                    child += _HIT[target] if board[target] == -1 else _UNIT[target]
                if child in known:
                    children.append((source, target, child))
                    continue
                if child in dead:
                    continue
                after = apply_step(board, source, target)
                if rest:
                    follow = moves and {
                        n: moves_after(
                            moves[n], board, step, n, by_source=STEPS_BY_DIE[n], start=self._start
                        )
                        for n, _, _ in self._ways[rest]
                    }
                    if not self._visit(child, after, rest, path + (step,), follow):  # noqa: RUF005 (faster)
                        if finals is None:  # it may end a play found later (_end_early)
                            self._unsure.append((child, step, rest))
                        continue
                elif finals is None:  # a last move: it ends a legal play or nothing
                    self._results[after] = path + (step,)  # noqa: RUF005 (faster than unpacking)
                    self._alive(child, after, rest, _NO_CHILDREN)
                elif after in finals:
                    self._alive(child, after, rest, _NO_CHILDREN)
                else:
                    dead.add(child)
                    continue
                children.append((source, target, child))
        if children or (finals is not None and board in finals):
            self._alive(node, board, left, children)
            return True
        dead.add(node)
        return False

    def _visit_variant(
        self,
        node: _Node,
        board: Board,
        left: _Left,
        ends: dict[Board, tuple[int, ...]],
        unchecked: _Unchecked | None,
    ) -> bool:
        """:meth:`_visit` for a variant: a play ends on a result with its unused numbers.

        ``unchecked``: each number's moves from ``board`` when they follow from its
        parent's (:func:`~controller.rules.variant_steps._unchecked_moves`).
        """
        children = []
        # Rule 12: nothing is played once the last checker is off (a plain play keeps one
        # outside the last quadrant to its last move).
        if left and (unchecked is not None or max(board) > 0):
            for number, rest, numbers_change in self._ways[left]:
                for step in self._moves(board, number, unchecked):
                    source, target = step
                    child = _child(node + numbers_change, board, source, target)
                    if child in self._children:
                        children.append((source, target, child))
                    elif child not in self._dead:
                        after = apply_step(board, source, target)
                        follow = (
                            None
                            if unchecked is None or not rest  # the end of a play
                            else _unchecked_after(unchecked, board, step, rest, self._start)
                        )
                        if self._visit_variant(child, after, rest, ends, follow):
                            children.append((source, target, child))
        unused = ends.get(board)
        if children or (unused is not None and (unused == left or max(board) <= 0)):
            self._alive(node, board, left, children)
            return True
        self._dead.add(node)
        return False

    def _visit_every_order(self, view: Board, unchecked: _Unchecked | None) -> None:
        """Ludii's ruleset: any number left that can move now may be played next.

        A node where no number left can move ends the play (its numbers are lost), so no
        path is pruned: there is no obligation that a later step could fail. A node's
        board (and ``unchecked`` moves, as in :meth:`_visit_variant`) is made when it is
        first visited, from its parent's.
        """
        stack: list[tuple[_Node, Board, Move | None, _Left, _Unchecked | None]] = [
            (0, view, None, self.numbers, unchecked)
        ]
        while stack:
            node, board, step, left, unchecked = stack.pop()
            if node in self._children:
                continue
            if step is not None:
                if unchecked is not None and left:
                    unchecked = _unchecked_after(unchecked, board, step, left, self._start)
                board = apply_step(board, *step)
            children: list[_Edge] = []
            if left and (unchecked is not None or max(board) > 0):  # as in _visit_variant
                for number, rest, numbers_change in self._ways[left]:
                    for move in self._moves(board, number, unchecked):
                        source, target = move
                        child = _child(node + numbers_change, board, source, target)
                        children.append((source, target, child))
                        stack.append((child, board, move, rest, unchecked))
            self._alive(node, board, left, children)

    def _moves(self, board: Board, number: int, unchecked: _Unchecked | None) -> list[Move]:
        """The legal moves of ``number`` on ``board`` under the variant's rules."""
        if unchecked is None:
            return self._steps_of(board, number)
        return _checked(board, unchecked[number], *self._rules)

    @property
    def plays(self) -> tuple[Play, ...]:
        """The complete legal plays, one per distinct result (as :func:`legal_plays`)."""
        if self._plays is None:  # backgammon: the plays of the results the tree found
            unview = self._from_view
            results = {unview(result): steps for result, steps in self._results.items()}
            plays = plays_of_results(self.board, self._start, self.numbers, results)
            self._plays = {play.result: play for play in plays}
        return tuple(self._plays.values())

    @property
    def most_moves(self) -> int:
        """How many moves the longest legal play makes (0 when none can move)."""
        if self._plays is None:  # backgammon: every legal play makes as many
            return len(next(iter(self._results.values()), ()))
        return max(len(play.moves) for play in self._plays.values())

    @property
    def positions(self) -> frozenset[Board]:
        """Every board on the way to a legal play, the start and the ends included.

        A referee matching a board that is only partly known (checkers in hand) scans these.
        """
        unview = self._from_view
        return frozenset(unview(board) for board in self._by_board)

    @property
    def dice_left_by_position(self) -> dict[Board, frozenset[tuple[int, ...]]]:
        """:meth:`dice_left` of every position at once, as a referee indexes them: each
        board read back from the tree's view once."""
        unview = self._from_view
        return {
            unview(board): frozenset(left for _, left in nodes)
            for board, nodes in self._by_board.items()
        }

    def play_for(self, board: Board) -> Play | None:
        """The canonical play that leaves ``board``, or None if no legal play does."""
        board = tuple(board)
        if self._plays is not None:
            return self._plays.get(board)
        view = self._to_view(board)
        steps = self._results.get(view)
        if steps is None:
            return self.plays[0] if not self._results and board == self.board else None
        return backgammon_play(self._to_view(self.board), self.numbers, board, steps)

    def is_partial(self, board: Board) -> bool:
        """Whether ``board`` lies on the way to a legal play (the start and the ends included)."""
        return self._to_view(tuple(board)) in self._by_board

    def dice_left(self, board: Board) -> frozenset[tuple[int, ...]]:
        """The numbers still to play at ``board`` (several ways may reach it), highest first."""
        return frozenset(left for _, left in self._by_board.get(self._to_view(tuple(board)), ()))

    def next_steps(self, board: Board) -> dict[Move, Board]:
        """The single moves (one number each) that keep ``board`` on the way to a legal play."""
        unview = self._from_view
        return {
            _MOVES[source][target]: unview(self._boards[child])
            for node, _ in self._by_board.get(self._to_view(tuple(board)), ())
            for source, target, child in self._children[node]
        }

    def destinations(self, board: Board, source: int) -> frozenset[int]:
        """Where a checker lifted from ``source`` on ``board`` may be put down.

        The checker may use one number or several in a row, each intermediate point open.
        """
        found: set[int] = set()
        nodes = self._by_board.get(self._to_view(tuple(board)), ())
        frontier = [(node, source) for node, _ in nodes]
        seen: set[tuple[_Node, int]] = set()
        while frontier:
            node, point = frontier.pop()
            for step_source, target, child in self._children[node]:
                if step_source == point:
                    found.add(target)
                    if target != 0 and (child, target) not in seen:
                        seen.add((child, target))
                        frontier.append((child, target))
        return frozenset(found)


_Moves = dict[int, list[tuple[int, int]]]
"""Each number's moves from a board, sources from the highest down."""


def _flipper(player: Player) -> Callable[[Board], Board]:
    """Backgammon's view of ``player`` (flipping is its own inverse)."""
    return _same if player == 0 else flip


def _same(board: Board) -> Board:
    return board

"""The tree of partial plays of one roll, for a referee that watches a play being made.

A player moves checkers one at a time, in any order, and may carry one checker over
several points before putting it down. :class:`PlayTree` is built once per roll (a few
milliseconds at worst) and then answers in constant time: is this board a legal complete
play, a legal part of one, and where may a lifted checker go.

Only the positions on the way to a legal complete play count as partial plays: after 6-5
from the start, ``13/8`` alone is partial, but in a position where playing the 5 first
would leave the 6 unplayable while another order plays both, that 5 is not.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.rules.board import Board, Player, check_board, flip
from controller.rules.plays import Move, Play, _apply, _steps, check_dice, legal_plays

__all__ = ["PlayTree"]

_Node = tuple[Board, tuple[int, ...]]
"""A board in the mover's view and the dice still to play, highest first."""


class PlayTree:
    """Every legal way to play ``dice`` from ``board``, step by step.

    Points are in the mover's numbering, as in notation: 1..24 from the mover's home,
    25 the bar, 0 off the board.
    """

    __slots__ = ("_by_board", "_children", "_plays", "board", "dice", "player")

    def __init__(self, board: Board, player: Player, dice: Iterable[int]) -> None:
        self.board = check_board(board)
        self.player = player
        self.dice = check_dice(dice)
        self._plays = {play.result: play for play in legal_plays(self.board, player, self.dice)}
        high, low = max(self.dice), min(self.dice)
        start: _Node = (self._view(self.board), (high,) * 4 if high == low else (high, low))
        finals = {self._view(result) for result in self._plays}
        self._children: dict[_Node, list[tuple[int, int, _Node]]] = {}
        self._visit(start, finals)
        self._by_board: dict[Board, list[_Node]] = {}
        for node in self._children:
            self._by_board.setdefault(node[0], []).append(node)

    def _view(self, board: Board) -> Board:
        return board if self.player == 0 else flip(board)

    def _visit(self, node: _Node, finals: set[Board]) -> bool:
        """Record the legal children of ``node``; whether a legal play goes through it."""
        if node in self._children:
            return True
        board, left = node
        children = []
        for index, die in enumerate(left):
            if die in left[:index]:
                continue
            rest = left[:index] + left[index + 1 :]
            for source, target in _steps(board, die):
                child = (_apply(board, source, target), rest)
                if child in self._children or self._visit(child, finals):
                    children.append((source, target, child))
        if children or board in finals:
            self._children[node] = children
            return True
        return False

    @property
    def plays(self) -> tuple[Play, ...]:
        """The complete legal plays, one per distinct result (as :func:`legal_plays`)."""
        return tuple(self._plays.values())

    @property
    def positions(self) -> frozenset[Board]:
        """Every board on the way to a legal play, the start and the ends included.

        A referee matching a board that is only partly known (checkers in hand) scans these.
        """
        unview = self._view  # flipping is its own inverse
        return frozenset(unview(board) for board in self._by_board)

    def play_for(self, board: Board) -> Play | None:
        """The canonical play that leaves ``board``, or None if no legal play does."""
        return self._plays.get(tuple(board))

    def is_partial(self, board: Board) -> bool:
        """Whether ``board`` lies on the way to a legal play (the start and the ends included)."""
        return self._view(tuple(board)) in self._by_board

    def dice_left(self, board: Board) -> frozenset[tuple[int, ...]]:
        """The dice still to play at ``board`` (several ways may reach it), highest first."""
        return frozenset(left for _, left in self._by_board.get(self._view(tuple(board)), ()))

    def next_steps(self, board: Board) -> dict[Move, Board]:
        """The single moves (one die each) that keep ``board`` on the way to a legal play."""
        unview = self._view  # flipping is its own inverse
        return {
            Move(source, target): unview(child[0])
            for node in self._by_board.get(self._view(tuple(board)), ())
            for source, target, child in self._children[node]
        }

    def destinations(self, board: Board, source: int) -> frozenset[int]:
        """Where a checker lifted from ``source`` on ``board`` may be put down.

        The checker may use one die or several in a row, each intermediate point open.
        """
        found: set[int] = set()
        frontier = [(node, source) for node in self._by_board.get(self._view(tuple(board)), ())]
        while frontier:
            node, point = frontier.pop()
            for step_source, target, child in self._children[node]:
                if step_source == point:
                    found.add(target)
                    if target != 0:
                        frontier.append((child, target))
        return frozenset(found)

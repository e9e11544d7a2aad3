"""What the move generators return: a :class:`Move` (one checker, one number) and a
:class:`Play` (a whole turn), both re-exported by :mod:`controller.rules.plays`.

Apart so that :mod:`~controller.rules.plays` and the variants' search that it calls
(:mod:`~controller.rules.variant_search`) both make them with no cycle of imports.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from controller.rules.board import Board
from controller.rules.notation import format_play
from controller.rules.steps import BAR

__all__ = ["Move", "Play"]


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


_Moves = tuple[Move, ...]

_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(source, destination) for destination in range(BAR + 1)) for source in range(BAR + 1)
)
"""Every move, made once: ``_MOVES[source][destination]``. The generators take their
moves from it: a named tuple's own constructor is Python code, and the moves and plays
made by theirs were 29% of :func:`~controller.rules.plays.legal_plays` (47.7 -> 33.9 us a
golden case, the plays then made by :data:`_new_play`)."""

_new_play: Callable[[tuple[_Moves, Board, tuple[int, ...], Board]], Play] = functools.partial(
    tuple.__new__, Play
)
"""A :class:`Play` of its fields: a named tuple's own constructor is Python code, and a
doublet makes a hundred plays."""

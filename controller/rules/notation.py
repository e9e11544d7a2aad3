"""Plays written as GNU Backgammon writes them: ``24/18 13/11``, ``bar/22*``, ``8/5(2)``.

The layout follows GNU Backgammon's ``FormatMove`` so that a play reads the same in Tabula,
in GNU Backgammon and in a ``.mat`` file: moves sorted by source then destination, both
descending; the moves of one checker joined into one chain (``24/13``), keeping an
intermediate point where it hit (``24/18*/13``); identical chains counted (``8/5(2)``);
a ``*`` after the first mention of each point that held an opposing checker before the play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from controller.rules.board import Board

__all__ = ["format_play", "format_point"]


class _Step(Protocol):
    @property
    def source(self) -> int: ...

    @property
    def destination(self) -> int: ...


def format_point(point: int) -> str:
    """A point in the mover's numbering as notation writes it: ``bar``, ``off`` or a number."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


def format_play(view: Board, moves: Sequence[_Step]) -> str:
    """The notation of ``moves`` played from ``view`` (the board seen by the mover).

    >>> from controller.rules.board import START
    >>> from controller.rules.plays import Move
    >>> format_play(START, [Move(13, 10), Move(13, 8)])
    '13/10 13/8'
    >>> format_play(START, [Move(24, 18), Move(18, 13)])
    '24/13'
    """

    def is_hit(point: int) -> bool:
        return 1 <= point <= 24 and view[point] < 0

    chains = [
        [move.source, move.destination]
        for move in sorted(moves, key=lambda move: (-move.source, -move.destination))
    ]
    alive = [True] * len(chains)
    for i, chain in enumerate(chains):
        for j in range(i + 1, len(chains)):
            if alive[i] and alive[j] and chain[-1] == chains[j][0]:
                if is_hit(chain[-1]):
                    chain.append(chains[j][-1])
                else:
                    chain[-1] = chains[j][-1]
                alive[j] = False
    counted: list[tuple[list[int], int]] = []
    for chain, is_alive in zip(chains, alive, strict=True):
        if not is_alive:
            continue
        for index, (other, count) in enumerate(counted):
            if other == chain:
                counted[index] = (other, count + 1)
                break
        else:
            counted.append((chain, 1))
    parts = []
    starred: set[int] = set()  # a point hit is starred once, where it first appears
    for chain, count in counted:
        text = format_point(chain[0])
        for point in chain[1:]:
            text += "/" + format_point(point)
            if is_hit(point) and point not in starred:
                starred.add(point)
                text += "*"
        parts.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(parts)

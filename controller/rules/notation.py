"""Plays written as GNU Backgammon writes them: ``24/18 13/11``, ``bar/22*``, ``8/5(2)``.

The layout follows GNU Backgammon's ``FormatMove`` so that a play reads the same in Tabula,
in GNU Backgammon and in a ``.mat`` file: moves sorted by source then destination, both
descending; the moves of one checker joined into one chain (``24/13``), keeping an
intermediate point where it hit (``24/18*/13``); identical chains counted (``8/5(2)``);
a ``*`` after the first mention of each point that held an opposing checker before the play.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.rules.board import Board

__all__ = ["format_play", "format_point"]


def format_point(point: int) -> str:
    """A point in the mover's numbering as notation writes it: ``bar``, ``off`` or a number."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


_POINT_TEXTS = tuple(format_point(point) for point in range(26))
"""Each point's text, by point: a play's moves are the generator's, from the bar (25) to off (0)."""


def format_play(view: Board, moves: Sequence[tuple[int, int]]) -> str:
    """The notation of ``moves`` (each a source and a destination, as a
    :class:`~controller.rules.moves.Move`) played from ``view`` (the board seen by the mover).

    >>> from controller.rules.board import START
    >>> from controller.rules.plays import Move
    >>> format_play(START, [Move(13, 10), Move(13, 8)])
    '13/10 13/8'
    >>> format_play(START, [Move(24, 18), Move(18, 13)])
    '24/13'

    One pass over the moves in FormatMove's order, each joining the first chain that ends
    where it starts, and a table of the points' texts: a batch or a listing writes every
    play's notation, and comparing every pair of chains, a call for each point's text,
    took twice as long (4.1 against 1.9 us a golden play).
    """
    chains: list[list[int]] = []
    for source, destination in sorted(moves, reverse=True):
        for chain in chains:
            if chain[-1] == source:
                if 1 <= source <= 24 and view[source] < 0:  # it hit there: the point stays
                    chain.append(destination)
                else:
                    chain[-1] = destination
                break
        else:
            chains.append([source, destination])
    counted: dict[tuple[int, ...], int] = {}  # identical chains, in order of first mention
    for chain in chains:
        points = tuple(chain)
        counted[points] = counted.get(points, 0) + 1
    parts = []
    starred: set[int] = set()  # a point hit is starred once, where it first appears
    for points, count in counted.items():
        text = _POINT_TEXTS[points[0]]
        for point in points[1:]:
            text += "/" + _POINT_TEXTS[point]
            if 1 <= point <= 24 and view[point] < 0 and point not in starred:
                starred.add(point)
                text += "*"
        parts.append(f"{text}({count})" if count > 1 else text)
    return " ".join(parts)

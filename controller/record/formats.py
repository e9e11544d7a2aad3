"""The files a match is written as, by name: GNU Backgammon's ``.mat`` and ``.sgf``
(backgammon only), its events one JSON object a line (``.jsonl``, the saved match that
``tabula export --match`` reads back) and its text record (any variant).

One vocabulary for every way a match leaves the board: ``tabula export --format``, the
page's downloads, the hub's archive and the demo's files. Apart from
:mod:`~controller.record.exports`, which writes them, so that the board's status
(:mod:`controller.status`), which names them to the page, loads no writer.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["MATCH_FORMATS", "MatchFormat"]

MatchFormat = Literal["mat", "sgf", "jsonl", "txt"]
"""A match file's format, named by its file's suffix."""

MATCH_FORMATS: Final[tuple[MatchFormat, ...]] = get_args(MatchFormat)
"""Every format, in that order: the names read from the type, written once."""

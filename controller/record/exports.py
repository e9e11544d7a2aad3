"""A match written as its files (:mod:`~controller.record.formats`): the one table of
writers that ``tabula export``, the page's downloads, the hub's archive and the demo use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from controller.match.replay import MatchRecord
from controller.record.errors import MatFileError
from controller.record.formats import MatchFormat
from controller.record.matfile import write_mat
from controller.record.plain import gnubg_refusal, write_events, write_text
from controller.record.sgf import write_sgf

__all__ = ["kept_files", "write_match"]

_WRITERS: Final[dict[MatchFormat, Callable[[MatchRecord], str]]] = {
    "mat": write_mat,
    "sgf": write_sgf,
    "jsonl": write_events,
    "txt": write_text,
}


def write_match(match: MatchRecord, fmt: MatchFormat) -> str:
    """``match`` written as ``fmt``.

    Raises:
        RecordError: for a match ``fmt`` cannot hold (GNU Backgammon's formats hold
            backgammon only; a ``.mat``, no money play), saying why.
    """
    return _WRITERS[fmt](match)


def kept_files(match: MatchRecord) -> tuple[dict[MatchFormat, str], str | None]:
    """The files a finished match is kept as (the hub's archive, the demo's folder), and
    why a GNU Backgammon file is not among them, if one is not.

    A backgammon match is kept as its ``.sgf``, and its ``.mat`` where one can hold it (not
    money play, nor an accepted illegal play); a match GNU Backgammon's formats cannot hold
    (Jacquet de Versailles, nackgammon) as its events and its text.
    """
    if gnubg_refusal(match, ".sgf") is not None:
        plain: dict[MatchFormat, str] = {"jsonl": write_events(match), "txt": write_text(match)}
        return plain, "GNU Backgammon's .mat and .sgf hold backgammon only"
    files: dict[MatchFormat, str] = {"sgf": write_sgf(match)}
    missing = None
    try:
        files["mat"] = write_mat(match)
    except MatFileError as error:
        missing = f"no .mat: {error}"
    return files, missing

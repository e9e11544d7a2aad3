"""Exceptions of the records: the journal, the match model and the match-file codecs."""

from __future__ import annotations

from controller.errors import TabulaError

__all__ = [
    "InvalidEventError",
    "JournalCorruptError",
    "JournalError",
    "MatFileError",
    "RecordError",
    "SgfError",
]


class RecordError(TabulaError):
    """Base class of the records' errors."""


class InvalidEventError(RecordError, ValueError):
    """An event that does not parse, or that the rules forbid at its place in the match."""


class JournalError(RecordError, OSError):
    """The journal database cannot be opened, read or written."""


class JournalCorruptError(JournalError):
    """The journal database is damaged beyond SQLite's own recovery: nothing was changed."""


class MatFileError(RecordError, ValueError):
    """A match that a Jellyfish ``.mat`` file cannot hold, or ``.mat`` text that does not parse."""


class SgfError(RecordError, ValueError):
    """An ``.sgf`` text that does not parse as a GNU Backgammon match."""

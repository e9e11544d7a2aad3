"""Exceptions of the records: the journal and the match-file codecs.

The root, :class:`RecordError`, and the events' own :class:`InvalidEventError` are the
match core's (:mod:`controller.match.errors`): re-exported here, as every record error is
one of them.
"""

from __future__ import annotations

from controller.match.errors import InvalidEventError, RecordError

__all__ = [
    "InvalidEventError",
    "JournalCorruptError",
    "JournalDamagedError",
    "JournalError",
    "MatFileError",
    "RecordError",
    "SgfError",
]


class JournalError(RecordError, OSError):
    """The journal database cannot be opened, read or written."""


class JournalCorruptError(JournalError):
    """The journal database is damaged beyond SQLite's own recovery: nothing was changed."""


class JournalDamagedError(JournalCorruptError):
    """Events of the journal were lost or changed since they were written: nothing was changed.

    Why apart from :class:`JournalCorruptError`: SQLite may find the file sound (its own
    recovery drops a damaged log tail without a word), but the journal's sequence numbers,
    chained checksums and head file say exactly what was lost.
    """

    def __init__(
        self,
        message: str,
        *,
        missing: tuple[tuple[int, int], ...] = (),
        changed: tuple[int, ...] = (),
    ) -> None:
        super().__init__(message)
        self.missing = missing
        """The runs ``(first, last)`` of sequence numbers lost, as far as they are known."""
        self.changed = changed
        """The sequence numbers of the events changed since they were written."""


class MatFileError(RecordError, ValueError):
    """A match that a Jellyfish ``.mat`` file cannot hold, or ``.mat`` text that does not parse."""


class SgfError(RecordError, ValueError):
    """An ``.sgf`` text that does not parse as a GNU Backgammon match."""

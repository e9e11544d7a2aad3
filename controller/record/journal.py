"""The SQLite journal: every event is on disk before the service acts upon it.

One table, one row per event, one transaction per row: ``append`` returns only once
SQLite has committed the row in write-ahead-log mode with ``synchronous=FULL`` (the WAL is
synced at every commit), so a power cut loses nothing ``append`` returned, and no event is
ever half visible. A torn WAL tail (the power cut during a commit) is SQLite's own recovery
to handle: frames after the last valid commit frame are ignored on the next open.

The journal also replays its events against the rules as it opens and as it appends
(:mod:`controller.record.model`): an event the rules forbid is refused before it is
written, so a journal always replays, and reopening it resumes the match exactly where it
stood, mid-turn included (:attr:`Journal.state`, :meth:`Journal.resumed`).

A damaged file is never changed: opening it raises :class:`JournalCorruptError` saying
what SQLite found, and the file stays as it was for a person (or ``sqlite3 .recover``).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from controller.record.errors import (
    InvalidEventError,
    JournalCorruptError,
    JournalError,
)
from controller.record.events import Event, MatchStarted, event_from_json, event_to_json
from controller.record.model import MatchRecord, MatchSnapshot, Replayer

__all__ = ["APPLICATION_ID", "Journal", "JournalEntry", "archive_path"]

APPLICATION_ID: Final = 0x54414231
"""SQLite ``application_id`` of a Tabula journal (``TAB1``), so another database is refused."""

_SCHEMA_VERSION: Final = 1
_SCHEMA: Final = """
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    event TEXT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One journalled event: its sequence number (from 1), when it was written, the event."""

    seq: int
    at: float
    event: Event


class Journal:
    """A match's event journal in one SQLite file (WAL, ``synchronous=FULL``).

    Use it as a context manager; :meth:`close` is idempotent.

    Args:
        path: the database file; created (with its parent directory) unless ``readonly``.
        readonly: open an existing journal for reading only (the exporter).
        clock: the time stamped on each event (seconds since the epoch).
        connect: the SQLite connection factory (``sqlite3.connect``).
        first_seq: the sequence number of a new journal's first event: a board's numbers
            go on from the journal before (:meth:`rotate`), so its subscribers see one
            sequence across matches. Ignored for a journal that holds events.

    Raises:
        JournalError: if the file cannot be opened or is another kind of database.
        JournalCorruptError: if the file is damaged or its events do not replay.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        readonly: bool = False,
        clock: Callable[[], float] = time.time,
        connect: Callable[..., sqlite3.Connection] = sqlite3.connect,
        first_seq: int = 1,
    ) -> None:
        if type(first_seq) is not int or first_seq < 1:
            raise JournalError(f"a journal's first sequence number is >= 1, got {first_seq!r}")
        self.path = Path(path)
        self._clock = clock
        self._connect = connect
        self._readonly = readonly
        self._connection: sqlite3.Connection | None = None
        self._replayer: Replayer | None = None
        self._start: MatchStarted | None = None
        self._events: list[Event] = []
        self._last_seq = first_seq - 1
        self._first_seq = first_seq
        self._connection = self._open(connect)
        try:
            self._load()
        except BaseException:
            self.close()
            raise

    # Opening.

    def _open(self, connect: Callable[..., sqlite3.Connection]) -> sqlite3.Connection:
        pending = _pending_path(self.path)
        if not self._readonly and not self.path.exists() and pending.exists():
            # A new match's journal was written and the old one archived, but the power
            # went before the new one took its place: finish the rotation.
            os.replace(pending, self.path)
        exists = self.path.exists() and self.path.stat().st_size > 0
        if self._readonly and not exists:
            raise JournalError(f"no journal at {str(self.path)!r}")
        try:
            if self._readonly:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                connection = connect(uri, uri=True, isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = connect(str(self.path), isolation_level=None)
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"cannot open journal {str(self.path)!r}: {error}") from None
        try:
            self._prepare(connection, exists)
        except sqlite3.DatabaseError as error:
            connection.close()
            raise self._corrupt(error) from None
        except BaseException:
            connection.close()
            raise
        return connection

    def _prepare(self, connection: sqlite3.Connection, exists: bool) -> None:
        if exists:
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            if application_id != APPLICATION_ID:
                raise JournalError(
                    f"{str(self.path)!r} is not a Tabula journal "
                    f"(SQLite application_id {application_id:#x}, expected {APPLICATION_ID:#x})"
                )
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version != _SCHEMA_VERSION:
                raise JournalError(
                    f"journal {str(self.path)!r} has schema version {version}, "
                    f"this program reads {_SCHEMA_VERSION}"
                )
            check = connection.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                problems = "; ".join(str(row[0]) for row in check[:3])
                raise JournalCorruptError(
                    f"journal {str(self.path)!r} is damaged ({problems}); it was left unchanged"
                )
        if self._readonly:
            return
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        if not exists:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(_SCHEMA)
            connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version={_SCHEMA_VERSION}")
            connection.execute("COMMIT")

    def _corrupt(self, error: BaseException) -> JournalCorruptError:
        return JournalCorruptError(
            f"journal {str(self.path)!r} is damaged ({error}); it was left unchanged"
        )

    def _load(self) -> None:
        for index, entry in enumerate(self.entries()):
            self._follow(entry.seq, entry.event, stored=True)
            self._last_seq = entry.seq
            if index == 0:
                self._first_seq = entry.seq

    def _follow(self, seq: int, event: Event, *, stored: bool) -> None:
        """Replay ``event`` on the state; a stored event that fails means a damaged journal."""
        try:
            if self._replayer is None:
                if not isinstance(event, MatchStarted):
                    raise InvalidEventError(
                        f"a journal starts with MatchStarted, got {event!r}"
                    )
                self._start = event
                self._replayer = Replayer(event)
            else:
                self._replayer.apply(len(self._events), event)
        except InvalidEventError as error:
            if stored:
                raise JournalCorruptError(
                    f"journal {str(self.path)!r}, event {seq}: {error}"
                ) from None
            raise
        self._events.append(event)

    # Reading and writing.

    @property
    def connection(self) -> sqlite3.Connection:
        """The open SQLite connection.

        Raises:
            JournalError: once the journal is closed.
        """
        if self._connection is None:
            raise JournalError(f"journal {str(self.path)!r} is closed")
        return self._connection

    def append(self, event: Event) -> int:
        """Write ``event`` durably and return its sequence number; only then act upon it.

        Raises:
            InvalidEventError: if the rules forbid ``event`` now (nothing is written).
            JournalError: if the write fails (nothing is written) or the journal is closed.
        """
        if self._readonly:
            raise JournalError(f"journal {str(self.path)!r} is open for reading only")
        connection = self.connection
        text = event_to_json(event)
        seq = self._last_seq + 1
        # Check against the rules first, and undo the state if the event or the write fails.
        saved = self._replayer_state()
        try:
            self._follow(seq, event, stored=False)
        except InvalidEventError:
            self._restore(saved)
            raise
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "INSERT INTO events (seq, at, event) VALUES (?, ?, ?)",
                (seq, self._clock(), text),
            )
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            self._restore(saved)
            raise JournalError(
                f"cannot write event {seq} to journal {str(self.path)!r}: {error}"
            ) from None
        self._last_seq = seq
        return seq

    def _replayer_state(self) -> tuple[Any, ...]:
        replayer = self._replayer
        if replayer is None:
            return (None, None, 0)
        copy = (replayer.snapshot, list(replayer.games), list(replayer.opening),
                list(replayer.actions))  # fmt: skip
        return (replayer, copy, len(self._events))

    def _restore(self, saved: tuple[Any, ...]) -> None:
        replayer, copy, count = saved
        del self._events[count:]
        if replayer is None:
            self._replayer = None
            self._start = None
            return
        replayer.snapshot, replayer.games, replayer.opening, replayer.actions = copy

    def entries(self) -> list[JournalEntry]:
        """Every journalled event in order.

        Raises:
            JournalCorruptError: if the database or an event cannot be read.
        """
        try:
            rows = self.connection.execute(
                "SELECT seq, at, event FROM events ORDER BY seq"
            ).fetchall()
        except sqlite3.DatabaseError as error:
            raise self._corrupt(error) from None
        entries = []
        for seq, at, text in rows:
            try:
                event = event_from_json(text)
            except InvalidEventError as error:
                raise JournalCorruptError(
                    f"journal {str(self.path)!r}, event {seq}: {error}"
                ) from None
            entries.append(JournalEntry(seq, at, event))
        return entries

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._connection is None

    @property
    def last_seq(self) -> int:
        """The sequence number of the last event (the first one's minus 1 while empty)."""
        return self._last_seq

    @property
    def first_seq(self) -> int:
        """The sequence number of the first event (or of the first to come)."""
        return self._first_seq

    def rotate(self, start: MatchStarted, archive: Path) -> Journal:
        """Archive this journal at ``archive``; a new one at its path, begun by ``start``.

        Why this order: the new journal is written whole beside (``<name>.new``, its first
        event numbered after this one's last), then this one is closed and renamed, then
        the new one takes the path. A power cut leaves either the old journal in place (the
        new match never started) or the new one ready beside it, which the next opening
        puts in place: never an empty journal whose numbers would start again at 1.

        Raises:
            JournalError: if ``archive`` exists or a file cannot be written or renamed
                (this journal is then left open and unchanged when possible).
            InvalidEventError: if ``start`` is refused.
        """
        if self._readonly:
            raise JournalError(f"journal {str(self.path)!r} is open for reading only")
        if archive.exists():
            raise JournalError(
                f"cannot archive journal {str(self.path)!r}: {str(archive)!r} exists"
            )
        pending = _pending_path(self.path)
        try:
            pending.unlink(missing_ok=True)  # a new match's journal that never took its place
            for suffix in ("-wal", "-shm"):
                Path(f"{pending}{suffix}").unlink(missing_ok=True)
        except OSError as error:
            raise JournalError(f"cannot remove {str(pending)!r}: {error}") from None
        with Journal(
            pending, clock=self._clock, connect=self._connect, first_seq=self._last_seq + 1
        ) as fresh:
            fresh.append(start)
        self.close()
        try:
            os.replace(self.path, archive)
            os.replace(pending, self.path)
            _sync_directory(self.path.parent)
        except OSError as error:
            raise JournalError(f"cannot archive journal {str(self.path)!r}: {error}") from None
        return Journal(self.path, clock=self._clock, connect=self._connect)

    def events(self) -> list[Event]:
        """Every journalled event in order (as replayed when opened and appended since)."""
        return list(self._events)

    @property
    def state(self) -> MatchSnapshot | None:
        """Where the match stands now, or ``None`` for an empty journal."""
        return None if self._replayer is None else self._replayer.snapshot

    def record(self) -> MatchRecord:
        """The match so far.

        Raises:
            JournalError: for an empty journal.
        """
        if self._replayer is None or self._start is None:
            raise JournalError(f"journal {str(self.path)!r} holds no match yet")
        return self._replayer.record(tuple(self._events), self._start)

    def resumed(self) -> str:
        """What opening this journal resumed, in one sentence for people."""
        state = self.state
        if state is None:
            return f"new journal {str(self.path)!r}"
        return f"resumed after {state.events} events: {state.describe()}"

    def close(self) -> None:
        """Close the database (idempotent); committed events are already on disk."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"


def _pending_path(path: Path) -> Path:
    """Where a new match's journal is written before it takes ``path``'s place."""
    return path.with_name(path.name + ".new")


def _sync_directory(directory: Path) -> None:
    """Make the renames in ``directory`` durable (a power cut must not undo them)."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def archive_path(path: Path, when: float, first_seq: int, last_seq: int) -> Path:
    """Where the journal at ``path`` is kept once a new match starts: beside it, named by
    when it was archived (UTC) and its events' sequence numbers.

    >>> archive_path(Path("/var/lib/tabula/journal.sqlite3"), 0.0, 1, 87).name
    'journal-19700101-000000-seq1-87.sqlite3'
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(when))
    return path.with_name(f"{path.stem}-{stamp}-seq{first_seq}-{last_seq}{path.suffix}")

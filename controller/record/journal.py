"""The SQLite journal: every event is on disk before the service acts upon it.

One table, one row per event, one transaction per ``append`` (an input's events): it returns
only once SQLite has committed them in write-ahead-log mode with ``synchronous=FULL`` (the
WAL is synced at every commit), so a power cut loses nothing ``append`` returned, and no
event is ever half visible. A torn WAL tail (the power cut during a commit) is SQLite's own
recovery to handle: frames after the last valid commit frame are ignored on the next open.

That recovery would as silently drop committed events after a damaged frame, and a row
deleted or edited by hand would go unseen: so each row carries a checksum chained to the
row before, and the chain's head is written after each commit to ``<journal>.head``
(:mod:`controller.record._chain`; the file's schema and what opening checks are
:mod:`controller.record._journal_file`'s). Opening checks, before anything is written or
checkpointed (on a read-only connection), that the sequence numbers have no gap, that each
row matches its checksum, and that the journal reaches its head (which may lag one event:
the power cut between the commit and the head's write). A file emptied to 0 bytes, or gone
while its head says it held events, is refused too: a new journal is created whole beside
its path and renamed into place, so an empty file there is never a power cut's doing. Any
damage raises :class:`JournalDamagedError` naming the file and the events lost or changed;
the database, its write-ahead log and its head stay byte for byte as they were (SQLite may
leave its shared-memory index, ``-shm``, which holds nothing of the journal).

The journal also replays its events against the rules as it opens and as it appends
(:mod:`controller.match.replay`): an event the rules forbid is refused before it is
written, so a journal always replays, and reopening it resumes the match exactly where it
stood, mid-turn included (:attr:`Journal.state`, :meth:`Journal.resumed`).

A journal written before the chain (schema version 1, no head file) still opens: read-only
as it is (:attr:`Journal.verified` then vouches for nothing), and read-write it is chained
once, in one transaction, its head written just before the commit.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.match.event_json import event_from_json, event_to_json, events_from_json
from controller.match.events import Event, MatchStarted
from controller.match.replay import MatchRecord, Replayer
from controller.match.snapshot import MatchSnapshot
from controller.record._chain import (
    GENESIS,
    ChainCheck,
    Head,
    HeadWriter,
    Row,
    chain_digest,
    create_head,
    head_path,
)
from controller.record._journal_file import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    WriterLock,
    add_digests,
    archive_path,
    check_database,
    create_journal_file,
    emptied_error,
    finish_rotation,
    make_durable,
    pending_path,
    read_checked_head,
    reader_uri,
    refuse_gone,
    refuse_unwritable,
    remove_journal_files,
    unreadable_error,
    unwritable_error,
    verify_rows,
)
from controller.record.errors import InvalidEventError, JournalCorruptError, JournalError
from hardware.files import sync

__all__ = ["APPLICATION_ID", "Journal", "JournalEntry", "archive_path", "head_path"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One journalled event: its sequence number (from 1), when it was written, the event."""

    seq: int
    at: float
    event: Event


class Journal:
    """A match's event journal in one SQLite file (WAL, ``synchronous=FULL``) and its head.

    Use it as a context manager; :meth:`close` is idempotent.

    Args:
        path: the database file; created (with its parent directory) unless ``readonly``.
        readonly: open an existing journal for reading only (the exporter).
        clock: the time stamped on each event (seconds since the epoch).
        connect: the SQLite connection factory (``sqlite3.connect``).
        first_seq: the sequence number of a new journal's first event: a board's numbers
            go on from the journal before (:meth:`rotate`), so its subscribers see one
            sequence across matches. Ignored for a journal that holds events or whose head
            names its first.
        progress: hears (events replayed, events stored) as opening replays them (a long
            journal's export on a slow Pi).

    Raises:
        JournalError: if the file cannot be opened or is another kind of database, or
            another process has it open to write (:class:`WriterLock`).
        JournalCorruptError: if the file is damaged or its events do not replay.
        JournalDamagedError: if events were lost or changed since they were written (the
            message names them): a gap, an edited row, a tail behind the head, an empty
            file, a file gone while its head remains.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        readonly: bool = False,
        clock: Callable[[], float] = time.time,
        connect: Callable[..., sqlite3.Connection] = sqlite3.connect,
        first_seq: int = 1,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        if type(first_seq) is not int or first_seq < 1:
            raise JournalError(f"a journal's first sequence number is >= 1, got {first_seq!r}")
        self.path = Path(path)
        self._clock = clock
        self._connect = connect
        self._readonly = readonly
        self._progress = progress
        self._connection: sqlite3.Connection | None = None
        self._head_file: HeadWriter | None = None
        self._lock: WriterLock | None = None
        self._replayer: Replayer | None = None
        self._start: MatchStarted | None = None
        self._events: list[Event] = []
        self._last_seq = first_seq - 1
        self._first_seq = first_seq
        self._digest = GENESIS
        self._verified = first_seq - 1
        try:
            self._connection = self._open()
        except BaseException:
            self.close()
            raise

    # Opening: everything is checked on a read-only connection before anything is written.

    def _open(self) -> sqlite3.Connection:
        if not self._readonly:
            finish_rotation(self.path)  # first: it refuses a path that is no path
            refuse_unwritable(self.path)
        head = read_checked_head(self.path)  # before the rows: a writer at work only moves past it
        if not self.path.exists():
            if not pending_path(self.path).exists():  # else a rotation the writer finishes
                refuse_gone(self.path, head)
            if self._readonly:
                raise JournalError(f"no journal at {str(self.path)!r}")
            head = Head(self._first_seq, self._first_seq - 1, GENESIS)
            if not create_journal_file(self.path, head, self._connect):
                return self._open()  # another process made it meanwhile: opened as it is
        elif self.path.stat().st_size == 0:
            raise emptied_error(self.path, "the file is empty (0 bytes)", head)
        if not self._readonly:  # before the rows: no other writer moves past them
            self._lock = WriterLock(self.path)
        try:
            reader = self._connect(reader_uri(self.path), uri=True, isolation_level=None)
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"cannot open journal {str(self.path)!r}: {error}") from None
        try:
            version = check_database(self.path, reader)
            column = "digest" if version == SCHEMA_VERSION else "NULL"
            query = f"SELECT seq, at, event, {column} FROM events ORDER BY seq"
            rows = [Row(*row) for row in reader.execute(query)]
            check = verify_rows(self.path, rows, head, version)
            self._load(rows, head, vouched=version == SCHEMA_VERSION)
        except sqlite3.DatabaseError as error:
            reader.close()
            raise unreadable_error(self.path, error) from None
        except BaseException:
            reader.close()
            raise
        self._digest = check.digests[-1] if rows else GENESIS
        chained = version == SCHEMA_VERSION
        self._verified = self._last_seq if chained else self._first_seq - 1
        if self._readonly:
            return reader
        reader.close()
        return self._open_writer(rows, check, head, chained=chained)

    def _load(self, rows: Sequence[Row], head: Head | None, *, vouched: bool) -> None:
        """Replay the stored rows; ``vouched``: their checksums hold (a chained journal), so
        each event was checked, as an event and against the rules, when it was written
        (:func:`~controller.match.event_json.event_from_dict`, :meth:`Replayer.apply`)."""
        progress = self._progress
        events = events_from_json([row.event for row in rows], vouched=vouched)
        for done, row in enumerate(rows, 1):
            try:
                event = next(events)
            except InvalidEventError as error:
                raise self._damaged_event(row.seq, error) from None
            self._follow(row.seq, event, stored=True, vouched=vouched)
            if progress is not None:
                progress(done, len(rows))
        if rows:
            self._first_seq, self._last_seq = rows[0].seq, rows[-1].seq
        elif head is not None:  # an empty journal whose numbers go on from an archived one
            self._first_seq, self._last_seq = head.first, head.first - 1

    def _open_writer(
        self, rows: Sequence[Row], check: ChainCheck, head: Head | None, *, chained: bool
    ) -> sqlite3.Connection:
        """The connection that appends, once the journal is known to be whole."""
        try:
            connection = self._connect(str(self.path), isolation_level=None)
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"cannot open journal {str(self.path)!r}: {error}") from None
        try:
            make_durable(connection)
            if not chained:  # once, in one transaction, its head first: a power cut before
                # the commit leaves the old journal beside the head of the chain it is
                # given, which agree when it is chained again on reopening
                create_head(head_path(self.path), self._head())
                add_digests(connection, rows, check.digests)
            elif head is None:  # a chained journal holding no event, its head lost: no loss
                create_head(head_path(self.path), self._head())
            self._head_file = HeadWriter(head_path(self.path))
        except sqlite3.DatabaseError as error:
            connection.close()
            raise unreadable_error(self.path, error) from None
        except OSError as error:
            connection.close()
            raise JournalError(
                f"cannot write the head of journal {str(self.path)!r}: {error}"
            ) from None
        except BaseException:
            connection.close()
            raise
        self._verified = self._last_seq
        return connection

    def _head(self) -> Head:
        """The chain's head as it stands."""
        return Head(self._first_seq, self._last_seq, self._digest)

    def _event(self, seq: int, text: str) -> Event:
        """The event stored as ``text``; one that does not parse means a damaged journal."""
        try:
            return event_from_json(text)
        except InvalidEventError as error:
            raise self._damaged_event(seq, error) from None

    def _damaged_event(self, seq: int, error: InvalidEventError) -> JournalCorruptError:
        """The error for the stored event ``seq``, which ``error`` refuses."""
        return JournalCorruptError(f"journal {str(self.path)!r}, event {seq}: {error}")

    def _follow(self, seq: int, event: Event, *, stored: bool, vouched: bool = False) -> None:
        """Replay ``event`` on the state; a stored event that fails means a damaged journal."""
        try:
            if self._replayer is None:
                if not isinstance(event, MatchStarted):
                    raise InvalidEventError(f"a journal starts with MatchStarted, got {event!r}")
                self._start = event
                self._replayer = Replayer(event)
            else:
                self._replayer.apply(len(self._events), event, vouched=vouched)
        except InvalidEventError as error:
            if stored:
                raise self._damaged_event(seq, error) from None
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

    def append(self, *events: Event) -> int:
        """Write ``events`` durably, all or none (one input's: a play and the game it ends,
        which a failing write, a full card, would split), and return the last one's
        sequence number; only then act upon them.

        Raises:
            InvalidEventError: if the rules forbid one of them (nothing is written).
            JournalError: if the write fails (nothing is written) or the journal is closed.
        """
        if self._readonly:
            raise JournalError(f"journal {str(self.path)!r} is open for reading only")
        if not events:
            return self._last_seq
        connection = self.connection
        first = seq = self._last_seq + 1
        # Check against the rules first, and undo the state if an event or the write fails.
        saved = self._replayer_state()
        digest, rows = self._digest, []
        try:
            for seq, event in enumerate(events, first):
                text = event_to_json(event)
                self._follow(seq, event, stored=False)
                at = self._clock()
                digest = chain_digest(digest, seq, at, text)
                rows.append((seq, at, text, digest))
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(
                "INSERT INTO events (seq, at, event, digest) VALUES (?, ?, ?, ?)", rows
            )
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            self._restore(saved)
            written = f"event {first}" if seq == first else f"events {first} to {seq}"
            raise unwritable_error(self.path, written, error) from None
        except Exception:  # an event the rules forbid, or any other fault before the write
            self._restore(saved)
            raise
        self._last_seq, self._digest, self._verified = seq, digest, seq
        self._write_head()
        return seq

    def _write_head(self) -> None:
        """Record the chain's head after a commit; a failure is logged, not raised: the events
        are committed, and acted upon. The next commit writes the head again; until then the
        journal is ahead of its head, which opening accepts (one behind it has lost events)."""
        if self._head_file is None:
            return
        try:
            self._head_file.write(self._head())
        except OSError as error:
            _log.error(
                "journal %r: event %d is committed, but its head could not be written: %s",
                str(self.path), self._last_seq, error,
            )  # fmt: skip

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
            raise unreadable_error(self.path, error) from None
        return [JournalEntry(seq, at, self._event(seq, text)) for seq, at, text in rows]

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

    @property
    def verified(self) -> int:
        """The last sequence number up to which every event is as written, by its checksum.

        Every event of a chained journal was checked on opening (and each appended since is
        chained): this is :attr:`last_seq`. A journal written before the chain and opened
        read-only vouches for nothing: the first sequence number minus 1. Why it is exposed:
        a reader may trust the events up to here instead of checking them again.
        """
        return self._verified

    def rotate(self, start: MatchStarted, archive: Path) -> Journal:
        """Archive this journal at ``archive``; a new one at its path, begun by ``start``.

        Why this order: the new journal is written whole beside (``<name>.new`` and its
        head, its first event numbered after this one's last), then this one is closed, its
        head written beside the archive and the journal renamed there, then the new one's
        head and journal take the path. A power cut leaves either the old journal in place
        (the new match never started) or the new one ready beside it, which the next
        opening puts in place: never an empty journal whose numbers would start again at 1,
        never a journal beside the wrong head.

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
        pending = pending_path(self.path)
        try:
            remove_journal_files(pending)  # a new match's journal that never took its place
        except OSError as error:
            raise JournalError(f"cannot remove {str(pending)!r}: {error}") from None
        with Journal(
            pending, clock=self._clock, connect=self._connect, first_seq=self._last_seq + 1
        ) as fresh:
            fresh.append(start)
        head = self._head()
        self.close()
        try:
            create_head(head_path(archive), head)  # the archive is checked when exported
            os.replace(self.path, archive)
            os.replace(head_path(pending), head_path(self.path))
            os.replace(pending, self.path)
            sync(self.path.parent)
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
        """Close the database and its head (idempotent); committed events are already on disk."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._head_file is not None:
            self._head_file.close()
            self._head_file = None
        if self._lock is not None:  # last: see WriterLock.release
            self._lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"

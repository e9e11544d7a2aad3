"""The SQLite journal: durable appends, resuming, refusals, and damaged files.

The power-cut cases copy the database and its write-ahead log while the writer still has
them open (what the disk holds at the moment of the cut), damage the copy as a cut would,
and open the copy: SQLite's own recovery must drop a torn tail and keep every commit.
"""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.record import (
    Event,
    InvalidEventError,
    JournalCorruptError,
    JournalError,
    Phase,
    Taken,
    replay,
)
from controller.record.journal import APPLICATION_ID, Journal
from controller.rules import Rules
from tests.record.matches import irregular_events, selfplay_events

EVENTS = selfplay_events(3, 3)


def write(path: Path, events: list[Event], **options: Any) -> Journal:
    journal = Journal(path, **options)
    for event in events:
        journal.append(event)
    return journal


def test_append_returns_sequence_numbers_and_reads_back_in_order(tmp_path: Path) -> None:
    clock = itertools.count(1000.0, 0.5)
    with Journal(tmp_path / "j.db", clock=lambda: next(clock)) as journal:
        seqs = [journal.append(event) for event in EVENTS[:5]]
        assert seqs == [1, 2, 3, 4, 5]
        entries = journal.entries()
    assert [(e.seq, e.at, e.event) for e in entries] == [
        (n, 1000.0 + 0.5 * (n - 1), event) for n, event in enumerate(EVENTS[:5], 1)
    ]


def test_the_database_is_wal_with_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        journal.append(EVENTS[0])
        connection = journal.connection
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)


def test_reopening_resumes_mid_turn_and_says_so(tmp_path: Path) -> None:
    events = irregular_events(1, Rules(match_length=3))
    cut = next(i for i, e in enumerate(events) if type(e).__name__ == "Observed") + 1
    write(tmp_path / "j.db", events[:cut]).close()
    with Journal(tmp_path / "j.db") as journal:
        state = journal.state
        assert state == replay(events[:cut]).state
        assert state is not None and state.phase is Phase.TO_PLAY
        assert state.partial is not None and state.dice is not None
        assert journal.resumed() == f"resumed after {cut} events: {state.describe()}"
        assert "some checkers already moved" in journal.resumed()
        journal.append(events[cut])  # and it goes on from there
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == events[: cut + 1]


def test_a_new_journal_says_so(tmp_path: Path) -> None:
    with Journal(tmp_path / "sub" / "new.db") as journal:
        assert journal.state is None
        assert journal.resumed() == f"new journal {str(tmp_path / 'sub' / 'new.db')!r}"
        with pytest.raises(JournalError, match="holds no match yet"):
            journal.record()


def test_an_event_the_rules_forbid_is_not_written(tmp_path: Path) -> None:
    with write(tmp_path / "j.db", EVENTS[:3]) as journal:
        with pytest.raises(InvalidEventError, match="player 0 cannot take: no double"):
            journal.append(Taken(0))
        assert journal.append(EVENTS[3]) == 4  # the state was left as it was
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == EVENTS[:4]
    with Journal(tmp_path / "k.db") as journal:
        with pytest.raises(InvalidEventError, match="a journal starts with MatchStarted"):
            journal.append(EVENTS[1])
        assert journal.state is None


class _FailingInsert(sqlite3.Connection):
    fail = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if self.fail and sql.startswith("INSERT"):
            raise sqlite3.OperationalError("disk I/O error")
        return super().execute(sql, *args)


def test_a_failed_write_is_reported_and_leaves_nothing(tmp_path: Path) -> None:
    connections: list[_FailingInsert] = []

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = sqlite3.connect(*args, factory=_FailingInsert, **kwargs)
        connections.append(connection)  # type: ignore[arg-type]
        return connection

    with write(tmp_path / "j.db", EVENTS[:3], connect=connect) as journal:
        connections[0].fail = True
        with pytest.raises(JournalError, match=r"cannot write event 4 to journal .*disk I/O"):
            journal.append(EVENTS[3])
        connections[0].fail = False
        assert journal.state == replay(EVENTS[:3]).state
        assert journal.append(EVENTS[3]) == 4
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == EVENTS[:4]


def test_read_only_journal(tmp_path: Path) -> None:
    write(tmp_path / "j.db", EVENTS[:3]).close()
    with Journal(tmp_path / "j.db", readonly=True) as journal:
        assert journal.events() == EVENTS[:3]
        with pytest.raises(JournalError, match="is open for reading only"):
            journal.append(EVENTS[3])
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()


def test_close_is_idempotent_and_a_closed_journal_refuses(tmp_path: Path) -> None:
    journal = write(tmp_path / "j.db", EVENTS[:1])
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="is closed"):
        journal.append(EVENTS[1])


def test_another_database_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x)")
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"is not a Tabula journal \(SQLite application_id 0x0"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(b"not a database at all, just some text" * 200)
    before = path.read_bytes()
    with pytest.raises(JournalCorruptError, match=r"damaged .*file is not a database.*unchanged"):
        Journal(path)
    assert path.read_bytes() == before


def power_cut_copy(tmp_path: Path, events: list[Event]) -> tuple[Path, Path]:
    """The files on disk after ``events`` were committed, copied while still open."""
    live = tmp_path / "live.db"
    journal = write(live, events)
    copy = tmp_path / "cut.db"
    shutil.copy(live, copy)
    shutil.copy(live.with_name("live.db-wal"), copy.with_name("cut.db-wal"))
    journal.close()
    wal = copy.with_name("cut.db-wal")
    assert wal.stat().st_size > 0  # the events are in the log, not yet in the database
    return copy, wal


def test_a_torn_wal_tail_loses_only_the_commit_in_flight(tmp_path: Path) -> None:
    events = EVENTS[:30]
    copy, wal = power_cut_copy(tmp_path, events)
    with wal.open("r+b") as log:  # the cut came while the last commit was being written
        log.truncate(wal.stat().st_size - 100)
    with Journal(copy) as journal:
        assert journal.events() == events[:29]
        assert journal.state == replay(events[:29]).state
        assert journal.append(events[29]) == 30  # and the match goes on


def test_garbage_after_the_wal_loses_nothing(tmp_path: Path) -> None:
    events = EVENTS[:30]
    copy, wal = power_cut_copy(tmp_path, events)
    with wal.open("ab") as log:
        log.write(bytes(range(256)) * 20)
    with Journal(copy) as journal:
        assert journal.events() == events


def test_a_truncated_database_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:200]).close()  # closing checkpoints the log into the database
    assert not path.with_name("j.db-wal").exists()
    with path.open("r+b") as database:
        database.truncate(path.stat().st_size // 2)
    before = path.read_bytes()
    with pytest.raises(JournalCorruptError, match=r"is damaged .*it was left unchanged"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_stored_event_that_does_not_replay_names_its_sequence(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:5]).close()
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE events SET event = ? WHERE seq = 4", ('{"v":1,"type":"taken","player":0}',)
        )
    with pytest.raises(JournalCorruptError, match="event 4: event 3 Taken"):
        Journal(path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE events SET event = 'oops' WHERE seq = 4")
    with pytest.raises(JournalCorruptError, match="event 4: invalid event 'oops': not JSON"):
        Journal(path)

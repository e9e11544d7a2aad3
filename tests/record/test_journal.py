"""The SQLite journal: durable appends, resuming, refusals, and damaged files.

The power-cut cases copy the database and its write-ahead log while the writer still has
them open (what the disk holds at the moment of the cut), damage the copy as a cut would,
and open the copy: SQLite's own recovery must drop a torn tail and keep every commit.
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.record import (
    Event,
    InvalidEventError,
    JournalCorruptError,
    JournalDamagedError,
    JournalError,
    Phase,
    Played,
    Replayer,
    Taken,
    event_to_json,
    replay,
)
from controller.record._chain import GENESIS, Head, chain_digest, create_head
from controller.record.journal import APPLICATION_ID, Journal, head_path
from controller.rules import Rules
from tests.record.damage import (
    contents,
    damage_log,
    delete_row,
    edit_row,
    empty_file,
    power_cut_image,
    rows_sqlite_keeps,
)
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

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if self.fail and sql.startswith("INSERT"):
            raise sqlite3.OperationalError("disk I/O error")
        return super().executemany(sql, *args)


def test_a_failed_write_is_reported_and_leaves_nothing(tmp_path: Path) -> None:
    connections: list[_FailingInsert] = []

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = sqlite3.connect(*args, factory=_FailingInsert, **kwargs)
        connections.append(connection)  # type: ignore[arg-type]
        return connection

    with write(tmp_path / "j.db", EVENTS[:3], connect=connect) as journal:
        connections[-1].fail = True  # the last opened: the one that appends
        with pytest.raises(JournalError, match=r"cannot write event 4 to journal .*disk I/O"):
            journal.append(EVENTS[3])
        connections[-1].fail = False
        assert journal.state == replay(EVENTS[:3]).state
        assert journal.append(EVENTS[3]) == 4
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == EVENTS[:4]


def test_a_full_card_writes_each_append_whole_or_not_at_all(tmp_path: Path) -> None:
    """SQLite's page limit fails a write as a full file system does ("database or disk is
    full"): the events of one append (an input's) are written all or none, the state stays
    as written, and once there is room again the journal goes on."""
    with write(tmp_path / "j.db", EVENTS[:1]) as journal:
        connection = journal.connection
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        written = 1
        full = r"cannot write events \d+ to \d+ to journal .*: database or disk is full"
        with pytest.raises(JournalError, match=full):
            while written + 2 <= len(EVENTS):  # two events an append, until the card is full
                journal.append(*EVENTS[written : written + 2])
                written += 2
        assert journal.last_seq == written
        assert journal.state == replay(EVENTS[:written]).state
        connection.execute(f"PRAGMA max_page_count = {pages + 64}")  # room again
        assert journal.append(*EVENTS[written : written + 2]) == written + 2
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == EVENTS[: written + 2]


def test_an_append_of_several_events_the_rules_forbid_one_of_writes_none(tmp_path: Path) -> None:
    with write(tmp_path / "j.db", EVENTS[:3]) as journal:
        with pytest.raises(InvalidEventError, match="player 0 cannot take: no double"):
            journal.append(EVENTS[3], Taken(0))
        assert journal.last_seq == 3 and journal.state == replay(EVENTS[:3]).state
        assert journal.append(EVENTS[3], EVENTS[4]) == 5
        assert journal.append() == 5  # nothing to write
    with Journal(tmp_path / "j.db") as journal:
        assert journal.events() == EVENTS[:5]


def test_read_only_journal(tmp_path: Path) -> None:
    write(tmp_path / "j.db", EVENTS[:3]).close()
    with Journal(tmp_path / "j.db", readonly=True) as journal:
        assert journal.events() == EVENTS[:3]
        with pytest.raises(JournalError, match="is open for reading only"):
            journal.append(EVENTS[3])
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.parametrize("readonly", [False, True])
def test_a_path_that_cannot_be_a_file_is_a_journal_error(tmp_path: Path, readonly: bool) -> None:
    """A name longer than the system takes: an OSError out of ``tabula run`` before."""
    with pytest.raises(JournalError, match=r"journal '.*yyy.*': .*File name too long"):
        Journal(tmp_path / ("y" * 300) / "j.db", readonly=readonly)


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


def power_cut_copy(
    tmp_path: Path, events: list[Event], *, head_after: int | None = None
) -> tuple[Path, Path]:
    """The files on disk after ``events`` were committed, copied while still open.

    The head is copied as it was after ``head_after`` events (all of them by default): one
    fewer is the cut between the last commit and the head's write.
    """
    live = tmp_path / "live.db"
    journal = write(live, events[:head_after])
    head = head_path(live).read_bytes()
    for event in events[len(events[:head_after]) :]:
        journal.append(event)
    copy = tmp_path / "cut.db"
    power_cut_image(live, copy, head=head)
    journal.close()
    wal = copy.with_name("cut.db-wal")
    assert wal.stat().st_size > 0  # the events are in the log, not yet in the database
    return copy, wal


def test_a_torn_wal_tail_loses_only_the_commit_in_flight(tmp_path: Path) -> None:
    events = EVENTS[:30]
    # The cut came while the last commit was being written: its head was not written yet.
    copy, wal = power_cut_copy(tmp_path, events, head_after=29)
    with wal.open("r+b") as log:
        log.truncate(wal.stat().st_size - 100)
    with Journal(copy) as journal:
        assert journal.events() == events[:29]
        assert journal.state == replay(events[:29]).state
        assert journal.append(events[29]) == 30  # and the match goes on
    with Journal(copy) as journal:
        assert journal.events() == events and journal.verified == 30


def test_a_cut_between_the_commit_and_the_head_loses_nothing(tmp_path: Path) -> None:
    copy, _ = power_cut_copy(tmp_path, EVENTS[:30], head_after=29)
    with Journal(copy) as journal:
        assert journal.events() == EVENTS[:30]
        assert journal.append(EVENTS[30]) == 31
    with Journal(copy, readonly=True) as journal:
        assert journal.events() == EVENTS[:31] and journal.verified == 31


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


def write_unchained(path: Path, events: list[Event]) -> None:
    """A journal as written before the chained checksums (schema version 1, no head)."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL NOT NULL, "
                           "event TEXT NOT NULL)")  # fmt: skip
        connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
        connection.execute("PRAGMA user_version=1")
        connection.executemany(
            "INSERT INTO events VALUES (?, ?, ?)",
            [(seq, 1000.0 + seq, event_to_json(event)) for seq, event in enumerate(events, 1)],
        )
    connection.close()


def test_a_stored_event_that_does_not_replay_names_its_sequence(tmp_path: Path) -> None:
    # Unchained, so that the replay sees it (a chained journal names the row changed first).
    path = tmp_path / "j.db"
    write_unchained(path, EVENTS[:5])
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


def test_an_old_journal_still_checks_each_event_it_reads(tmp_path: Path) -> None:
    """Without the chain nothing vouches for a row: an impossible board is refused, named,
    as the event's own check says (a chained journal names the row changed first)."""
    path = tmp_path / "j.db"
    write_unchained(path, EVENTS[:5])
    impossible = json.dumps({"v": 1, "type": "observed", "board": [0] + [1] * 16 + [0] * 9})
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE events SET event = ? WHERE seq = 4", (impossible,))
    connection.close()
    with pytest.raises(JournalCorruptError, match=r"event 4: invalid event .*more than 15"):
        Journal(path, readonly=True)


# Damage that SQLite does not see: the journal's own checks name what was lost or changed.


def damaged(path: Path, problems: str) -> str:
    """The refusal's whole message for the journal at ``path``."""
    return (
        f"journal {str(path)!r} is damaged: {problems}; it was left unchanged. Restore it "
        "(with its .head file) from a backup, or move both aside to start a new match"
    )


def refused(path: Path, *, readonly: bool = False) -> JournalDamagedError:
    """The refusal to open ``path``, having checked that no file of it changed."""
    before = contents(path)
    with pytest.raises(JournalDamagedError) as caught:
        Journal(path, readonly=readonly)
    assert contents(path) == before
    return caught.value


def test_an_empty_file_is_refused_never_written_over(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:40]).close()
    empty_file(path)
    for readonly in (False, True):
        error = refused(path, readonly=readonly)
        assert str(error) == damaged(
            path,
            "the file is empty (0 bytes); events 1-40 are missing "
            "(the file holds none, its head says 1-40)",
        )
        assert (error.missing, error.changed) == (((1, 40),), ())
    head_path(path).unlink()  # without its head, what it held is unknown: refused all the same
    assert str(refused(path)) == damaged(path, "the file is empty (0 bytes)")


def test_a_journal_gone_while_its_head_remains_is_not_started_again(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:40]).close()
    path.unlink()
    problems = "the file is gone; events 1-40 are missing (the file holds none, its head says 1-40)"
    assert str(refused(path)) == damaged(path, problems)
    assert not path.exists()
    copy, wal = power_cut_copy(tmp_path, EVENTS[:10])
    copy.unlink()
    head_path(copy).unlink()  # without its head too, the log left behind says it held events
    problems = f"the file is gone but its write-ahead log {str(wal)!r} remains"
    assert str(refused(copy)) == damaged(copy, problems)
    assert not copy.exists()


@pytest.mark.parametrize(
    ("seq", "problems"),
    [
        (17, "event 17 is missing (the file holds 1-16, 18-40, its head says 1-40)"),
        (1, "event 1 is missing (the file holds 2-40, its head says 1-40)"),
        (40, "event 40 is missing (the file holds 1-39, its head says 1-40)"),
    ],
)
def test_a_deleted_row_is_named(tmp_path: Path, seq: int, problems: str) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:40]).close()
    delete_row(path, seq)
    error = refused(path)
    assert str(error) == damaged(path, problems)
    assert error.missing == ((seq, seq),)


def test_an_edited_row_is_named_even_if_it_replays(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:40]).close()
    edit_row(path, 12)
    edit_row(path, 40)
    error = refused(path, readonly=True)
    problems = "events 12, 40 were changed since written (checksum mismatch)"
    assert str(error) == damaged(path, problems)
    assert (error.missing, error.changed) == ((), (12, 40))


def test_a_lost_wal_tail_is_named_and_never_checkpointed(tmp_path: Path) -> None:
    copy, _ = power_cut_copy(tmp_path, EVENTS[:30])
    damage_log(copy)  # committed frames: SQLite's recovery drops them and the rest
    kept = rows_sqlite_keeps(copy, tmp_path / "scratch.db")
    assert kept < 30
    error = refused(copy)  # read-write, as the service opens it: the log is not checkpointed
    lost = f"{kept + 1}-30" if kept < 29 else "30"
    assert str(error) == damaged(
        copy,
        f"event{'s' if kept < 29 else ''} {lost} {'are' if kept < 29 else 'is'} missing "
        f"(the file holds 1-{kept}, its head says 1-30)",
    )
    assert error.missing == ((kept + 1, 30),)


def test_a_missing_or_damaged_head_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:10]).close()
    head = head_path(path)
    saved = head.read_bytes()
    head.unlink()
    problems = f"its head file {str(head)!r} is missing, so a lost tail cannot be ruled out"
    assert str(refused(path)) == damaged(path, problems)
    head.write_bytes(b"\0" * len(saved))
    assert str(refused(path)) == damaged(
        path, f"its head file {str(head)!r} is damaged (no valid record)"
    )


def _empty_without_head(path: Path) -> None:
    Journal(path).close()
    head_path(path).unlink()


@pytest.mark.parametrize(
    "make",
    [_empty_without_head, lambda path: write_unchained(path, [])],
    ids=["chained, its head lost", "unchained"],
)
def test_an_empty_journal_without_a_head_lost_nothing_and_opens(
    tmp_path: Path, make: Callable[[Path], None]
) -> None:
    path = tmp_path / "j.db"
    make(path)
    with Journal(path) as journal:
        assert journal.append(EVENTS[0]) == 1
    with Journal(path, readonly=True) as journal:
        assert journal.events() == EVENTS[:1] and journal.verified == 1


def test_a_head_write_torn_by_a_cut_leaves_the_head_before(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    write(path, EVENTS[:10]).close()
    head = head_path(path)
    data = bytearray(head.read_bytes())
    data[10 % 2 * 64 + 20] ^= 0xFF  # the slot of event 10 torn: the head says 9
    head.write_bytes(bytes(data))
    with Journal(path) as journal:
        assert journal.events() == EVENTS[:10] and journal.verified == 10


def test_a_head_that_cannot_be_written_loses_nothing_and_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "j.db"
    with write(path, EVENTS[:5]) as journal:
        assert journal._head_file is not None
        journal._head_file.close()  # each write of the head fails from now on (EBADF)
        assert journal.append(EVENTS[5]) == 6
        assert journal.append(EVENTS[6]) == 7
    assert "event 6 is committed, but its head could not be written" in caplog.text
    with Journal(path) as journal:  # ahead of its head, which says 5: nothing lost
        assert journal.events() == EVENTS[:7] and journal.verified == 7


def test_an_old_journal_opens_and_is_chained_once(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    write_unchained(path, EVENTS[:20])
    before = path.read_bytes()
    with Journal(path, readonly=True) as journal:  # read as it is: nothing vouched for
        assert journal.events() == EVENTS[:20] and journal.verified == 0
    assert path.read_bytes() == before and not head_path(path).exists()
    with Journal(path) as journal:
        assert journal.events() == EVENTS[:20] and journal.verified == 20
        assert journal.connection.execute("PRAGMA user_version").fetchone() == (2,)
        assert journal.append(EVENTS[20]) == 21
    with Journal(path, readonly=True) as journal:
        assert journal.events() == EVENTS[:21] and journal.verified == 21
    edit_row(path, 3)
    assert refused(path).changed == (3,)


def test_an_old_journal_chained_when_the_power_went_is_chained_again(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    write_unchained(path, EVENTS[:20])
    with Journal(path):
        pass
    head = head_path(path).read_bytes()  # written before the chaining's commit
    write_unchained(old := tmp_path / "again.db", EVENTS[:20])
    head_path(old).write_bytes(head)
    with Journal(old) as journal:
        assert journal.events() == EVENTS[:20] and journal.verified == 20


def test_reopening_a_chained_journal_trusts_its_plays_and_reaches_the_same_state(
    tmp_path: Path,
) -> None:
    """A chained journal's checksums vouch that each play is as it was checked when it was
    written, so reopening takes its boards as recorded (resume in linear time): the state
    is the one that checking every play against the rules again reaches."""
    events = irregular_events(5, Rules(match_length=0), games=6)
    write(tmp_path / "j.db", events).close()
    checked = Replayer(events[0])
    for index, event in enumerate(events[1:], 1):
        checked.apply(index, event)
    with Journal(tmp_path / "j.db") as reopened:
        assert reopened.state == checked.snapshot
        assert reopened.events() == events  # read without their checks, as they were written
    kinds = {type(event).__name__ for event in events}
    assert {"Played", "IllegalPlayAccepted", "PositionEdited"} <= kinds


def forge(path: Path, seq: int, text: str) -> None:
    """Write ``text`` as event ``seq`` and chain every row again, head included: a row
    the chain vouches for that no event wrote (a forger's, or a faulty writer's)."""
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE events SET event = ? WHERE seq = ?", (text, seq))
        rows = connection.execute("SELECT seq, at, event FROM events ORDER BY seq").fetchall()
        digest = GENESIS
        for row_seq, at, event in rows:
            digest = chain_digest(digest, row_seq, at, event)
            connection.execute("UPDATE events SET digest = ? WHERE seq = ?", (digest, row_seq))
    connection.close()
    create_head(head_path(path), Head(rows[0][0], rows[-1][0], digest))


def test_a_chained_journal_reads_its_json_in_one_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its rows are each one object as written: one JSON array for the journal, not one
    parse a row (an old journal's rows are read one by one)."""
    write(path := tmp_path / "j.db", EVENTS[:30]).close()
    write_unchained(old := tmp_path / "old.db", EVENTS[:30])
    parses: list[str] = []
    loads = json.loads

    def counted(text: str) -> object:
        parses.append(text)
        return loads(text)

    monkeypatch.setattr(json, "loads", counted)
    with Journal(path, readonly=True) as journal:
        assert journal.events() == EVENTS[:30]
    assert len(parses) == 1
    with Journal(old, readonly=True) as journal:
        assert journal.events() == EVENTS[:30]
    assert len(parses) == 31


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("oops", "invalid event 'oops': not JSON"),
        ('{"v":1,"type":"taken","player":0},{"v":1,"type":"taken","player":1}', "Extra data"),
        ('{"v":1,"type":"conceded","player":0}', "unknown type 'conceded'"),
        ('{"v":1,"type":"taken","player":1}', "Taken(player=1): player 1 cannot take"),
    ],
    ids=["not JSON", "two objects", "no event", "refused by the rules"],
)
def test_a_vouched_row_that_is_no_event_is_named(tmp_path: Path, text: str, reason: str) -> None:
    """Read as one array, a row that spoils it is still named: each is then read alone."""
    write(path := tmp_path / "j.db", EVENTS[:10]).close()
    forge(path, 4, text)
    with pytest.raises(JournalCorruptError, match=f"journal .*, event 4: .*{re.escape(reason)}"):
        Journal(path, readonly=True)


def test_a_vouched_play_is_still_refused_out_of_turn() -> None:
    """Vouching spares the search among every legal play, not the checks of whose turn it
    is and which dice were rolled."""
    events = EVENTS
    replayer = Replayer(events[0])
    index = next(i for i, event in enumerate(events) if isinstance(event, Played))
    for position, event in enumerate(events[1:index], 1):
        replayer.apply(position, event, vouched=True)
    played = events[index]
    assert isinstance(played, Played)
    wrong = Played(1 - played.player, played.dice, played.notation, played.board)
    with pytest.raises(InvalidEventError, match="no play by player"):
        replayer.apply(index, wrong, vouched=True)

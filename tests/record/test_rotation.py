"""A new match's journal: the old one archived beside it, the sequence numbers going on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.record import JournalError, MatchStarted
from controller.record.journal import Journal, archive_path, head_path
from controller.rules import Rules
from tests.record.matches import NAMES, selfplay_events

EVENTS = selfplay_events(3, 3)
NEXT = MatchStarted(("Carol", "Dan"), Rules(match_length=5))


def test_rotate_archives_the_journal_and_numbers_on(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for event in EVENTS[:40]:
        journal.append(event)
    archive = archive_path(path, 1_800_000_000.0, journal.first_seq, journal.last_seq)
    assert archive.name == "journal-20270115-080000-seq1-40.sqlite3"
    fresh = journal.rotate(NEXT, archive)
    with fresh:
        assert (fresh.first_seq, fresh.last_seq) == (41, 41)
        assert fresh.events() == [NEXT]
        assert fresh.append(EVENTS[1]) == 42
    with Journal(archive, readonly=True) as old:  # with its head: checked as it is read
        assert old.events() == EVENTS[:40] and old.last_seq == 40 and old.verified == 40
        assert head_path(archive).exists()
        assert old.record().names == NAMES
    with Journal(path) as again:  # reopened: numbers go on from the journal's own
        assert [e.seq for e in again.entries()] == [41, 42]
        assert again.append(EVENTS[2]) == 43
        second = archive_path(path, 1_800_000_100.0, again.first_seq, again.last_seq)
        third = again.rotate(MatchStarted(NAMES, Rules()), second)
    with third:
        assert third.first_seq == 44
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == [
        "journal-20270115-080000-seq1-40.sqlite3",
        "journal-20270115-080140-seq41-43.sqlite3",
        "journal.sqlite3",
    ]


@pytest.mark.parametrize("head_moved", [False, True])
def test_a_power_cut_between_the_renames_finishes_the_rotation(
    tmp_path: Path, head_moved: bool
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        for event in EVENTS[:10]:
            journal.append(event)
        archive = tmp_path / "archived.sqlite3"
        fresh = journal.rotate(NEXT, archive)
    fresh.close()
    # The disk as it was after the old journal's rename, before the new one's (and before
    # the new one's head, which left the old one's head at the path).
    pending = path.with_name(path.name + ".new")
    shutil.move(path, pending)
    if not head_moved:
        shutil.move(head_path(path), head_path(pending))
        shutil.copy(head_path(archive), head_path(path))
    with Journal(path) as resumed:
        assert resumed.events() == [NEXT] and resumed.first_seq == 11
    with Journal(archive, readonly=True) as old:
        assert old.events() == EVENTS[:10] and old.verified == 10


def test_a_new_journal_that_never_took_its_place_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.append(EVENTS[0])
        with Journal(path.with_name(path.name + ".new"), first_seq=2) as stale:
            stale.append(NEXT)
        fresh = journal.rotate(NEXT, tmp_path / "old.sqlite3")
    with fresh:
        assert fresh.events() == [NEXT] and fresh.first_seq == 2


def test_rotation_refuses_an_existing_archive_and_bad_numbers(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    taken = tmp_path / "taken.sqlite3"
    taken.write_bytes(b"")
    with Journal(path) as journal:
        journal.append(EVENTS[0])
        with pytest.raises(JournalError, match=r"taken.sqlite3' exists"):
            journal.rotate(NEXT, taken)
        assert journal.append(EVENTS[1]) == 2  # still open, unchanged
    with pytest.raises(JournalError, match=r"first sequence number is >= 1, got 0"):
        Journal(tmp_path / "other.sqlite3", first_seq=0)

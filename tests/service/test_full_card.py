"""A journal that cannot be written (a full SD card): the service stays up, says so, takes
nothing it cannot record, and goes on by itself once the card has room again.

The card is filled with SQLite's own page limit (``PRAGMA max_page_count``), which fails a
write exactly as a full file system does: "database or disk is full" (what a 96 KiB tmpfs
gave ``tabula demo``, which then stopped with status 2).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from controller import record
from controller.record.journal import Journal
from controller.referee import DiceEntered, DiceRolled
from controller.rules import Rules
from controller.service import Service, match_journal
from controller.service.service import open_journal
from controller.status import ActionError, BoardEvent
from tests.firmware_bridge.conftest import PATIENCE_S
from tests.service.test_match_actions import NAMES, QueueBoard, journalled, running, until

FULL = "not taken, as it cannot be recorded: cannot write event {seq} to journal"


def _filled(journal: Journal) -> int:
    """Fill ``journal``'s card: as many events as fit until one does not, then no room
    at all. The events confirm the orientation again and again, as a set-up may."""
    connection = journal.connection
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(record.JournalError, match="database or disk is full"):
        for _ in range(1_000):
            journal.append(record.OrientationConfirmed(far=False, colour_b=False))
    return pages


def test_a_full_card_takes_nothing_says_so_and_the_game_goes_on_once_it_has_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(match_journal, "UNRECORDED_RETRY_S", 0.05)
    path = tmp_path / "journal.sqlite3"
    with open_journal(path) as journal:
        journal.append(record.MatchStarted(NAMES, Rules(), "backgammon"))
        pages = _filled(journal)
        full_at = journal.last_seq + 1
        service = Service("b1", journal, names=NAMES)

        async def body(service: Service, _: QueueBoard, published: list[BoardEvent]) -> None:
            service.feed(DiceRolled((3, 1)))  # the camera reads the opening roll
            await until(service, lambda: service.counters.refused >= 2, "the roll tried again")
            status = service.status()
            assert FULL.format(seq=full_at) in status.text, status.text
            assert "database or disk is full" in status.text
            assert status.phase != "moving" and journal.last_seq == full_at - 1
            # A web action is refused (409) and not tried again; the roll still is.
            with pytest.raises(ActionError, match="database or disk is full"):
                await service.apply(DiceEntered((5, 2)))
            journal.connection.execute(f"PRAGMA max_page_count = {pages + 64}")  # room again
            await until(service, lambda: service.status().phase == "moving", "the roll taken")
            await until(service, lambda: bool(published), "the roll published")
            assert [event.kind for event in published] == ["opening_rolled"]

        with caplog.at_level(logging.INFO, logger=match_journal.__name__):
            running(service, body)
    # Logged when it started and when it ended, not at every try.
    lines = [r.getMessage() for r in caplog.records if r.name == match_journal.__name__]
    assert len(lines) == 2, lines
    assert lines[0].startswith(FULL.format(seq=full_at)), lines[0]
    assert lines[1] == "the journal is written again"
    events = journalled(path)
    assert isinstance(events[-1], record.OpeningRolled) and len(events) == full_at
    with Journal(path, readonly=True) as reopened:
        assert reopened.state is not None and reopened.state.dice == (3, 1)


def _card_slow_to_commit(
    reached: threading.Event, release: threading.Event, fail: list[bool]
) -> type[sqlite3.Connection]:
    """A connection class whose commits wait, while ``release`` is clear, until the test
    sets it, then fail once if ``fail`` says so: a card slow to take a write, then full."""

    class SlowCard(sqlite3.Connection):
        def execute(self, sql: str, *arguments: Any) -> sqlite3.Cursor:
            if sql == "COMMIT" and not release.is_set():
                reached.set()
                assert release.wait(PATIENCE_S), "the test never let the commit go"
                if fail and fail.pop():
                    raise sqlite3.OperationalError("database or disk is full")
            return super().execute(sql, *arguments)

    return SlowCard


def test_an_export_during_a_commit_waits_for_it_and_shows_no_event_the_card_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal follows an input's events in memory before its commit (in a worker
    thread); an export asked for from the page meanwhile read them, and showed a roll that
    the full card then refused."""
    monkeypatch.setattr(match_journal, "UNRECORDED_RETRY_S", 3600.0)  # the test feeds again
    reached, release, fail = threading.Event(), threading.Event(), [True]
    release.set()
    factory = _card_slow_to_commit(reached, release, fail)
    connect = functools.partial(sqlite3.connect, check_same_thread=False, factory=factory)
    path = tmp_path / "journal.sqlite3"
    with Journal(path, connect=connect) as journal:
        service = Service("b1", journal, names=NAMES)  # the match's start commits at once

        async def kinds() -> list[str]:
            text = await service.export("jsonl")
            return [json.loads(line)["type"] for line in text.splitlines()]

        async def body(service: Service, _: QueueBoard, published: list[BoardEvent]) -> None:
            release.clear()
            service.feed(DiceRolled((3, 1)))  # the opening roll, held in its commit
            assert await asyncio.to_thread(reached.wait, PATIENCE_S), "no commit began"
            export = asyncio.create_task(kinds())
            await asyncio.sleep(0.2)  # were the export not to wait, it would be done
            assert not export.done()
            release.set()  # the commit fails: the card is full
            assert await export == ["match_started"]
            await until(service, lambda: service.counters.refused >= 1, "the roll refused")
            service.feed(DiceRolled((3, 1)))  # the card has room again
            await until(service, lambda: service.status().phase == "moving", "the roll taken")
            assert await kinds() == ["match_started", "opening_rolled"]

        running(service, body)
    assert [type(event) for event in journalled(path)] == [
        record.MatchStarted,
        record.OpeningRolled,
    ]

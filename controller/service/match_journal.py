"""The service's journal: opened for the loop's worker thread, a match started or resumed
from it, put aside for a new match, and exported.

Why apart from the loop: every event is journalled before it is acted upon, and a new
match must leave a journal at the path whatever fails on the way; these are the journal's
rules, which the loop only calls.

Each call that changes the journal or reads its match runs in a worker thread holding the
service's lock of it (:class:`threading.Lock`, so the loop never waits on it): an append
follows its events in memory before its commit, so a match read meanwhile (an export, a
review, asked for from the page) held events the card might yet refuse, and could catch
a game's end half followed.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from controller import record
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.record.exports import write_match
from controller.record.formats import MatchFormat
from controller.record.journal import Journal
from controller.referee import Mode
from controller.rules import Rules, Variant
from controller.service.queued import Item

__all__ = [
    "NotRecordedError",
    "Unrecorded",
    "append_events",
    "export_match",
    "match_record",
    "open_journal",
    "rotate_journal",
    "start_or_resume",
]

_log = logging.getLogger(__name__)

_T = TypeVar("_T")

UNRECORDED_RETRY_S = 5.0
"""How often the table's last input that the journal could not take is tried again."""


class NotRecordedError(RefusedError):
    """An input the journal could not take (a full or failing card): nothing changed."""


def _holding(lock: threading.Lock, function: Callable[..., _T], *arguments: object) -> _T:
    with lock:
        return function(*arguments)


async def append_events(
    journal: Journal, events: Sequence[record.Event], lock: threading.Lock
) -> int:
    """Journal ``events`` in a worker thread, all or none; the last one's sequence number.

    Raises:
        RefusedError: if the record refuses one of them.
        NotRecordedError: if they cannot be written: the input is then not taken, as every
            event is journalled before it is acted upon.
    """
    try:
        return await asyncio.to_thread(_holding, lock, journal.append, *events)
    except record.InvalidEventError as error:
        _log.error("journal refused %r: %s", events, error)
        raise RefusedError(f"the record refuses it: {error}") from None
    except record.JournalError as error:
        raise NotRecordedError(f"not taken, as it cannot be recorded: {error}") from None


class Unrecorded:
    """The table's last input that the journal could not take, tried again every
    :data:`UNRECORDED_RETRY_S` until it is taken or a newer input is: the board as it
    stands and the dice as they lie are still so once the card has room again, so the
    game goes on by itself.

    The problem is logged when it starts and when it ends, not at every try.
    """

    def __init__(self, requeue: Callable[[Item], None]) -> None:
        self._requeue = requeue
        self._item: Item | None = None
        self._failing = False  # the journal cannot be written

    def refused(self, item: Item | None, error: NotRecordedError) -> None:
        """``item`` was not taken: ``error``. None for one not to try again (a web action),
        which leaves the board's input to try as it was."""
        if not self._failing:
            _log.error("%s; the board's last input is tried again every %g s",
                       error, UNRECORDED_RETRY_S)  # fmt: skip
        self._failing = True
        if item is not None:
            self._item = item
            asyncio.get_running_loop().call_later(UNRECORDED_RETRY_S, self._retry, item)

    def taken(self) -> None:
        """An input was journalled: nothing is left to try again."""
        if self._failing:
            _log.info("the journal is written again")
        self._failing, self._item = False, None

    def _retry(self, item: Item) -> None:
        if self._item is item:
            self._requeue(item)


def open_journal(path: Path, *, first_seq: int = 1) -> Journal:
    """The journal at ``path`` for the service, whose commits run in a worker thread.

    The one ``referee`` task appends, an input's events at a time, so the connection is never
    used by two threads at once: SQLite's same-thread check is lifted for that.
    ``first_seq`` numbers a new journal's first event (:class:`Journal`'s).
    """
    return Journal(
        path,
        connect=functools.partial(sqlite3.connect, check_same_thread=False),
        first_seq=first_seq,
    )


def start_or_resume(
    journal: Journal,
    names: tuple[str, str],
    rules: Rules | None,
    mode: Mode,
    variant: Variant,
) -> tuple[Flow, str]:
    """The flow of ``journal``'s match, started if the journal is new (with ``names``,
    ``rules`` and ``variant``) or resumed where it stood; and a line saying which."""
    snapshot = journal.state
    if snapshot is None:
        rules = rules if rules is not None else Rules()
        journal.append(record.MatchStarted(names, rules, variant.name))
        return Flow.new(names, rules, mode, variant), f"new match in {str(journal.path)!r}"
    flow, owed = Flow.resume(snapshot, mode)
    resumed = journal.resumed()
    for event in owed:
        journal.append(event)
    return flow, resumed


async def rotate_journal(
    old: Journal, start: record.MatchStarted, archive: Path, lock: threading.Lock
) -> tuple[Journal, str | None]:
    """The journal at ``old``'s path once the new match's is started with ``start`` (the old
    one archived as ``archive``), and why the new match failed, if it did: the journal at
    the path is then the old one, whole."""
    try:
        return await asyncio.to_thread(_holding, lock, old.rotate, start, archive), None
    except record.JournalError as error:
        _log.error("new match: %s", error)
        journal = old
        if old.closed:  # a rename failed: the journal at the path is the old or the new
            journal = await asyncio.to_thread(open_journal, old.path)
        return journal, None if journal.events() == [start] else str(error)


async def match_record(journal: Journal, lock: threading.Lock) -> record.MatchRecord:
    """``journal``'s match as its last append left it (once any append under way is done).

    Raises:
        JournalError: for a journal that holds no match.
    """
    return await asyncio.to_thread(_holding, lock, journal.record)


async def export_match(match: record.MatchRecord, fmt: MatchFormat) -> str:
    """``match`` as a ``.mat``, ``.sgf``, JSON-lines (``jsonl``) or text record, written in a
    worker thread: a 25-point match's ``.sgf`` takes 30 ms here (``python -m benchmarks
    journal``: 12 us an event), several times that on a Pi, which the loop (the board's
    reading, the LEDs) would wait.

    Raises:
        RefusedError: for a match these GNU Backgammon formats cannot hold (Jacquet de
            Versailles, nackgammon), saying which export can.
    """
    try:
        return await asyncio.to_thread(write_match, match, fmt)
    except record.RecordError as error:
        raise RefusedError(str(error)) from None

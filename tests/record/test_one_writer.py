"""One writer a journal: a second process opening it to write is refused, naming the first.

Before, two demos on one ``--out`` (or ``tabula run`` beside the service) both opened the
journal: the second resumed the first's match and refused every input it saw ("cannot
write event 71 ...: UNIQUE constraint failed"), and appends in turn could have left events
that no longer replay together. Readers are not refused.
"""

from __future__ import annotations

import queue
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller import record
from controller.record.journal import Journal
from controller.rules import Rules
from tests.firmware_bridge.conftest import PATIENCE_S

_HOLD = """
import sys
from controller.record.journal import Journal
with Journal(sys.argv[1]) as journal:
    print(journal.last_seq, flush=True)
    sys.stdin.readline()
"""


def _started(path: Path) -> None:
    with Journal(path) as journal:
        journal.append(record.MatchStarted(("Ann", "Bob"), Rules(3), "backgammon"))


def test_a_second_writer_is_refused_and_a_reader_is_not(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _started(path)
    with Journal(path) as first:
        with pytest.raises(record.JournalError, match=r"is being written by process \d+ \("):
            Journal(path)
        with Journal(path, readonly=True) as reader:
            assert reader.last_seq == first.last_seq == 1
        first.append(record.OrientationConfirmed(far=False, colour_b=False))
    with Journal(path) as second:  # the first closed: written again
        assert second.last_seq == 2


def test_the_writer_of_another_process_is_named_and_its_death_frees_the_journal(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    _started(path)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "1\n"  # it holds it
        with pytest.raises(record.JournalError) as refusal:
            Journal(path)
        assert f"is being written by process {holder.pid} (" in str(refusal.value)
        holder.send_signal(signal.SIGKILL)  # as a power cut or the OOM killer ends it
        holder.wait()
    finally:
        holder.kill()
        holder.wait()
    with Journal(path) as journal:  # the kernel dropped the lock with the process
        assert journal.last_seq == 1


def test_two_processes_starting_a_new_journal_at_once_make_one_and_one_writes(
    tmp_path: Path,
) -> None:
    """The service and a ``tabula run`` by hand, starting on a journal not made yet: each
    made one beside the path and renamed it there, the second over the first, whose writer
    lock was then on a file gone; both wrote to the second. One opener (a thread here, as
    ``flock`` locks belong to each opening) is held in its creation while the other starts."""
    path = tmp_path / "journal.sqlite3"
    creating, release, done = threading.Event(), threading.Event(), threading.Event()
    outcomes: queue.Queue[str] = queue.Queue()

    def held_in_creation(database: str, **options: Any) -> sqlite3.Connection:
        if database.endswith(".init"):
            creating.set()
            assert release.wait(PATIENCE_S)
        return sqlite3.connect(database, **options)

    def opener(connect: Callable[..., sqlite3.Connection]) -> None:
        try:
            journal = Journal(path, connect=connect)
        except record.JournalError as error:
            outcomes.put(str(error))
            return
        with journal:
            outcomes.put("writes")
            done.wait(PATIENCE_S)
            journal.append(record.MatchStarted(("Ann", "Bob"), Rules(3), "backgammon"))

    threads = [threading.Thread(target=opener, args=(held_in_creation,))]
    threads[0].start()
    assert creating.wait(PATIENCE_S)
    threads.append(threading.Thread(target=opener, args=(sqlite3.connect,)))
    threads[1].start()
    threads[1].join(timeout=0.5)  # it waits for the creation (or, wrongly, is done by then)
    release.set()
    results = sorted(outcomes.get(timeout=PATIENCE_S) for _ in threads)
    done.set()
    for thread in threads:
        thread.join(PATIENCE_S)
    assert results[-1] == "writes" and "is being written by process" in results[0], results
    with Journal(path, readonly=True) as journal:
        assert [type(event) for event in journal.events()] == [record.MatchStarted]
    assert not list(tmp_path.glob("*.init*"))  # no journal half made is left

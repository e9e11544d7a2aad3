"""One writer a journal: a second process opening it to write is refused, naming the first.

Before, two demos on one ``--out`` (or ``tabula run`` beside the service) both opened the
journal: the second resumed the first's match and refused every input it saw ("cannot
write event 71 ...: UNIQUE constraint failed"), and appends in turn could have left events
that no longer replay together. Readers are not refused.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller import record
from controller.record.journal import Journal
from controller.rules import Rules

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

"""A journal whose files this user may not write is refused at opening, naming them.

The case: ``sudo tabula run`` killed (or the power cut) on the service's journal leaves
the write-ahead log and its index owned by root. SQLite, opened by the service's user,
then reads the journal for reading only without a word, and the first write fails: the
service started, and refused every input. Here the files belong to another user
(``nobody``) and the journal is opened in a user namespace of the test's own, where
this process keeps its user but loses the capability to write other users' files: the
kernel's own permission checks, as for the service's user on a Pi.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.record.crash_writer import start_writer

_OPEN = """
import sys
from controller.record.errors import JournalError
from controller.record.journal import Journal
try:
    Journal(sys.argv[1]).close()
except JournalError as error:
    print(error)
else:
    print("opened")
"""


def _killed_journal(path: Path) -> None:
    """A journal at ``path`` whose writer was killed mid-match: its log and index beside."""
    writer = start_writer(path, 1)
    assert writer.stdout is not None
    for line in writer.stdout:
        if line.startswith("ack 3"):
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    writer.stdout.close()


def _opened_by_another(path: Path) -> str:
    """What opening ``path`` to write says in a user namespace: this user, no capability."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare (util-linux) to make a user namespace")
    done = subprocess.run(
        [unshare, "--user", sys.executable, "-c", _OPEN, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode and "unshare" in done.stderr:
        pytest.skip(f"no user namespaces here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_log_and_index_of_another_user_are_named_at_opening(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving files to another user needs root")
    path = tmp_path / "journal.sqlite3"
    _killed_journal(path)
    log, index = (path.with_name(path.name + end) for end in ("-wal", "-shm"))
    for file in (path, log, index, path.with_name(path.name + ".head")):
        os.chown(file, 65534, 65534)  # nobody's
    for file in (path, path.with_name(path.name + ".head")):
        file.chmod(0o666)  # the journal and its head writable by all: the log and index not
    said = _opened_by_another(path)
    assert said.startswith(f"cannot write journal {str(path)!r}: user "), said
    assert f"may not write {str(log)!r} (owned by nobody), {str(index)!r}" in said, said
    assert "the journal is unchanged, and tabula review and tabula export still read it" in said
    # Writable again, it opens: the refusal was the files', nothing else.
    log.chmod(0o666)
    index.chmod(0o666)
    assert _opened_by_another(path) == "opened"

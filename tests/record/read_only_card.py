"""Journals on a card the kernel turned read-only: the test's scenario, run where it can
mount a file system.

``python -m tests.record.read_only_card DIR``, run inside a new user and mount namespace
(``unshare --user --map-root-user --mount``), mounts a tmpfs on ``DIR`` and writes three
journals there with the crash test's writer (:mod:`tests.record.crash_writer`): one whole
and closed, one killed with SIGKILL mid-match (its write-ahead log and the log's index,
``-shm``, left beside it, as after a power cut), and one killed whose index is then
removed. It remounts the file system read-only, as the kernel remounts an SD card after
errors, and prints as JSON what opening each journal to read and to write gives, and
what ``tabula export``, ``tabula run`` (on the whole journal) and ``tabula demo`` (a new
match) say there. The test
(``tests/record/test_read_only_card.py``) judges it.

Why a real mount: SQLite's behaviour on a read-only file system (it cannot create the
log's index there) is what failed, and only the kernel's read-only mount shows it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from controller.record.errors import JournalError
from controller.record.journal import Journal
from tests.record.crash_writer import expected_events, start_writer

SEED = 1
KILLED_AFTER = 5
"""Acknowledged events of a killed writer, at least."""


def _killed_writer(path: Path) -> int:
    """Write match ``SEED`` at ``path`` and SIGKILL the writer once ``KILLED_AFTER``
    events are acknowledged; the last acknowledged sequence number."""
    writer = start_writer(path, SEED)
    assert writer.stdout is not None
    acked = 0
    for line in writer.stdout:
        if line.startswith("ack "):
            acked = int(line.split()[1])
            if acked >= KILLED_AFTER:
                break
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    writer.stdout.close()
    return acked


_CONFIG = """
journal = "{journal}"
[board]
serial_device = "/dev/no-board"
[camera]
enabled = false
[gpio]
pin_factory = "mock"
[web]
enabled = false
"""
"""The service's configuration, on the card: its journal the whole one."""


def _log(path: Path) -> Path:
    """The write-ahead log beside the journal at ``path``."""
    return path.with_name(path.name + "-wal")


def _opened(path: Path, *, readonly: bool) -> dict[str, object]:
    """What opening the journal at ``path`` gives: its events, or the error."""
    try:
        with Journal(path, readonly=readonly) as journal:
            events = journal.events()
    except JournalError as error:
        return {"error": type(error).__name__, "message": str(error)}
    expected = expected_events(SEED)
    return {"events": len(events), "as_written": events == expected[: len(events)]}


def _tabula(*arguments: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
    return {"status": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def main(directory: Path) -> int:
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(directory)], check=True)
    journals = {name: directory / f"{name}.db" for name in ("whole", "killed", "unindexed")}
    whole, killed, unindexed = journals.values()
    writer = start_writer(whole, SEED)
    writer.communicate()
    acked = {"killed": _killed_writer(killed), "unindexed": _killed_writer(unindexed)}
    logs = {name: _log(journals[name]).stat().st_size for name in acked}
    unindexed.with_name(unindexed.name + "-shm").unlink()  # as a copy without it would be
    config = directory / "tabula.toml"
    config.write_text(_CONFIG.format(journal=whole))
    subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
    report: dict[str, object] = {
        "whole_events": len(expected_events(SEED)),
        "acked": acked,
        "logs": logs,
        "read": {name: _opened(path, readonly=True) for name, path in journals.items()},
        "write": _opened(whole, readonly=False),
        "export": _tabula("export", "--journal", str(whole), "--format", "txt"),
        "run": _tabula("run", "--config", str(config)),
        "demo": _tabula("demo", "--out", str(directory), "--games", "1", "--headless"),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))

"""A journal writer to be killed: the crash-safety test's subprocess.

``python -m tests.record.crash_writer DB SEED`` opens the journal ``DB`` (resuming it),
checks that what it holds is the start of match ``SEED`` and prints
``resumed <count> <what was resumed>``; then it appends the rest of the match's events one
by one, printing ``ack <seq>`` once each is committed, and ``done`` at the end. The test
kills it with SIGKILL at random moments (:func:`write_and_kill`) and restarts it on the same
file.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from controller.record.journal import Journal
from controller.rules import Rules
from tests.record.matches import irregular_events

CRASH_RULES = Rules(match_length=3)


def expected_events(seed: int) -> list[object]:
    """The events of match ``seed``, always the same for a seed."""
    return list(irregular_events(seed, CRASH_RULES))


@dataclass(frozen=True, slots=True)
class Kill:
    """One run of the writer, killed (or finished first)."""

    first_line: str
    """What the writer said it resumed: ``resumed <count> <what>``."""
    held: int
    """The events the journal held when the writer started."""
    acked: int
    """The events the journal holds at least: the last acknowledgement read."""
    finished: bool
    """The writer wrote the whole match before the kill came."""


def start_writer(path: Path, seed: int) -> subprocess.Popen[str]:
    """The writer of match ``seed`` on the journal at ``path``, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.record.crash_writer", str(path), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
    )


def write_and_kill(path: Path, seed: int, rng: random.Random) -> Kill:
    """Run the writer on ``path`` and SIGKILL it at a random moment (a few events in, plus a
    random fraction of a commit)."""
    writer = start_writer(path, seed)
    assert writer.stdout is not None
    first = writer.stdout.readline().rstrip("\n")
    held = int(first.split()[1])
    acked = held
    for _ in range(rng.randrange(0, 12)):
        line = writer.stdout.readline()
        if not line.startswith("ack "):
            break
        acked = int(line.split()[1])
    time.sleep(rng.uniform(0, 0.002))  # land somewhere inside the next commit, or not
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    writer.stdout.close()
    if writer.returncode != 0:
        assert writer.returncode == -signal.SIGKILL, writer.returncode
    return Kill(first, held, acked, finished=writer.returncode == 0)


def main(path: str, seed: int) -> int:
    events = expected_events(seed)
    with Journal(path) as journal:
        held = journal.events()
        if held != events[: len(held)]:
            print(f"mismatch after {len(held)} events", flush=True)
            return 3
        print(f"resumed {len(held)} {journal.resumed()}", flush=True)
        for event in events[len(held) :]:
            seq = journal.append(event)  # type: ignore[arg-type]
            print(f"ack {seq}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))

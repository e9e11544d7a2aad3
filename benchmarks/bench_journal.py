"""The SQLite journal: append latency (a durable commit each) and resume time.

Every event is committed (WAL, ``synchronous=FULL``) before the service acts on it, so an
append's latency is on the path of every turn; reopening replays the whole journal against
the rules. References in the same run: a bare ``INSERT`` + ``COMMIT`` with the same pragmas
(the cost of durability alone, without the rules check and the JSON), and the same followed
by a synced 64-byte write in place (what the journal's head file adds to each commit).
"""

from __future__ import annotations

import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from controller.record import event_to_json
from controller.record.journal import Journal
from controller.rules import Rules
from controller.selfplay import SimulatedPlayer, play_match, record_events


def _events() -> list[object]:
    rules = Rules(match_length=7)
    rng = random.Random(1)
    players = (SimulatedPlayer(random.Random(2)), SimulatedPlayer(random.Random(3)))
    return list(record_events(play_match(rules, rng, players), rules))


def _bare_commits(path: Path, texts: list[str], *, head: bool = False) -> list[float]:
    """Each commit's time; with ``head``, each followed by a synced 64-byte write in place."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL, event TEXT)")
    side = os.open(f"{path}.head", os.O_RDWR | os.O_CREAT)
    os.write(side, bytes(128))
    times = []
    for seq, text in enumerate(texts, 1):
        start = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, 0.0, text))
        connection.execute("COMMIT")
        if head:
            os.pwrite(side, seq.to_bytes(64, "big"), seq % 2 * 64)
            os.fdatasync(side)
        times.append(time.perf_counter() - start)
    os.close(side)
    connection.close()
    return times


def main() -> None:
    events = _events()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.db"
        times = []
        with Journal(path) as journal:
            for event in events:
                start = time.perf_counter()
                journal.append(event)  # type: ignore[arg-type]
                times.append(time.perf_counter() - start)
        start = time.perf_counter()
        with Journal(path) as journal:
            resumed = journal.resumed()
        resume = time.perf_counter() - start
        texts = [event_to_json(e) for e in events]  # type: ignore[arg-type]
        bare = _bare_commits(Path(directory) / "bare.db", texts)
        headed = _bare_commits(Path(directory) / "headed.db", texts, head=True)
    ms = sorted(t * 1000 for t in times)
    reference = statistics.median(t * 1000 for t in bare)
    print(f"{len(events)} events of a 7-point match")
    median = statistics.median(ms)
    print(f"append: median {median:.2f} ms ({median / reference:.1f}x "
          f"the bare commit), p99 {ms[int(len(ms) * 0.99)]:.2f} ms")  # fmt: skip
    for name, runs in (("bare commit", bare), ("bare commit + head write", headed)):
        run_ms = sorted(t * 1000 for t in runs)
        print(f"{name} (reference): median {statistics.median(run_ms):.2f} ms, "
              f"p99 {run_ms[int(len(run_ms) * 0.99)]:.2f} ms")  # fmt: skip
    print(f"resume: {resume * 1000:.0f} ms to reopen and replay ({resumed[:60]}...)")


if __name__ == "__main__":
    main()

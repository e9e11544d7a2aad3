"""The SQLite journal: append latency (a durable commit each) and resume time.

Every event is committed (WAL, ``synchronous=FULL``) before the service acts on it, so an
append's latency is on the path of every turn; reopening replays the whole journal against
the rules. Reference in the same run: a bare ``INSERT`` + ``COMMIT`` with the same pragmas
(the cost of durability alone, without the rules check and the JSON).
"""

from __future__ import annotations

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


def _bare_commits(path: Path, texts: list[str]) -> list[float]:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL, event TEXT)")
    times = []
    for seq, text in enumerate(texts, 1):
        start = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, 0.0, text))
        connection.execute("COMMIT")
        times.append(time.perf_counter() - start)
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
        bare = _bare_commits(Path(directory) / "bare.db", [event_to_json(e) for e in events])  # type: ignore[arg-type]
    ms = sorted(t * 1000 for t in times)
    bare_ms = sorted(t * 1000 for t in bare)
    p99 = ms[int(len(ms) * 0.99)]
    print(f"{len(events)} events of a 7-point match")
    print(f"append: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms")
    print(f"bare commit (reference): median {statistics.median(bare_ms):.2f} ms, "
          f"p99 {bare_ms[int(len(bare_ms) * 0.99)]:.2f} ms")  # fmt: skip
    print(f"resume: {resume * 1000:.0f} ms to reopen and replay ({resumed[:60]}...)")


if __name__ == "__main__":
    main()

"""Crash safety: a journal writer killed with SIGKILL at random moments loses nothing.

The writer (:mod:`tests.record.crash_writer`) appends the events of simulated matches and
acknowledges each once ``append`` returned; the test kills it at a random moment (a few
events in, plus a random fraction of a commit), restarts it on the same file, and checks
after every kill that the journal holds every acknowledged event, nothing that was not
sent (no partial event), exactly the start of the match; and that the restarted writer
resumed at the right place (its first line names the state the events replay to).
"""

from __future__ import annotations

import random
from pathlib import Path

from controller.record import replay
from controller.record.journal import Journal
from tests.record.crash_writer import expected_events, start_writer, write_and_kill

KILLS = 100


def test_sigkill_at_random_moments_loses_no_committed_event(tmp_path: Path) -> None:
    rng = random.Random(2026)
    seed = 1
    expected = expected_events(seed)
    path = tmp_path / f"match-{seed}.db"
    kills = restarts = 0
    unread = 0
    while kills < KILLS:
        kill = write_and_kill(path, seed, rng)
        restarts += 1
        if kill.held:
            state = replay(expected[: kill.held]).state
            resumed = f"resumed after {kill.held} events: {state.describe()}"
        else:
            resumed = f"new journal {str(path)!r}"
        assert kill.first_line == f"resumed {kill.held} {resumed}"
        if kill.finished:  # the match was written in full before the kill
            seed += 1
            expected = expected_events(seed)
            path = tmp_path / f"match-{seed}.db"
            continue
        kills += 1
        with Journal(path) as journal:
            events = journal.events()
            seqs = [entry.seq for entry in journal.entries()]
        acked = kill.acked
        assert len(events) >= acked, f"kill {kills}: acknowledged {acked}, found {len(events)}"
        assert events == expected[: len(events)], f"kill {kills}: the journal differs"
        assert seqs == list(range(1, len(events) + 1))
        unread += len(events) - acked  # committed, but the kill came before we read the ack
    assert restarts >= KILLS
    # The last journal finishes: nothing was lost across all the kills.
    writer = start_writer(path, seed)
    output, _ = writer.communicate(timeout=60)
    assert output.rstrip().endswith("done"), output[-200:]
    with Journal(path) as journal:
        assert journal.events() == expected
    print(f"{kills} kills over {seed} matches; {unread} events committed past the acks read")

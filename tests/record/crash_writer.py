"""A journal writer to be killed: the crash-safety test's subprocess.

``python -m tests.record.crash_writer DB SEED`` opens the journal ``DB`` (resuming it),
checks that what it holds is the start of match ``SEED`` and prints
``resumed <count> <what was resumed>``; then it appends the rest of the match's events one
by one, printing ``ack <seq>`` once each is committed, and ``done`` at the end. The test
kills it with SIGKILL at random moments and restarts it on the same file.
"""

from __future__ import annotations

import sys

from controller.record.journal import Journal
from controller.rules import Rules
from tests.record.matches import irregular_events

CRASH_RULES = Rules(match_length=3)


def expected_events(seed: int) -> list[object]:
    """The events of match ``seed``, always the same for a seed."""
    return list(irregular_events(seed, CRASH_RULES))


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

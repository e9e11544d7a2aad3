"""The hub at a tournament's size: 500 boards through one Mosquitto, every event taken once.

``python -m tests.soak hub [--boards 500] [--matches 10] [--hubs 2]`` plays the matches
first (the simulated players are slow), then replays them as that many boards, each
through its own MQTT connection, to ``tabula hub`` in a process of its own, or to
``--hubs`` of them each taking a shard of the boards (:func:`benchmarks.bench_mqtt.through_hub`,
the benchmark's pass). It prints the figures (events, lost, taken twice, redelivered,
archived; each hub's CPU, RSS and peak RSS, their CPU per event, the wall time and how far
behind the boards the hubs finished) and exits 1 unless every board's events were taken
exactly once, in order, by one hub, and its match archived; the suite runs 20 boards to
one hub and to two (:mod:`tests.soak.test_hub`).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.bench_mqtt import (
    STALL_S,
    Hall,
    hall_broker,
    played_matches,
    replayed_boards,
    through_hub,
)
from benchmarks.measure import count


def hall(
    boards: int, matches: int, folder: Path, *, hubs: int = 1, patience: float = STALL_S
) -> Hall:
    """``boards`` boards replaying ``matches`` matches through a private broker to ``hubs``
    hubs, each taking a shard of the boards."""
    played = played_matches(matches)
    with hall_broker(boards, folder / "broker") as broker:
        return through_hub(broker, replayed_boards("board", boards, played), folder / "archive",
                           hubs=hubs, patience=patience)  # fmt: skip


def main(argv: list[str]) -> int:
    """Run the soak; 0 when every board was taken whole and exactly once, 1 otherwise."""
    parser = argparse.ArgumentParser(prog="python -m tests.soak hub", description=__doc__)
    parser.add_argument("--boards", type=count, default=500, help="boards in the hall")
    parser.add_argument("--matches", type=count, default=10, help="matches played first")
    parser.add_argument("--hubs", type=count, default=1,
                        help="hubs sharing the boards (a shard each, by board id)")  # fmt: skip
    parser.add_argument("--patience", type=float, default=STALL_S,
                        help="seconds without an event before the rest count as lost")  # fmt: skip
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        report = hall(options.boards, options.matches, Path(directory), hubs=options.hubs,
                      patience=options.patience)  # fmt: skip
    print(report.figures())
    return 0 if report.is_whole else 1

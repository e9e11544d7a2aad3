"""Whole games on the simulators with the service throttled to 25% of one core (a Pi Zero 2 W).

The process (the service, and beside it the simulated board, camera and players, which all
run in it) joins a cgroup v1 ``cpu`` group whose quota is a quarter of one core
(:class:`controller.service.throttle.CpuThrottle`). The players wait for the service as
long as it makes progress, so nothing may time out; every turn must be refereed right: the
journal holds exactly what the players did, every illegal play flagged once and no legal
one. The figures: games, turns, seconds, how often the kernel held the process back, the
peak resident memory.

``python -m tests.soak slow --games 10`` runs ten games; the suite runs one 1-point game.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from controller.referee import Mode
from controller.rules import Rules
from controller.service.throttle import PI_ZERO_SHARE, CpuThrottle, ThrottleStats
from controller.simulated.demo import DemoResult, run_simulated


@dataclass(frozen=True, slots=True)
class SlowReport:
    """What a throttled run did, and what the kernel and the players say of it."""

    result: DemoResult
    throttle: ThrottleStats
    seconds: float
    peak_rss_mb: float

    def problems(self) -> list[str]:
        """Every way the run went wrong (empty: refereed right, and really throttled)."""
        found = self.result.problems()
        if self.throttle.throttled == 0:
            found.append("the kernel never held the process back: it was not throttled")
        return found


def play_throttled(
    journal: Path, *, games: int, length: int, seed: int, share: float = PI_ZERO_SHARE
) -> SlowReport:
    """Play ``games`` games (or the ``length``-point match) into ``journal`` throttled.

    Raises:
        ThrottleUnavailableError: no cgroup v1 ``cpu`` controller here, or not root.
        TimeoutError: the service made no progress for the players' stall bound.
    """
    with CpuThrottle(share) as throttle:
        throttle.join(os.getpid())
        start = time.monotonic()
        result = asyncio.run(
            run_simulated(
                journal,
                games=games,
                seed=seed,
                rules=Rules(match_length=length),
                mode=Mode.LEARNER,
                illegal_rate=0.1,
                cocked_rate=0.1,
            )
        )
        seconds = time.monotonic() - start
        stats = throttle.stats()
    return SlowReport(result, stats, seconds, _peak_rss_mb())


def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise LookupError("no VmHWM in /proc/self/status")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak slow", description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--length", type=int, default=25, help="match length in points")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--share", type=float, default=PI_ZERO_SHARE, help="of one core")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = play_throttled(
            Path(folder) / "slow.sqlite3",
            games=args.games,
            length=args.length,
            seed=args.seed,
            share=args.share,
        )
    counts, stats = report.result.counts, report.throttle
    print(
        f"{counts.games} games, {counts.turns} turns in {report.seconds:.0f} s at "
        f"{args.share:.0%} of one core ({counts.illegal} illegal plays, {counts.cocked} "
        f"cocked rolls); held back in {stats.throttled} of {stats.periods} periods "
        f"({stats.throttled_s:.0f} s); peak RSS {report.peak_rss_mb:.0f} MB"
    )
    problems = report.problems()
    for problem in problems:
        print(f"LOSS: {problem}")
    return 1 if problems else 0

"""Unplug and replug the sensor board's real pty link, with moves while it is away.

``replug_link``: the bridge alone. Each cycle pulls the pty away (the device vanishes,
as when a USB cable is knocked), waits a random down time (none, a few milliseconds, or
up to half a second), sometimes moves a checker meanwhile, plugs back in (one time in
five the board has lost power and reboots), and sometimes moves a checker right after.
The link must come back every time (no death), and the stable observations must be
exactly the positions the board went through: each one once, in order, nothing lost and
nothing read twice.

``replug_service``: the same through the running board service mid-game. Simulated
players play whole games on the simulated table (board on a pty, rendered dice, MockFactory
pins) while the board is replugged at random moments; the journal must hold exactly what
the players did.

``python -m tests.soak replug [--cycles 1000]`` and ``python -m tests.soak replug-service
[--games 4]`` print the figures and exit 1 on any loss; the suite runs small versions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import BoardLink, LinkState, Observation
from hardware.board.geometry import board_from_cells
from hardware.simulator import START, BoardSimulator
from tests.firmware_bridge.conftest import FAST, PATIENCE_S, SETTLE_S, Watcher

#: Points hold five slots: a move never makes a stack taller than this.
_MAX_STACK = 5


@dataclass(slots=True)
class ReplugReport:
    """What a replug soak did and what it found."""

    cycles: int = 0
    power_cycles: int = 0
    moves_unplugged: int = 0
    moves_after: int = 0
    reconnects: int = 0
    events_replayed: int = 0
    link_deaths: int = 0
    lost: int = 0
    read_twice: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def figures(self) -> str:
        return (
            f"{self.cycles} unplug/replug cycles ({self.power_cycles} power cycles) in "
            f"{self.seconds:.0f} s: {self.moves_unplugged} moves while unplugged, "
            f"{self.moves_after} right after the replug; {self.reconnects} reconnects, "
            f"{self.events_replayed} events replayed; {self.link_deaths} link deaths, "
            f"{self.lost} positions lost, {self.read_twice} read twice"
        )


def _random_move(sim: BoardSimulator, rng: random.Random) -> None:
    """Move one checker of either colour to a point it may share (any distance)."""
    cells = sim.truth()
    player = rng.randrange(2)
    sources = [index for index, cell in enumerate(cells[:24]) if cell[player]]
    targets = [
        index
        for index, cell in enumerate(cells[:24])
        if not cell[1 - player] and cell[player] < _MAX_STACK
    ]
    source = rng.choice(sources)
    destination = rng.choice([t for t in targets if t != source])
    # In one step: a lift and a place apart by more than the settle time (a thread
    # descheduled on a busy machine) would rightly be read as a checker held in the hand.
    moved = [list(cell) for cell in cells]
    moved[source][player] -= 1
    moved[destination][player] += 1
    sim.board.set_cells([(zero, one) for zero, one in moved])


def _divergence(expected: list[tuple[int, ...]], seen: list[Observation]) -> str:
    """Where the observations first differ from the positions the board went through."""
    index = next(
        (i for i, (want, got) in enumerate(zip(expected, seen, strict=False)) if want != got.board),
        min(len(expected), len(seen)),
    )
    got = seen[index] if index < len(seen) else None
    return (
        f"observation {index + 1} of {len(seen)} (positions: {len(expected)}): expected "
        f"{expected[index] if index < len(expected) else None}, read "
        f"{got.board if got else None} (problems {got.problems if got else ()}); the one "
        f"before: {seen[index - 1].board if 0 < index <= len(seen) else None}"
    )


def _down_time(rng: random.Random) -> float:
    return rng.choice((0.0, rng.uniform(0.0, 0.02), rng.uniform(0.02, 0.5)))


async def replug_link(cycles: int, folder: Path, *, seed: int = 1) -> ReplugReport:
    """Replug the link ``cycles`` times; the report counts any death, loss or double read."""
    rng = random.Random(seed)
    report = ReplugReport()
    start = time.monotonic()
    with BoardSimulator(link=folder / "board", settings=FAST, seed=seed) as sim:
        link = BoardLink(
            sim.path,
            settle_s=SETTLE_S,
            backoff_initial_s=0.01,
            backoff_max_s=0.05,
            rng=random.Random(seed),
        )
        async with link:
            watcher = Watcher(link)
            expected = [START]
            await watcher.board(START)
            for _ in range(cycles):
                watcher.states.clear()
                sim.disconnect()
                if rng.random() < 0.5:
                    await asyncio.to_thread(_random_move, sim, rng)
                    report.moves_unplugged += 1
                await asyncio.sleep(_down_time(rng))
                power_cycle = rng.random() < 0.2
                report.power_cycles += power_cycle
                sim.reconnect(power_cycle=power_cycle)
                try:
                    await watcher.state(LinkState.SEARCHING)  # it saw the cable go
                    await link.wait_for(LinkState.LIVE, PATIENCE_S)
                    if rng.random() < 0.3:
                        await asyncio.to_thread(_random_move, sim, rng)
                        report.moves_after += 1
                    truth = board_from_cells(sim.truth())
                    if truth != expected[-1]:
                        expected.append(truth)
                    await watcher.board(truth)
                except TimeoutError:
                    report.link_deaths += 1
                    report.problems.append(
                        f"cycle {report.cycles + 1}: no progress for "
                        f"{PATIENCE_S:.0f} s (link {link.state})"
                    )
                    break
                report.cycles += 1
            watcher.stop()
            seen = [observation.board for observation in watcher.observations]
            report.lost = len([board for board in expected if board not in seen])
            report.read_twice = len(seen) - len(expected) + report.lost
            if seen != expected and not report.problems:
                report.problems.append(_divergence(expected, watcher.observations))
            counters = link.counters
            report.reconnects = counters.reconnects
            report.events_replayed = counters.events_replayed
    report.seconds = time.monotonic() - start
    return report


async def replug_service(games: int, folder: Path, *, seed: int = 5) -> ReplugReport:
    """Play ``games`` games on the simulated table while its board is replugged at random."""
    from controller.rules import Rules
    from controller.simulated.demo import SimulatedBoard
    from tests.service.test_end_to_end import journalled_play

    rng = random.Random(seed)
    report = ReplugReport()
    start = time.monotonic()
    path = folder / "match.sqlite3"
    async with SimulatedBoard(path, seed=seed, rules=Rules(match_length=25)) as table:

        async def replug_forever() -> None:
            while True:
                await asyncio.sleep(rng.uniform(0.05, 1.5))
                power_cycle = rng.random() < 0.2
                before = table.link.counters.reconnects
                table.sim.disconnect()
                try:
                    await asyncio.sleep(_down_time(rng))
                finally:  # the game's end stops the replugs, never with the cable out
                    table.sim.reconnect(power_cycle=power_cycle)
                async with asyncio.timeout(PATIENCE_S):  # it saw the cable go and come back
                    while table.link.counters.reconnects == before:
                        await asyncio.sleep(0.01)
                await table.link.wait_for(LinkState.LIVE, PATIENCE_S)
                report.power_cycles += power_cycle
                report.cycles += 1

        driver = table.driver(random.Random(seed), illegal_rate=0.1, cocked_rate=0.1)
        replugger = asyncio.create_task(replug_forever(), name="replugger")
        try:
            await driver.play(games)
        finally:
            replugger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await replugger
        await table.link.wait_for(LinkState.LIVE, PATIENCE_S)
        counters = table.link.counters
        report.reconnects = counters.reconnects
        report.events_replayed = counters.events_replayed
        recorded, _ = journalled_play(path)
        if recorded != driver.expected:
            report.lost = len([e for e in driver.expected if e not in recorded])
            report.read_twice = max(0, len(recorded) - len(driver.expected) + report.lost)
            report.problems.append("the journal is not what the players did")
    report.seconds = time.monotonic() - start
    return report


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.ERROR)  # each replug's warnings are expected here
    parser = argparse.ArgumentParser(prog="python -m tests.soak replug", description=__doc__)
    parser.add_argument("--cycles", type=int, default=1000, help="replugs of the link (1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(replug_link(args.cycles, Path(folder), seed=args.seed))
    print(report.figures())
    for problem in report.problems:
        print("FAILED:", problem, file=sys.stderr)
    return 1 if report.problems else 0


def main_service(argv: list[str]) -> int:
    logging.basicConfig(level=logging.ERROR)
    parser = argparse.ArgumentParser(
        prog="python -m tests.soak replug-service", description=__doc__
    )
    parser.add_argument("--games", type=int, default=4, help="games played (4)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(replug_service(args.games, Path(folder), seed=args.seed))
    print(f"{args.games} games through the service; " + report.figures())
    for problem in report.problems:
        print("FAILED:", problem, file=sys.stderr)
    return 1 if report.problems else 0

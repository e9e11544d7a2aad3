"""Events per second through board -> Mosquitto -> hub, with the hub's CPU and memory.

``python -m benchmarks mqtt`` (or ``python -m benchmarks.bench_mqtt 50 200``): a private
Mosquitto on a loopback port, ``tabula hub`` in its own process (so its CPU and memory are
its own, read from /proc), and N boards in this process, each publishing a 1-point match
through its own MqttPublisher connection as fast as it can. The matches are played first
by :class:`~controller.selfplay_board.SelfPlayBoard` (ten of them, shared out under each
board's id) and replayed from memory, so that the figure is the pipeline's, not the
simulated players'. The time runs from the first board's start until the hub has taken
every event (polled on its /api/boards).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Literal

from controller.config import MqttConfig
from controller.hub import hub_process
from controller.mqtt import MqttPublisher
from controller.mqtt.mosquitto import Mosquitto
from controller.selfplay_board import SelfPlayBoard
from controller.status import Action, ActionError, BoardEvent, BoardStatus

_MATCHES = 10

Update = BoardStatus | BoardEvent


class _Replay:
    """A board replaying a match played beforehand (a BoardService without actions)."""

    def __init__(self, board_id: str, updates: list[Update], first: BoardStatus) -> None:
        self._board_id = board_id
        self._updates = [replace(u, board_id=board_id) for u in updates]
        self._status = replace(first, board_id=board_id)

    @property
    def board_id(self) -> str:
        return self._board_id

    def status(self) -> BoardStatus:
        return self._status

    async def updates(self) -> AsyncIterator[Update]:
        for index, update in enumerate(self._updates):
            if index % 16 == 0:
                await asyncio.sleep(0)  # the other boards play meanwhile
            if isinstance(update, BoardStatus):
                self._status = update
            yield update

    async def apply(self, action: Action) -> None:
        raise ActionError(f"a replayed board takes no action: {action!r}")

    def export(self, fmt: Literal["mat", "sgf"]) -> str:
        raise ActionError("a replayed board exports nothing")


def _played(seed: int) -> tuple[list[Update], BoardStatus]:
    """Every update of a 1-point match, and the status before it."""
    board = SelfPlayBoard("played", seed=seed, match_length=1)
    first = board.status()
    return board.play_through(), first


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime + stime


def _memory_mb(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory, MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def _summary(url: str) -> dict[str, int]:
    with urllib.request.urlopen(url + "api/boards", timeout=5) as response:
        summary: dict[str, int] = json.load(response)["summary"]
        return summary


async def _boards(broker: str, boards: list[_Replay]) -> None:
    publishers = [MqttPublisher(b, MqttConfig(broker, b.board_id)) for b in boards]
    await asyncio.gather(*(p.run() for p in publishers))


def run(count: int, matches: list[tuple[list[Update], BoardStatus]]) -> None:
    """Measure ``count`` boards and print the figures."""
    boards = [_Replay(f"bench-{n:03}", *matches[n % len(matches)]) for n in range(count)]
    total = sum(
        sum(isinstance(u, BoardEvent) for u in matches[n % len(matches)][0]) for n in range(count)
    )
    with (
        tempfile.TemporaryDirectory() as directory,
        Mosquitto(Path(directory) / "broker") as broker,
        hub_process(broker.url, Path(directory) / "archive") as (hub, url),
    ):
        time.sleep(0.3)
        cpu_before = _cpu_seconds(hub.pid)
        start = time.perf_counter()
        asyncio.run(_boards(broker.url, boards))
        published = time.perf_counter() - start
        while (summary := _summary(url))["events"] < total:
            time.sleep(0.05)
        elapsed = time.perf_counter() - start
        cpu = _cpu_seconds(hub.pid) - cpu_before
        rss, peak = _memory_mb(hub.pid)
        print(
            f"{count:4d} boards: {total} events in {elapsed:.2f} s = "
            f"{total / elapsed:,.0f} events/s "
            f"(all published after {published:.2f} s); hub: CPU {cpu:.2f} s "
            f"({100 * cpu / elapsed:.0f}% of a core), RSS {rss:.0f} MB (peak {peak:.0f} MB), "
            f"{summary['missing']} lost, {summary['duplicates']} duplicates, "
            f"{summary['archived']} matches archived; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} CPUs"
        )


def main(counts: tuple[int, ...] = (50, 200)) -> None:
    """The figures for each number of boards."""
    matches = [_played(seed) for seed in range(_MATCHES)]
    for count in counts:
        run(count, matches)


if __name__ == "__main__":
    main(tuple(int(arg) for arg in sys.argv[1:]) or (50, 200))

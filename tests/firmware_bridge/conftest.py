"""A simulated board on a real pty, and a bridge tuned for fast tests."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import BoardLink, LinkState, Observation
from hardware.runtimes import RUNTIMES
from hardware.simulator import START, BoardSimulator

#: Firmware settings for tests: 10 heartbeats a second, 2 scans of 2 ms to debounce.
FAST = {"heartbeat_ms": 100, "stable_scans": 2, "scan_period_ms": 2}
SETTLE_S = 0.06
#: How long a test waits for progress before it calls the link stuck: a bound on hangs,
#: far beyond what a busy 2-core machine or a Pi needs, never a measure of speed.
PATIENCE_S = 60.0


@pytest.fixture
def sim(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BoardSimulator]:
    """The simulated board, its firmware on CPython, or on the runtime of an indirect param.

    The tests of what the firmware itself does (resync, replug, heartbeat, version, LEDs)
    take ``@ON_EVERY_RUNTIME`` and so also run on MicroPython.
    """
    runtime = getattr(request, "param", RUNTIMES[0])
    with BoardSimulator(
        link=tmp_path / "board", settings=FAST, seed=1, record=True, runtime=runtime
    ) as board:
        yield board


#: Runs a test taking ``sim`` once per firmware runtime.
ON_EVERY_RUNTIME = pytest.mark.parametrize("sim", RUNTIMES, indirect=True)


def fast_link(path: str, **options: Any) -> BoardLink:
    """A link with the service's own timeouts, and a short backoff so replugs are quick.

    The handshake and silence timeouts are the ones ``tabula run`` uses: shorter ones
    made a busy machine look like a silent board, and the tests counted extra reconnects.
    """
    defaults: dict[str, Any] = {
        "settle_s": SETTLE_S,
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.04,
        "rng": random.Random(0),
    }
    defaults.update(options)
    return BoardLink(path, **defaults)


class Watcher:
    """Collects a link's updates in the background; waits for a given board."""

    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self.states: list[LinkState] = []
        self.observations: list[Observation] = []
        self._new = asyncio.Event()
        self._task = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        async for update in self.link.updates():
            if isinstance(update, Observation):
                self.observations.append(update)
            else:
                self.states.append(update)
            self._new.set()

    async def board(self, board: tuple[int, ...], timeout: float = PATIENCE_S) -> Observation:
        """Wait for the latest observation to show ``board``."""
        async with asyncio.timeout(timeout):
            while not (self.observations and self.observations[-1].board == board):
                self._new.clear()
                await self._new.wait()
        return self.observations[-1]

    async def state(self, state: LinkState, timeout: float = PATIENCE_S) -> None:
        """Wait until ``state`` has been reached at least once more than now."""
        async with asyncio.timeout(timeout):
            while state not in self.states:
                self._new.clear()
                await self._new.wait()

    def stop(self) -> None:
        self._task.cancel()


@contextlib.asynccontextmanager
async def watched(path: str, **options: Any) -> AsyncIterator[tuple[BoardLink, Watcher]]:
    """A fast link, live and showing the starting position, with its watcher."""
    async with fast_link(path, **options) as link:
        watcher = Watcher(link)
        try:
            await watcher.board(START)
            yield link, watcher
        finally:
            watcher.stop()

"""Events through board -> Mosquitto -> hub, beside a raw aiomqtt subscriber on the broker.

``python -m benchmarks mqtt [--boards 50 200]``: a private Mosquitto on a loopback port,
``tabula hub`` in its own process (so its CPU and memory are its own, read from /proc),
and N boards in this process, each publishing a 1-point match through its own
MqttPublisher connection as fast as it can. The matches are played first by
:class:`~controller.simulated.board_service.SelfPlayBoard` (``--matches`` of them, shared out under
each board's id) and replayed from memory, so that the figure is the pipeline's, not the
simulated players'. The time (wall: three processes) runs from the first board's start
until the hub has taken every event (its /api/boards polled every 20 ms). Reference, in
turns with it: the same boards under another topic prefix, taken by a bare aiomqtt
subscriber to the same filters (its own thread and event loop in this process, its CPU
read with ``time.thread_time``), which only counts the events. Events the hub never took
(or the subscriber never got) within the bound are misses. A publisher still running
``STALL_S`` after the last event is cancelled and counted in a row of its own: its
``run()`` should have ended with its board's updates (see the report of issue 14: on
Python 3.11 ``asyncio.wait_for``, under aiomqtt's ``publish``, can swallow the
cancellation of the heartbeat task, python/cpython#86296, and the session never ends).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import aiomqtt

from benchmarks.measure import Row, count, timed_row
from controller.config import MqttConfig
from controller.hub import hub_process
from controller.mqtt import MqttPublisher, client_options, subscriptions
from controller.mqtt.mosquitto import Mosquitto
from controller.simulated.board_service import SelfPlayBoard
from controller.status import Action, ActionError, BoardEvent, BoardStatus, ExportFormat

SMALL = ("--boards", "2", "--matches", "1")

STALL_S = 10.0
"""How long the hub or the subscriber may take no event before the rest count as misses."""

Update = BoardStatus | BoardEvent
_Match = tuple[list[Update], BoardStatus]


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--boards", type=count, nargs="+", default=[50, 200],
                        help="numbers of boards, each measured")  # fmt: skip
    parser.add_argument("--matches", type=count, default=10, help="matches played first")


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

    def export(self, fmt: ExportFormat) -> str:
        raise ActionError("a replayed board exports nothing")


def _played(seed: int) -> _Match:
    """Every update of a 1-point match, and the status before it."""
    board = SelfPlayBoard("played", seed=seed, match_length=1)
    first = board.status()
    return asyncio.run(board.play_through()), first


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


async def _publish(
    broker: str, prefix: str, boards: list[_Replay], measured: threading.Event
) -> int:
    """Every board's match published, each through its own connection; how many
    publishers had not ended ``STALL_S`` after ``measured`` (they are cancelled then).

    Raises:
        Exception: the first publisher's error.
    """
    pending = {
        asyncio.create_task(
            MqttPublisher(board, MqttConfig(broker, board.board_id, topic_prefix=prefix)).run()
        )
        for board in boards
    }
    done: set[asyncio.Task[None]] = set()
    while pending and not measured.is_set():
        ended, pending = await asyncio.wait(pending, timeout=0.1)
        done |= ended
    if pending:
        ended, pending = await asyncio.wait(pending, timeout=STALL_S)
        done |= ended
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        task.result()
    return len(pending)


def _until_taken(taken: Callable[[], int], total: int) -> tuple[int, float]:
    """Wait until ``taken()`` reaches ``total``, or has not grown for ``STALL_S``: the count,
    and when it last grew (``time.perf_counter``)."""
    seen, since = -1, time.perf_counter()
    while True:
        now = taken()
        if now != seen:
            seen, since = now, time.perf_counter()
        if now >= total or time.perf_counter() - since > STALL_S:
            return now, since
        time.sleep(0.02)


def _pass(
    broker: str, prefix: str, boards: list[_Replay], taken: Callable[[], int], total: int
) -> tuple[int, float, int]:
    """Publish ``boards`` under ``prefix`` (their own thread and loop) until ``taken()``
    counts ``total`` events or stalls: the events taken, the wall seconds until the last
    one, and how many publishers had not ended ``STALL_S`` later."""
    measured = threading.Event()
    outcome: list[int | BaseException] = []

    def publish() -> None:
        try:
            outcome.append(asyncio.run(_publish(broker, prefix, boards, measured)))
        except BaseException as error:  # handed to the measuring thread
            outcome.append(error)

    start = time.perf_counter()
    thread = threading.Thread(target=publish, name=f"boards-{prefix}")
    thread.start()
    got, last = _until_taken(taken, total)
    measured.set()
    thread.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return got, last - start, outcome[0]


class _RawSubscriber(threading.Thread):
    """A bare aiomqtt subscriber to every board under ``prefix``: it counts the events."""

    def __init__(self, broker: str, prefix: str) -> None:
        super().__init__(name="raw-subscriber", daemon=True)
        self._config = MqttConfig(broker, "raw-subscriber", topic_prefix=prefix)
        self.events = 0
        self.cpu_s = 0.0
        self.subscribed = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        asyncio.run(self._follow())

    async def _follow(self) -> None:
        async with aiomqtt.Client(**client_options(self._config), identifier="raw-subscriber",
                                  clean_session=True) as client:  # fmt: skip
            for pattern in subscriptions(self._config.topic_prefix):
                await client.subscribe(pattern, qos=1)
            self.subscribed.set()
            start = time.thread_time()
            messages = aiter(client.messages)
            while not self.stop.is_set():
                try:
                    message = await asyncio.wait_for(anext(messages), 0.1)
                except TimeoutError:
                    continue
                if message.topic.value.endswith("/events"):
                    self.events += 1
                    self.cpu_s = time.thread_time() - start


def run_boards(count: int, matches: list[_Match], repeat: int, folder: Path) -> list[Row]:
    """Measure ``count`` boards through the hub, then through the raw subscriber."""
    total = sum(
        sum(isinstance(u, BoardEvent) for u in matches[n % len(matches)][0]) for n in range(count)
    )

    def boards(kind: str) -> list[_Replay]:
        return [_Replay(f"{kind}-{repeat}-{n:03}", *matches[n % len(matches)])
                for n in range(count)]  # fmt: skip

    with (
        Mosquitto(folder / "broker") as broker,
        hub_process(broker.url, folder / "archive") as (hub, url),
    ):
        before, cpu = _summary(url), _cpu_seconds(hub.pid)
        def hub_took() -> int:
            return _summary(url)["events"] - before["events"]

        taken, elapsed, stuck = _pass(broker.url, "tabula", boards("hub"), hub_took, total)
        cpu = _cpu_seconds(hub.pid) - cpu
        rss, peak = _memory_mb(hub.pid)
        lost = _summary(url)["missing"] - before["missing"]
        subscriber = _RawSubscriber(broker.url, "raw")
        subscriber.start()
        if not subscriber.subscribed.wait(60):
            raise TimeoutError(f"the raw subscriber did not subscribe to {broker.url} in 60 s")
        got, raw_elapsed, raw_stuck = _pass(broker.url, "raw", boards("raw"),
                                            lambda: subscriber.events, total)  # fmt: skip
        subscriber.stop.set()
        subscriber.join()
    print(f"  {count} boards: {total} events in {elapsed:.2f} s = {total / elapsed:,.0f} "
          f"events/s; hub CPU {cpu:.2f} s ({100 * cpu / elapsed:.0f}% of a core), RSS "
          f"{rss:.0f} MB (peak {peak:.0f} MB), {lost} missing by its own count; raw "
          f"subscriber {total / raw_elapsed:,.0f} events/s, {total - got} missed")  # fmt: skip
    raw = "the same boards under another prefix, taken by a bare aiomqtt subscriber"
    if got < total:
        raw += f" (which missed {total - got} of the {total} events)"
    return [
        timed_row(f"{count} boards -> Mosquitto -> hub, per event", elapsed, raw_elapsed,
                  per=total, clock="wall", misses=total - taken, reference_name=raw),
        timed_row(f"{count} boards: the hub's CPU, per event", cpu, subscriber.cpu_s,
                  per=total, misses=total - taken, reference_name=raw + ", its thread's CPU"),
        Row(f"{count} boards: the hub's peak RSS", peak, "MB", None, "", clock=None,
            reason="memory, judged by its own figure over time; a bare subscriber keeps "
            "nothing"),
        Row(f"{count} boards: publishers not ended {STALL_S:.0f} s after the last event",
            stuck + raw_stuck, "publishers", None, "", clock=None, misses=stuck + raw_stuck,
            reason="a count of MqttPublisher.run that never returned (cancelled then), in "
            "both passes: anything but 0 is a defect"),
    ]  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    matches = [_played(seed) for seed in range(options.matches)]
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for repeat, count in enumerate(options.boards):
            rows += run_boards(count, matches, repeat, Path(directory) / str(repeat))
    return rows

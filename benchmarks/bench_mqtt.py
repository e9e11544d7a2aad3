"""Events through board -> Mosquitto -> hub, beside a raw aiomqtt subscriber on the broker.

``python -m benchmarks mqtt [--boards 50 200 500]``: a private Mosquitto on a loopback
port, ``tabula hub`` in its own process (so its CPU and memory are its own, read from
/proc), and N boards in this process, each publishing a 1-point match through its own
MqttPublisher connection as fast as it can. The matches are played first by
:class:`~controller.simulated.board_service.SelfPlayBoard` (``--matches`` of them, shared out under
each board's id) and replayed from memory, so that the figure is the pipeline's, not the
simulated players'. The time (wall: three processes) runs from the first board's start
until the hub has taken every event (its /api/summary polled every 20 ms: the cards of 500
boards each time would cost the hub more than the events). Then each board is checked
from the hub's cards: every event taken once, in order, none missing, its match archived
(:class:`Hall`); ``python -m tests.soak hub`` runs the same pass alone. Reference, in turns
with it: the same boards under another topic prefix, taken by a bare aiomqtt subscriber
to the same filters (its own thread and event loop in this process, its CPU read with
``time.thread_time``), which only counts the events. Events the hub never took (or the
subscriber never got) within the bound are misses. A publisher still running
``STALL_S`` after the last event is cancelled and counted in a row of its own: its
``run()`` should have ended with its board's updates (see the report of issue 14: on
Python 3.11 ``asyncio.wait_for``, under aiomqtt's ``publish``, can swallow the
cancellation of the heartbeat task, python/cpython#86296, and the session never ends).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import tempfile
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import aiomqtt

from benchmarks.measure import Row, count, timed_row
from controller.config import MqttConfig
from controller.hub import Shard, hub_process
from controller.mqtt import MqttPublisher, client_options, subscriptions
from controller.mqtt.mosquitto import Mosquitto
from controller.simulated.board_service import SelfPlayBoard
from controller.status import (
    Action,
    ActionError,
    BoardEvent,
    BoardStatus,
    MatchFormat,
    ReviewFormat,
)
from hardware.board.json_types import JsonObject

SMALL = ("--boards", "2", "--matches", "1")

STALL_S = 30.0
"""How long the hub or the subscriber may take no event before the rest count as misses
(500 boards connecting at once on a busy machine take seconds before the first event)."""

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
        self.event_seqs = [u.seq for u in self._updates if isinstance(u, BoardEvent)]
        """The sequence numbers of the events it publishes, in order."""

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

    async def export(self, fmt: MatchFormat) -> str:
        raise ActionError("a replayed board exports nothing")

    async def review(self, fmt: ReviewFormat) -> str:
        raise ActionError("a replayed board gives no review")


def _played(seed: int) -> _Match:
    """Every update of a 1-point match, and the status before it."""
    board = SelfPlayBoard("played", seed=seed, match_length=1)
    first = board.status()
    return asyncio.run(board.play_through()), first


def played_matches(count: int) -> list[_Match]:
    """``count`` 1-point matches played by the simulated players, seeds 0 to count - 1."""
    return [_played(seed) for seed in range(count)]


def replayed_boards(kind: str, count: int, played: list[_Match]) -> list[_Replay]:
    """``count`` boards named ``<kind>-<n>``, replaying the matches ``played`` first
    (shared out: the simulated players are slow, the publishers must not be)."""
    return [_Replay(f"{kind}-{n:03}", *played[n % len(played)]) for n in range(count)]


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


def _get(url: str) -> JsonObject:
    with urllib.request.urlopen(url, timeout=30) as response:
        answer: JsonObject = json.load(response)
        return answer


def _raise_open_files(boards: int) -> None:
    """Raise this process's soft limit of open files (the broker, a child, inherits it) to
    what ``boards`` connections need: each publisher holds a socket and paho's socket pair,
    the broker a socket per client. Debian's default soft limit, 1,024, is short of 500.

    Raises:
        OSError: if the hard limit is lower than that.
    """
    needed = 8 * boards + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise OSError(f"{boards} boards need {needed} open files; the hard limit is {hard} "
                          "(ulimit -Hn)")  # fmt: skip
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


@contextmanager
def hall_broker(boards: int, folder: Path) -> Iterator[Mosquitto]:
    """A private Mosquitto for a hall of ``boards``, this process's open files raised for it."""
    _raise_open_files(boards)
    with Mosquitto(folder) as broker:
        yield broker


async def _publish(
    broker: str, prefix: str, boards: list[_Replay], measured: threading.Event, patience: float
) -> tuple[int, int, float]:
    """Every board's match published, each through its own connection: the events the broker
    acknowledged, how many publishers had not ended ``patience`` seconds after ``measured``
    (they are cancelled then), and when the last one ended (``time.perf_counter``).

    Raises:
        Exception: the first publisher's error.
    """
    publishers = [MqttPublisher(board, MqttConfig(broker, board.board_id, topic_prefix=prefix))
                  for board in boards]  # fmt: skip
    pending = {asyncio.create_task(publisher.run()) for publisher in publishers}
    done: set[asyncio.Task[None]] = set()
    while pending and not measured.is_set():
        ended, pending = await asyncio.wait(pending, timeout=0.1)
        done |= ended
    ended_at = time.perf_counter()
    if pending:
        ended, pending = await asyncio.wait(pending, timeout=patience)
        done |= ended
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        task.result()
    return sum(publisher.published for publisher in publishers), len(pending), ended_at


def _until_taken(taken: Callable[[], int], total: int, patience: float) -> tuple[int, float]:
    """Wait until ``taken()`` reaches ``total``, or has not grown for ``patience`` seconds:
    the count, and when it last grew (``time.perf_counter``)."""
    seen, since = -1, time.perf_counter()
    while True:
        now = taken()
        if now != seen:
            seen, since = now, time.perf_counter()
        if now >= total or time.perf_counter() - since > patience:
            return now, since
        time.sleep(0.02)


@dataclass(frozen=True, slots=True)
class _Pass:
    taken: int
    """Events counted by the taker."""
    wall_s: float
    """From the first board's start until the last event was taken."""
    published: int
    """Events the broker acknowledged to the publishers."""
    stuck: int
    """Publishers that had not ended ``patience`` after the last event."""
    lag_s: float
    """How long after the last publisher ended (every event acknowledged by the broker)
    the last event was taken: 0 when the taker kept up."""


def _pass(
    broker: str,
    prefix: str,
    boards: list[_Replay],
    taken: Callable[[], int],
    total: int,
    *,
    patience: float,
) -> _Pass:
    """Publish ``boards`` under ``prefix`` (their own thread and loop) until ``taken()``
    counts ``total`` events or stalls for ``patience`` seconds."""
    measured = threading.Event()
    outcome: list[tuple[int, int, float] | BaseException] = []

    def publish() -> None:
        try:
            outcome.append(asyncio.run(_publish(broker, prefix, boards, measured, patience)))
        except BaseException as error:  # handed to the measuring thread
            outcome.append(error)

    start = time.perf_counter()
    thread = threading.Thread(target=publish, name=f"boards-{prefix}")
    thread.start()
    got, last = _until_taken(taken, total, patience)
    measured.set()
    thread.join()
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    published, stuck, ended_at = result
    return _Pass(got, last - start, published, stuck, max(0.0, last - ended_at))


@dataclass(frozen=True, slots=True)
class Hall:
    """A hall of boards published through one broker to ``tabula hub`` (one, or several each
    taking a :class:`~controller.hub.Shard` of the boards), checked board by board."""

    boards: int
    events: int
    """Events the boards' matches hold."""
    published: int
    """Events the broker acknowledged to the boards."""
    taken: int
    """Events the hubs took (each once, by their own count)."""
    lost: int
    """Events of a board that no hub took."""
    taken_twice: int
    """Events the hubs took beyond a board's own (twice by one, or by two hubs): anything
    but 0 is a defect."""
    redelivered: int
    """Events delivered again (at least once delivery) that the hub knew and ignored."""
    archived: int
    """Boards whose match the hub archived (``.sgf`` and ``.mat`` on disk)."""
    problems: tuple[str, ...]
    """One line per board the hub did not take whole, exactly once, in order."""
    wall_s: float
    lag_s: float
    """How long the hub took its last event after the broker acknowledged it: how far
    behind the boards it had fallen."""
    cpu_s: tuple[float, ...]
    """Each hub's CPU time (user and system, from /proc) during the pass."""
    rss_mb: tuple[float, ...]
    """Each hub's resident memory at the end."""
    peak_rss_mb: tuple[float, ...]
    """Each hub's peak resident memory."""
    stuck: int
    """Publishers that never ended (cancelled): anything but 0 is a defect."""

    @property
    def is_whole(self) -> bool:
        """Whether every board's events were taken exactly once and its match archived."""
        return not (self.lost or self.taken_twice or self.problems or self.stuck) and (
            self.archived == self.boards
        )

    def figures(self) -> str:
        """One paragraph of figures."""
        return (
            f"{self.boards} boards: {self.events} events, {self.published} acknowledged by the "
            f"broker, {self.taken} taken by {len(self.cpu_s)} hub(s) in {self.wall_s:.2f} s "
            f"({self.taken / self.wall_s:,.0f} events/s), {self.lag_s:.2f} s after the "
            f"boards had sent their last; {self.lost} lost, {self.taken_twice} "
            f"taken twice, {self.redelivered} redelivered and ignored; {self.archived} of "
            f"{self.boards} matches archived; {self.stuck} publishers stuck; "
            + "; ".join(
                f"hub {number} CPU {cpu:.2f} s ({100 * cpu / self.wall_s:.0f}% of a core), "
                f"RSS {rss:.0f} MB (peak {peak:.0f} MB)"
                for number, (cpu, rss, peak) in enumerate(
                    zip(self.cpu_s, self.rss_mb, self.peak_rss_mb, strict=True), 1
                )
            )
            + f"; the hubs' CPU per event {1e6 * sum(self.cpu_s) / max(1, self.taken):.0f} us"
            + "".join(f"\n  {problem}" for problem in self.problems[:20])
        )


class _Taken(NamedTuple):
    """What the hub says it took of one board (its card's counts)."""

    events: int
    last_seq: int
    missing: int
    duplicates: int
    archived: int


def _taken(url: str) -> dict[str, _Taken]:
    """Every board's counts, from the hub's ``/api/boards``."""
    cards = _get(url + "api/boards")["boards"]
    taken = {}
    for card in cards if isinstance(cards, list) else []:
        if not isinstance(card, dict) or not isinstance(card["board_id"], str):
            raise TypeError(f"not a board's card: {card!r}")
        counts = [card[name] for name in _Taken._fields]
        if not all(isinstance(value, int) for value in counts):
            raise TypeError(f"not a board's counts: {card!r}")
        taken[card["board_id"]] = _Taken._make(counts)
    return taken


def _board_problem(view: _Taken | None, board: _Replay, archive: Path) -> str | None:
    """What is wrong with the hub's view of ``board``: one line, or None."""
    seqs = board.event_seqs
    if view is None:
        return f"{board.board_id}: never seen by the hub"
    taken = (view.events, view.last_seq, view.missing, view.archived)
    if taken != (len(seqs), seqs[-1], 0, 1):
        return (f"{board.board_id}: (events, last seq, missing, archived) {taken}, expected "
                f"{(len(seqs), seqs[-1], 0, 1)}")  # fmt: skip
    written = sorted(path.suffix for path in (archive / board.board_id).glob("*.*"))
    if written != [".mat", ".sgf"]:
        return f"{board.board_id}: archived as {written}, expected .mat and .sgf"
    return None


def through_hub(
    broker: Mosquitto,
    boards: list[_Replay],
    archive: Path,
    *,
    hubs: int = 1,
    patience: float = STALL_S,
) -> Hall:
    """Publish ``boards`` through ``broker`` to ``hubs`` ``tabula hub`` processes (each a
    :class:`~controller.hub.Shard` of the boards): what they took of each board, and what
    that cost them.

    Args:
        broker: the broker, started.
        boards: the boards, each a match replayed under its own id.
        archive: the hubs' archive folder (each board in its own subfolder).
        hubs: how many hubs share the boards.
        patience: how long the hubs may take no event before the rest count as lost.
    """
    total = sum(len(board.event_seqs) for board in boards)
    with contextlib.ExitStack() as stack:
        running = [stack.enter_context(hub_process(broker.url, archive, Shard(number, hubs)))
                   for number in range(1, hubs + 1)]  # fmt: skip
        cpu = [_cpu_seconds(hub.pid) for hub, _ in running]

        def hubs_took() -> int:
            counts = [_get(url + "api/summary")["events"] for _, url in running]
            return sum(count for count in counts if isinstance(count, int))

        def hubs_wrote() -> tuple[int, int]:
            """The matches the hubs finished, and those of them written (in worker threads)."""
            finished = written = 0
            for _, url in running:
                summary = _get(url + "api/summary")
                done, waiting = summary["archived"], summary["unwritten"]
                if isinstance(done, int) and isinstance(waiting, int):
                    finished, written = finished + done, written + done - waiting
            return finished, written

        outcome = _pass(broker.url, "tabula", boards, hubs_took, total, patience=patience)
        finished, _ = hubs_wrote()
        _until_taken(lambda: hubs_wrote()[1], finished, patience)  # the last ones' files
        cpu = [
            _cpu_seconds(hub.pid) - before for (hub, _), before in zip(running, cpu, strict=True)
        ]
        memory = [_memory_mb(hub.pid) for hub, _ in running]
        cards = [_taken(url) for _, url in running]
    problems: list[str | None] = []
    for board in boards:
        views = [taken[board.board_id] for taken in cards if board.board_id in taken]
        if len(views) > 1:
            problems.append(f"{board.board_id}: taken by {len(views)} hubs")
        problems.append(_board_problem(views[0] if views else None, board, archive))
    expected = {board.board_id: len(board.event_seqs) for board in boards}
    taken: dict[str, int] = {}
    for hub_cards in cards:
        for board_id, view in hub_cards.items():
            taken[board_id] = taken.get(board_id, 0) + view.events
    every = [view for hub_cards in cards for view in hub_cards.values()]
    return Hall(
        boards=len(boards),
        events=total,
        published=outcome.published,
        taken=sum(taken.values()),
        lost=sum(max(0, count - taken.get(board_id, 0)) for board_id, count in expected.items()),
        taken_twice=sum(
            max(0, count - expected.get(board_id, 0)) for board_id, count in taken.items()
        ),
        redelivered=sum(view.duplicates for view in every),
        archived=sum(view.archived for view in every),
        problems=tuple(problem for problem in problems if problem is not None),
        wall_s=outcome.wall_s,
        lag_s=outcome.lag_s,
        cpu_s=tuple(cpu),
        rss_mb=tuple(rss for rss, _ in memory),
        peak_rss_mb=tuple(peak for _, peak in memory),
        stuck=outcome.stuck,
    )


class _RawSubscriber(threading.Thread):
    """A bare aiomqtt subscriber to every board under ``prefix``: it counts the events."""

    def __init__(self, broker: str, prefix: str) -> None:
        super().__init__(name="raw-subscriber", daemon=True)
        self._config = MqttConfig(broker, "raw-subscriber", topic_prefix=prefix)
        self.events = 0
        self.cpu_s = 0.0
        self.subscribed = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[object] | None = None

    def run(self) -> None:
        async def follow() -> None:
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            await self._follow()

        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(follow())

    def stop(self) -> None:
        """End the subscription (from another thread) and wait for the thread.

        Why a cancellation rather than a timeout on each message: ``asyncio.wait_for`` on
        Python 3.11 drops a message that arrives with its timeout (python/cpython#86296),
        which the reference then counted as missed.
        """
        if self._loop is not None and self._task is not None:
            self._loop.call_soon_threadsafe(self._task.cancel)
        self.join()

    async def _follow(self) -> None:
        async with aiomqtt.Client(**client_options(self._config), identifier="raw-subscriber",
                                  clean_session=True) as client:  # fmt: skip
            for pattern in subscriptions(self._config.topic_prefix):
                await client.subscribe(pattern, qos=1)
            self.subscribed.set()
            start = time.thread_time()
            async for message in client.messages:
                if message.topic.value.endswith("/events"):
                    self.events += 1
                    self.cpu_s = time.thread_time() - start


def run_boards(count: int, matches: list[_Match], folder: Path) -> list[Row]:
    """Measure ``count`` boards through the hub, then through the raw subscriber."""

    def boards(kind: str) -> list[_Replay]:
        return replayed_boards(kind, count, matches)

    with hall_broker(count, folder / "broker") as broker:
        hall = through_hub(broker, boards("hub"), folder / "archive")
        subscriber = _RawSubscriber(broker.url, "raw")
        subscriber.start()
        if not subscriber.subscribed.wait(60):
            raise TimeoutError(f"the raw subscriber did not subscribe to {broker.url} in 60 s")
        raw = _pass(broker.url, "raw", boards("raw"), lambda: subscriber.events, hall.events,
                    patience=STALL_S)  # fmt: skip
        subscriber.stop()
    print("  " + hall.figures())
    print(f"  raw subscriber: {hall.events / raw.wall_s:,.0f} events/s, "
          f"{hall.events - raw.taken} missed")  # fmt: skip
    reference = "the same boards under another prefix, taken by a bare aiomqtt subscriber"
    if raw.taken < hall.events:
        reference += f" (which missed {hall.events - raw.taken} of the {hall.events} events)"
    misses = hall.lost + hall.taken_twice
    return [
        timed_row(f"{count} boards -> Mosquitto -> hub, per event", hall.wall_s, raw.wall_s,
                  per=hall.events, clock="wall", misses=misses, reference_name=reference),
        timed_row(f"{count} boards: the hub's CPU, per event", hall.cpu_s[0], subscriber.cpu_s,
                  per=hall.events, misses=misses, reference_name=reference + ", its thread's CPU"),
        Row(f"{count} boards: the hub's peak RSS", hall.peak_rss_mb[0], "MB", None, "", clock=None,
            reason="memory, judged by its own figure over time; a bare subscriber keeps "
            "nothing"),
        Row(f"{count} boards: boards not taken whole, exactly once, and archived",
            len(hall.problems), "boards", None, "", clock=None, misses=len(hall.problems),
            reason="a count of the hub's per-board check: "
            "anything but 0 is a defect"),
        Row(f"{count} boards: publishers not ended {STALL_S:.0f} s after the last event",
            hall.stuck + raw.stuck, "publishers", None, "", clock=None,
            misses=hall.stuck + raw.stuck,
            reason="a count of MqttPublisher.run that never returned (cancelled then), in "
            "both passes: anything but 0 is a defect"),
    ]  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    matches = played_matches(options.matches)
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for repeat, count in enumerate(options.boards):
            rows += run_boards(count, matches, Path(directory) / str(repeat))
    return rows

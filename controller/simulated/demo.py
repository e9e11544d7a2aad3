"""The whole service on the simulators: what ``tabula demo``, the end-to-end tests, the
crash test and the benchmark run.

The sensor board is :class:`hardware.simulator.BoardSimulator` behind a real pty read by
:class:`firmware_bridge.BoardLink`; the camera is a :class:`TableCamera` read by the real
``vision.RollWatcher`` and ``DiceReader``; the buttons and the shift-register LEDs are
gpiozero devices on its ``MockFactory`` (opened by :class:`controller.devices.PiDevices`
from a ``[gpio]`` configuration); the players are a :class:`TableDriver`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from controller import record
from controller.closing import cancel_and_wait
from controller.config import parse_config
from controller.record.journal import Journal
from controller.referee import Mode
from controller.rules import BACKGAMMON, Rules, Variant
from controller.rules.variants import Scoring
from controller.service.board_status import scene_text
from controller.service.service import Service, open_journal
from controller.simulated.camera import RollPool, TableCamera
from controller.simulated.hands import DriverCounts
from controller.simulated.jacquet_table import JacquetTableDriver
from controller.simulated.progress import until_progress
from controller.simulated.table import DriverOptions, TableDriver
from controller.status import BoardEvent

if TYPE_CHECKING:
    from typing import Unpack

    from controller.engine import Engine
    from controller.service.counters import Counters

__all__ = [
    "DEMO_PINMAP",
    "FAST_FIRMWARE",
    "DemoResult",
    "SimulatedBoard",
    "roll_pool",
    "run_simulated",
]

#: Firmware settings of the simulated board: 2 scans of 2 ms to debounce, 10 heartbeats/s.
FAST_FIRMWARE = {"heartbeat_ms": 100, "stable_scans": 2, "scan_period_ms": 2}

#: The simulated board's pin map: 15 sensor slots a point (see the file's header).
DEMO_PINMAP = Path(__file__).parent / "data" / "demo-pinmap.toml"

_GPIO = """
[gpio]
pin_factory = "mock"
leds = "shift-register"
"""

#: The players of a game with turns of its own, by its scoring (as the flow's VariantTurns).
_DRIVERS: dict[Scoring, type[TableDriver]] = {Scoring.JACQUET: JacquetTableDriver}


@functools.lru_cache(maxsize=1)
def roll_pool(seed: int = 0) -> RollPool:
    """The rendered rolls of ``seed``: rendered and checked once by this dice reader, then
    kept in the temporary directory (``tabula-rolls-SEED-DIGEST.npz``) for the next runs.

    The last one asked for is kept for the next match; a board holds its own while it
    plays. A pool is 35 MB: kept for every seed, a long run of matches held four.
    """
    return RollPool.cached(seed, Path(tempfile.gettempdir()))


@dataclass(slots=True)
class DemoResult:
    """What a simulated run did: the players' log and counts, the journal's path."""

    journal: Path
    expected: list[record.Event]
    counts: DriverCounts
    resumed: str
    service_counts: Counters | None = None
    led_changes: int = 0
    latencies: list[float] = field(default_factory=list)

    def problems(self) -> list[str]:
        """How the journal differs from what the players did (empty: it is all there).

        The journal must hold exactly the players' rolls, plays, illegal plays accepted,
        cube actions and results (besides the boards seen mid-turn), and one flag for each
        illegal play, none for a legal one.
        """
        with Journal(self.journal, readonly=True) as journal:
            events = journal.events()
        kept = [e for e in events[1:] if not isinstance(e, record.Observed | record.Flagged)]
        flagged = sum(isinstance(e, record.Flagged) for e in events)
        found = []
        if kept != self.expected:
            index = next(
                (i for i, (a, b) in enumerate(zip(kept, self.expected, strict=False)) if a != b),
                min(len(kept), len(self.expected)),
            )
            found.append(
                f"event {index} differs: journal {kept[index : index + 1]!r}, "
                f"players {self.expected[index : index + 1]!r}"
            )
        if flagged != self.counts.illegal:
            found.append(f"{flagged} plays flagged, {self.counts.illegal} illegal plays made")
        return found


class SimulatedBoard:
    """The simulated edges of one board (simulator, camera, pins) around a service.

    Use as an async context manager; :attr:`service` runs while inside. ``first_seq``
    numbers the first event of a new journal (see :func:`run_simulated`).
    """

    def __init__(
        self,
        journal: Path,
        *,
        seed: int = 0,
        rules: Rules | None = None,
        mode: Mode = Mode.REFEREE,
        settle_s: float = 0.02,
        camera_period_s: float = 0.01,
        flipped: bool = False,
        names: tuple[str, str] = ("White", "Black"),
        board_id: str = "demo",
        variant: Variant = BACKGAMMON,
        engine: Engine | None = None,
        signal_s: float = 4.0,
        first_seq: int = 1,
        board_runtime: str = "cpython",
    ) -> None:
        self.journal_path = journal
        self.board_runtime = board_runtime
        self.first_seq = first_seq
        self.variant = variant
        self.engine = engine
        self.signal_s = signal_s
        self.seed = seed
        self.rules = rules if rules is not None else Rules(match_length=5)
        self.mode = mode
        self.settle_s = settle_s
        self.camera_period_s = camera_period_s
        self.flipped = flipped
        self.names = names
        self.board_id = board_id
        self._stack = contextlib.AsyncExitStack()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> SimulatedBoard:
        from gpiozero.pins.mock import MockFactory

        from controller.devices import PiDevices
        from firmware_bridge import BoardLink
        from hardware.simulator import BoardSimulator
        from vision import Calibration, DiceReader, RollWatcher, SettleDetector

        stack = self._stack
        self.pool = await asyncio.to_thread(roll_pool, self.seed % 4)
        self.journal = stack.enter_context(
            open_journal(self.journal_path, first_seq=self.first_seq)
        )
        self.service = Service(
            self.board_id,
            self.journal,
            names=self.names,
            rules=self.rules,
            mode=self.mode,
            flipped=self.flipped,
            variant=self.variant,
            engine=self.engine,
            signal_s=self.signal_s,
        )
        self.sim = stack.enter_context(
            BoardSimulator(
                # A stable name, as udev's /dev/tabula-board: a replug changes the pty.
                link=self.journal_path.with_name(self.journal_path.stem + ".board"),
                settings=FAST_FIRMWARE,
                seed=self.seed,
                period_s=0.001,
                pinmap=DEMO_PINMAP,
                runtime=self.board_runtime,
            )
        )
        self.link = await stack.enter_async_context(
            BoardLink(self.sim.path, settle_s=self.settle_s)
        )
        self.factory = MockFactory()
        self.gpio = gpio = parse_config(_GPIO, check_files=False).gpio
        service = self.service
        self.devices = stack.enter_context(
            PiDevices.open(gpio, send_leds=self.link.send_leds, pin_factory=self.factory)
        )
        service.leds = self.devices.leds
        self.buttons = gpio.pins.buttons()
        self.camera = TableCamera(self.pool.empty, period_s=self.camera_period_s)
        reader = DiceReader(Calibration.identity(), expected_dice=2)
        reader.set_background(self.pool.empty)
        self.watcher = RollWatcher(
            lambda: self.camera, reader, settle=SettleDetector(frames=1), votes=1
        )
        stack.callback(self.camera.close)
        self._task = asyncio.create_task(
            service.run(board=self.link, camera=self.watcher, buttons=self.devices.buttons),
            name="service",
        )
        return self

    def driver(
        self,
        rng: random.Random,
        *,
        echo: Callable[[str], None] | None = None,
        **options: Unpack[DriverOptions],
    ) -> TableDriver:
        """Simulated players at this board (``echo``: a line about each turn, or None)."""
        from controller.simulated.table import button_presser

        press = button_presser(self.buttons, self.factory)
        driver = _DRIVERS.get(self.service.flow.variant.scoring, TableDriver)
        return driver(
            self.service,
            self.sim.board,
            self.camera,
            self.pool,
            press=press,
            rng=rng,
            flipped=self.flipped,
            echo=echo,
            **options,
        )

    async def __aexit__(self, *exc: object) -> None:
        task, self._task = self._task, None
        self.camera.close()
        try:
            if task is not None:
                await cancel_and_wait(task)
        finally:  # a Ctrl-C meanwhile still closes the board, its link and its journal
            await self._stack.aclose()


async def run_simulated(
    journal: Path,
    *,
    games: int,
    seed: int,
    rules: Rules | None = None,
    mode: Mode = Mode.REFEREE,
    echo: Callable[[str], None] | None = None,
    show_leds: bool = False,
    on_event: Callable[[int, str], None] | None = None,
    announce: Callable[[str], None] | None = None,
    ready: Callable[[], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    broker: str | None = None,
    board_id: str = "demo",
    variant: Variant = BACKGAMMON,
    engine: str = "none",
    ply: int = 0,
    first_seq: int = 1,
    board_runtime: str = "cpython",
    **options: Unpack[DriverOptions],
) -> DemoResult:
    """Play ``games`` games (or to the match's end) on a simulated board into ``journal``.

    With ``broker`` (``mqtt://host:port``) the board also publishes its journal and every
    event to the broker as ``board_id``, and waits for the broker to have them all.
    ``first_seq`` numbers the first event of a new ``journal``: the board's last match's
    last event plus one, so that its subscribers see one sequence across its matches, as
    a New match on the service gives (:meth:`Journal.rotate`). ``board_runtime`` is where
    the sensor board's firmware runs (:data:`hardware.runtimes.RUNTIMES`). ``progress``
    hears each game's winner and points as it ends; ``ready`` is called once the service
    is set up, before the first roll.
    """
    from controller.engine import configured_engine

    async with contextlib.AsyncExitStack() as stack:
        choice = configured_engine(engine, ply=ply)
        if choice.engine is not None:
            stack.push_async_callback(choice.engine.close)
        table = await stack.enter_async_context(
            SimulatedBoard(
                journal,
                seed=seed,
                rules=rules,
                mode=mode,
                board_id=board_id,
                engine=choice.engine,
                variant=variant,
                first_seq=first_seq,
                board_runtime=board_runtime,
            )
        )
        service = table.service
        if announce is not None:
            announce(service.resumed)
        if ready is not None:
            ready()
        if echo is not None:
            echo(choice.message)
        if broker is not None:
            await stack.enter_async_context(_publishing(service, table.journal, broker))
        driver = table.driver(random.Random(seed), echo=echo, **options)
        seen = [service.journal.last_seq]  # the last event the watcher has reported
        watcher = asyncio.create_task(
            _watch(service, echo if show_leds else None, on_event, progress, seen)
        )
        try:
            await driver.play(games)
            # Every event the game published is reported before the watcher stops.
            await until_progress(
                "the demo's watcher", lambda: seen[0] >= service.journal.last_seq, lambda: seen[0]
            )
        finally:
            await cancel_and_wait(watcher)
        return DemoResult(
            journal,
            driver.expected,
            driver.counts,
            service.resumed,
            service.counters,
            service.counters.led_updates,
        )


@contextlib.asynccontextmanager
async def _publishing(service: Service, journal: Journal, broker: str) -> AsyncIterator[None]:
    """Publish the journal and the service's events to ``broker`` while inside."""
    from controller.config import MqttConfig
    from controller.mqtt import MqttPublisher, journal_events

    board_id = service.board_id
    publisher = MqttPublisher(
        service,
        MqttConfig(broker, board_id),
        backoff=(0.2, 5.0),
        backlog=lambda: journal_events(board_id, journal.entries()),
    )
    task = asyncio.create_task(publisher.run())
    try:
        yield
        await publisher.drain(30.0)
    finally:
        await cancel_and_wait(task)


async def _watch(
    service: Service,
    echo: Callable[[str], None] | None,
    on_event: Callable[[int, str], None] | None,
    progress: Callable[[int, int], None] | None = None,
    seen: list[int] | None = None,
) -> None:
    """Print the LED states and the engine's verdicts as they change, report each event,
    and each game's winner and points to ``progress``; ``seen`` holds the last event's
    number reported."""
    last = ""
    judged = service.counters.judged
    async for item in service.updates():
        if isinstance(item, BoardEvent):
            if on_event is not None:
                on_event(item.seq, item.kind)
            if seen is not None:
                seen[0] = item.seq
            if progress is not None and item.kind == "game_ended":
                winner, points = item.data["winner"], item.data["points"]
                assert isinstance(winner, int) and isinstance(points, int)
                progress(winner, points)
            continue
        if echo is None or service.leds is None:
            continue
        if service.counters.judged != judged:
            judged = service.counters.judged
            status = service.status()
            echo(f"    engine: player {status.play_player} {status.play_signal}")
        text = scene_text(service.leds.scene)
        if text != last:
            echo(f"    LEDs: {text}")
            last = text

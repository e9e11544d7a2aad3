"""The board service: one asyncio loop joining the board, the camera, the buttons, the LEDs
and the journal around the pure :class:`~controller.match.flow.Flow`.

Why one consumer: every input (a settled observation, a camera event, a button, a web
action) goes through one queue and one task, so inputs are judged and journalled in the
order they happened; each is journalled (SQLite, fsync) *before* the new state is adopted
and shown. Blocking work (the journal's commit, a camera frame) runs in threads through
``asyncio.to_thread``; gpiozero's callbacks come in through ``call_soon_threadsafe``
(:class:`controller.devices.Buttons`).

Tasks of :meth:`Service.run` (one ``TaskGroup``, each named): ``referee`` (the queue),
``board`` (the serial link's observations), ``camera`` (the roll watcher), ``leds-blink``
(the Pi's chain), plus any the caller adds (the watchdog, the simulated players).

The engine (optional) is a teacher beside the referee: a hint or a play's verdict is
asked in a task of its own (``aid``), whose answer comes back through the queue and is
dropped if the position moved on meanwhile, so the referee task never waits on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from controller import record
from controller.devices import LedBackend, blink_forever
from controller.engine import NO_ENGINE, CubeAdvice, Engine, EngineError, RankedPlay
from controller.engine.review import CheckerDecision, PlayVerdict, review
from controller.match.cube_seen import CubeSeen, cube_disagreement
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.match.inputs import (
    CameraLifted,
    CameraRoll,
    CameraRollFault,
    CameraUnreadable,
    DiceEntered,
    Input,
    KeyPressed,
    Observed,
    PositionSet,
)
from controller.match.learner import hint_step
from controller.match.orientation import Orientation, propose
from controller.record.journal import Journal, archive_path
from controller.record.matfile import write_mat
from controller.record.plain import write_events, write_text
from controller.record.sgf import write_sgf
from controller.referee import Button, Cells, Display, Kind, Mode, Phase, cells_from_board
from controller.review import AidForbiddenError, PlaySignal, check_aid, signal_for
from controller.rules import (
    BACKGAMMON,
    Board,
    Rules,
    RulesError,
    Variant,
    WinKind,
    Xgid,
    gnubg_id,
    pip_counts,
    xgid,
)
from controller.rules.cube import CubePhase
from controller.status import (
    AcceptPlay,
    Action,
    ActionError,
    AnswerResignation,
    BoardEvent,
    BoardStatus,
    ConfirmOrientation,
    CorrectPosition,
    Decline,
    DemandPlay,
    EnterDice,
    ExportFormat,
    Hint,
    LightState,
    NewGame,
    NewMatch,
    Resign,
)
from hardware.board.scene import Scene

__all__ = ["RollSource", "Service", "first_error", "open_journal", "scene_text"]

_log = logging.getLogger(__name__)

_BACKGAMMON_ONLY = "GNU Backgammon's hints and reviews are for backgammon only"

_COLOURS = {"OFF": "off", "GREEN": "green", "RED": "red", "AMBER": "amber"}


def first_error(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups: what a task of the loop raised.

    Why: a task failing ends the ``TaskGroup`` with an ``ExceptionGroup``; the command line
    shows the error itself (a :class:`~hardware.board.errors.TabulaError` gets a clear message).
    """
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def open_journal(path: Path, *, first_seq: int = 1) -> Journal:
    """The journal at ``path`` for the service, whose commits run in a worker thread.

    The one ``referee`` task appends, one event at a time, so the connection is never
    used by two threads at once: SQLite's same-thread check is lifted for that.
    ``first_seq`` numbers a new journal's first event (:class:`Journal`'s).
    """
    return Journal(
        path,
        connect=functools.partial(sqlite3.connect, check_same_thread=False),
        first_seq=first_seq,
    )


class RollSource(Protocol):
    """What the service needs of the camera: one step of ``vision.RollWatcher`` (blocking),
    told who throws (``vision.Thrower``'s values: ``near``, ``far`` or ``both``), and what
    it sees (its ``state``: ``covered`` is shown as the camera's link)."""

    state: Any

    def step(self, thrower: str) -> Any: ...


@dataclass(frozen=True, slots=True)
class _Refresh:
    """Show the flow again (it changed outside the match: the mode)."""


_REFRESH = _Refresh()


@dataclass(frozen=True, slots=True)
class _Physical:
    """The sensors' cells as the board numbers them (before the orientation is applied)."""

    cells: Cells


@dataclass(frozen=True, slots=True)
class _Control:
    """An action on the match itself (new game, new match, orientation), in the queue's order."""

    action: NewGame | NewMatch | ConfirmOrientation | Resign | AnswerResignation


_CONTROLS = (NewGame, NewMatch, ConfirmOrientation, Resign, AnswerResignation)
"""The actions on the match itself, queued as :class:`_Control`."""

_ORIENT_TEXT = "Done confirms, Undo swaps sides"


@dataclass(frozen=True, slots=True)
class _Guide:
    """A hinted play being followed on the board."""

    best: RankedPlay
    player: int
    before: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _HintReady:
    """The engine's answer to a hint, asked at ``epoch``."""

    epoch: int
    best: RankedPlay | None = None
    advice: CubeAdvice | None = None
    taker: bool = False


@dataclass(frozen=True, slots=True)
class _PlayJudged:
    """The engine's verdict on a committed play."""

    verdict: PlayVerdict


@dataclass(frozen=True, slots=True)
class _AidFailed:
    """The engine failed: say so, play on."""

    text: str


@dataclass(frozen=True, slots=True)
class _SignalOver:
    """The play's signal has been shown long enough."""

    token: int


_Aid = _HintReady | _PlayJudged | _AidFailed | _SignalOver


@dataclass(slots=True)
class _Queued:
    item: Input | _Refresh | _Aid | _Physical | _Control
    done: asyncio.Future[None] | None = None


@dataclass(slots=True)
class _Counters:
    inputs: int = 0
    rolls: int = 0
    """Camera readings of a roll handled (read, irregular or unreadable)."""
    refused: int = 0
    journalled: int = 0
    led_updates: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    hints: int = 0
    """Hints shown (a play's first checker lit, or a cube advice said)."""
    hints_dropped: int = 0
    """Engine answers that came after the position moved on."""
    judged: int = 0
    """Plays judged by the engine (learner mode)."""


class Service:
    """One board's service (implements :class:`controller.status.BoardService`).

    Args:
        board_id: the board's name (status, MQTT).
        journal: the match's journal; a new one is started with ``names`` and ``rules``,
            an existing one resumed where it stood.
        names: the players' names for a new journal.
        rules: the rules for a new journal.
        mode: referee, learner or recorder.
        flipped: player 0 plays colour B from the far side (the board's orientation).
        confirm_orientation: before a match's first opening roll, propose the orientation
            the set-up shows and wait for the players to confirm it (Done, or the web
            view's action) or swap it (Undo); journalled, so a restart keeps it. False:
            ``flipped`` holds until a confirmation is journalled.
        leds: the LED back-end, or None.
        clock: the time of events.
        variant: the game of a new journal (backgammon, nackgammon, Jacquet de
            Versailles); a resumed journal keeps its own.
        engine: the teacher (hints, verdicts on plays, reviews), or None: hints are off.
        signal_s: seconds the status lamp shows a play's verdict (learner mode).
    """

    def __init__(
        self,
        board_id: str,
        journal: Journal,
        *,
        names: tuple[str, str] = ("Player 0", "Player 1"),
        rules: Rules | None = None,
        mode: Mode = Mode.REFEREE,
        flipped: bool = False,
        confirm_orientation: bool = False,
        leds: LedBackend | None = None,
        clock: Callable[[], float] = time.time,
        variant: Variant = BACKGAMMON,
        engine: Engine | None = None,
        signal_s: float = 4.0,
    ) -> None:
        self._board_id = board_id
        self.engine = engine
        self.signal_s = signal_s
        self._epoch = 0  # bumped by every recorded event but a board seen mid-turn
        self._guide: _Guide | None = None
        self._advice = ""
        self._verdict: PlayVerdict | None = None
        self._signal: PlaySignal | None = None
        self._signal_token = 0
        self._aids: set[asyncio.Task[None]] = set()
        self.journal = journal
        self.orientation = Orientation.of_flipped(flipped)
        self.confirm_orientation = confirm_orientation
        self.orienting = False
        """Waiting for the players to confirm the orientation (no opening roll before)."""
        self._physical: Cells | None = None
        self.leds = leds
        self._clock = clock
        self._queue: asyncio.Queue[_Queued] = asyncio.Queue()
        self._subscribers: list[asyncio.Queue[BoardStatus | BoardEvent]] = []
        self.counters = _Counters()
        self._links = {"board": "off", "camera": "off"}
        self._board_problem: str | None = None
        self._cube_seen: CubeSeen | None = None
        """The cube in the last roll's picture (checked against the referee's, never adopted)."""
        self._cells: Cells | None = None
        snapshot = journal.state
        owed: list[record.Event] = []
        if snapshot is None:
            rules = rules if rules is not None else Rules()
            journal.append(record.MatchStarted(names, rules, variant.name))
            self.flow = Flow.new(names, rules, mode, variant)
            self.resumed = f"new match in {str(journal.path)!r}"
        else:
            self.flow, owed = Flow.resume(snapshot, mode)
            self.resumed = journal.resumed()
        for event in owed:
            journal.append(event)
        self._orient()
        self._seq = journal.last_seq
        self._moves: list[str] = []
        for event in journal.events():
            self._note(event)
        self._status = self._make_status()

    @property
    def flipped(self) -> bool:
        """Whether player 0 sits at the far side (the opening dice and the LEDs mirrored)."""
        return self.orientation.far

    def _orient(self) -> None:
        """Take the journal's confirmed orientation, or ask for one at a match's start."""
        state = self.journal.state
        confirmed = state.orientation if state is not None else None
        if confirmed is not None:
            self.orientation = Orientation(confirmed.far, confirmed.colour_b)
            self.orienting = False
            return
        self.orienting = (
            self.confirm_orientation
            and state is not None
            and state.phase is record.Phase.OPENING
            and state.opening is None
            and state.match.game_number == 1
        )

    # BoardService.

    @property
    def board_id(self) -> str:
        return self._board_id

    def status(self) -> BoardStatus:
        """The status now."""
        return self._status

    async def updates(self) -> AsyncIterator[BoardStatus | BoardEvent]:
        """Every event and every new status from now on, in order."""
        queue: asyncio.Queue[BoardStatus | BoardEvent] = asyncio.Queue()
        self._subscribers.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._subscribers.remove(queue)

    async def apply(self, action: Action) -> None:
        """Carry out ``action`` (journalled first), or raise ActionError and change nothing."""
        if isinstance(action, EnterDice):
            item: Input = DiceEntered(action.dice)
        elif isinstance(action, AcceptPlay):
            item = KeyPressed(Button.ACCEPT)
        elif isinstance(action, DemandPlay):
            item = KeyPressed(Button.DEMAND)
        elif isinstance(action, CorrectPosition):
            item = PositionSet(action.board)
        elif isinstance(action, Hint):
            item = KeyPressed(Button.HINT)
        elif isinstance(action, Decline):
            item = KeyPressed(Button.DECLINE)
        elif isinstance(action, _CONTROLS):
            control = _Control(action)
        else:
            raise ActionError(f"{type(action).__name__}: not taken by this board's service")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if isinstance(action, _CONTROLS):
            self._queue.put_nowait(_Queued(control, done))
        else:
            self._queue.put_nowait(_Queued(item, done))
        await done

    def export(self, fmt: ExportFormat) -> str:
        """The match so far as a ``.mat``, ``.sgf``, JSON-lines (``jsonl``) or text record.

        Raises:
            RefusedError: for a match these GNU Backgammon formats cannot hold (Jacquet de
                Versailles, nackgammon), saying which export can.
        """
        match = self.journal.record()
        writers = {"mat": write_mat, "sgf": write_sgf, "jsonl": write_events, "txt": write_text}
        try:
            return writers[fmt](match)
        except record.RecordError as error:
            raise RefusedError(str(error)) from None

    # Inputs from the edges.

    def press(self, key: Button) -> None:
        """A button was pressed (called in the loop: gpiozero's callbacks arrive there)."""
        self._queue.put_nowait(_Queued(KeyPressed(key)))

    def next_mode(self) -> None:
        """The Mode button: referee, learner, recorder, in turn (shown at once, not recorded)."""
        modes = list(Mode)
        self.flow = self.flow.with_mode(modes[(modes.index(self.flow.mode) + 1) % len(modes)])
        self._queue.put_nowait(_Queued(_REFRESH))

    def feed(self, item: Input) -> None:
        """Queue any input (the board and camera tasks, tests)."""
        self._queue.put_nowait(_Queued(item))

    # The loop.

    async def run(
        self,
        *,
        board: Any = None,
        camera: RollSource | None = None,
        extra: Iterable[tuple[str, Coroutine[Any, Any, None]]] = (),
    ) -> None:
        """Run until cancelled (or until an ``extra`` task returns and cancels the rest).

        Args:
            board: a started ``firmware_bridge.BoardLink`` (or anything with ``updates()``).
            camera: a roll source (``vision.RollWatcher``) stepped in a thread.
            extra: more named coroutines to run in the same task group.
        """
        await self._show()
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._referee(), name="referee")
                if board is not None:
                    group.create_task(self._board(board), name="board")
                if camera is not None:
                    group.create_task(self._camera(camera), name="camera")
                if self.leds is not None:
                    group.create_task(blink_forever(self.leds), name="leds-blink")
                for name, coroutine in extra:
                    group.create_task(coroutine, name=name)
        finally:
            for task in list(self._aids):
                task.cancel()

    async def _board(self, link: Any) -> None:
        async for update in link.updates():
            if hasattr(update, "cells"):
                self._links["board"] = "live"
                self._queue.put_nowait(_Queued(_Physical(tuple(update.cells))))
            else:
                self._links["board"] = str(update)  # only a BoardLink sends states
                if link.problem != self._board_problem:
                    self._board_problem = link.problem
                    self._queue.put_nowait(_Queued(_REFRESH))

    async def _camera(self, watcher: RollSource) -> None:
        self._links["camera"] = "live"
        while True:
            event = await asyncio.to_thread(watcher.step, self._thrower())
            # A hand, a sleeve or a player over the board: the status says why no roll is read.
            link = "covered" if str(watcher.state) == "covered" else "live"
            if link != self._links["camera"]:
                self._links["camera"] = link
                self._queue.put_nowait(_Queued(_REFRESH))
            if event is None:
                continue
            if event.reading is not None:
                self._cube_seen = CubeSeen.of(event.reading.cube, self.flow.cube)
            item = _camera_input(event, self.orientation)
            if item is not None:
                self.feed(item)

    def _thrower(self) -> str:
        """Who throws the dice the camera is about to see, by where he sits."""
        player = self.flow.thrower
        return "both" if player is None else self.orientation.side_of(player)

    async def _referee(self) -> None:
        while True:
            queued = await self._queue.get()
            try:
                await self._handle(queued.item)
            except ActionError as error:
                self.counters.refused += 1
                _log.info("refused %r: %s", queued.item, error)
                if queued.done is not None and not queued.done.done():
                    queued.done.set_exception(error)
                else:
                    self.flow = _with_notice(self.flow, str(error))
                    await self._publish_status()
                continue
            if queued.done is not None and not queued.done.done():
                queued.done.set_result(None)

    async def _handle(self, item: Input | _Refresh | _Aid | _Physical | _Control) -> None:
        if isinstance(item, _Refresh):
            await self._show()
            return
        if isinstance(item, _HintReady | _PlayJudged | _AidFailed | _SignalOver):
            await self._aid_answered(item)
            return
        if isinstance(item, _Control):
            await self._control(item.action)
            return
        if isinstance(item, _Physical):
            self._physical = item.cells
            if self.orienting:
                start = cells_from_board(self.flow.variant.start)
                self.orientation = propose(item.cells, start, self.orientation) or self.orientation
            item = Observed(self.orientation.logical(item.cells))
        elif self.orienting and not isinstance(item, Observed):
            await self._orienting(item)
            return
        if isinstance(item, KeyPressed) and item.key is Button.HINT:
            await self._ask_hint()
            return
        self.counters.inputs += 1
        flow, events = self.flow.on(item)
        await self._record(events)
        self.flow = flow
        if isinstance(item, Observed):
            self._cells = item.cells
        self._follow_guide()
        await self._show()
        if isinstance(item, CameraRoll | CameraRollFault | CameraUnreadable):
            self.counters.rolls += 1  # once its status is out (the simulated players wait on it)

    async def _record(self, events: list[record.Event]) -> None:
        """Journal ``events`` (each durably before the next) and publish them."""
        for event in events:
            judge = self._play_to_judge(event)
            try:
                seq = await asyncio.to_thread(self.journal.append, event)
            except record.InvalidEventError as error:
                _log.error("journal refused %r: %s", event, error)
                raise RefusedError(f"the record refuses it: {error}") from None
            self._seq = seq
            self._note(event)
            if not isinstance(event, record.Observed):
                self._moved_on()
            if judge is not None:
                self._spawn(self._judge(*judge), "judge")
            self.counters.journalled += 1
            kind = type(event).__name__
            self.counters.kinds[kind] = self.counters.kinds.get(kind, 0) + 1
            data = record.event_to_dict(event)
            # The journal's type names the event (``played``), as the backlog of
            # ``controller.mqtt.journal_events`` names the same events.
            self._publish(BoardEvent(self._board_id, seq, data["type"], data, self._clock()))

    # The match itself: orientation, new game, new match.

    async def _orienting(self, item: Input) -> None:
        """Before the opening roll, Done confirms the orientation and Undo swaps it."""
        if isinstance(item, CameraRoll | CameraRollFault | CameraUnreadable):
            self.counters.rolls += 1
        if isinstance(item, KeyPressed) and item.key is Button.DONE:
            await self._confirm(self.orientation)
        elif isinstance(item, KeyPressed) and item.key is Button.UNDO:
            self.orientation = self.orientation.swapped()
            await self._show()
        else:
            raise RefusedError(f"confirm the board's orientation first: {_ORIENT_TEXT}")

    async def _confirm(self, orientation: Orientation) -> None:
        await self._record([record.OrientationConfirmed(orientation.far, orientation.colour_b)])
        self.orientation, self.orienting = orientation, False
        if self._physical is not None:
            self._cells = orientation.logical(self._physical)
            self.flow = self.flow.on(Observed(self._cells))[0]
        notice = f"orientation confirmed: {orientation.describe(self.flow.names)}"
        self.flow = _with_notice(self.flow, f"{notice}; opening roll, one die each")
        await self._show()

    async def _control(
        self, action: NewGame | NewMatch | ConfirmOrientation | Resign | AnswerResignation
    ) -> None:
        if isinstance(action, Resign | AnswerResignation):
            if isinstance(action, Resign):
                flow, events = self.flow.resign(action.player, WinKind[action.kind.upper()])
            else:
                flow, events = self.flow.answer_resignation(action.accept)
            await self._record(events)
            self.flow = flow
            await self._show()
        elif isinstance(action, ConfirmOrientation):
            await self._confirm(self.orientation.swapped() if action.swap else self.orientation)
        elif isinstance(action, NewGame):
            flow, events = self.flow.abandon(action.reason)
            await self._record(events)
            self.flow, self._moves = flow, []
            await self._show()
        else:
            await self._new_match(action)

    async def _new_match(self, action: NewMatch) -> None:
        """Archive the journal beside it and start the new match's, numbers going on."""
        names = action.names if action.names is not None else self.flow.names
        options = dict(action.options)
        money_only = [key for key in ("jacoby", "beavers", "automatic_doubles") if options.get(key)]
        if action.length and money_only:
            raise RefusedError(
                f"{', '.join(money_only)}: money play only, not a {action.length}-point match"
            )
        try:
            rules = replace(
                self.flow.rules,
                match_length=action.length,
                jacoby=options.get("jacoby", False),
                beavers=options.get("beavers", False),
                automatic_doubles=options.get("automatic_doubles", False),
                crawford=options.get("crawford", True),
            )
            start = record.MatchStarted(names, rules)
        except (RulesError, record.InvalidEventError) as error:
            raise RefusedError(f"new match refused: {error}") from None
        old = self.journal
        archive = archive_path(old.path, self._clock(), old.first_seq, old.last_seq)
        try:
            self.journal = await asyncio.to_thread(old.rotate, start, archive)
        except record.JournalError as error:
            _log.error("new match: %s", error)
            if old.closed:  # a rename failed: the journal at the path is the old or the new
                self.journal = await asyncio.to_thread(open_journal, old.path)
            if self.journal.events() != [start]:
                raise RefusedError(f"new match refused: {error}") from None
        self._seq = self.journal.last_seq
        _log.info("new match in %s; the last one archived as %s", self.journal.path, archive)
        self._publish(
            BoardEvent(self._board_id, self._seq, "match_started",
                       record.event_to_dict(start), self._clock())
        )  # fmt: skip
        self.flow = replace(
            Flow.new(names, rules, self.flow.mode), notice=f"new match: {start.names[0]} - "
            f"{start.names[1]}, the last one archived as {archive.name}",
        )  # fmt: skip
        self._moves = []
        self._orient()
        if self._physical is not None:
            self._cells = self.orientation.logical(self._physical)
            self.flow = self.flow.on(Observed(self._cells))[0]
        await self._show()

    def _note(self, event: record.Event) -> None:
        """Keep the current game's move list (one line a turn or cube action)."""
        if isinstance(event, record.GameAbandoned):
            self._moves = []
            return
        if isinstance(event, record.OpeningRolled | record.MatchStarted):
            if not self._moves or self._moves[-1].startswith("game over"):
                self._moves = []
            return
        line = _move_line(event)
        if line is not None:
            self._moves.append(line)

    def _orientation_display(self) -> Display:
        """What the LEDs and the status line show while the orientation waits."""
        who = self.orientation.describe(self.flow.names)
        start = cells_from_board(self.flow.variant.start)
        set_up = self._physical is not None and self.orientation.logical(self._physical) == start
        head = "who is who" if set_up else "set up the board; who is who"
        text = f"{head}: {who} (green: {self.flow.names[0]}); {_ORIENT_TEXT}"
        return Display(self.orientation.scene(self._physical), text)

    # The teacher: hints, verdicts on plays and reviews (the engine, off the loop).

    def _spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(coroutine, name=name)
        self._aids.add(task)
        task.add_done_callback(self._aids.discard)

    def _moved_on(self) -> None:
        """The position moved on: a hint in flight or shown is of the past."""
        self._epoch += 1
        self._guide = None
        self._advice = ""

    def _position(self) -> Xgid:
        snapshot = self.journal.state
        assert snapshot is not None
        return snapshot.position()

    async def _ask_hint(self) -> None:
        """The Hint button or action: ask the engine in a task, or say why not.

        Raises:
            RefusedError: in recorder mode (tournament rules forbid aids), without an
                engine, or when there is nothing to hint.
        """
        try:
            check_aid(self.flow.mode.value, "hint")
        except AidForbiddenError as error:
            raise RefusedError(str(error)) from None
        engine = self.engine
        if engine is None:
            raise RefusedError(NO_ENGINE)
        if self.flow.is_jacquet:
            raise RefusedError(_BACKGAMMON_ONLY)
        flow, turn, cube = self.flow, self.flow.turn, self.flow.cube
        if turn is None or cube is None:
            raise RefusedError("no hint now: the game has not started")
        position = self._position()
        epoch = self._epoch
        if cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            self._spawn(self._cube_hint(engine, position, epoch, taker=True), "hint")
        elif turn.phase is Phase.MOVING and turn.dice is not None:
            dice = turn.dice
            self._spawn(self._play_hint(engine, position, dice, epoch), "hint")
        elif turn.phase is Phase.ROLL and turn.dice is None:
            problem = cube.double_problem(turn.player)
            if problem is not None:
                raise RefusedError(f"no cube decision now ({problem}): roll")
            self._spawn(self._cube_hint(engine, position, epoch, taker=False), "hint")
        else:
            raise RefusedError(f"no hint now ({flow.phase})")
        self.flow = _with_notice(flow, "hint: asking the engine")
        await self._publish_status()

    async def _play_hint(
        self, engine: Engine, position: Xgid, dice: tuple[int, int], epoch: int
    ) -> None:
        try:
            hint = await engine.hint(position, dice)
        except EngineError as error:
            self.feed_aid(_AidFailed(f"hint failed: {error}"))
            return
        self.feed_aid(_HintReady(epoch, best=hint.best))

    async def _cube_hint(self, engine: Engine, position: Xgid, epoch: int, *, taker: bool) -> None:
        try:
            advice = await engine.cube(position)
        except (EngineError, RulesError) as error:
            self.feed_aid(_AidFailed(f"hint failed: {error}"))
            return
        self.feed_aid(_HintReady(epoch, advice=advice, taker=taker))

    def _play_to_judge(self, event: record.Event) -> tuple[Engine, Xgid, record.Played] | None:
        """What to judge when ``event`` is journalled: a learner's play, with an engine."""
        if (
            self.engine is None
            or self.flow.mode is not Mode.LEARNER
            or not isinstance(event, record.Played)
        ):
            return None
        with contextlib.suppress(RulesError, AssertionError):
            return self.engine, self._position(), event
        return None

    async def _judge(self, engine: Engine, position: Xgid, played: record.Played) -> None:
        try:
            decision = CheckerDecision(position, played.dice, played.board)
            verdict = (await review(engine, [decision])).plays[0]
        except (EngineError, ValueError) as error:
            self.feed_aid(_AidFailed(f"cannot judge the play: {error}"))
            return
        self.feed_aid(_PlayJudged(verdict))

    def feed_aid(self, item: _Aid) -> None:
        """Queue an engine's answer (the aid tasks)."""
        self._queue.put_nowait(_Queued(item))

    async def _aid_answered(self, item: _Aid) -> None:
        if isinstance(item, _AidFailed):
            _log.warning("%s", item.text)
            self.flow = _with_notice(self.flow, item.text)
        elif isinstance(item, _SignalOver):
            if item.token != self._signal_token:
                return
            self._signal = None
        elif isinstance(item, _PlayJudged):
            self.counters.judged += 1
            self._verdict = item.verdict
            self._signal = signal_for(item.verdict)
            self._signal_token += 1
            token = self._signal_token
            asyncio.get_running_loop().call_later(self.signal_s, self.feed_aid, _SignalOver(token))
        elif item.epoch != self._epoch:
            self.counters.hints_dropped += 1
            return
        elif item.best is not None:
            turn = self.flow.turn
            assert turn is not None
            self._guide = _Guide(item.best, turn.player, turn.before)
            self._advice = f"best {item.best.play.notation or '(no move)'}"
            self.counters.hints += 1
        elif item.advice is not None:
            self._advice = _cube_words(item.advice, taker=item.taker)
            self.flow = _with_notice(self.flow, f"hint: {self._advice}")
            self.counters.hints += 1
        await self._show()

    def _follow_guide(self) -> None:
        """Drop the hint once the board settles off its path (the learner went elsewhere)."""
        guide, turn = self._guide, self.flow.turn
        if guide is None or turn is None or turn.verdict is None:
            return
        if turn.verdict.kind not in (Kind.PARTIAL, Kind.COMPLETE, Kind.ILLEGAL):
            return
        cells = turn.cells
        if cells is None:
            return
        on_path = hint_step(guide.best.play, guide.player, guide.before, cells) is not None
        if not on_path and turn.verdict.board != guide.best.play.result:
            self._guide = None

    def _display(self) -> Display:
        """The flow's display, with the hint being followed and the last play's signal (or,
        before the opening roll, the orientation to confirm)."""
        if self.orienting:
            return self._orientation_display()
        display = self.flow.display()
        if self.flow.mode is Mode.RECORDER:
            return display  # no aid shows in recorder mode, even one asked before
        guide, turn = self._guide, self.flow.turn
        if guide is not None and turn is not None and turn.cells is not None:
            step = hint_step(guide.best.play, guide.player, guide.before, turn.cells)
            if step is not None:
                move = step.move
                text = (
                    f"hint: {guide.best.play.notation}; move {_point(move.source)} to "
                    f"{_point(move.destination)} ({step.done + 1} of {step.total})"
                )
                display = Display(step.scene.with_status(display.status), text)
        elif self._advice and not display.text.startswith("hint"):
            display = Display(display.scene, f"{display.text}; hint: {self._advice}")
        if self._signal is not None and display.status.is_off:
            display = Display(display.scene.with_status(self._signal.lamp), display.text)
        return display

    async def review(self, fmt: Literal["html", "text", "sgf"]) -> str:
        """The engine's review of the match so far: a web page, text, or an analysed .sgf.

        Raises:
            RefusedError: without an engine, or mid-game in recorder mode.
        """
        from controller.review import analyse, build_report, render_html, render_text

        game_over = self.flow.turn is None
        try:
            check_aid(self.flow.mode.value, "review", game_over=game_over)
        except AidForbiddenError as error:
            raise RefusedError(str(error)) from None
        if self.engine is None:
            raise RefusedError(NO_ENGINE)
        if self.flow.variant.name != "backgammon":
            raise RefusedError(_BACKGAMMON_ONLY)
        match = self.journal.record()
        try:
            analysis = await analyse(self.engine, match)
        except EngineError as error:
            raise RefusedError(f"the review failed: {error}") from None
        if fmt == "sgf":
            return write_sgf(match, analysis)
        report = build_report(match, analysis)
        return render_html(report) if fmt == "html" else render_text(report)

    async def _show(self) -> None:
        display = self._display()
        if self.leds is not None:
            scene = self.orientation.physical(display.scene)
            if scene != self.leds.scene:
                await self.leds.show(scene)
                self.counters.led_updates += 1
        await self._publish_status()

    async def _publish_status(self) -> None:
        self._status = self._make_status()
        self._publish(self._status)

    def _publish(self, item: BoardStatus | BoardEvent) -> None:
        for queue in self._subscribers:
            queue.put_nowait(item)

    def _make_status(self) -> BoardStatus:
        flow = self.flow
        display = self._display()
        turn, cube = flow.turn, flow.cube
        position_text = gnubg_text = ""
        snapshot = self.journal.state
        if snapshot is not None:
            with contextlib.suppress(RulesError):
                code = snapshot.position()
                position_text, gnubg_text = xgid(code), gnubg_id(code)
        position = turn.before if turn is not None else ()
        lights = tuple(_light(lamp) for lamp in (*display.scene.lamps, display.scene.status))
        verdict = turn.verdict.kind.value if turn is not None and turn.verdict else "waiting"
        cube_problem = cube_disagreement(self._cube_seen, flow.cube, self.orientation,
                                         flow.names)
        alerts = tuple(
            text
            for text, on in (
                ("illegal play: accept or demand a legal play", flow.phase == "flagged"),
                ("enter the dice", flow.phase == "manual-dice"),
                ("confirm the dice", flow.phase == "confirm-dice"),
                ("confirm the board's orientation", self.orienting),
                (f"sensor board: {self._board_problem}", self._board_problem is not None),
                (f"check the cube: {cube_problem}", cube_problem is not None),
            )
            if on
        )
        return BoardStatus(
            board_id=self._board_id,
            variant=flow.variant.name,
            seq=self._seq,
            mode=flow.mode.value,
            players=flow.names,
            match_length=flow.rules.match_length,
            score=flow.match.score,
            game_number=flow.match.game_number,
            crawford=flow.match.crawford,
            phase="orientation" if self.orienting else flow.phase,
            turn=turn.player if turn is not None else None,
            position=tuple(position),
            cells=self._cells or (),
            dice=turn.dice if turn is not None else None,
            dice_source=turn.dice_source.value if turn and turn.dice_source else None,
            cube_value=cube.value if cube is not None else 1,
            cube_owner=cube.owner if cube is not None else None,
            cube_offered=flow.phase == "cube-offered",
            pips=_pips(turn.before, flow.variant) if turn is not None else (0, 0),
            verdict=verdict,
            text=display.text,
            lights=lights,
            links=dict(self._links),
            alerts=alerts,
            moves=tuple(self._moves),
            xgid=position_text,
            gnubg_id=gnubg_text,
            orientation=self.orientation.describe(flow.names),
            orientation_pending=self.orienting,
            **self._teacher_fields(),
        )

    def _teacher_fields(self) -> dict[str, Any]:
        """The status fields of the engine: its name, the hint, the last play's verdict."""
        fields: dict[str, Any] = {
            "engine": self.engine.name if self.engine is not None else NO_ENGINE,
        }
        if self.flow.mode is Mode.RECORDER:
            return fields
        fields["hint"] = self._advice
        verdict = self._verdict
        if verdict is not None:
            fields.update(
                play_player=verdict.player,
                play_notation=verdict.played.play.notation or "(no move)",
                play_best=verdict.best.play.notation or "(no move)",
                play_loss=round(verdict.loss, 4),
                play_grade=verdict.skill.value,
                play_signal=signal_for(verdict).text,
            )
        return fields


def _move_line(event: record.Event) -> str | None:
    """One line of the move list for ``event`` (``1 52: 13/8 13/11``), or None."""
    if isinstance(event, record.Played):
        return f"{event.player} {event.dice[0]}{event.dice[1]}: {event.notation or '(no move)'}"
    if isinstance(event, record.IllegalPlayAccepted):
        return f"{event.player} {event.dice[0]}{event.dice[1]}: illegal play accepted"
    if isinstance(event, record.Doubled | record.Beavered):
        return f"{event.player} doubles to {event.value}"
    if isinstance(event, record.Taken | record.Dropped):
        return f"{event.player} {type(event).__name__.lower()}"
    if isinstance(event, record.PositionEdited):
        return "position corrected"
    if isinstance(event, record.Declined):
        return f"{event.player} declines the numbers handed over"
    if isinstance(event, record.Resigned):
        return f"{event.player} resigns a {event.kind.name.lower()}"
    if isinstance(event, record.ResignAccepted | record.ResignRefused):
        verb = "accepts" if isinstance(event, record.ResignAccepted) else "refuses"
        return f"{event.player} {verb} the resignation"
    if isinstance(event, record.GameEnded):
        return f"game over: {event.winner} wins {event.points}"
    return None


def _pips(board: Board, variant: Variant) -> tuple[int, int]:
    """Each player's pips to bear off, along their own track (Jacquet's differ)."""
    if variant.tracks == BACKGAMMON.tracks:
        counts = pip_counts(board)
        return counts[0], counts[1]
    pips = [0, 0]
    for player, track in enumerate(variant.tracks):
        sign = 1 if player == 0 else -1
        # View index i is the track's pos 25 - i: i pips from off (the bar is 25).
        pips[player] = sum(i * max(0, sign * board[track[i]]) for i in range(1, 26))
    return pips[0], pips[1]


def _point(point: int) -> str:
    return {25: "the bar", 0: "off"}.get(point, str(point))


def _cube_words(advice: CubeAdvice, *, taker: bool) -> str:
    """The cube hint in words: ``double``, ``no double``; for the doubled player ``take``."""
    action = advice.action
    if taker:
        return "take" if action.should_take else "drop"
    if action.should_double:
        return "double"
    if not action.should_take:
        return "no double (too good: play on)"
    return "no double"


def _light(lamp: Any) -> LightState:
    blink = lamp.pattern.name.lower()
    return LightState(_COLOURS[lamp.colour.name], "steady" if blink == "steady" else blink)


def _with_notice(flow: Flow, notice: str) -> Flow:
    return replace(flow, notice=notice)


def _camera_input(event: Any, orientation: Orientation) -> Input | None:
    """The flow's input for a ``vision.RollEvent`` (None for nothing to say)."""
    if event.kind == "lifted":
        return CameraLifted()
    reading = event.reading
    if reading is None:
        return None
    verdict = str(reading.verdict)
    if verdict == "reroll":
        return CameraRollFault(reading.reason or "irregular roll")
    if verdict == "unreadable" or len(reading.dice) != 2:
        return CameraUnreadable()
    # Whose die is whose (the opening roll): each player throws into the right-hand half
    # as he sees it, so the die on the view's right is the near player's (player 0 unless
    # the board is flipped); the reader called a roll with both dice in one half a reroll.
    near, far = sorted(reading.dice, key=lambda die: -die.center[0])
    return CameraRoll(orientation.near_die_first(near.value, far.value))


def scene_text(scene: Scene) -> str:
    """The LED states in one line: ``status amber/slow; 5 green, 7 red/fast``."""
    lamps = ", ".join(
        f"{index + 1 if index < 24 else ('bar0', 'bar1', 'tray0', 'tray1')[index - 24]} "
        + _lamp_text(lamp)
        for index, lamp in enumerate(scene.lamps)
        if not lamp.is_off
    )
    status = "off" if scene.status.is_off else _lamp_text(scene.status)
    return f"status {status}" + (f"; {lamps}" if lamps else "")


def _lamp_text(lamp: Any) -> str:
    colour = lamp.colour.name.lower()
    pattern = lamp.pattern.name.lower()
    return colour if pattern == "steady" else f"{colour}/{pattern}"

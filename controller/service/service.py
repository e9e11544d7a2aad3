"""The board service: one asyncio loop joining the board, the camera, the buttons, the LEDs
and the journal around the pure :class:`~controller.service.flow.Flow`.

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
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from controller import record
from controller.devices import LedBackend, blink_forever
from controller.engine import Engine
from controller.record.journal import Journal, archive_path
from controller.record.matfile import write_mat
from controller.record.plain import write_events, write_text
from controller.record.sgf import write_sgf
from controller.referee import Button, Cell, Cells, Display, Mode, cells_from_board
from controller.rules import BACKGAMMON, Rules, RulesError, Variant, WinKind, Xgid
from controller.service.board_status import MoveList, build_status
from controller.service.counters import Counters
from controller.service.cube_seen import CubeSeen
from controller.service.errors import RefusedError
from controller.service.flow import (
    CameraRoll,
    CameraRollFault,
    CameraUnreadable,
    DiceEntered,
    Flow,
    Input,
    KeyPressed,
    Observed,
    PositionSet,
)
from controller.service.orientation import Orientation, propose
from controller.service.teacher import Aid, Teacher, with_notice
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
    NewGame,
    NewMatch,
    Resign,
)
from firmware_bridge import LinkState

if TYPE_CHECKING:
    from controller.service.camera import DiceSource

__all__ = ["BoardFeed", "SeenCells", "Service", "first_error", "open_journal"]

_log = logging.getLogger(__name__)


def first_error(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups: what a task of the loop raised.

    Why: a task failing ends the ``TaskGroup`` with an ``ExceptionGroup``; the command line
    shows the error itself (a :class:`~controller.errors.TabulaError` gets a clear message).
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


class SeenCells(Protocol):
    """A stable observation of the sensor board (``firmware_bridge.Observation``)."""

    @property
    def cells(self) -> Sequence[Cell]:
        """The 28 cells as the board numbers them (None: unknown)."""


class BoardFeed(Protocol):
    """What the service needs of the sensor board: ``firmware_bridge.BoardLink``."""

    @property
    def problem(self) -> str | None:
        """What is wrong with the link or the board now, if anything."""

    def updates(self) -> AsyncIterator[LinkState | SeenCells]:
        """Every state of the link and every stable observation, in order."""


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


@dataclass(slots=True)
class _Queued:
    item: Input | _Refresh | Aid | _Physical | _Control
    done: asyncio.Future[None] | None = None


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
        self.counters = Counters()
        self.teacher = Teacher(engine, signal_s, self._feed_aid, self.counters)
        """Hints and verdicts on plays for the learner (the engine, off the loop)."""
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
        self._moves = MoveList()
        for event in journal.events():
            self._moves.note(event)
        self._status = self._make_status()

    @property
    def engine(self) -> Engine | None:
        """The teacher's engine (hints, verdicts on plays, reviews), or None."""
        return self.teacher.engine

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
        board: BoardFeed | None = None,
        camera: DiceSource | None = None,
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
            self.teacher.cancel()

    async def _board(self, link: BoardFeed) -> None:
        async for update in link.updates():
            if isinstance(update, LinkState):
                self._links["board"] = update.value
                if link.problem != self._board_problem:
                    self._board_problem = link.problem
                    self._queue.put_nowait(_Queued(_REFRESH))
            else:
                self._links["board"] = "live"
                self._queue.put_nowait(_Queued(_Physical(tuple(update.cells))))

    async def _camera(self, source: DiceSource) -> None:
        # Imported here: the camera's module loads OpenCV, which a board without one skips.
        from controller.service.camera import camera_input, camera_link, thrower

        self._links["camera"] = "live"
        while True:
            player = self.flow.thrower  # who throws the dice the camera is about to see
            side = None if player is None else self.orientation.side_of(player)
            event = await asyncio.to_thread(source.step, thrower(side))
            link = camera_link(source)
            if link != self._links["camera"]:
                self._links["camera"] = link
                self._queue.put_nowait(_Queued(_REFRESH))
            if event is None:
                continue
            if event.reading is not None:
                self._cube_seen = CubeSeen.of(event.reading.cube, self.flow.cube)
            item = camera_input(event, self.orientation)
            if item is not None:
                self.feed(item)

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
                    self.flow = with_notice(self.flow, str(error))
                    await self._publish_status()
                continue
            if queued.done is not None and not queued.done.done():
                queued.done.set_result(None)

    async def _handle(self, item: Input | _Refresh | Aid | _Physical | _Control) -> None:
        if isinstance(item, _Refresh):
            await self._show()
            return
        if isinstance(item, Aid):
            flow = self.teacher.answered(item, self.flow)
            if flow is not None:
                self.flow = flow
                await self._show()
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
            self.flow = self.teacher.ask_hint(self.flow, self._position)
            await self._publish_status()
            return
        self.counters.inputs += 1
        flow, events = self.flow.on(item)
        await self._record(events)
        self.flow = flow
        if isinstance(item, Observed):
            self._cells = item.cells
        self.teacher.follow(self.flow)
        await self._show()
        if isinstance(item, CameraRoll | CameraRollFault | CameraUnreadable):
            self.counters.rolls += 1  # once its status is out (the simulated players wait on it)

    async def _record(self, events: list[record.Event]) -> None:
        """Journal ``events`` (each durably before the next) and publish them."""
        for event in events:
            judging = self.teacher.to_judge(self.flow.mode, event, self._position)
            try:
                seq = await asyncio.to_thread(self.journal.append, event)
            except record.InvalidEventError as error:
                _log.error("journal refused %r: %s", event, error)
                raise RefusedError(f"the record refuses it: {error}") from None
            self._seq = seq
            self._moves.note(event)
            if not isinstance(event, record.Observed):
                self.teacher.moved_on()
            if judging is not None:
                self.teacher.judge(judging)
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
        self.flow = with_notice(self.flow, f"{notice}; opening roll, one die each")
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
            self.flow, self._moves = flow, MoveList()
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
        self._moves = MoveList()
        self._orient()
        if self._physical is not None:
            self._cells = self.orientation.logical(self._physical)
            self.flow = self.flow.on(Observed(self._cells))[0]
        await self._show()

    def _orientation_display(self) -> Display:
        """What the LEDs and the status line show while the orientation waits."""
        who = self.orientation.describe(self.flow.names)
        start = cells_from_board(self.flow.variant.start)
        set_up = self._physical is not None and self.orientation.logical(self._physical) == start
        head = "who is who" if set_up else "set up the board; who is who"
        text = f"{head}: {who} (green: {self.flow.names[0]}); {_ORIENT_TEXT}"
        return Display(self.orientation.scene(self._physical), text)

    def _position(self) -> Xgid:
        snapshot = self.journal.state
        assert snapshot is not None
        return snapshot.position()

    async def review(self, fmt: Literal["html", "text", "sgf"]) -> str:
        """The engine's review of the match so far (:meth:`Teacher.review`).

        Raises:
            RefusedError: without an engine, or mid-game in recorder mode.
        """
        return await self.teacher.review(self.flow, self.journal, fmt)

    def _feed_aid(self, item: Aid) -> None:
        """Queue an engine's answer (the teacher's tasks)."""
        self._queue.put_nowait(_Queued(item))

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
        return build_status(
            board_id=self._board_id,
            flow=self.flow,
            display=self._display(),
            snapshot=self.journal.state,
            seq=self._seq,
            cells=self._cells,
            links=self._links,
            board_problem=self._board_problem,
            cube_seen=self._cube_seen,
            orientation=self.orientation,
            orienting=self.orienting,
            moves=self._moves,
            teacher=self.teacher.status_fields(self.flow.mode),
        )

    def _display(self) -> Display:
        """What the LEDs and the status line show: the flow's display with the teacher's
        aids (or, before the opening roll, the orientation to confirm)."""
        if self.orienting:
            return self._orientation_display()
        return self.teacher.display(self.flow)

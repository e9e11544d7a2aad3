"""The board service: one asyncio loop joining the board, the camera, the buttons, the LEDs
and the journal around the pure :class:`~controller.match.flow.Flow`.

Why one consumer: every input (a settled observation, a camera event, a button, a web
action) goes through one queue and one task, so inputs are judged and journalled in the
order they happened; each is journalled (SQLite, fsync) *before* the new state is adopted
and shown. Blocking work (the journal's commit, a camera frame) runs in threads through
``asyncio.to_thread``; gpiozero's callbacks come in through ``call_soon_threadsafe``
(:class:`controller.devices.Buttons`, read with ``async for``).

Tasks of :meth:`Service.run` (one ``TaskGroup``, each named): ``referee`` (the queue),
``board`` (the serial link), ``camera`` (the roll watcher), ``buttons``, ``leds-blink``
(the Pi's chain), plus any the caller adds (the watchdog, the simulated players).

Beside the loop: the teacher (:mod:`~controller.service.teacher`), the status
(:mod:`~controller.service.board_status`), the seating (:mod:`~controller.service.seating`),
the journal (:mod:`~controller.service.match_journal`) and the edges' protocols
(:mod:`~controller.service.edges`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from dataclasses import replace

from controller import record
from controller.devices import LedBackend, blink_forever
from controller.engine import Engine
from controller.links import LinkStates, with_link_lamp
from controller.match.cube_seen import CubeSeen
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.match.orientation import Orientation
from controller.record.journal import Journal, archive_path
from controller.referee import BoardSeen, Button, ButtonPressed, Cells, Display, Input, Mode, Roll
from controller.rules import BACKGAMMON, Rules, Variant, WinKind, Xgid
from controller.service.actions import CONTROLS, MatchAction, new_match_start
from controller.service.bench import BETWEEN_GAMES, Bench, BenchChange
from controller.service.board_status import MoveList, build_status
from controller.service.counters import Counters
from controller.service.edges import BoardFeed, ButtonFeed, DiceSource
from controller.service.match_journal import (
    NotRecordedError,
    Unrecorded,
    append_events,
    export_match,
    match_record,
    open_journal,
    rotate_journal,
    start_or_resume,
)
from controller.service.queued import (
    REFRESH,
    Control,
    Item,
    Physical,
    Queued,
    Refresh,
    check_web_press,
)
from controller.service.seating import ORIENT_TEXT, Seating
from controller.service.teacher import Aid, Teacher, with_notice
from controller.status import (
    Action,
    ActionError,
    AnswerResignation,
    BoardEvent,
    BoardStatus,
    ConfirmOrientation,
    MatchFormat,
    NewGame,
    NewMatch,
    Resign,
    ReviewFormat,
)
from firmware_bridge import LinkState

__all__ = ["Service", "open_journal"]

_log = logging.getLogger(__name__)


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
        clock: the time of events (the wall clock).
        timer: the time of durations (the button test): monotonic, never set as the wall is.
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
        timer: Callable[[], float] = time.monotonic,
        variant: Variant = BACKGAMMON,
        engine: Engine | None = None,
        signal_s: float = 4.0,
    ) -> None:
        self._board_id = board_id
        self.counters = Counters()
        self.teacher = Teacher(engine, signal_s, self._feed_aid, self.counters)
        """Hints and verdicts on plays for the learner (the engine, off the loop)."""
        self.journal = journal
        self._journal_lock = threading.Lock()
        """Held in worker threads by each append, rotation and reading of the match."""
        self.seating = Seating(Orientation.of_flipped(flipped), confirm=confirm_orientation)
        self.leds = leds
        self.bench = Bench(clock, timer)
        """The set-up page's lamp and button tests (between games only)."""
        self._clock = clock
        self._queue: asyncio.Queue[Queued] = asyncio.Queue()
        self._unrecorded = Unrecorded(lambda item: self._queue.put_nowait(Queued(item)))
        self._subscribers: list[asyncio.Queue[BoardStatus | BoardEvent]] = []
        self.links = LinkStates()
        self.cube_seen: CubeSeen | None = None
        """The cube in the last roll's picture (checked against the referee's, never adopted)."""
        self.flow, self.resumed = start_or_resume(journal, names, rules, mode, variant)
        self.seating.resume(journal.state)
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
    def orientation(self) -> Orientation:
        """Which side (and colour) is player 0."""
        return self.seating.orientation

    @property
    def orienting(self) -> bool:
        """Waiting for the players to confirm the orientation (no opening roll before)."""
        return self.seating.pending

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
        await self._answered(Control(action) if isinstance(action, CONTROLS) else action)

    async def set_up(self, change: BenchChange) -> None:
        """Start, move or end a set-up test (:mod:`~controller.service.bench`) in the
        queue's order, or raise ActionError (a game is being played, no LEDs)."""
        await self._answered(change)

    async def _answered(self, item: Item) -> None:
        """Queue ``item`` and wait until the loop has taken it, or raise what it refused."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(Queued(item, done))
        await done

    async def export(self, fmt: MatchFormat) -> str:
        """The match so far as a ``.mat``, ``.sgf``, JSON-lines (``jsonl``) or text record
        (:func:`~controller.service.match_journal.export_match`)."""
        return await export_match(await match_record(self.journal, self._journal_lock), fmt)

    # Inputs from the edges.

    def press(self, key: Button) -> None:
        """A button was pressed: noted for the set-up page, kept there during its button
        test; else Mode switches the mode, any other goes to the match."""
        if self.bench.takes(key):
            return
        if key is Button.MODE:
            self.next_mode()
        else:
            self._queue.put_nowait(Queued(ButtonPressed(key)))

    def next_mode(self) -> None:
        """The Mode button: referee, learner, recorder, in turn (shown at once, not recorded)."""
        modes = list(Mode)
        self.flow = self.flow.with_mode(modes[(modes.index(self.flow.mode) + 1) % len(modes)])
        self.refresh()

    def refresh(self) -> None:
        """Show the status and the LEDs again (a link's state changed)."""
        self._queue.put_nowait(Queued(REFRESH))

    def feed(self, item: Input) -> None:
        """Queue any input (the board and camera tasks, tests)."""
        self._queue.put_nowait(Queued(item))

    # The loop.

    async def run(
        self,
        *,
        board: BoardFeed | None = None,
        camera: DiceSource | None = None,
        buttons: ButtonFeed | None = None,
        extra: Iterable[tuple[str, Coroutine[object, object, None]]] = (),
    ) -> None:
        """Run until cancelled (or until an ``extra`` task returns and cancels the rest).

        Args:
            board: the sensor board's link (a started ``firmware_bridge.BoardLink``).
            camera: the dice source (``vision.RollWatcher``), stepped in a thread.
            buttons: the board's buttons (``controller.devices.Buttons``).
            extra: more named coroutines to run in the same task group.
        """
        await self._show()
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._referee(), name="referee")
                if board is not None:
                    group.create_task(self._board(board), name="board")
                if camera is not None:
                    # Imported here: it loads OpenCV, which a board without a camera skips.
                    from controller.service.camera import read_rolls

                    group.create_task(read_rolls(self, camera), name="camera")
                if buttons is not None:
                    group.create_task(self._buttons(buttons), name="buttons")
                if self.leds is not None:
                    group.create_task(blink_forever(self.leds), name="leds-blink")
                for name, coroutine in extra:
                    group.create_task(coroutine, name=name)
        finally:
            self.teacher.cancel()

    async def _board(self, link: BoardFeed) -> None:
        async for update in link.updates():
            if isinstance(update, LinkState):
                if self.links.set("board", update.value, link.problem):  # the LED shows it
                    self.refresh()
            else:
                self.links.set("board", "live")
                self._queue.put_nowait(Queued(Physical(tuple(update.cells))))

    async def _buttons(self, buttons: ButtonFeed) -> None:
        async for press in buttons:
            self.press(press.button)

    async def _referee(self) -> None:
        while True:
            queued = await self._queue.get()
            try:
                if queued.done is not None:  # the web view waits for its answer
                    check_web_press(queued.item, self.flow.phase)
                await self._handle(queued.item)
            except ActionError as error:
                self.counters.refused += 1
                _log.info("refused %r: %s", queued.item, error)
                if isinstance(error, NotRecordedError):  # a web action is not tried again
                    self._unrecorded.refused(queued.item if queued.done is None else None, error)
                if queued.done is not None and not queued.done.done():
                    queued.done.set_exception(error)
                else:
                    self.flow = with_notice(self.flow, str(error))
                    await self._publish_status()
                continue
            if queued.done is not None and not queued.done.done():
                queued.done.set_result(None)

    async def _handle(self, item: Item) -> None:
        if isinstance(item, Refresh):
            await self._show()
            return
        if isinstance(item, Aid):
            flow = self.teacher.answered(item, self.flow)
            if flow is not None:
                self.flow = flow
                await self._show()
            return
        if isinstance(item, Control):
            await self._control(item.action)
            return
        if isinstance(item, BenchChange):
            self.bench.change(item, self.flow.phase, has_leds=self.leds is not None)
            await self._show()
            return
        if isinstance(item, Physical):
            item = BoardSeen(self.seating.seen(item.cells, self.flow.variant.start))
        elif self.orienting and not isinstance(item, BoardSeen):
            await self._orienting(item)
            return
        if isinstance(item, ButtonPressed) and item.button is Button.HINT:
            self.flow = self.teacher.ask_hint(self.flow, self._position)
            await self._publish_status()
            return
        self.counters.inputs += 1
        flow, events = self.flow.on(item)
        await self._record(events)
        self.flow = flow
        self.teacher.follow(self.flow)
        await self._show()
        if isinstance(item, Roll):
            self.counters.rolls += 1  # once its status is out (the simulated players wait on it)

    async def _adopt(self, flow: Flow, events: list[record.Event]) -> None:
        """Journal ``events``, then adopt ``flow`` and show it (the journal before acting)."""
        await self._record(events)
        self.flow = flow
        await self._show()

    async def _record(self, events: list[record.Event]) -> None:
        """Journal ``events``, all or none (:func:`append_events`), then act on each."""
        if not events:
            return
        before = self.journal.state
        assert before is not None  # a match was started with the journal
        judgings = self.teacher.to_judge(self.flow.mode, events, before)
        last = await append_events(self.journal, events, self._journal_lock)
        self._unrecorded.taken()
        numbered = enumerate(zip(events, judgings, strict=True), last - len(events) + 1)
        for seq, (event, judging) in numbered:
            self._seq = seq
            self._moves.note(event)
            if not isinstance(event, record.Observed):
                self.teacher.moved_on()
            if judging is not None:
                self.teacher.judge(judging)
            self.counters.journalled += 1
            self._announce(seq, event)

    def _announce(self, seq: int, event: record.Event) -> None:
        """Publish journalled ``event`` under the journal's name of its type (``played``), as
        the backlog of ``controller.mqtt.journal_events`` names the same events."""
        kind, data = record.event_kind(event), record.event_to_dict(event)
        self._publish(BoardEvent(self._board_id, seq, kind, data, self._clock()))

    # The match itself: orientation, new game, new match.

    async def _orienting(self, item: Input) -> None:
        """Before the opening roll, Done confirms the orientation and Undo swaps it."""
        if isinstance(item, Roll):
            self.counters.rolls += 1
        if isinstance(item, ButtonPressed) and item.button is Button.DONE:
            await self._confirm(self.orientation)
        elif isinstance(item, ButtonPressed) and item.button is Button.UNDO:
            self.seating.orientation = self.orientation.swapped()
            await self._show()
        else:
            raise RefusedError(f"confirm the board's orientation first: {ORIENT_TEXT}")

    async def _confirm(self, orientation: Orientation) -> None:
        confirmed = record.OrientationConfirmed(orientation.far, orientation.colour_b)
        flow = self.flow.fold([], confirmed)  # the flow's record holds what the journal does
        await self._record([confirmed])
        self._see(self.seating.confirmed(orientation))
        notice = f"orientation confirmed: {orientation.describe(self.flow.names)}"
        self.flow = with_notice(flow, f"{notice}; opening roll, one die each")
        await self._show()

    async def _control(self, action: MatchAction) -> None:
        if isinstance(action, Resign):
            await self._adopt(*self.flow.resign(action.player, WinKind[action.kind.upper()]))
        elif isinstance(action, AnswerResignation):
            await self._adopt(*self.flow.answer_resignation(action.accept))
        elif isinstance(action, ConfirmOrientation):
            await self._confirm(self.orientation.swapped() if action.swap else self.orientation)
        elif isinstance(action, NewGame):
            flow, events = self.flow.abandon(action.reason)
            await self._record(events)
            self._moves = MoveList()  # the abandoned game's moves are not shown
            await self._adopt(flow, [])
        else:
            await self._new_match(action)

    async def _new_match(self, action: NewMatch) -> None:
        """Archive the journal beside it and start the new match's, numbers going on."""
        start = new_match_start(action, self.flow.rules, self.flow.names, self.flow.variant)
        old = self.journal
        archive = archive_path(old.path, self._clock(), old.first_seq, old.last_seq)
        self.journal, failure = await rotate_journal(old, start, archive, self._journal_lock)
        if failure is not None:
            raise RefusedError(f"new match refused: {failure}")
        self._seq = self.journal.last_seq
        _log.info("new match in %s; the last one archived as %s", self.journal.path, archive)
        self._announce(self._seq, start)
        names = start.names
        self.flow = replace(
            Flow.new(names, start.rules, self.flow.mode, self.flow.variant),
            notice=f"new match: {names[0]} - {names[1]}, the last one archived as {archive.name}",
        )
        self._moves = MoveList()
        self.seating.resume(self.journal.state)
        self._see(self.seating.logical())
        await self._show()

    def _see(self, cells: Cells | None) -> None:
        """Show the flow the board as the seating now reads it (None: not read yet)."""
        if cells is not None:
            self.flow = self.flow.on(BoardSeen(cells))[0]

    def _position(self) -> Xgid:
        snapshot = self.journal.state
        assert snapshot is not None
        return snapshot.position()

    async def review(self, fmt: ReviewFormat) -> str:
        """The engine's review of the match so far (:meth:`Teacher.review`).

        Raises:
            RefusedError: without an engine, or mid-game in recorder mode.
        """
        match = await match_record(self.journal, self._journal_lock)
        return await self.teacher.review(self.flow, match, fmt)

    def _feed_aid(self, item: Aid) -> None:
        """Queue an engine's answer (the teacher's tasks)."""
        self._queue.put_nowait(Queued(item))

    async def _show(self) -> None:
        display = self._display()
        if self.flow.phase not in BETWEEN_GAMES:
            self.bench.game_going_on()
        if self.leds is not None:
            scene = self.bench.scene() or self.orientation.physical(display.scene)
            if scene != self.leds.scene:
                await self.leds.show(scene)
                self.counters.led_updates += 1
        await self._publish_status(display)

    async def _publish_status(self, display: Display | None = None) -> None:
        self._status = self._make_status(display)
        self._publish(self._status)

    def _publish(self, item: BoardStatus | BoardEvent) -> None:
        for queue in self._subscribers:
            queue.put_nowait(item)

    def _make_status(self, display: Display | None = None) -> BoardStatus:
        return build_status(
            board_id=self._board_id,
            flow=self.flow,
            display=self._display() if display is None else display,
            snapshot=self.journal.state,
            seq=self._seq,
            cells=self.flow.cells,
            links=self.links,
            cube_seen=self.cube_seen,
            orientation=self.orientation,
            orienting=self.orienting,
            moves=self._moves,
            teacher=self.teacher.status_fields(self.flow.mode),
        )

    def _display(self) -> Display:
        """What the LEDs and the status line show: the flow's display with the teacher's
        aids (or, before the opening roll, the orientation to confirm); while the sensor
        board's link is down, the status LED shows the link's state instead."""
        if self.orienting:
            display = self.seating.display(self.flow.names, self.flow.variant.start)
        else:
            display = self.teacher.display(self.flow)
        scene = with_link_lamp(display.scene, self.links.states)
        return display if scene is display.scene else replace(display, scene=scene)

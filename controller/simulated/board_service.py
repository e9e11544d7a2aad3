"""A board that plays itself: the real :class:`~controller.service.Service` fed by two
simulated players.

Why: the web view, the MQTT publisher and the hub need a board whose status and events are
real without a sensor board or a camera. Their tests, the MQTT benchmark and a simulated
tournament hall run it. The service is the one a Pi runs (its flow, its journal on a
temporary file, its status); the players stand in for the board and the camera: each
:meth:`SelfPlayBoard.step` feeds the service what the board and the camera would see (the
checkers set up, a roll, a play and Done, a double, a take or a drop) and waits until it
has judged, journalled and shown it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from pathlib import Path

from controller.match.snapshot import MatchSnapshot
from controller.mqtt import journal_events
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceRolled,
    Input,
    Mode,
    cells_from_board,
)
from controller.rules import Rules, legal_plays
from controller.service.service import Service, open_journal
from controller.simulated.players import SimulatedPlayer
from controller.simulated.progress import service_progress, until_progress
from controller.status import (
    Action,
    ActionError,
    AnswerResignation,
    BoardEvent,
    BoardStatus,
    MatchFormat,
    NewGame,
    Resign,
    ReviewFormat,
)

__all__ = ["SelfPlayBoard"]

Update = BoardStatus | BoardEvent

_PLAY_EVERY_GAME_OUT = (Resign, AnswerResignation, NewGame)
"""The actions the simulated players refuse (with Decline): they neither resign, decline nor
abandon."""


class SelfPlayBoard:
    """A board whose two simulated players play a match on the real service.

    Args:
        board_id: the board's id (MQTT topics, the hub's archive folder).
        seed: the seed of the players and the dice: a seed replays the same match.
        match_length: points to win, 0 for money play.
        games: money play: how many games before the session ends (match play ends with
            the match).
        names: the players' names.
        mode: the referee's mode whose display gives the LEDs.
        clock: the time stamped on events.
        timer: the service's clock of durations (:class:`Service`).
    """

    def __init__(
        self,
        board_id: str,
        *,
        seed: int = 0,
        match_length: int = 3,
        games: int = 1,
        names: tuple[str, str] = ("White", "Black"),
        mode: Mode = Mode.LEARNER,
        clock: Callable[[], float] = time.time,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rng = random.Random(seed)
        self._players = (
            SimulatedPlayer(random.Random(self._rng.random())),
            SimulatedPlayer(random.Random(self._rng.random())),
        )
        self._games = games
        self._folder = tempfile.TemporaryDirectory(prefix=f"tabula-{board_id}-")
        self.journal = open_journal(Path(self._folder.name) / "journal.sqlite")
        self.service = Service(
            board_id,
            self.journal,
            names=names,
            rules=Rules(match_length=match_length),
            mode=mode,
            clock=clock,
            timer=timer,
        )
        self._running: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()

    # BoardService.

    @property
    def board_id(self) -> str:
        """The board's id."""
        return self.service.board_id

    @property
    def seq(self) -> int:
        """The sequence number of the last event."""
        return self.service.status().seq

    @property
    def finished(self) -> bool:
        """Whether the match (or the money session's games) is over: :meth:`step` does nothing."""
        flow = self.service.flow
        if flow.phase == "match-over":
            return True
        return flow.rules.is_money and flow.match.game_number > self._games

    def status(self) -> BoardStatus:
        """The status now."""
        return self.service.status()

    async def updates(self) -> AsyncIterator[Update]:
        """The service's events and statuses from this call on, in order, until :meth:`close`
        (and what the service published before it)."""
        shown = self.service.status()  # the last status this follower has
        following = self.service.updates()
        closing = asyncio.ensure_future(self._until_closed())
        coming: asyncio.Future[Update | None] | None = None
        try:
            while True:
                if coming is None:
                    coming = asyncio.ensure_future(_next(following))
                if not closing.done():
                    await asyncio.wait({coming, closing}, return_when=asyncio.FIRST_COMPLETED)
                elif not coming.done():
                    # Closed: what the service published before is delivered; its last
                    # publication is always a status (a handled input ends with one).
                    if shown is self.service.status():
                        break
                    await coming
                update = coming.result() if coming.done() else None
                if update is not None:
                    coming = None
                    if isinstance(update, BoardStatus):
                        shown = update
                    yield update
        finally:
            closing.cancel()
            if coming is not None:
                coming.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await coming
            if isinstance(following, AsyncGenerator):
                await following.aclose()

    async def _until_closed(self) -> Update | None:
        """None once :meth:`close` is called (awaited beside the next update)."""
        await self._closed.wait()
        return None

    async def apply(self, action: Action) -> None:
        """Carry out a referee's action on the service, or raise :class:`ActionError` and
        change nothing: the simulated players play every game out (no resignation, no
        decline, no game abandoned).
        """
        if isinstance(action, _PLAY_EVERY_GAME_OUT) or action == ButtonPressed(Button.DECLINE):
            what = "Decline" if isinstance(action, ButtonPressed) else type(action).__name__
            raise ActionError(f"the simulated players play every game out: {what} refused")
        self._run()
        await self.service.apply(action)

    async def export(self, fmt: MatchFormat) -> str:
        """The match so far as a ``.mat``, ``.sgf``, JSON-lines or text record (the service's)."""
        return await self.service.export(fmt)

    async def review(self, fmt: ReviewFormat) -> str:
        """The engine's review of the match so far (the service's, which has no engine here:
        it says so)."""
        return await self.service.review(fmt)

    def backlog(self) -> list[BoardEvent]:
        """The journal's events so far, as the service numbers them (a publisher's backlog:
        the match's start was journalled before anyone followed the updates)."""
        return journal_events(self.board_id, self.journal.entries())

    # Playing.

    async def step(self) -> bool:
        """Make the players' next move (set up and roll, roll or double, take or drop, play
        and press Done) and wait until the service has shown it; False once
        :attr:`finished`."""
        if self.finished:
            return False
        await self.start()
        flow = self.service.flow
        snapshot = self.journal.state
        assert snapshot is not None  # the service journalled the match's start
        seq = self.seq
        if flow.phase == "opening":
            await self._set_out()
            await self._feed(DiceRolled(self._dice()), lambda s: s.seq > seq)
        elif flow.phase == "roll":
            await self._roll_or_double(snapshot)
        elif flow.phase == "cube-offered":
            player = snapshot.to_act
            assert player is not None
            takes = self._players[player].takes(snapshot.board, player)
            await self._feed(ButtonPressed(Button.TAKE if takes else Button.DROP),
                             lambda s: s.seq > seq)  # fmt: skip
        elif flow.phase == "moving" and flow.turn is not None and snapshot.dice is not None:
            player = flow.turn.player
            plays = legal_plays(snapshot.board, player, snapshot.dice)
            play = self._players[player].choose_play(plays, player)
            self.service.feed(BoardSeen(cells_from_board(play.result)))
            await self._feed(ButtonPressed(Button.DONE),
                             lambda s: s.phase != "moving" or s.turn != player)  # fmt: skip
        else:
            raise RuntimeError(f"the simulated players cannot go on from {self.status()!r}")
        return True

    async def play_through(self) -> list[Update]:
        """The match's messages from its start (the journal so far), then every event and
        status made stepping to its end, in order.

        For whoever needs a whole match's messages at once (the hub's tests, the MQTT
        benchmark).
        """
        backlog: list[Update] = list(self.backlog())
        collecting = asyncio.create_task(_collect(self.updates()))
        await asyncio.sleep(0)  # it follows the updates before the first step
        while await self.step():
            pass
        self.close()
        return backlog + await collecting

    async def play(self, delay: float = 0.0) -> None:
        """Step until the match is finished, ``delay`` seconds apart (0: just yield).

        It waits first, so that the tasks started with it (a publisher) follow
        :meth:`updates` from the match's start.
        """
        await asyncio.sleep(delay)
        while await self.step():
            await asyncio.sleep(delay)

    def close(self) -> None:
        """End every :meth:`updates` iterator and the service (idempotent)."""
        self._closed.set()
        if self._running is not None:
            self._running.cancel()

    async def start(self) -> None:
        """Start the service's loop and set the checkers out for the opening roll, and wait
        until the service shows them (idempotent; the first :meth:`step` does it too)."""
        self._run()
        await self._set_out()

    async def _set_out(self) -> None:
        """Before an opening roll, put the checkers where a game starts (the last game's
        stand where it ended)."""
        flow = self.service.flow
        start = cells_from_board(flow.variant.start)
        if flow.phase == "opening" and self.status().cells != start:
            await self._feed(BoardSeen(start), lambda s: s.cells == start)

    def _run(self) -> None:
        """Start the service's loop (once, in the caller's loop)."""
        if self._running is None:
            self._running = asyncio.create_task(self.service.run(), name=f"{self.board_id}")

    def _dice(self) -> tuple[int, int]:
        return (self._rng.randint(1, 6), self._rng.randint(1, 6))

    async def _roll_or_double(self, snapshot: MatchSnapshot) -> None:
        seq = self.seq
        player = snapshot.to_act
        assert player is not None and snapshot.cube is not None
        if snapshot.cube.can_double(player) and self._players[player].wants_to_double(
            snapshot.board, player
        ):
            await self._feed(ButtonPressed(Button.DOUBLE), lambda s: s.seq > seq)
        else:
            await self._feed(DiceRolled(self._dice()), lambda s: s.seq > seq)

    async def _feed(self, item: Input, done: Callable[[BoardStatus], bool]) -> None:
        """Feed ``item`` to the service and wait until its status satisfies ``done``."""
        self.service.feed(item)
        await until_progress(
            f"the service to take {item!r}",
            lambda: done(self.service.status()),
            service_progress(self.service),
        )


async def _next(updates: AsyncIterator[Update]) -> Update | None:
    return await anext(updates)


async def _collect(updates: AsyncIterator[Update]) -> list[Update]:
    return [update async for update in updates]

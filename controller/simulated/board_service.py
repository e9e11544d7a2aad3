"""A board that plays itself: a :class:`~controller.status.BoardService` driven by the rules.

Why: the web view, the MQTT publisher and the hub need a board whose status and events are
real (the rules engine chooses the plays, :mod:`controller.record` validates every event,
the referee's judge and display give the verdicts and the LEDs) without a sensor board or
a camera. Their tests, the MQTT benchmark and a simulated tournament hall run it; the
service (``controller.service``) is the real thing on a Pi.

Each :meth:`SelfPlayBoard.step` makes one record event (an opening roll, a roll, a play, a
cube action, a game's end) with two
:class:`~controller.simulated.players.SimulatedPlayer`, applies it to a
:class:`~controller.record.Replayer` (which refuses anything the rules forbid) and publishes a
:class:`~controller.status.BoardEvent` then the new
:class:`~controller.status.BoardStatus` to every :meth:`~SelfPlayBoard.updates` iterator.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Final

from controller.record import (
    Doubled,
    Dropped,
    Event,
    GameEnded,
    InvalidEventError,
    MatchStarted,
    OpeningRolled,
    Phase,
    Played,
    PositionEdited,
    Replayer,
    Rolled,
    Taken,
    event_to_dict,
)
from controller.record.matfile import write_mat
from controller.record.plain import write_events, write_text
from controller.record.sgf import write_sgf
from controller.referee import Mode, Seen, TurnState, cells_from_board, render
from controller.rules import Rules, gnubg_id, legal_plays, pip_counts, xgid
from controller.simulated.players import SimulatedPlayer
from controller.status import (
    AcceptPlay,
    Action,
    ActionError,
    AnswerResignation,
    BoardEvent,
    BoardStatus,
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

__all__ = ["SelfPlayBoard"]

_PHASES: Final = {
    Phase.OPENING: "opening",
    Phase.TO_ROLL: "roll",
    Phase.TO_PLAY: "moving",
    Phase.DOUBLED: "cube-offered",
    Phase.BEAVERED: "cube-offered",
    Phase.GAME_OVER: "game-over",
    Phase.MATCH_OVER: "match-over",
}
_DARK: Final[tuple[LightState, ...]] = (LightState(),) * 29

Update = BoardStatus | BoardEvent


class SelfPlayBoard:
    """A board whose two simulated players play a match on the rules engine.

    Args:
        board_id: the board's id (MQTT topics, the hub's archive folder).
        seed: the seed of the players and the dice: a seed replays the same match.
        match_length: points to win, 0 for money play.
        games: money play: how many games before the session ends (match play ends with
            the match).
        names: the players' names.
        mode: the referee's mode whose display gives the LEDs.
        clock: the time stamped on events.
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
    ) -> None:
        self._board_id = board_id
        self._rng = random.Random(seed)
        self._players = (
            SimulatedPlayer(random.Random(self._rng.random())),
            SimulatedPlayer(random.Random(self._rng.random())),
        )
        self._names = names
        self._mode = mode
        self._clock = clock
        self._games = games
        self._seq = 0
        self._subscribers: list[asyncio.Queue[Update | None]] = []
        self._taps: list[list[Update]] = []
        self._start_match(match_length, publish=False)
        self._announced = False  # the first MatchStarted is the first step's event

    # BoardService.

    @property
    def board_id(self) -> str:
        """The board's id."""
        return self._board_id

    @property
    def seq(self) -> int:
        """The sequence number of the last event."""
        return self._seq

    @property
    def finished(self) -> bool:
        """Whether the match (or the money session's games) is over: :meth:`step` does nothing."""
        snapshot = self._replayer.snapshot
        if snapshot.phase is Phase.MATCH_OVER:
            return True
        return snapshot.rules.is_money and len(self._replayer.games) >= self._games

    def status(self) -> BoardStatus:
        """The status now."""
        return self._status

    def updates(self) -> AsyncIterator[Update]:
        """Every event and new status from this call on, in order, until :meth:`close`."""
        queue: asyncio.Queue[Update | None] = asyncio.Queue()
        self._subscribers.append(queue)
        return self._drain(queue)

    async def _drain(self, queue: asyncio.Queue[Update | None]) -> AsyncIterator[Update]:
        try:
            while (item := await queue.get()) is not None:
                yield item
        finally:
            if queue in self._subscribers:
                self._subscribers.remove(queue)

    async def apply(self, action: Action) -> None:
        """Carry out a referee's action, or raise :class:`ActionError` and change nothing."""
        snapshot = self._replayer.snapshot
        if isinstance(action, EnterDice):
            if snapshot.phase is not Phase.TO_ROLL or snapshot.to_act is None:
                raise ActionError(f"no dice to enter now: {snapshot.describe()}")
            self._record(Rolled(snapshot.to_act, action.dice), source="manual")
        elif isinstance(action, CorrectPosition):
            try:
                event = PositionEdited(action.board, "corrected from the web view")
            except InvalidEventError as error:
                raise ActionError(str(error)) from None
            self._record(event)
        elif isinstance(action, NewMatch):
            self._start_match(action.length)
        elif isinstance(action, AcceptPlay | DemandPlay):
            raise ActionError("no illegal play to accept or demand: the last play was legal")
        elif isinstance(action, NewGame):
            raise ActionError(
                f"a game cannot be abandoned on a simulated board: {snapshot.describe()}"
            )
        elif isinstance(action, Hint):
            raise ActionError("no engine on a simulated board: no hint")
        elif isinstance(action, Resign | AnswerResignation | Decline):
            raise ActionError(f"the simulated players play every game out: {snapshot.describe()}")

    def export(self, fmt: ExportFormat) -> str:
        """The match so far as a ``.mat``, ``.sgf``, JSON-lines or text record.

        Raises:
            ActionError: for an unknown format, or ``.mat`` of what it cannot hold.
        """
        record = self._replayer.record(tuple(self._events), self._start)
        if fmt == "sgf":
            return write_sgf(record)
        if fmt == "jsonl":
            return write_events(record)
        if fmt == "txt":
            return write_text(record)
        if fmt == "mat":
            try:
                return write_mat(record)
            except ValueError as error:
                raise ActionError(str(error)) from None
        raise ActionError(f"unknown export format {fmt!r}: mat, sgf, jsonl or txt")

    # Playing.

    def step(self) -> bool:
        """Make the next event of the match; False once it is :attr:`finished`.

        The first step announces the match (its ``MatchStarted``), so that whoever follows
        :meth:`updates` from the start sees the whole match.
        """
        if not self._announced:
            self._announced = True
            self._publish(self._start)
            return True
        if self.finished:
            return False
        self._record(self._next_event())
        return True

    def play_through(self) -> list[Update]:
        """Step to the end of the match; every event and status made, in order.

        For whoever needs a whole match's messages at once, without a loop (the hub's
        tests, the MQTT benchmark).
        """
        made: list[Update] = []
        self._taps.append(made)
        try:
            while self.step():
                pass
        finally:
            self._taps.remove(made)
        return made

    async def play(self, delay: float = 0.0) -> None:
        """Step until the match is finished, ``delay`` seconds apart (0: just yield).

        It waits first, so that the tasks started with it (a publisher) follow
        :meth:`updates` from the match's start.
        """
        await asyncio.sleep(delay)
        while self.step():
            await asyncio.sleep(delay)

    def close(self) -> None:
        """End every :meth:`updates` iterator (idempotent)."""
        for queue in self._subscribers:
            queue.put_nowait(None)
        self._subscribers.clear()

    def _next_event(self) -> Event:
        s = self._replayer.snapshot
        rng = self._rng
        phase = s.phase
        if phase is Phase.OPENING:
            return OpeningRolled((rng.randint(1, 6), rng.randint(1, 6)))
        if phase is Phase.GAME_OVER:
            assert s.pending is not None
            pending = s.pending
            return GameEnded(pending.winner, pending.points, pending.kind, pending.dropped)
        assert s.cube is not None and s.to_act is not None
        player, simulated = s.to_act, self._players[s.to_act]
        if phase is Phase.TO_ROLL:
            if s.cube.can_double(player) and simulated.wants_to_double(s.board, player):
                return Doubled(player, s.cube.value * 2)
            return Rolled(player, (rng.randint(1, 6), rng.randint(1, 6)))
        if phase in (Phase.DOUBLED, Phase.BEAVERED):
            return Taken(player) if simulated.takes(s.board, player) else Dropped(player)
        assert s.dice is not None
        play = simulated.choose_play(legal_plays(s.board, player, s.dice), player)
        return Played(player, s.dice, play.notation, play.result)

    def _start_match(self, length: int, *, publish: bool = True) -> None:
        rules = Rules(match_length=length)
        self._start = MatchStarted(self._names, rules)
        self._replayer = Replayer(self._start)
        self._events: list[Event] = [self._start]
        self._moves: list[str] = []
        self._turn: TurnState | None = None
        self._dice_source: str | None = None
        self._status = self._make_status()
        if publish:
            self._announced = True
            self._publish(self._start)

    def _record(self, event: Event, *, source: str = "camera") -> None:
        try:
            self._replayer.apply(len(self._events), event)
        except InvalidEventError as error:
            raise ActionError(str(error)) from None
        self._events.append(event)
        self._note(event, source)
        self._status = self._make_status()
        self._publish(event)

    def _note(self, event: Event, source: str) -> None:
        """Keep the move list, the dice's source and the referee's turn up to date."""
        s = self._replayer.snapshot
        letters = ("X", "O")
        if isinstance(event, OpeningRolled | Rolled):
            self._dice_source = source
            if s.phase is Phase.TO_PLAY and s.to_act is not None and s.dice is not None:
                self._turn = TurnState.start(s.board, s.to_act, dice=s.dice)
        elif isinstance(event, Played):
            dice = f"{event.dice[0]}{event.dice[1]}"
            self._moves.append(f"{letters[event.player]} {dice}: {event.notation or '(no move)'}")
            if self._turn is not None:
                self._turn = self._turn.on(Seen(cells_from_board(event.board)))
        elif isinstance(event, Doubled):
            self._moves.append(f"{letters[event.player]} doubles to {event.value}")
        elif isinstance(event, Taken | Dropped):
            verb = "takes" if isinstance(event, Taken) else "drops"
            self._moves.append(f"{letters[event.player]} {verb}")
        elif isinstance(event, PositionEdited):
            self._moves.append("position corrected")
            self._turn = None
        elif isinstance(event, GameEnded):
            self._moves = []
            self._turn = None

    def _make_status(self) -> BoardStatus:
        s = self._replayer.snapshot
        board = s.board
        lights, verdict, text = _DARK, "waiting", s.describe()
        turn = self._turn
        if turn is not None and s.phase in (Phase.TO_PLAY, Phase.TO_ROLL):
            display = render(turn, self._mode)
            lamps = (*display.lights, display.status)
            lights = tuple(
                LightState(lamp.colour.name.lower(), lamp.pattern.name.lower()) for lamp in lamps
            )
            if turn.verdict is not None:
                verdict = str(turn.verdict.kind)
                board = turn.verdict.play.result if turn.verdict.play is not None else board
        position = s.position()
        cube = s.cube
        dice = s.dice
        alerts: tuple[str, ...] = ()
        if s.phase in (Phase.DOUBLED, Phase.BEAVERED):
            alerts = (f"{s.names[s.to_act or 0]} to take or drop",)
        return BoardStatus(
            board_id=self._board_id,
            seq=self._seq,
            mode=str(self._mode),
            players=s.names,
            match_length=s.match_length,
            score=s.match.score,
            game_number=s.game if s.game is not None else s.match.game_number,
            crawford=cube.crawford if cube is not None else s.match.crawford,
            phase=_PHASES[s.phase],
            turn=s.to_act,
            position=s.board,
            cells=cells_from_board(board),
            dice=dice,
            dice_confidence=None if dice is None else (0.97, 0.94),
            dice_source=None if dice is None else self._dice_source,
            cube_value=cube.value if cube is not None else 1,
            cube_owner=cube.owner if cube is not None else None,
            cube_offered=s.phase in (Phase.DOUBLED, Phase.BEAVERED),
            pips=pip_counts(board),
            verdict=verdict,
            text=text,
            lights=lights,
            moves=tuple(self._moves),
            xgid=xgid(position),
            gnubg_id=gnubg_id(position),
            links={"board": "live", "camera": "live"},
            alerts=alerts,
        )

    def _publish(self, event: Event) -> None:
        self._seq += 1
        data = event_to_dict(event)
        board_event = BoardEvent(self._board_id, self._seq, str(data["type"]), data, self._clock())
        self._status = replace(self._status, seq=self._seq)
        for queue in self._subscribers:
            queue.put_nowait(board_event)
            queue.put_nowait(self._status)
        for tap in self._taps:
            tap.extend((board_event, self._status))

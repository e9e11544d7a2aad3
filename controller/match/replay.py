"""The match record: events replayed against the rules into games, scores and the live state.

:func:`replay` folds a sequence of :mod:`~controller.match.events` into a
:class:`MatchRecord`: the games with their actions in order and results, and a
:class:`~controller.match.snapshot.MatchSnapshot` of where the match stands now, mid-turn
included (the dice rolled, the partial board last seen). It checks every event against the
rules engine: a play's board must be reachable by a legal play and its notation must be
the canonical one, a cube action must be allowed, a game's result must be what the board
or the drop says. So a journal that replays is a match that happened, and an exported file
can trust it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from controller.match.errors import InvalidEventError, RefusedEventError
from controller.match.events import (
    Beavered,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.match.snapshot import MatchSnapshot, Phase, variant_replay
from controller.rules import (
    Board,
    CubePhase,
    CubeState,
    MatchState,
    OpeningRoll,
    Player,
    Rules,
    RulesError,
    Variant,
    legal_plays,
    outcome,
    variant_named,
)

__all__ = [
    "GameRecord",
    "MatchRecord",
    "Replayer",
    "replay",
]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its opening, its actions in order and its result."""

    number: int
    score: tuple[int, int]
    """The match score when the game started."""
    crawford: bool
    """Whether this is the Crawford game."""
    opening: tuple[OpeningRolled, ...]
    """The opening rolls, ties first, the deciding one last."""
    actions: tuple[Event, ...]
    """Every event after the deciding opening roll, up to the result (excluded)."""
    result: GameEnded | None
    """How the game ended, or ``None`` while it goes on."""
    board: Board
    """The game's last position."""

    @property
    def first_player(self) -> Player | None:
        """The player who won the opening roll, or ``None`` while it is undecided."""
        if not self.opening or self.opening[-1].dice[0] == self.opening[-1].dice[1]:
            return None
        dice = self.opening[-1].dice
        return 0 if dice[0] > dice[1] else 1

    @property
    def is_regular(self) -> bool:
        """Whether every play was legal and no position was edited (``.mat`` can hold it)."""
        return not any(isinstance(a, IllegalPlayAccepted | PositionEdited) for a in self.actions)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match as replayed: players, rules, games, and the state now."""

    names: tuple[str, str]
    rules: Rules
    games: tuple[GameRecord, ...]
    state: MatchSnapshot
    events: tuple[Event, ...] = field(repr=False, default=())

    @property
    def variant(self) -> Variant:
        """The game played: backgammon unless ``MatchStarted`` named another."""
        return self.state.variant


class Replayer:
    """Events applied one at a time: the fold behind :func:`replay`, for live recording.

    Args:
        start: the match's first event.
        match: the score to start from (a game read on its own), or a new match.
    """

    def __init__(self, start: MatchStarted, match: MatchState | None = None) -> None:
        if match is None:
            match = MatchState(start.rules)
        variant = variant_named(start.variant)
        self.snapshot = MatchSnapshot(
            start.names, start.rules, match, 1, board=variant.start, variant=variant
        )
        self.snapshot = self._new_game(self.snapshot)
        self.games: list[GameRecord] = []
        self.opening: list[OpeningRolled] = []
        self.actions: list[Event] = []

    def fail(self, index: int, event: Event, reason: str) -> InvalidEventError:
        """The error for ``event``, the ``index``-th of the match, and why it is refused."""
        return InvalidEventError(f"event {index} {event!r}: {reason}")

    def apply(self, index: int, event: Event, *, vouched: bool = False) -> None:
        """Apply ``event``, the ``index``-th of the match (for messages).

        ``vouched``: the event was checked against the rules when it was journalled, and the
        journal's checksums prove it unchanged since, so a play's board is taken as recorded
        instead of being searched for among every legal play again (what made resuming a
        long match slow). Everything else is checked as ever.

        Raises:
            InvalidEventError: if the rules forbid it now; the state is then unchanged
                unless the event ended a game while failing (never for valid events).
        """
        try:
            self._apply(index, event, vouched)
        except RulesError as error:
            raise self.fail(index, event, str(error)) from None
        self.snapshot = replace(self.snapshot, events=index + 1)

    def _apply(self, index: int, event: Event, vouched: bool) -> None:
        s = self.snapshot
        phase = s.phase
        if isinstance(event, MatchStarted):
            raise self.fail(index, event, "the match has already started")
        if phase is Phase.MATCH_OVER:
            raise self.fail(index, event, "the match is over")
        if isinstance(event, OrientationConfirmed | GameAbandoned):
            self._between(index, event)
            return
        hooks = variant_replay(s.variant)
        if hooks is not None and not isinstance(event, GameEnded):
            try:
                self.snapshot = hooks.apply(s, event)
            except RefusedEventError as refusal:
                raise self.fail(index, event, f"{refusal}: {s.describe()}") from None
            if isinstance(event, OpeningRolled):
                self.opening.append(event)
            else:
                self.actions.append(event)
            return
        if isinstance(event, OpeningRolled):
            if phase is not Phase.OPENING:
                raise self.fail(index, event, f"no opening roll now: {s.describe()}")
            opening = (s.opening or OpeningRoll(rules=s.rules)).roll(*event.dice)
            self.opening.append(event)
            if not opening.is_decided:
                self.snapshot = replace(s, opening=opening, game=s.match.game_number)
                return
            cube = s.match.start_game(opening)
            self.snapshot = replace(
                s,
                game=s.match.game_number,
                opening=None,
                cube=cube,
                board=s.variant.start,
                dice=opening.play_dice,
                partial=None,
                last_score=s.match.score,
            )
            return
        if phase is Phase.OPENING:
            raise self.fail(index, event, f"the game has not started: {s.describe()}")
        if isinstance(event, GameEnded):
            self._end(index, event)
            return
        if phase is Phase.GAME_OVER:
            raise self.fail(index, event, f"the game is over: {s.describe()}")
        assert s.cube is not None
        cube = s.cube
        if isinstance(event, Resigned | ResignAccepted | ResignRefused) or s.resignation:
            self._resignation(index, event, cube)
            return
        if isinstance(event, Rolled):
            cube = cube.roll(event.player)
            self.snapshot = replace(s, cube=cube, dice=event.dice, partial=None)
        elif isinstance(event, Played | IllegalPlayAccepted):
            self._play(index, event, cube, vouched)
            return  # _play records the event
        elif isinstance(event, DiceCorrected):
            if cube.phase is not CubePhase.ROLLED or event.player != cube.turn:
                raise self.fail(index, event, f"no dice of player {event.player} to correct")
            self.snapshot = replace(s, dice=event.dice)
        elif isinstance(event, Observed):
            self.snapshot = replace(s, partial=event.board)
        elif isinstance(event, Flagged):
            pass
        elif isinstance(event, PositionEdited):
            if outcome(event.board) is not None:
                raise self.fail(index, event, "an edit cannot end the game: record the play")
            self.snapshot = replace(s, board=event.board, partial=None)
        elif isinstance(event, Doubled):
            if event.value != cube.value * 2:
                raise self.fail(index, event, f"the cube is at {cube.value}")
            self.snapshot = replace(s, cube=cube.double(event.player))
        elif isinstance(event, Beavered):
            if event.value != cube.value * 4:
                raise self.fail(index, event, f"a beaver redoubles to {cube.value * 4}")
            self.snapshot = replace(s, cube=cube.beaver(event.player))
        elif isinstance(event, Taken):
            self.snapshot = replace(s, cube=cube.take(event.player))
        elif isinstance(event, Dropped):
            self.snapshot = replace(s, pending=cube.drop(event.player))
        self.actions.append(event)

    def _resignation(self, index: int, event: Event, cube: CubeState) -> None:
        """A resignation offered, or answered: nothing else counts while it is pending."""
        s = self.snapshot
        offered = s.resignation
        if isinstance(event, Resigned):
            if offered is not None:
                raise self.fail(index, event, f"a resignation is pending: {s.describe()}")
            problem = cube.resign_problem(event.player)
            if problem is not None:
                raise self.fail(index, event, problem)
            self.snapshot = replace(s, resignation=event)
        elif offered is None:
            raise self.fail(index, event, f"no resignation to answer: {s.describe()}")
        elif not isinstance(event, ResignAccepted | ResignRefused):
            raise self.fail(index, event, f"answer the resignation first: {s.describe()}")
        elif event.player == offered.player:
            raise self.fail(index, event, f"player {event.player} offered the resignation")
        elif isinstance(event, ResignAccepted):
            result = cube.resign(offered.player, offered.kind)
            self.snapshot = replace(s, resignation=None, dice=None, partial=None, pending=result)
        else:
            self.snapshot = replace(s, resignation=None)
        self.actions.append(event)

    def _between(self, index: int, event: OrientationConfirmed | GameAbandoned) -> None:
        """The events outside a game's play: the orientation, a game abandoned."""
        s = self.snapshot
        phase = s.phase
        if isinstance(event, OrientationConfirmed):
            # A game has started once its first throw is recorded (even a tie).
            if phase is not Phase.OPENING or s.game is not None:
                where = s.describe()
                raise self.fail(index, event, f"the orientation is set before a game: {where}")
            self.snapshot = replace(s, orientation=event)
            return
        if phase is Phase.GAME_OVER:
            raise self.fail(index, event, f"the game is over, its result to record: {s.describe()}")
        if s.game is None:
            raise self.fail(index, event, f"no game in progress: {s.describe()}")
        # The game's opening rolls and actions are dropped: the exports never see them.
        self.opening, self.actions = [], []
        self.snapshot = replace(
            s,
            game=None,
            cube=None,
            opening=None,
            dice=None,
            partial=None,
            board=s.variant.start,
            abandoned=s.abandoned + 1,
            resignation=None,
        )
        self.snapshot = self._new_game(self.snapshot)

    def _play(
        self, index: int, event: Played | IllegalPlayAccepted, cube: CubeState, vouched: bool
    ) -> None:
        s = self.snapshot
        if cube.phase is not CubePhase.ROLLED or event.player != cube.turn:
            raise self.fail(index, event, f"no play by player {event.player} now: {s.describe()}")
        assert s.dice is not None
        if sorted(event.dice) != sorted(s.dice):
            raise self.fail(index, event, f"the dice rolled were {s.dice[0]}-{s.dice[1]}")
        if vouched:
            after = event.board if isinstance(event, Played) else event.after
            if isinstance(event, IllegalPlayAccepted) and event.before != s.board:
                raise self.fail(index, event, "the board before is not the game's position")
            self._played(event, after, cube)
            return
        plays = legal_plays(s.board, event.player, event.dice, s.variant)
        if isinstance(event, Played):
            match = [play for play in plays if play.result == event.board]
            if not match:
                raise self.fail(index, event, "no legal play reaches this board")
            if match[0].notation != event.notation:
                raise self.fail(index, event, f"the canonical notation is {match[0].notation!r}")
            after = event.board
        else:
            if event.before != s.board:
                raise self.fail(index, event, "the board before is not the game's position")
            if any(play.result == event.after for play in plays):
                raise self.fail(index, event, "a legal play reaches this board: record a Played")
            after = event.after
        self._played(event, after, cube)

    def _played(self, event: Played | IllegalPlayAccepted, after: Board, cube: CubeState) -> None:
        """The play is made: ``after`` stands, and the game ends or the turn passes."""
        s = self.snapshot
        ended = outcome(after)
        if ended is not None:
            self.snapshot = replace(
                s, board=after, dice=None, partial=None, pending=cube.result(ended)
            )
        else:
            self.snapshot = replace(
                s, board=after, dice=None, partial=None, cube=cube.end_turn(event.player)
            )
        self.actions.append(event)

    def _end(self, index: int, event: GameEnded) -> None:
        s = self.snapshot
        pending = s.pending
        if pending is None:
            raise self.fail(index, event, f"the game is not over: {s.describe()}")
        expected = GameEnded(
            pending.winner, pending.points, pending.kind, pending.dropped, pending.resigned
        )
        if event != expected:
            raise self.fail(index, event, f"the game's result is {expected!r}")
        assert s.game is not None
        self.games.append(self._game(event))
        self.opening, self.actions = [], []
        match = s.match.after_game(event.points, event.winner)
        self.snapshot = replace(
            s,
            match=match,
            game=None,
            cube=None,
            dice=None,
            partial=None,
            pending=None,
            board=s.board if match.is_over else s.variant.start,
        )
        if not match.is_over:
            self.snapshot = self._new_game(self.snapshot)

    @staticmethod
    def _new_game(s: MatchSnapshot) -> MatchSnapshot:
        """A game about to start: its variant's turn model, if it has one."""
        hooks = variant_replay(s.variant)
        return s if hooks is None else hooks.new_game(s)

    def _game(self, result: GameEnded | None) -> GameRecord:
        s = self.snapshot
        return GameRecord(
            number=s.game if s.game is not None else s.match.game_number,
            score=s.match.score,
            crawford=s.match.crawford,
            opening=tuple(self.opening),
            actions=tuple(self.actions),
            result=result,
            board=s.board,
        )

    def record(self, events: tuple[Event, ...], start: MatchStarted) -> MatchRecord:
        """The match so far, given every event applied (``start`` first)."""
        games = list(self.games)
        if self.opening or self.actions:
            games.append(self._game(None))
        return MatchRecord(start.names, start.rules, tuple(games), self.snapshot, events)


def replay(events: Iterable[Event]) -> MatchRecord:
    """The match that ``events`` record, each checked against the rules.

    Raises:
        InvalidEventError: for the first event that is not :class:`MatchStarted`, or that
            the rules forbid where it stands, naming its index and the reason.
    """
    events = tuple(events)
    if not events or not isinstance(events[0], MatchStarted):
        first = events[0] if events else None
        raise InvalidEventError(f"a match record starts with MatchStarted, got {first!r}")
    start = events[0]
    replayer = Replayer(start)
    for index, event in enumerate(events[1:], 1):
        replayer.apply(index, event)
    return replayer.record(events, start)

"""The match record: events replayed against the rules into games, scores and the live state.

:func:`replay` folds a sequence of :mod:`~controller.match.events` into a
:class:`MatchRecord`: the games with their actions in order and results, and a
:class:`MatchSnapshot` of where the match stands now, mid-turn included (the dice rolled,
the partial board last seen). It checks every event against the rules engine: a play's
board must be reachable by a legal play and its notation must be the canonical one, a cube
action must be allowed, a game's result must be what the board or the drop says. So a
journal that replays is a match that happened, and an exported file can trust it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

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
from controller.rules import (
    BACKGAMMON,
    START,
    Board,
    CubeOffer,
    CubePhase,
    CubeState,
    GameResult,
    IllegalActionError,
    JacquetTurn,
    MatchState,
    OpeningRoll,
    Player,
    Rules,
    RulesError,
    Variant,
    Xgid,
    legal_plays,
    outcome,
    variant_named,
)
from controller.rules.variants import Scoring

__all__ = [
    "GameRecord",
    "MatchRecord",
    "MatchSnapshot",
    "Phase",
    "Replayer",
    "VariantReplay",
    "register_variant_replay",
    "replay",
]


class Phase(enum.Enum):
    """Where a match stands, as the service resumes it."""

    OPENING = "awaiting the opening roll"
    TO_ROLL = "to roll (or double)"
    TO_PLAY = "to play the dice rolled"
    DOUBLED = "to answer a double"
    RESIGNED = "to answer a resignation"
    BEAVERED = "to answer a beaver"
    GAME_OVER = "the game is over, its result to record"
    MATCH_OVER = "the match is over"


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """The state of a match after some events: enough to resume it exactly."""

    names: tuple[str, str]
    rules: Rules
    match: MatchState
    """The score and Crawford state between games (of the game in progress, if any)."""
    events: int
    """How many events were replayed."""
    game: int | None = None
    """The number of the game in progress, or ``None`` between games."""
    board: Board = START
    """The position of the game in progress (before the turn being played)."""
    cube: CubeState | None = None
    opening: OpeningRoll | None = None
    """The opening roll while it is undecided (ties so far)."""
    dice: tuple[int, int] | None = None
    """The dice rolled and not yet played."""
    partial: Board | None = None
    """The last board seen during the turn being played (a partial play)."""
    pending: GameResult | None = None
    """The result of a game that ended (on the board or by a drop), not yet recorded."""
    last_score: tuple[int, int] = (0, 0)
    """The score at the start of the last game played."""
    orientation: OrientationConfirmed | None = None
    """The board's orientation as the players confirmed it, if they did."""
    abandoned: int = 0
    """How many games were abandoned (their plays dropped, the score unchanged)."""
    variant: Variant = BACKGAMMON
    """The game played (``MatchStarted.variant``)."""
    jacquet: JacquetTurn | None = None
    """Jacquet: the rules' turn model of the game in progress (who plays which numbers)."""
    resignation: Resigned | None = None
    """A resignation offered and not yet accepted or refused."""

    @property
    def phase(self) -> Phase:
        """Where the match stands."""
        if self.match.is_over:
            return Phase.MATCH_OVER
        if self.pending is not None:
            return Phase.GAME_OVER
        if self.resignation is not None:
            return Phase.RESIGNED
        hooks = variant_replay(self.variant)
        if hooks is not None:
            return hooks.phase(self)
        if self.cube is None:
            return Phase.OPENING
        return {
            CubePhase.TO_ROLL: Phase.TO_ROLL,
            CubePhase.ROLLED: Phase.TO_PLAY,
            CubePhase.DOUBLED: Phase.DOUBLED,
            CubePhase.BEAVERED: Phase.BEAVERED,
        }[self.cube.phase]

    @property
    def to_act(self) -> Player | None:
        """The player who must act next, or ``None`` (opening roll, game or match over)."""
        if self.pending is not None or self.match.is_over:
            return None
        if self.resignation is not None:
            return 1 - self.resignation.player
        hooks = variant_replay(self.variant)
        if hooks is not None:
            return hooks.to_act(self)
        if self.cube is None:
            return None
        return self.cube.to_act

    def describe(self) -> str:
        """One sentence for people: where the match resumes.

        >>> from controller.rules import Rules, MatchState
        >>> MatchSnapshot(("Ann", "Bob"), Rules(5), MatchState(Rules(5)), 1).describe()
        'Ann - Bob, 5-point match, score 0-0, game 1: awaiting the opening roll'
        """
        what = f"{self.rules.match_length}-point match" if self.match_length else "money session"
        score = f"score {self.match.score[0]}-{self.match.score[1]}"
        head = f"{self.names[0]} - {self.names[1]}, {what}, {score}"
        phase = self.phase
        if phase is Phase.MATCH_OVER:
            assert self.match.winner is not None
            return f"{head}: the match is over, {self.names[self.match.winner]} won it"
        game = f"game {self.game if self.game is not None else self.match.game_number}"
        if phase is Phase.OPENING:
            ties = f" ({len(self.opening.ties)} tied so far)" if self.opening else ""
            return f"{head}, {game}: awaiting the opening roll{ties}"
        if phase is Phase.GAME_OVER:
            assert self.pending is not None
            return f"{head}, {game}: {self.names[self.pending.winner]} has won it"
        actor = self.names[self.to_act] if self.to_act is not None else "?"
        text = f"{head}, {game}: {actor} {phase.value}"
        if self.dice is not None:
            text += f" {self.dice[0]}-{self.dice[1]}"
            if self.partial is not None and self.partial != self.board:
                text += ", some checkers already moved"
        return text

    @property
    def match_length(self) -> int:
        """The match length, 0 for money play."""
        return self.rules.match_length

    def position(self) -> Xgid:
        """The position now, as an XGID says it (for XGID and GNU Backgammon IDs).

        During a turn it is the position before the turn with the dice rolled; between
        games, the next game's start; after the match, the last game's final position
        at the score before it.
        """
        if not self.variant.has_backgammon_ids:
            raise IllegalActionError(
                f"{self.variant.name}: XGID and GNU Backgammon IDs describe backgammon "
                "positions only"
            )
        rules = self.rules
        common = Xgid(
            jacoby=rules.is_money and rules.jacoby,
            beavers=rules.is_money and rules.beavers,
            match_length=rules.match_length,
        )
        if self.cube is None:
            if self.match.is_over:
                return replace(common, board=self.board, score=self.last_score)
            return replace(common, score=self.match.score, crawford=self.match.crawford)
        cube = self.cube
        offer: CubeOffer | None = None
        if cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            offer = CubeOffer.DOUBLE if cube.phase is CubePhase.DOUBLED else CubeOffer.BEAVER
        owner = cube.owner
        value = cube.value
        if cube.phase is CubePhase.BEAVERED:
            # An XGID writes a beaver with the cube as it was before the first double (a
            # cube above 1 is taken to be the doubler's: automatic doubles are not tracked).
            value, owner = value // 2, None if value // 2 == 1 else cube.turn
        return replace(
            common,
            board=self.board,
            cube_value=value,
            cube_owner=owner,
            turn=cube.turn,
            dice=self.dice if cube.phase is CubePhase.ROLLED else None,
            offer=offer,
            score=self.match.score,
            crawford=cube.crawford,
        )


class VariantReplay(Protocol):
    """The replay of a variant with turn states of its own (Jacquet's primauté, numbers
    handed over, Decline): what its snapshot says and how its game's events move it on.

    Why hooks: the :class:`Replayer` hands such a match's events to its variant, as
    :class:`~controller.match.flow.Flow` hands its inputs to the variant's
    :class:`~controller.match.flow.VariantTurns`, and never imports the variant's module;
    each variant module registers its hooks (:func:`register_variant_replay`).
    """

    def new_game(self, snapshot: MatchSnapshot) -> MatchSnapshot:
        """``snapshot`` with a new game about to start (its first throw to come)."""
        ...

    def apply(self, snapshot: MatchSnapshot, event: Event) -> MatchSnapshot:
        """The snapshot after ``event``, one of a game's events (its end aside).

        Raises:
            RefusedEventError: for an event the game cannot have now, saying why.
            RulesError: for a throw or a play the rules refuse.
        """
        ...

    def phase(self, snapshot: MatchSnapshot) -> Phase:
        """Where a game in play stands (:attr:`MatchSnapshot.phase`)."""
        ...

    def to_act(self, snapshot: MatchSnapshot) -> Player | None:
        """Who acts next in a game in play (:attr:`MatchSnapshot.to_act`)."""
        ...


_VARIANT_REPLAYS: dict[Scoring, VariantReplay] = {}


def register_variant_replay(scoring: Scoring, hooks: VariantReplay) -> None:
    """Let ``hooks`` replay the matches scored by ``scoring``."""
    _VARIANT_REPLAYS[scoring] = hooks


def variant_replay(variant: Variant) -> VariantReplay | None:
    """The replay hooks of ``variant``; None for backgammon's turns."""
    return _VARIANT_REPLAYS.get(variant.scoring)


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

    def apply(self, index: int, event: Event) -> None:
        """Apply ``event``, the ``index``-th of the match (for messages).

        Raises:
            InvalidEventError: if the rules forbid it now; the state is then unchanged
                unless the event ended a game while failing (never for valid events).
        """
        try:
            self._apply(index, event)
        except RulesError as error:
            raise self.fail(index, event, str(error)) from None
        self.snapshot = replace(self.snapshot, events=index + 1)

    def _apply(self, index: int, event: Event) -> None:
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
            self._play(index, event, cube)
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

    def _play(self, index: int, event: Played | IllegalPlayAccepted, cube: CubeState) -> None:
        s = self.snapshot
        if cube.phase is not CubePhase.ROLLED or event.player != cube.turn:
            raise self.fail(index, event, f"no play by player {event.player} now: {s.describe()}")
        assert s.dice is not None
        if sorted(event.dice) != sorted(s.dice):
            raise self.fail(index, event, f"the dice rolled were {s.dice[0]}-{s.dice[1]}")
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

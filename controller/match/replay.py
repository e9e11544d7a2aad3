"""The match record: events replayed against the rules into games, scores and the live state.

:func:`replay` folds a sequence of :mod:`~controller.match.events` into a
:class:`MatchRecord`: the games with their actions in order and results, and a
:class:`~controller.match.snapshot.MatchSnapshot` of where the match stands now, mid-turn
included (the dice rolled, the partial board last seen). Each event goes through the
match's one fold (:func:`~controller.match.fold.fold`, which the live flow folds its own
events through too), checked against the rules engine: so a journal that replays is a
match that happened, and an exported file can trust it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from controller.match.errors import InvalidEventError, RefusedEventError
from controller.match.events import (
    Event,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    OpeningRolled,
    OrientationConfirmed,
    PositionEdited,
)
from controller.match.fold import fold, new_match
from controller.match.snapshot import MatchSnapshot
from controller.rules import (
    Board,
    MatchState,
    Player,
    Rules,
    RulesError,
    Variant,
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
    """Events applied one at a time: the match's :func:`~controller.match.fold.fold` plus the
    games' bookkeeping for the exports (:func:`replay`, live recording, the journal).

    Args:
        start: the match's first event.
        match: the score to start from (a game read on its own), or a new match.
    """

    def __init__(self, start: MatchStarted, match: MatchState | None = None) -> None:
        self.snapshot = new_match(start.names, start.rules, variant_named(start.variant), match)
        self.games: list[GameRecord] = []
        self.opening: list[OpeningRolled] = []
        self.actions: list[Event] = []

    def fail(self, index: int, event: Event, reason: str) -> InvalidEventError:
        """The error for ``event``, the ``index``-th of the match, and why it is refused."""
        return InvalidEventError(f"event {index} {event!r}: {reason}")

    def apply(self, index: int, event: Event, *, vouched: bool = False) -> None:
        """Apply ``event``, the ``index``-th of the match (for messages).

        ``vouched``: the journal's checksums prove the event unchanged since it was checked
        against the rules (:func:`~controller.match.fold.fold`).

        Raises:
            InvalidEventError: if the rules forbid it now; nothing is changed then.
        """
        before = self.snapshot
        try:
            after = fold(before, event, vouched=vouched)
        except (RefusedEventError, RulesError) as error:
            raise self.fail(index, event, str(error)) from None
        if isinstance(event, OpeningRolled):
            self.opening.append(event)
        elif isinstance(event, GameEnded):
            self.games.append(self._game(before, event))
            self.opening, self.actions = [], []
        elif isinstance(event, GameAbandoned):
            # The game's opening rolls and actions are dropped: the exports never see them.
            self.opening, self.actions = [], []
        elif not isinstance(event, OrientationConfirmed):
            self.actions.append(event)
        self.snapshot = after

    def _game(self, s: MatchSnapshot, result: GameEnded | None) -> GameRecord:
        """The game being played at ``s``, ended by ``result`` (None: still going on)."""
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
            games.append(self._game(self.snapshot, None))
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

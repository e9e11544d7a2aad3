"""Where a match stands after some events: enough to resume it exactly, and to say it.

Why apart from :mod:`~controller.match.fold`: the fold turns each event into the next
:class:`MatchSnapshot`, for the live :class:`~controller.match.flow.Flow` (which holds one)
and the journal's replay alike; the service resumes a flow from the journal's, and the
status and the exports read its phase and position. A variant with turn states of its
own (Jacquet) says its phase through the :class:`VariantReplay` hooks it registers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Final, Protocol

from controller.match.events import Event, OrientationConfirmed, Resigned
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
    Variant,
    Xgid,
)
from controller.rules.variants import Scoring
from hardware.board.frozen import Unchecked

__all__ = [
    "MatchSnapshot",
    "Phase",
    "VariantReplay",
    "register_variant_replay",
    "variant_replay",
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


_CUBE_PHASES: Final = {
    CubePhase.TO_ROLL: Phase.TO_ROLL,
    CubePhase.ROLLED: Phase.TO_PLAY,
    CubePhase.DOUBLED: Phase.DOUBLED,
    CubePhase.BEAVERED: Phase.BEAVERED,
}
"""A game's phase by its cube's (backgammon's turns)."""


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

    def evolve(self, **changes: object) -> MatchSnapshot:
        """The same snapshot with ``changes``: :func:`dataclasses.replace`, faster.

        Why: resuming folds every event of the journal into a new snapshot, and
        ``replace`` (which reads the fields' descriptions at each call) was most of the
        time a long match took to resume; the fields are copied through their slots
        (:class:`~hardware.board.frozen.Unchecked`). A name that is no field raises
        AttributeError.
        """
        return _UNCHECKED.copy(self, changes)

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
        return _CUBE_PHASES[self.cube.phase]

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


_UNCHECKED: Final = Unchecked(MatchSnapshot)


class VariantReplay(Protocol):
    """The replay of a variant with turn states of its own (Jacquet's primauté, numbers
    handed over, Decline): what its snapshot says and how its game's events move it on.

    Why hooks: the fold (:func:`~controller.match.fold.fold`) hands such a match's events
    to its variant, as :class:`~controller.match.flow.Flow` hands its inputs to the
    variant's :class:`~controller.match.variant_turns.VariantTurns`, and never imports the
    variant's module; each variant module registers its hooks
    (:func:`register_variant_replay`).
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

"""How big a learner's mistakes are, as GNU Backgammon grades them, and a game's review.

Thresholds are GNU Backgammon's defaults (``show analysis`` in gnubg 1.07): a decision
that loses more than 0.030 of equity (normalised to the cube) is *doubtful*, more than
0.060 an *error* ("bad"), more than 0.120 a *blunder* ("very bad"); they apply alike to
plays and to cube decisions. The overall rating is GNU Backgammon's, from the mean loss
per unforced decision: below 0.002 supernatural, 0.005 world class, 0.008 expert, 0.012
advanced, 0.018 intermediate, 0.026 casual player, 0.035 beginner, else awful.

Everything here is pure except :func:`review`, which only asks an engine.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from controller.engine.model import CubeAdvice, Engine, Hint, RankedPlay
from controller.rules.board import Board, Player, check_board, pip_counts
from controller.rules.plays import check_dice
from controller.rules.xgid import Xgid

__all__ = [
    "BLUNDER",
    "DOUBTFUL",
    "ERROR",
    "CheckerDecision",
    "CubeDecision",
    "CubeVerdict",
    "ErrorRate",
    "PlayVerdict",
    "Rating",
    "Review",
    "Skill",
    "classify",
    "double_loss",
    "error_rate",
    "rating",
    "review",
    "take_loss",
]

DOUBTFUL: Final = 0.030
ERROR: Final = 0.060
BLUNDER: Final = 0.120


class Skill(enum.Enum):
    """GNU Backgammon's grade of one decision by the equity it lost."""

    GOOD = "good"
    DOUBTFUL = "doubtful"
    ERROR = "error"
    BLUNDER = "blunder"


def classify(loss: float) -> Skill:
    """The grade of a decision that lost ``loss`` equity (strictly over each threshold).

    >>> classify(0.0), classify(0.03), classify(0.031), classify(0.07), classify(0.5)
    (<Skill.GOOD: 'good'>, <Skill.GOOD: 'good'>, <Skill.DOUBTFUL: 'doubtful'>, \
<Skill.ERROR: 'error'>, <Skill.BLUNDER: 'blunder'>)
    """
    if loss > BLUNDER:
        return Skill.BLUNDER
    if loss > ERROR:
        return Skill.ERROR
    if loss > DOUBTFUL:
        return Skill.DOUBTFUL
    return Skill.GOOD


def double_loss(advice: CubeAdvice, doubled: bool) -> float:
    """Equity the player on roll lost by doubling or not (the opponent answering right)."""
    chosen = min(advice.double_take, advice.double_pass) if doubled else advice.no_double
    return max(0.0, advice.best_equity - chosen)


def take_loss(advice: CubeAdvice, taken: bool) -> float:
    """Equity the doubled player lost by taking or passing (their equity is minus ours)."""
    take, drop = -advice.double_take, -advice.double_pass
    return max(0.0, max(take, drop) - (take if taken else drop))


class Rating(enum.Enum):
    """GNU Backgammon's overall rating of a player by mean loss per decision."""

    SUPERNATURAL = "supernatural"
    WORLD_CLASS = "world class"
    EXPERT = "expert"
    ADVANCED = "advanced"
    INTERMEDIATE = "intermediate"
    CASUAL = "casual player"
    BEGINNER = "beginner"
    AWFUL = "awful"


_RATINGS: Final = (
    (0.002, Rating.SUPERNATURAL),
    (0.005, Rating.WORLD_CLASS),
    (0.008, Rating.EXPERT),
    (0.012, Rating.ADVANCED),
    (0.018, Rating.INTERMEDIATE),
    (0.026, Rating.CASUAL),
    (0.035, Rating.BEGINNER),
)


def rating(mean_loss: float) -> Rating:
    """The rating of a player losing ``mean_loss`` per decision.

    >>> rating(0.0), rating(0.004), rating(0.05)
    (<Rating.SUPERNATURAL: 'supernatural'>, <Rating.WORLD_CLASS: 'world class'>, \
<Rating.AWFUL: 'awful'>)
    """
    for threshold, grade in _RATINGS:
        if mean_loss < threshold:
            return grade
    return Rating.AWFUL


@dataclass(frozen=True, slots=True)
class CheckerDecision:
    """``position.turn`` rolled ``dice`` at ``position`` and played to ``played``.

    Raises:
        InvalidDiceError, InvalidPositionError: for dice or a board that cannot be.
    """

    position: Xgid
    dice: tuple[int, int]
    played: Board
    """The board after the play (a play is known by the position it leaves)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", check_dice(self.dice))
        object.__setattr__(self, "played", check_board(self.played))


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """``position.turn``, before rolling, doubled or not; if so the opponent took or passed.

    Raises:
        ValueError: for an answer without a double, or a double without an answer.
    """

    position: Xgid
    doubled: bool
    taken: bool | None = None

    def __post_init__(self) -> None:
        if self.doubled != (self.taken is not None):
            raise ValueError(
                f"a double has an answer and no double has none, got doubled={self.doubled}, "
                f"taken={self.taken}"
            )


Decision = CheckerDecision | CubeDecision


@dataclass(frozen=True, slots=True)
class PlayVerdict:
    """The engine's judgement of one play."""

    decision: CheckerDecision
    hint: Hint
    played: RankedPlay
    loss: float
    skill: Skill
    pips: tuple[int, int]
    """Both players' pip counts before the play."""

    @property
    def player(self) -> Player:
        return self.decision.position.turn

    @property
    def best(self) -> RankedPlay:
        return self.hint.best

    @property
    def forced(self) -> bool:
        """Whether there was nothing to choose (one legal play, or none)."""
        return len(self.hint.plays) == 1


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """The engine's judgement of a cube decision: the doubler's and, if doubled, the taker's."""

    decision: CubeDecision
    advice: CubeAdvice
    loss: float
    """What the player on roll lost by doubling or not."""
    skill: Skill
    take_loss: float | None
    """What the opponent lost by their answer, ``None`` without a double."""
    take_skill: Skill | None
    pips: tuple[int, int]

    @property
    def player(self) -> Player:
        return self.decision.position.turn


Verdict = PlayVerdict | CubeVerdict


@dataclass(frozen=True, slots=True)
class ErrorRate:
    """One player's mistakes over a review: GNU Backgammon's error rate and rating."""

    decisions: int
    """Unforced plays and cube decisions (doubles, non-doubles, takes and passes)."""
    total_loss: float
    counts: tuple[tuple[Skill, int], ...]

    @property
    def mean_loss(self) -> float:
        """Equity lost per decision (GNU Backgammon's "error rate", 0.0 with no decision)."""
        return self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def rating(self) -> Rating:
        return rating(self.mean_loss)

    def count(self, skill: Skill) -> int:
        return dict(self.counts).get(skill, 0)


def error_rate(verdicts: Iterable[Verdict], player: Player) -> ErrorRate:
    """``player``'s error rate over ``verdicts`` (forced plays do not count)."""
    losses: list[tuple[float, Skill]] = []
    for verdict in verdicts:
        if isinstance(verdict, PlayVerdict):
            if verdict.player == player and not verdict.forced:
                losses.append((verdict.loss, verdict.skill))
        elif verdict.player == player:
            losses.append((verdict.loss, verdict.skill))
        elif verdict.take_loss is not None and verdict.take_skill is not None:
            losses.append((verdict.take_loss, verdict.take_skill))
    counts = Counter(skill for _, skill in losses)
    return ErrorRate(
        decisions=len(losses),
        total_loss=sum(loss for loss, _ in losses),
        counts=tuple((skill, counts[skill]) for skill in Skill),
    )


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of a game with the engine's verdict, in order."""

    verdicts: tuple[Verdict, ...]

    @property
    def plays(self) -> tuple[PlayVerdict, ...]:
        return tuple(v for v in self.verdicts if isinstance(v, PlayVerdict))

    @property
    def cube_decisions(self) -> tuple[CubeVerdict, ...]:
        return tuple(v for v in self.verdicts if isinstance(v, CubeVerdict))

    def error_rate(self, player: Player) -> ErrorRate:
        return error_rate(self.verdicts, player)


async def review(
    engine: Engine,
    decisions: Sequence[Decision],
    *,
    ply: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The engine's verdict on every decision, in order (one engine request each);
    ``progress`` hears (done, total) after each.

    Raises:
        ValueError: if a play is not legal for its position and dice.
        EngineError: if the engine fails (see :class:`~controller.engine.model.Engine`).
    """
    verdicts: list[Verdict] = []
    for done, decision in enumerate(decisions, 1):
        pips = pip_counts(decision.position.board)
        if isinstance(decision, CheckerDecision):
            hint = await engine.hint(decision.position, decision.dice, ply=ply)
            played = next((r for r in hint.plays if r.play.result == decision.played), None)
            if played is None:
                raise ValueError(
                    f"the board {list(decision.played)!r} is not reached by a legal play of "
                    f"{decision.dice!r} for player {decision.position.turn}"
                )
            loss = max(0.0, hint.best.equity - played.equity)
            verdicts.append(PlayVerdict(decision, hint, played, loss, classify(loss), pips))
        else:
            advice = await engine.cube(decision.position, ply=ply)
            loss = double_loss(advice, decision.doubled)
            answer = None if decision.taken is None else take_loss(advice, decision.taken)
            verdicts.append(
                CubeVerdict(
                    decision,
                    advice,
                    loss,
                    classify(loss),
                    answer,
                    None if answer is None else classify(answer),
                    pips,
                )
            )
        if progress is not None:
            progress(done, len(decisions))
    return Review(tuple(verdicts))

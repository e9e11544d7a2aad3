"""The post-game review as a value: every play and cube decision with the engine's verdict.

:func:`build_report` is pure: a match record and the engine's
:class:`~controller.engine.review.Review` of it in, a :class:`ReviewReport` out, which
:mod:`~controller.review.render` turns into text or a web page. Equities are the engine's
(money equivalents, in units of the cube in play); the rating is GNU Backgammon's, from
each player's mean loss per unforced decision.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from controller.engine.review import CubeVerdict, PlayVerdict, Rating, Review, Skill
from controller.record import MatchRecord
from controller.record.decisions import JudgedEvent, pair_verdicts
from controller.rules import Player, xgid

__all__ = [
    "Choice",
    "DecisionKind",
    "DecisionLine",
    "GameReport",
    "PlayerSummary",
    "ReviewReport",
    "build_report",
]

_SHOWN_PLAYS = 3
"""Plays listed beside each play: the best ones, then the one played if not among them."""


class DecisionKind(enum.Enum):
    """What was decided: a play, whether to double, whether to take."""

    PLAY = "play"
    CUBE = "cube"
    TAKE = "take"


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a decision with the engine's equity and what it loses to the best."""

    text: str
    equity: float
    loss: float


@dataclass(frozen=True, slots=True)
class DecisionLine:
    """One decision of one player, with the engine's verdict."""

    game: int
    move: int
    """The turn number in the game (1 for the opening play)."""
    player: Player
    name: str
    kind: DecisionKind
    position: str
    """The position before the decision, as an XGID (dice included for a play)."""
    dice: tuple[int, int] | None
    pips: tuple[int, int]
    """The deciding player's pip count, then the opponent's."""
    chosen: str
    """The play in GNU Backgammon's notation, or ``no double``, ``double``, ``take``, ``pass``."""
    best: str
    loss: float
    skill: Skill
    forced: bool
    """A play with no choice (one legal play, or none): it counts for nobody's rate."""
    choices: tuple[Choice, ...]
    """The best options (plays, or the three cube actions) with their equities."""

    @property
    def is_mistake(self) -> bool:
        return self.skill is not Skill.GOOD


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's review: GNU Backgammon's error rate and rating, counts per grade."""

    player: Player
    name: str
    decisions: int
    """Unforced plays and close or actual cube decisions."""
    total_loss: float
    mean_loss: float
    rating: Rating
    counts: tuple[tuple[Skill, int], ...]

    @property
    def error_rate_milli(self) -> float:
        """The mean loss in thousandths (GNU Backgammon's "mEMG" error rate)."""
        return self.mean_loss * 1000

    def count(self, skill: Skill) -> int:
        return dict(self.counts).get(skill, 0)


@dataclass(frozen=True, slots=True)
class GameReport:
    """One game's decisions in order."""

    number: int
    score: tuple[int, int]
    result: str
    lines: tuple[DecisionLine, ...]


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """The whole review: who played, what was judged, and how each player did."""

    names: tuple[str, str]
    match_length: int
    engine: str
    ply: int
    games: tuple[GameReport, ...]
    players: tuple[PlayerSummary, PlayerSummary]

    @property
    def lines(self) -> tuple[DecisionLine, ...]:
        return tuple(line for game in self.games for line in game.lines)

    @property
    def title(self) -> str:
        what = f"{self.match_length}-point match" if self.match_length else "money session"
        return f"{self.names[0]} - {self.names[1]}, {what}"


def _mover_first(pips: tuple[int, int], player: Player) -> tuple[int, int]:
    return (pips[0], pips[1]) if player == 0 else (pips[1], pips[0])


def _play_line(judged: JudgedEvent, verdict: PlayVerdict, names: tuple[str, str]) -> DecisionLine:
    best = verdict.best.equity
    shown = list(verdict.hint.plays[:_SHOWN_PLAYS])
    if verdict.played not in shown:
        shown.append(verdict.played)
    decision = verdict.decision
    return DecisionLine(
        game=judged.game,
        move=judged.move,
        player=verdict.player,
        name=names[verdict.player],
        kind=DecisionKind.PLAY,
        position=xgid(decision.position),
        dice=decision.dice,
        pips=_mover_first(verdict.pips, verdict.player),
        chosen=verdict.played.play.notation or "(no move)",
        best=verdict.best.play.notation or "(no move)",
        loss=verdict.loss,
        skill=verdict.skill,
        forced=verdict.forced,
        choices=tuple(
            Choice(ranked.play.notation or "(no move)", ranked.equity, best - ranked.equity)
            for ranked in shown
        ),
    )


def _cube_lines(
    judged: JudgedEvent, verdict: CubeVerdict, names: tuple[str, str]
) -> list[DecisionLine]:
    """The doubler's line and, after a double, the taker's."""
    advice, decision = verdict.advice, verdict.decision
    action = advice.action
    top = advice.best_equity
    double_equity = min(advice.double_take, advice.double_pass)  # the opponent picks

    def line(
        player: Player, kind: DecisionKind, *, chosen: str, best: str, loss: float, skill: Skill,
        choices: tuple[Choice, ...],
    ) -> DecisionLine:  # fmt: skip
        return DecisionLine(
            game=judged.game,
            move=judged.move,
            player=player,
            name=names[player],
            kind=kind,
            position=xgid(decision.position),
            dice=None,
            pips=_mover_first(verdict.pips, player),
            chosen=chosen,
            best=best,
            loss=loss,
            skill=skill,
            forced=False,
            choices=choices,
        )

    doubler = verdict.player
    lines = [
        line(
            doubler,
            DecisionKind.CUBE,
            chosen="double" if decision.doubled else "no double",
            best="double" if action.should_double else "no double",
            loss=verdict.loss,
            skill=verdict.skill,
            choices=(
                Choice("no double", advice.no_double, max(0.0, top - advice.no_double)),
                Choice("double, take", advice.double_take, max(0.0, top - double_equity)),
                Choice("double, pass", advice.double_pass, max(0.0, top - double_equity)),
            ),
        )
    ]
    if decision.taken is not None and verdict.take_loss is not None:
        assert verdict.take_skill is not None
        take, drop = -advice.double_take, -advice.double_pass
        lines.append(
            line(
                1 - doubler,
                DecisionKind.TAKE,
                chosen="take" if decision.taken else "pass",
                best="take" if action.should_take else "pass",
                loss=verdict.take_loss,
                skill=verdict.take_skill,
                choices=(
                    Choice("take", take, max(take, drop) - take),
                    Choice("pass", drop, max(take, drop) - drop),
                ),
            )
        )
    return lines


def build_report(record: MatchRecord, review: Review) -> ReviewReport:
    """The review report of ``record`` from the engine's ``review`` of it.

    Raises:
        RecordError: if ``review`` is not a review of ``record`` (see
            :func:`~controller.record.decisions.pair_verdicts`).
    """
    names = record.names
    by_game: dict[int, list[DecisionLine]] = {}
    for judged in pair_verdicts(record, review):
        verdict = judged.verdict
        lines = by_game.setdefault(judged.game, [])
        if isinstance(verdict, PlayVerdict):
            lines.append(_play_line(judged, verdict, names))
        else:
            lines.extend(_cube_lines(judged, verdict, names))
    games = []
    for game in record.games:
        result = "unfinished"
        if game.result is not None:
            points = game.result.points
            result = f"{names[game.result.winner]} wins {points} point{'s' * (points != 1)}"
        games.append(
            GameReport(game.number, game.score, result, tuple(by_game.get(game.number, ())))
        )
    summaries = []
    for player in (0, 1):
        rate = review.error_rate(player)
        summaries.append(
            PlayerSummary(
                player=player,
                name=names[player],
                decisions=rate.decisions,
                total_loss=rate.total_loss,
                mean_loss=rate.mean_loss,
                rating=rate.rating,
                counts=rate.counts,
            )
        )
    engines = {v.hint.engine for v in review.plays} | {
        v.advice.engine for v in review.cube_decisions
    }
    # The depth asked for: a cube answer may name the depth of its inner evaluations.
    plies = {v.hint.ply for v in review.plays} or {v.advice.ply for v in review.cube_decisions}
    return ReviewReport(
        names=names,
        match_length=record.rules.match_length,
        engine=", ".join(sorted(engines)) or "none",
        ply=max(plies, default=0),
        games=tuple(games),
        players=(summaries[0], summaries[1]),
    )

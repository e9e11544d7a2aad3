"""The engine's analysis as GNU Backgammon stores it in an ``.sgf`` (what gnubg 1.07 saves).

On a play's node (after ``W[31hefe]``):

* ``A[i][hefe E ver 3 w wg wbg lg lbg EQ 0C 0 1 0.000000 1][mjxw E ver 3 ...]...``: the
  plays ranked best first, ``i`` the index of the one played; each is its letters (as
  the move property writes them), ``E`` for an evaluation, ``ver 3`` the format version,
  the five outcome probabilities, the equity (EMG), then the evaluation context: plies
  with ``C`` for cubeful, a retired field, deterministic, noise, pruning;
* ``BM[2]`` (very bad: a blunder), ``BM[1]`` (bad: an error), ``DO[]`` (doubtful): the
  play's grade;
* before a roll where the player could have doubled, ``DA[E ver 3 0C 1 0.000000 1`` then
  the seven outputs of "no double" and of "double, take": five probabilities, the
  cubeless equity and the cubeful equity (money: the equity in units of the cube in play;
  match: the match winning chance) ``]``, with ``BC[2]``/``BC[1]``/``DC[]`` grading it.

A double's node and its answer's node carry the same ``DA`` with ``BM``/``DO`` grading
the double and the answer (a beavered double carries none: GNU Backgammon cannot
analyse beavers). A play's five probabilities are the engine's
(:attr:`~controller.engine.model.RankedPlay.probabilities`); what the engine did not give
(a play's or a cube decision's probabilities, a match's cubeless equity) is written
``nan``, which GNU Backgammon reads and shows as ``nan`` (never as invented numbers); it
computes its alerts and statistics from the equities.
"""

from __future__ import annotations

import math
from typing import Final

from controller.engine.model import CubeAdvice, Probabilities
from controller.engine.review import CubeVerdict, PlayVerdict, Review, Skill
from controller.match.events import Beavered, Doubled, Dropped, Event, Played, Rolled, Taken
from controller.match.replay import MatchRecord
from controller.record._met import emg_to_mwc
from controller.record.decisions import JudgedEvent, pair_verdicts
from controller.rules import Player, Xgid

__all__ = ["MAX_PLAYS", "Notes", "letter"]

MAX_PLAYS: Final = 20
"""Plays listed per roll (the played one is always listed): GNU Backgammon shows 5."""

_PROBABILITIES: Final = " ".join(["nan"] * 5)
"""The five outcome probabilities, when the engine does not give them."""

_MOVE_MARKS: Final = {Skill.DOUBTFUL: "DO[]", Skill.ERROR: "BM[1]", Skill.BLUNDER: "BM[2]"}
_CUBE_MARKS: Final = {Skill.DOUBTFUL: "DC[]", Skill.ERROR: "BC[1]", Skill.BLUNDER: "BC[2]"}


def letter(point: int, player: Player) -> str:
    """The letter of a point in ``player``'s numbering (25 bar, 0 off)."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + (point if player == 0 else 25 - point) - 1)


def _number(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.6f}"


def _probabilities(probabilities: Probabilities | None) -> str:
    if probabilities is None:
        return _PROBABILITIES
    return " ".join(f"{p:.6f}" for p in probabilities)


def _cubeless(advice: CubeAdvice) -> str:
    """The five chances and the cubeless equity of a cube decision's outputs.

    The equity is written for money play, where it follows from the chances (win minus
    lose, gammons and backgammons counted again); in a match GNU Backgammon's cubeless
    equity depends on its match equity table, so it stays ``nan``.
    """
    chances = advice.probabilities
    if chances is None or advice.position.match_length:
        return f"{_probabilities(chances)} nan"
    win, wing, winbg, loseg, losebg = chances
    return f"{_probabilities(chances)} {2 * win - 1 + wing - loseg + winbg - losebg:.6f}"


def _plays(verdict: PlayVerdict) -> str:
    """The ``A`` property: the best plays and the one played, with their equities."""
    plays = list(verdict.hint.plays)
    shown = plays[:MAX_PLAYS]
    if verdict.played not in shown:
        shown.append(verdict.played)
    player = verdict.player
    values = []
    for ranked in shown:
        letters = "".join(
            letter(move.source, player) + letter(move.destination, player)
            for move in ranked.play.moves
        )
        values.append(
            f"[{letters} E ver 3 {_probabilities(ranked.probabilities)} {_number(ranked.equity)} "
            f"{ranked.ply}C 0 1 0.000000 1]"
        )
    return f"A[{shown.index(verdict.played)}]" + "".join(values)


def _cube(verdict: CubeVerdict) -> str:
    """The ``DA`` property: cubeful equities of no double and of double, take."""
    advice = verdict.advice
    position: Xgid = verdict.decision.position
    no_double, double_take = advice.no_double, advice.double_take
    if position.match_length:
        no_double = emg_to_mwc(position, no_double)
        # A take doubles the cube: GNU Backgammon keeps it at the doubled cube's MWC.
        double_take = emg_to_mwc(position, double_take)
    outputs = _cubeless(advice)
    return (
        f"DA[E ver 3 {advice.ply}C 1 0.000000 1 {outputs} {_number(no_double)} "
        f"{outputs} {_number(double_take)}]"
    )


class Notes:
    """The analysis properties of each judged event of a match, for the ``.sgf`` writer.

    Raises:
        RecordError: if ``review`` is not a review of ``record``.
    """

    def __init__(self, record: MatchRecord, review: Review) -> None:
        # Events are the record's own objects: the writer walks the same ones.
        self._judged: dict[int, JudgedEvent] = {}
        for judged in pair_verdicts(record, review):
            for event in judged.events:
                self._judged[id(event)] = judged

    def _verdict(self, event: Event) -> PlayVerdict | CubeVerdict | None:
        judged = self._judged.get(id(event))
        return None if judged is None else judged.verdict

    def play(self, played: Played, roll: Rolled | None) -> str:
        """The properties of a play's node: the chance to double before it, the plays."""
        text = ""
        before = self._verdict(roll) if roll is not None else None
        if isinstance(before, CubeVerdict):
            text += _cube(before) + _CUBE_MARKS.get(before.skill, "")
        verdict = self._verdict(played)
        if isinstance(verdict, PlayVerdict):
            text += _plays(verdict) + _MOVE_MARKS.get(verdict.skill, "")
        return text

    def cube(self, action: Doubled | Beavered | Taken | Dropped) -> str:
        """The properties of a double's or an answer's node.

        A beavered double carries none: GNU Backgammon reads the beaver as the doubled
        player's redouble and says it "cannot analyse beaver nor raccoons", and it
        misreads a double's analysis followed by one (the review counts it as a take).
        """
        judged = self._judged.get(id(action))
        if judged is None or any(isinstance(event, Beavered) for event in judged.events):
            return ""
        verdict = judged.verdict
        if not isinstance(verdict, CubeVerdict):
            return ""
        if isinstance(action, Doubled):
            skill: Skill | None = verdict.skill
        else:
            skill = verdict.take_skill
        return _cube(verdict) + (_MOVE_MARKS.get(skill, "") if skill is not None else "")

"""The learner's signal after a play: the grade's lamp and a few words."""

from __future__ import annotations

import pytest

from controller.engine import Review, Skill
from controller.record import MatchRecord
from controller.review import LAMPS, cube_signal, play_signal, signal_for
from hardware.board.scene import Colour, Lamp, Pattern


@pytest.mark.parametrize(
    ("loss", "skill", "lamp", "text"),
    [
        (0.0, Skill.GOOD, Lamp(Colour.GREEN), "good"),
        (0.03, Skill.GOOD, Lamp(Colour.GREEN), "good"),
        (0.04, Skill.DOUBTFUL, Lamp(Colour.AMBER), "doubtful -0.04"),
        (0.08, Skill.ERROR, Lamp(Colour.AMBER, Pattern.SLOW), "error -0.08: best 13/9 13/10"),
        (0.21, Skill.BLUNDER, Lamp(Colour.RED, Pattern.SLOW), "blunder -0.21: best 13/9 13/10"),
    ],
)
def test_each_grade_has_its_lamp_and_words(
    loss: float, skill: Skill, lamp: Lamp, text: str
) -> None:
    signal = play_signal(loss, "13/9 13/10")
    assert (signal.skill, signal.lamp, signal.text, signal.loss) == (skill, lamp, text, loss)


def test_the_signal_is_gentle() -> None:
    # Never the fast red blink of a fault, and every grade has its own lamp.
    assert all(lamp.pattern is not Pattern.FAST for lamp in LAMPS.values())
    assert len(set(LAMPS.values())) == len(Skill)


def test_without_a_best_play_the_words_are_the_grade_alone() -> None:
    assert play_signal(0.5).text == "blunder -0.50"
    assert play_signal(0.5, "").text == "blunder -0.50: best (no move)"
    assert cube_signal(0.07, "take").text == "error -0.07: best take"


@pytest.mark.parametrize("loss", [-0.01, float("nan"), float("inf")])
def test_a_loss_that_cannot_be_is_refused(loss: float) -> None:
    with pytest.raises(ValueError, match=r"an equity loss is a finite number >= 0, got"):
        play_signal(loss)


def test_signals_of_real_verdicts(
    match: tuple[MatchRecord, Review],
) -> None:
    _, review = match
    for verdict in review.plays:
        assert signal_for(verdict).skill is verdict.skill
    cubes = review.cube_decisions
    doubled = [verdict for verdict in cubes if verdict.decision.doubled]
    assert doubled
    for verdict in doubled:
        answer = signal_for(verdict, answer=True)
        assert answer.skill is verdict.take_skill
        assert answer.text == "good" or answer.text.endswith(("best take", "best pass"))
    quiet = next(verdict for verdict in cubes if not verdict.decision.doubled)
    with pytest.raises(ValueError, match=r"no double was offered: there is no answer to signal"):
        signal_for(quiet, answer=True)

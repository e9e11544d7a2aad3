"""GNU Backgammon's grading of mistakes: thresholds, cube actions and losses, error rates."""

from __future__ import annotations

import pytest

from controller.engine import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    CubeAction,
    CubeAdvice,
    CubeDecision,
    CubeVerdict,
    Hint,
    PlayVerdict,
    RankedPlay,
    Rating,
    Skill,
    classify,
    double_loss,
    error_rate,
    rating,
    take_loss,
)
from controller.engine.review import CheckerDecision
from controller.rules import Xgid, legal_plays


@pytest.mark.parametrize(
    ("loss", "skill"),
    [
        (0.0, Skill.GOOD),
        (DOUBTFUL, Skill.GOOD),  # GNU Backgammon grades strictly over each threshold
        (DOUBTFUL + 1e-6, Skill.DOUBTFUL),
        (ERROR, Skill.DOUBTFUL),
        (ERROR + 1e-6, Skill.ERROR),
        (BLUNDER, Skill.ERROR),
        (BLUNDER + 1e-6, Skill.BLUNDER),
    ],
)
def test_classify_uses_gnubg_thresholds(loss: float, skill: Skill) -> None:
    assert classify(loss) is skill


def test_thresholds_are_gnubg_107_defaults() -> None:
    assert (DOUBTFUL, ERROR, BLUNDER) == (0.030, 0.060, 0.120)


@pytest.mark.parametrize(
    ("mean", "grade"),
    [
        (0.0019, Rating.SUPERNATURAL),
        (0.002, Rating.WORLD_CLASS),
        (0.0079, Rating.EXPERT),
        (0.0119, Rating.ADVANCED),
        (0.0179, Rating.INTERMEDIATE),
        (0.0259, Rating.CASUAL),
        (0.0349, Rating.BEGINNER),
        (0.035, Rating.AWFUL),
    ],
)
def test_rating_follows_gnubg_table(mean: float, grade: Rating) -> None:
    assert rating(mean) is grade


def advice(no_double: float, take: float, drop: float = 1.0) -> CubeAdvice:
    return CubeAdvice(Xgid(), no_double, take, drop, "test", 2)


@pytest.mark.parametrize(
    ("equities", "action"),
    [
        ((0.959, 1.352), CubeAction.DOUBLE_PASS),
        ((0.6, 0.8), CubeAction.DOUBLE_TAKE),
        ((0.084, -0.191), CubeAction.NO_DOUBLE_TAKE),
        ((1.435, 2.87), CubeAction.TOO_GOOD_PASS),
        ((1.2, 0.9), CubeAction.TOO_GOOD_TAKE),
    ],
)
def test_cube_action_as_gnubg_decides(equities: tuple[float, float], action: CubeAction) -> None:
    assert advice(*equities).action is action


def test_cube_losses_for_doubler_and_taker() -> None:
    dp = advice(0.959, 1.352)  # double, pass
    assert double_loss(dp, True) == 0.0
    assert double_loss(dp, False) == pytest.approx(0.041)
    assert take_loss(dp, False) == 0.0
    assert take_loss(dp, True) == pytest.approx(0.352)  # taker: -1.352 instead of -1.0
    nd = advice(0.084, -0.191)  # no double, take
    assert double_loss(nd, True) == pytest.approx(0.275)
    assert classify(double_loss(nd, True)) is Skill.BLUNDER
    assert take_loss(nd, True) == 0.0
    assert take_loss(nd, False) == pytest.approx(1.191)  # passing a take: -1.0, not +0.191


def test_advice_refuses_non_finite_equities() -> None:
    with pytest.raises(ValueError, match="no_double is a finite equity, got nan"):
        advice(float("nan"), 0.0)


def test_hint_must_be_sorted_and_non_empty() -> None:
    plays = legal_plays(Xgid().board, 0, (6, 5))
    with pytest.raises(ValueError, match="a hint ranks at least one play"):
        Hint(Xgid(), (6, 5), (), "test", 0)
    worse_first = (RankedPlay(plays[0], -0.1, 0), RankedPlay(plays[1], 0.1, 0))
    with pytest.raises(ValueError, match="sorted best first"):
        Hint(Xgid(), (6, 5), worse_first, "test", 0)


def test_error_rate_counts_unforced_plays_and_both_sides_of_a_cube() -> None:
    plays = legal_plays(Xgid().board, 0, (3, 1))
    ranked = tuple(RankedPlay(play, -0.05 * i, 0) for i, play in enumerate(plays))
    hint = Hint(Xgid(), (3, 1), ranked, "test", 0)
    decision = CheckerDecision(Xgid(), (3, 1), plays[3].result)
    verdicts = [
        PlayVerdict(decision, hint, ranked[3], 0.15, Skill.BLUNDER, (167, 167)),
        PlayVerdict(decision, hint, ranked[0], 0.0, Skill.GOOD, (167, 167)),
        CubeVerdict(
            CubeDecision(Xgid(turn=1), doubled=True, taken=True),
            advice(0.959, 1.352),
            0.0,
            Skill.GOOD,
            0.352,
            Skill.BLUNDER,
            (100, 80),
        ),
    ]
    player0 = error_rate(verdicts, 0)
    assert player0.decisions == 3 and player0.total_loss == pytest.approx(0.502)
    assert player0.count(Skill.BLUNDER) == 2 and player0.count(Skill.GOOD) == 1
    assert player0.rating is Rating.AWFUL
    player1 = error_rate(verdicts, 1)
    assert (player1.decisions, player1.total_loss, player1.rating) == (1, 0.0, Rating.SUPERNATURAL)


def test_a_cube_decision_has_an_answer_exactly_when_doubled() -> None:
    with pytest.raises(ValueError, match="a double has an answer"):
        CubeDecision(Xgid(), doubled=True)
    with pytest.raises(ValueError, match="a double has an answer"):
        CubeDecision(Xgid(), doubled=False, taken=True)


def test_a_checker_decision_checks_its_dice_and_board() -> None:
    with pytest.raises(ValueError, match=r"dice must be two numbers from 1 to 6, got \[0, 2\]"):
        CheckerDecision(Xgid(), (0, 2), Xgid().board)
    with pytest.raises(ValueError, match="a board is 26 integers"):
        CheckerDecision(Xgid(), (1, 2), (0,))

"""No aid during play in recorder mode: tournament rules ban hints and reviews."""

from __future__ import annotations

import pytest

from controller.config import MODES
from controller.review import AIDS, AidForbiddenError, aid_allowed, check_aid
from hardware.board.errors import TabulaError


def test_recorder_mode_refuses_every_hint() -> None:
    with pytest.raises(
        AidForbiddenError,
        match=r"^no hint in 'recorder' mode: tournament rules forbid aids during play$",
    ):
        check_aid("recorder", "hint")
    # Not even after the game: a hint is about a position in play.
    with pytest.raises(AidForbiddenError, match=r"no hint in 'recorder' mode"):
        check_aid("recorder", "hint", game_over=True)


def test_recorder_mode_refuses_a_review_until_the_game_is_over() -> None:
    with pytest.raises(
        AidForbiddenError,
        match=r"no review during the game in 'recorder' mode: tournament rules forbid aids; "
        r"the review is available once the game is over",
    ):
        check_aid("recorder", "review")
    check_aid("recorder", "review", game_over=True)


@pytest.mark.parametrize("mode", [mode for mode in MODES if mode != "recorder"])
@pytest.mark.parametrize("aid", AIDS)
def test_other_modes_allow_every_aid(mode: str, aid: str) -> None:
    assert aid_allowed(mode, aid)  # type: ignore[arg-type]
    check_aid(mode, aid)  # type: ignore[arg-type]


def test_the_refusal_is_a_tabula_error_and_a_permission_error() -> None:
    assert issubclass(AidForbiddenError, TabulaError)
    assert issubclass(AidForbiddenError, PermissionError)


def test_an_unknown_aid_is_refused() -> None:
    with pytest.raises(ValueError, match=r"an aid is one of \('hint', 'review'\), got 'cheat'"):
        aid_allowed("learner", "cheat")  # type: ignore[arg-type]

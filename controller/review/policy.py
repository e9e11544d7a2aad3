"""Which aids each mode allows: tournament rules ban hints and reviews during a game.

Pure, so the service, the web view and the buttons ask one function and say one thing.
"""

from __future__ import annotations

from typing import Final, Literal

from controller.review.errors import AidForbiddenError

__all__ = ["AIDS", "Aid", "aid_allowed", "check_aid"]

Aid = Literal["hint", "review"]
AIDS: Final[tuple[Aid, ...]] = ("hint", "review")


def aid_allowed(mode: str, aid: Aid, *, game_over: bool = False) -> bool:
    """Whether ``aid`` may be given in ``mode`` (a review after the game is never an aid).

    >>> aid_allowed("learner", "hint"), aid_allowed("recorder", "hint")
    (True, False)
    >>> aid_allowed("recorder", "review"), aid_allowed("recorder", "review", game_over=True)
    (False, True)
    """
    if aid not in AIDS:
        raise ValueError(f"an aid is one of {AIDS!r}, got {aid!r}")
    if mode != "recorder":
        return True
    return aid == "review" and game_over


def check_aid(mode: str, aid: Aid, *, game_over: bool = False) -> None:
    """Refuse ``aid`` where ``mode`` forbids it (``recorder``: no hint, no review mid-game).

    Raises:
        AidForbiddenError: saying why, for the player to read.
        ValueError: for an unknown aid.
    """
    if aid_allowed(mode, aid, game_over=game_over):
        return
    if aid == "hint":
        raise AidForbiddenError(
            f"no hint in {mode!r} mode: tournament rules forbid aids during play"
        )
    raise AidForbiddenError(
        f"no review during the game in {mode!r} mode: tournament rules forbid aids; "
        "the review is available once the game is over"
    )

"""Resignation in backgammon: when a player may offer one, and what each answer records.

Why apart from :mod:`~controller.match.flow`: the offer is checked against the match, the
cube and the offer already pending, and its answer ends the game with ``kind`` times the
cube or lets play go on; the flow only adopts what these say. Nothing else counts while
an offer is pending (:func:`pending_refusal`).
"""

from __future__ import annotations

from controller.match import events as recorded
from controller.match.errors import RefusedError
from controller.rules import CubeState, MatchState, Player, WinKind

__all__ = ["offer_resignation", "pending_refusal", "resignation_answer"]


def offer_resignation(
    match: MatchState,
    cube: CubeState | None,
    pending: recorded.Resigned | None,
    player: Player,
    kind: WinKind,
) -> tuple[recorded.Resigned, str]:
    """``player``'s offer to resign ``kind`` and the notice saying so; ``cube`` is the cube
    of the game in progress (None before its opening roll is decided).

    Raises:
        RefusedError: with the match over, no game in progress, a double to answer, or a
            resignation already pending.
    """
    if match.is_over:
        raise RefusedError("the match is over")
    if cube is None:
        raise RefusedError("no game in progress to resign: waiting for the opening roll")
    if pending is not None:
        raise RefusedError(f"player {pending.player} has offered to resign: answer that first")
    problem = cube.resign_problem(player)
    if problem is not None:
        raise RefusedError(problem)
    what = f"player {player} resigns a {kind.name.lower()}"
    return recorded.Resigned(player, kind), f"{what}: player {1 - player} accepts or refuses"


def resignation_answer(
    offered: recorded.Resigned, accept: bool
) -> tuple[recorded.ResignAccepted | recorded.ResignRefused, str]:
    """The opponent's answer to ``offered`` and the notice of a refusal (an acceptance ends
    the game: its result is the fold's, ``kind`` times the cube)."""
    answerer = 1 - offered.player
    if accept:
        return recorded.ResignAccepted(answerer), ""
    return recorded.ResignRefused(answerer), f"player {answerer} refused the resignation: play on"


def pending_refusal(offered: recorded.Resigned) -> RefusedError:
    """Why an input cannot count while ``offered`` waits for its answer."""
    return RefusedError(
        f"player {offered.player} offered to resign a {offered.kind.name.lower()}: "
        f"player {1 - offered.player} accepts or refuses it first"
    )

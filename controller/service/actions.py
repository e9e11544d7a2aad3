"""The web view's actions on the match itself, as the service takes them.

Why apart from the loop: which actions act on the match rather than being the flow's
inputs, and whether a new match's options hold together, are pure questions answered before
anything is queued or journalled.
"""

from __future__ import annotations

from dataclasses import replace

from controller import record
from controller.match.errors import RefusedError
from controller.rules import Rules, RulesError, Variant
from controller.status import AnswerResignation, ConfirmOrientation, NewGame, NewMatch, Resign

__all__ = ["CONTROLS", "MatchAction", "new_match_start"]

MatchAction = NewGame | NewMatch | ConfirmOrientation | Resign | AnswerResignation
"""An action on the match itself (new game, new match, orientation, resignation)."""

CONTROLS = (NewGame, NewMatch, ConfirmOrientation, Resign, AnswerResignation)
"""The actions on the match itself (:data:`MatchAction`), for ``isinstance``."""

_MONEY_ONLY = ("jacoby", "beavers", "automatic_doubles")


def new_match_start(
    action: NewMatch, rules: Rules, names: tuple[str, str], variant: Variant
) -> record.MatchStarted:
    """The first event of the new match ``action`` asks for, the match so far giving the
    ``rules`` and ``names`` it does not change, and the board's game (``variant``).

    Raises:
        RefusedError: for a money-only option in a match, or rules that do not hold.
    """
    names = action.names if action.names is not None else names
    options = dict(action.options)
    money_only = [key for key in _MONEY_ONLY if options.get(key)]
    if action.length and money_only:
        raise RefusedError(
            f"{', '.join(money_only)}: money play only, not a {action.length}-point match"
        )
    try:
        rules = replace(
            rules,
            match_length=action.length,
            jacoby=options.get("jacoby", False),
            beavers=options.get("beavers", False),
            automatic_doubles=options.get("automatic_doubles", False),
            crawford=options.get("crawford", True),
        )
        return record.MatchStarted(names, rules, variant.name)
    except (RulesError, record.InvalidEventError) as error:
        raise RefusedError(f"new match refused: {error}") from None

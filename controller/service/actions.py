"""The web view's actions as the service takes them: the flow's inputs, or actions on the match.

Why apart from the loop: which input an action is, and whether a new match's options hold
together, are pure questions answered before anything is queued or journalled.
"""

from __future__ import annotations

from dataclasses import replace

from controller import record
from controller.match.errors import RefusedError
from controller.referee import Button, ButtonPressed, DiceEntered, Input, PositionCorrected
from controller.rules import Rules, RulesError, Variant
from controller.status import (
    AcceptPlay,
    Action,
    ActionError,
    AnswerResignation,
    ConfirmOrientation,
    CorrectPosition,
    Decline,
    DemandPlay,
    EnterDice,
    Hint,
    NewGame,
    NewMatch,
    Resign,
)

__all__ = ["CONTROLS", "MatchAction", "action_input", "new_match_start"]

MatchAction = NewGame | NewMatch | ConfirmOrientation | Resign | AnswerResignation
"""An action on the match itself (new game, new match, orientation, resignation)."""

CONTROLS = (NewGame, NewMatch, ConfirmOrientation, Resign, AnswerResignation)
"""The actions on the match itself (:data:`MatchAction`), for ``isinstance``."""

_KEYS: dict[type[Action], Button] = {
    AcceptPlay: Button.ACCEPT,
    DemandPlay: Button.DEMAND,
    Hint: Button.HINT,
    Decline: Button.DECLINE,
}
"""The actions that are a button's press on the web view."""

_MONEY_ONLY = ("jacoby", "beavers", "automatic_doubles")


def action_input(action: Action) -> Input | MatchAction:
    """The flow's input for ``action``, or the action itself when it acts on the match.

    Raises:
        ActionError: for an action this board's service does not take, or dice or a
            position that cannot be (the inputs check themselves).
    """
    try:
        if isinstance(action, EnterDice):
            return DiceEntered(action.dice)
        if isinstance(action, CorrectPosition):
            return PositionCorrected(action.board)
    except RulesError as error:
        raise RefusedError(str(error)) from None
    key = _KEYS.get(type(action))
    if key is not None:
        return ButtonPressed(key)
    if isinstance(action, CONTROLS):
        return action
    raise ActionError(f"{type(action).__name__}: not taken by this board's service")


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

"""The flow of a Jacquet de Versailles match: primauté, turns, numbers handed over, score.

Why apart from :mod:`controller.match.flow`: Jacquet has no cube and no opening roll;
who plays next is the rules' :class:`~controller.rules.JacquetTurn`, which the referee's
:class:`~controller.referee.TurnState` carries (:func:`~controller.referee.jacquet_state`,
:meth:`TurnState.next_turn`). :meth:`Flow.on` hands a Jacquet match's inputs to
:func:`jacquet_on` (through the hooks :class:`JacquetTurns` registers, so that the flow
never imports this module), which returns the next flow and the record events to journal before
adopting it, as for backgammon; the record folds them back with the same rules
(:mod:`controller.match.jacquet_replay` says how a Jacquet game is recorded).

What the players see (``shared/JACQUET.md``): the primauté as the first throw (one die
each, a doublet played by both then thrown again, rule 2); numbers handed over played by
the opponent at once, the status saying on whose behalf (rule 10); Decline when rule 11
allows it; the game's end the moment the fifteenth checker is off, 1 point or 2 (rule 12).
The cube buttons are refused with a notice.
"""

from __future__ import annotations

from dataclasses import replace

from controller.match import events as recorded
from controller.match.errors import RefusedError
from controller.match.flow import Flow, register_variant_turns
from controller.match.turn_record import play_event, seen_events
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    DiceSource,
    DiceUnreadable,
    Input,
    Phase,
    PositionCorrected,
    TurnState,
    jacquet_state,
)
from controller.rules import JacquetTurn, Player, WinKind
from controller.rules.variants import Scoring

__all__ = [
    "JacquetTurns",
    "jacquet_on",
    "jacquet_resign",
    "jacquet_resume",
    "jacquet_start",
]

_CUBE_KEYS = (Button.DOUBLE, Button.TAKE, Button.DROP)


def jacquet_start(flow: Flow) -> Flow:
    """A new Jacquet match: the players first throw for the primauté."""
    return replace(flow, notice="primauté: each player throws one die")


def jacquet_resign(flow: Flow, player: Player, kind: WinKind) -> tuple[Flow, list[recorded.Event]]:
    """Refused: a game of Jacquet is played out (rule 12 scores only the board's end).

    Raises:
        RefusedError: always, saying what to do instead.
    """
    raise RefusedError(
        f"Jacquet de Versailles ({flow.variant.name}) has no resignation: a game is "
        "played out (or abandoned with new-game)"
    )


def jacquet_resume(flow: Flow) -> Flow:
    """The flow of a Jacquet match where its snapshot stands (no game over owed).

    A game with no throw yet resumes as the live flow waits for one, its turn made by the
    first input (:func:`_new_game`): in Ludii's rules too, where player 0 then throws.
    Numbers being played resume with the throw they came from, the board telling how far
    the play got.
    """
    snapshot = flow.snapshot
    turn = snapshot.jacquet
    if turn is None or snapshot.match.is_over:
        return flow
    notice = f"resumed: {snapshot.describe()}"
    if snapshot.game is None:
        return replace(flow, notice=notice)
    dice = snapshot.dice if turn.numbers else None
    state = jacquet_state(turn, dice=dice, notice=notice)
    return replace(flow, turn=state, notice=state.notice)


def jacquet_on(flow: Flow, event: Input) -> tuple[Flow, list[recorded.Event]]:
    """The next flow of a Jacquet match after ``event``, and the record events it implies.

    Raises:
        RefusedError: for an input that cannot count now (the flow is unchanged).
    """
    if isinstance(event, BoardSeen):
        flow = replace(flow, cells=event.cells)
        if flow.turn is None:
            return flow, []
        return _adopt(flow, flow.turn, flow.turn.on(event))
    if flow.match.is_over:
        raise RefusedError("the match is over")
    if isinstance(event, ButtonPressed) and event.button in _CUBE_KEYS:
        raise RefusedError(
            f"{event.button.value}: Jacquet de Versailles is played without the doubling cube"
        )
    turn = flow.turn if flow.turn is not None else _new_game(flow)
    if turn.phase is Phase.PRIMAUTE:
        if isinstance(event, DiceRolled | DiceEntered):
            return _adopt(flow, turn, turn.on(event))
        if isinstance(event, DiceCocked):
            return replace(flow, turn=turn, notice=f"primauté again: {event.reason}"), []
        if isinstance(event, DiceUnreadable):
            return replace(flow, turn=turn, notice="cannot read the primauté dice: enter them"), []
        if isinstance(event, DiceLifted):
            return replace(flow, turn=turn), []  # the dice of a doublet picked up
        raise RefusedError("waiting for the primauté: one die each")
    if isinstance(event, PositionCorrected):
        return flow.correct(event.board, turn)
    if isinstance(event, DiceLifted) and turn.dice_source is DiceSource.GIVEN:
        # Numbers given (handed over, the primauté's) are not the mover's dice on the
        # table: picking those up (the thrower's) commits nothing; Done does.
        return replace(flow, turn=turn), []
    return _adopt(flow, turn, turn.on(event))


def _new_game(flow: Flow) -> TurnState:
    """A new game's first state: the primauté (or player 0 to throw, in Ludii's rules)."""
    state = jacquet_state(JacquetTurn.start(flow.variant))
    return state.on(BoardSeen(flow.cells)) if flow.cells is not None else state


def _adopt(flow: Flow, old: TurnState, turn: TurnState) -> tuple[Flow, list[recorded.Event]]:
    """Adopt the turn's new state: record what it implies, move on when it is over."""
    if old.dice is not None and turn.dice is None and turn.phase is not Phase.DONE:
        raise RefusedError("the throw is recorded: it cannot be undone")
    events: list[recorded.Event] = []
    if old.phase is Phase.PRIMAUTE and turn.phase is not Phase.PRIMAUTE:
        assert turn.dice is not None
        flow = flow.fold(events, recorded.OpeningRolled(turn.dice))
    elif old.dice is None and turn.dice is not None and turn.phase is not Phase.DONE:
        flow = flow.fold(events, recorded.Rolled(turn.player, turn.dice))
    partial, seen = seen_events(old, turn, flow.partial)
    flow = replace(flow.fold(events, *seen), turn=turn, partial=partial, notice=turn.notice)
    if turn.phase is not Phase.DONE:
        return flow, events
    return _end_turn(flow, turn, events)


def _end_turn(
    flow: Flow, turn: TurnState, events: list[recorded.Event]
) -> tuple[Flow, list[recorded.Event]]:
    end = turn.end
    assert end is not None and turn.dice is not None
    if end.declined:
        flow = flow.fold(events, recorded.Declined(turn.player))
    else:
        flow = flow.fold(events, play_event(turn, end.board))
    if flow.snapshot.pending is not None:
        return flow.end_game(events)
    following = turn.next_turn()
    if following.dice is not None and following.dice_source in (
        DiceSource.CAMERA,
        DiceSource.MANUAL,
    ):
        flow = flow.fold(events, recorded.Rolled(following.player, following.dice))
    notice = following.notice
    if end.declined:
        notice = f"{turn.notice}; {notice}" if notice else turn.notice
    flow = replace(flow, turn=following, partial=None, notice=notice)
    return flow, events


class JacquetTurns:
    """Jacquet de Versailles' hooks into :class:`Flow` (a :class:`VariantTurns`)."""

    start = staticmethod(jacquet_start)
    resume = staticmethod(jacquet_resume)
    on = staticmethod(jacquet_on)
    resign = staticmethod(jacquet_resign)


register_variant_turns(Scoring.JACQUET, JacquetTurns())

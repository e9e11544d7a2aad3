"""What a turn's changes put on record: the events both flows journal as a turn goes on.

Why apart from :mod:`~controller.match.flow`: backgammon's flow and Jacquet's
(:mod:`~controller.match.jacquet`) watch the referee's
:class:`~controller.referee.TurnState` the same way; a board seen mid-turn, a flag, the
play that ends the turn and a game's end become the same record events in both, written
once here.
"""

from __future__ import annotations

from controller.match import events as recorded
from controller.match.errors import InvalidEventError, RefusedError
from controller.referee import Kind, Phase, TurnState
from controller.rules import Board, GameResult, Player, play_reaching

__all__ = [
    "canonical_notation",
    "dice_changed",
    "ended_event",
    "play_event",
    "seen_events",
]


def canonical_notation(before: Board, player: Player, dice: tuple[int, int], after: Board) -> str:
    """The canonical notation of the legal play from ``before`` to ``after`` (as the record's).

    Raises:
        RefusedError: when no legal play reaches ``after``.
    """
    play = play_reaching(before, player, dice, after)
    if play is None:
        raise RefusedError(f"no legal play of {dice!r} reaches {after!r}")
    return play.notation


def play_event(turn: TurnState, after: Board) -> recorded.Played | recorded.IllegalPlayAccepted:
    """The record of the turn's play, ending on ``after``: the legal play that reaches it
    (its notation the canonical one), else the illegal play accepted.

    The play is the referee's tree's: built once for the roll, it is not searched again.
    """
    assert turn.dice is not None and turn.judge is not None
    play = turn.judge.tree.play_for(after)
    if play is None:
        return recorded.IllegalPlayAccepted(turn.player, turn.dice, turn.before, after)
    return recorded.Played(turn.player, turn.dice, play.notation, after)


def seen_events(
    old: TurnState, turn: TurnState, partial: Board | None
) -> tuple[Board | None, list[recorded.Event]]:
    """The partial board now, and the events of what the turn saw (a new partial board, a
    flag)."""
    events: list[recorded.Event] = []
    verdict = turn.verdict
    if (
        turn.phase is Phase.MOVING
        and verdict is not None
        and verdict.kind in (Kind.PARTIAL, Kind.COMPLETE)
        and verdict.board is not None
        and verdict.board != (partial or turn.before)
    ):
        events.append(recorded.Observed(verdict.board))
        partial = verdict.board
    if turn.phase is Phase.FLAGGED and old.phase is not Phase.FLAGGED and turn.flagged:
        events.append(_flagged(turn))
    return partial, events


def _flagged(turn: TurnState) -> recorded.Flagged:
    """The record of a flagged play: the board shown if it is a position, else the nearest."""
    flagged = turn.flagged
    assert flagged is not None
    for board in (flagged.board, flagged.nearest, turn.before):
        if board is None:
            continue
        try:
            return recorded.Flagged(turn.player, board, flagged.text)
        except InvalidEventError:
            continue
    raise RefusedError(f"no board to record the flag on: {flagged.text}")


def ended_event(result: GameResult) -> recorded.GameEnded:
    """The record of a game's end."""
    return recorded.GameEnded(
        result.winner, result.points, result.kind, result.dropped, result.resigned
    )


def dice_changed(old: tuple[int, int] | None, new: tuple[int, int] | None) -> bool:
    """Whether ``new`` dice replace ``old`` ones (None: the dice were taken back)."""
    return new is not None and (old is None or sorted(old) != sorted(new))

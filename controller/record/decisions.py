"""A recorded match's decisions, as the engine judges them, and the verdicts put back.

:func:`decisions_of` walks the match's events through the rules (the same fold as the
journal) and keeps what a player decided: each legal play, each chance to double that was
passed up, and each double with its answer. :func:`pair_verdicts` puts an engine's
:class:`~controller.engine.review.Review` of some of those decisions back on the events
they judge, for the analysed ``.sgf`` and for the review report: one walk, both users.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from controller.engine.review import CheckerDecision, CubeDecision, Review, Verdict
from controller.match.errors import RecordError
from controller.match.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Played,
    Rolled,
    Taken,
)
from controller.match.replay import MatchRecord, Replayer
from controller.match.snapshot import Phase
from controller.rules import Xgid, xgid

__all__ = ["Decision", "JudgedEvent", "decisions_of", "pair_verdicts"]

Decision = CheckerDecision | CubeDecision


@dataclass(frozen=True, slots=True)
class JudgedEvent:
    """A verdict with where it stands: the game, the decision's events, the move number.

    ``events`` is the play (``Played``), the roll that followed a chance to double not
    taken (``Rolled``), or the double and its answer (``Doubled`` then ``Taken``,
    ``Dropped`` or ``Beavered``).
    """

    game: int
    move: int
    """The mover's turn number in the game (1 for the opening play)."""
    events: tuple[Event, ...]
    verdict: Verdict


def _cube_alive(position: Xgid) -> bool:
    """Whether GNU Backgammon analyses a double here (its ``GetDPEq``).

    In a match it does not when the doubler already wins the match with the cube as it
    is, nor for the leader of a post-Crawford game (1-away, doubling gains nothing).
    """
    length = position.match_length
    if not length:
        return True
    mine = position.score[position.turn]
    post_crawford = not position.crawford and length - 1 in position.score
    return mine + position.cube_value < length and not (post_crawford and mine == length - 1)


def _walk(record: MatchRecord) -> Iterator[tuple[int, int, tuple[Event, ...], Decision]]:
    """(game, move, events, decision) of each decision, in order.

    The decisions of an abandoned game are left out, as the exports leave out its plays.
    """
    events = record.events
    if not events or not isinstance(events[0], MatchStarted):
        raise RecordError("this match record holds no events to review")
    replayer = Replayer(events[0])
    offered: tuple[Doubled, Xgid] | None = None
    turns = 0
    game_decisions: list[tuple[int, int, tuple[Event, ...], Decision]] = []
    for index, event in enumerate(events[1:], 1):
        before = replayer.snapshot
        game = before.game if before.game is not None else before.match.game_number
        if before.phase is Phase.OPENING:
            turns = 0
        if isinstance(event, Rolled) and before.phase is Phase.TO_ROLL:
            assert before.cube is not None
            position = before.position()
            if before.cube.can_double(event.player) and _cube_alive(position):
                game_decisions.append(
                    (game, turns + 1, (event,), CubeDecision(position, doubled=False))
                )
        elif isinstance(event, Doubled) and _cube_alive(before.position()):
            offered = event, before.position()
        elif isinstance(event, Taken | Dropped | Beavered) and offered is not None:
            taken = not isinstance(event, Dropped)
            decision = CubeDecision(offered[1], True, taken)
            game_decisions.append((game, turns + 1, (offered[0], event), decision))
            offered = None
        elif isinstance(event, Played):
            checker = CheckerDecision(before.position(), event.dice, event.board)
            game_decisions.append((game, turns + 1, (event,), checker))
        if isinstance(event, Played | IllegalPlayAccepted):
            turns += 1
        replayer.apply(index, event)
        if isinstance(event, GameAbandoned):
            game_decisions = []
        elif isinstance(event, GameEnded):
            yield from game_decisions
            game_decisions = []
    yield from game_decisions


def _describe(decision: Decision) -> str:
    """A decision in a few words, for messages."""
    position = decision.position
    where = f"at {xgid(replace(position, dice=None))}"
    if isinstance(decision, CheckerDecision):
        return f"player {position.turn}'s play of {decision.dice[0]}{decision.dice[1]} {where}"
    what = "double" if decision.doubled else "chance to double"
    return f"player {position.turn}'s {what} {where}"


def decisions_of(record: MatchRecord) -> tuple[Decision, ...]:
    """Every play, every chance to double and every double with its answer, in order.

    Illegal plays accepted by the opponent and position edits have no engine verdict:
    they are left out, and the positions after them are the board's. A beaver counts as
    the doubled player's take.

    Raises:
        RecordError: for a record without its events.
    """
    return tuple(decision for *_, decision in _walk(record))


def pair_verdicts(record: MatchRecord, review: Review) -> tuple[JudgedEvent, ...]:
    """Each verdict of ``review`` with the events it judges (decisions without one skipped).

    The verdicts must be in the record's order, as :func:`decisions_of` lists them.

    Raises:
        RecordError: if a verdict judges no decision of ``record`` (another match's review).
    """
    verdicts = list(review.verdicts)
    paired: list[JudgedEvent] = []
    for game, move, events, decision in _walk(record):
        if len(paired) == len(verdicts):
            break
        if verdicts[len(paired)].decision == decision:
            paired.append(JudgedEvent(game, move, events, verdicts[len(paired)]))
    if len(paired) != len(verdicts):
        raise RecordError(
            f"the review's verdict {len(paired) + 1} of {len(verdicts)} judges no decision of "
            f"this match in order: {_describe(verdicts[len(paired)].decision)}"
        )
    return tuple(paired)

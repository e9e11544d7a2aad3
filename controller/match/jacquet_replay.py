"""Jacquet de Versailles replayed: the record's events folded into the rules' turn model.

Why apart from :mod:`~controller.match.replay`: a Jacquet board alone does not say who
plays next (numbers handed over, rule 10; handed back, rule 11; the primauté's doublets,
rule 2), so the snapshot of a Jacquet match carries the rules'
:class:`~controller.rules.JacquetTurn` and each event moves it on. The
:class:`~controller.match.replay.Replayer` hands a Jacquet game's events to
:class:`JacquetReplay`, the hooks this module registers (importing the core registers them).

How a Jacquet game is recorded (``shared/JACQUET.md``):

* :class:`~controller.match.events.OpeningRolled` is a throw of the primauté, (player
  0's die, player 1's die). Equal dice are a doublet that player 0 then player 1 play
  (two :class:`~controller.match.events.Played` with those dice) before the next throw;
  different dice give the higher the first turn with both numbers. Ludii's ruleset has no
  primauté: player 0 starts with a :class:`~controller.match.events.Rolled`.
* :class:`~controller.match.events.Played` carries the dice of the throw the numbers came
  from: numbers handed over are played by the opponent with the thrower's dice.
* :class:`~controller.match.events.Declined` is rule 11's choice.
* :class:`~controller.match.events.GameEnded` scores 1 point (``kind`` single) or 2 for a
  double win (``kind`` gammon: the loser bore off no checker). No cube event is allowed.
"""

from __future__ import annotations

from dataclasses import replace

from controller.match.errors import RefusedEventError
from controller.match.events import (
    Beavered,
    Declined,
    Doubled,
    Dropped,
    Event,
    Flagged,
    IllegalPlayAccepted,
    Observed,
    OpeningRolled,
    Played,
    PositionEdited,
    Rolled,
    Taken,
)
from controller.match.snapshot import MatchSnapshot, Phase, register_variant_replay
from controller.rules import (
    Board,
    GameResult,
    JacquetResult,
    JacquetTurn,
    Play,
    Player,
    WinKind,
    jacquet_result,
)
from controller.rules.variants import Scoring

__all__ = ["JacquetReplay", "game_result", "step"]


def game_result(result: JacquetResult) -> GameResult:
    """The record's result of a Jacquet game: 1 point single, 2 a double win (``GAMMON``)."""
    kind = WinKind.GAMMON if result.is_double else WinKind.SINGLE
    return GameResult(result.winner, result.points, 1, kind)


def canonical_play(turn: JacquetTurn, board: Board) -> Play | None:
    """The play the record names for reaching ``board`` (the first legal play that does)."""
    return next((play for play in turn.plays() if play.result == board), None)


def step(
    turn: JacquetTurn, dice: tuple[int, int] | None, event: Event
) -> tuple[JacquetTurn, tuple[int, int] | None]:
    """The turn model and the dice of its numbers after ``event``.

    Raises:
        RefusedEventError: for an event the game cannot have now, saying why.
        RulesError: for a throw or a decline the rules refuse.
    """
    if isinstance(event, Doubled | Taken | Dropped | Beavered):
        raise RefusedEventError(f"{turn.variant.name} is played without the doubling cube")
    if isinstance(event, Observed | Flagged):
        return turn, dice
    if isinstance(event, PositionEdited):
        if jacquet_result(event.board) is not None:
            raise RefusedEventError("an edit cannot end the game: record the play")
        return replace(turn, board=event.board), dice
    if isinstance(event, OpeningRolled):
        if not turn.primaute or turn.numbers:
            raise RefusedEventError("no primauté to throw now")
        return turn.throw_primaute(*event.dice), event.dice
    if isinstance(event, Rolled):
        if turn.primaute:
            raise RefusedEventError("the first turn is thrown for: one die each (primauté)")
        if event.player != turn.player or turn.numbers:
            raise RefusedEventError(f"player {turn.player} is to {_doing(turn)}")
        return turn.throw(event.dice), event.dice
    if not isinstance(event, Played | IllegalPlayAccepted | Declined):
        raise RefusedEventError(f"{type(event).__name__} has no place in a game of Jacquet")
    if not turn.numbers or event.player != turn.player:
        raise RefusedEventError(f"player {turn.player} is to {_doing(turn)}")
    if isinstance(event, Declined):
        return turn.decline(), dice
    assert dice is not None
    if sorted(event.dice) != sorted(dice):
        raise RefusedEventError(f"the numbers come from the throw {dice[0]}-{dice[1]}")
    if isinstance(event, Played):
        play = canonical_play(turn, event.board)
        if play is None:
            raise RefusedEventError("no legal play reaches this board")
        if play.notation != event.notation:
            raise RefusedEventError(f"the canonical notation is {play.notation!r}")
        after = turn.play(play)
    else:
        if event.before != turn.board:
            raise RefusedEventError("the board before is not the game's position")
        if canonical_play(turn, event.after) is not None:
            raise RefusedEventError("a legal play reaches this board: record a Played")
        after = turn.after_illegal(event.after)
    return after, dice if after.numbers else None


def _doing(turn: JacquetTurn) -> str:
    if turn.primaute and not turn.numbers:
        return "throw for the primauté"
    if turn.numbers:
        return f"play {list(turn.numbers)}"
    return "throw"


class JacquetReplay:
    """Jacquet de Versailles' hooks into the replay (a
    :class:`~controller.match.replay.VariantReplay`)."""

    @staticmethod
    def new_game(snapshot: MatchSnapshot) -> MatchSnapshot:
        """A game starts with its turn model (the primauté, or player 0 in Ludii's)."""
        turn = JacquetTurn.start(snapshot.variant)
        return replace(snapshot, jacquet=turn, last_score=snapshot.match.score)

    @staticmethod
    def apply(snapshot: MatchSnapshot, event: Event) -> MatchSnapshot:
        """The snapshot after one event of a Jacquet game (:func:`step`)."""
        turn = snapshot.jacquet
        assert turn is not None, "new_game gives every Jacquet game its turn model"
        after, dice = step(turn, snapshot.dice, event)
        game = snapshot.game if snapshot.game is not None else snapshot.match.game_number
        partial = None  # a new throw, play or edit: nothing seen yet of what follows
        if isinstance(event, Observed):
            partial = event.board
        elif isinstance(event, Flagged):
            partial = snapshot.partial
        following = replace(
            snapshot, jacquet=after, dice=dice, board=after.board, game=game, partial=partial
        )
        if after.result is None:
            return following
        return replace(following, pending=game_result(after.result))

    @staticmethod
    def phase(snapshot: MatchSnapshot) -> Phase:
        """The primauté is the opening; then numbers to play, or a throw to come."""
        turn = snapshot.jacquet
        if turn is None or (turn.primaute and not turn.numbers):
            return Phase.OPENING
        return Phase.TO_PLAY if turn.numbers else Phase.TO_ROLL

    @staticmethod
    def to_act(snapshot: MatchSnapshot) -> Player | None:
        """The turn model's player, once the primauté has given the first turn."""
        turn = snapshot.jacquet
        if turn is None or JacquetReplay.phase(snapshot) is Phase.OPENING:
            return None
        return turn.player


register_variant_replay(Scoring.JACQUET, JacquetReplay())

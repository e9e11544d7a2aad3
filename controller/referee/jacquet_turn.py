"""Jacquet de Versailles' turn (``shared/JACQUET.md``): its :class:`TurnRules`.

Why apart: the general turn (:mod:`.turn`) asks its rules wherever Jacquet differs, and
all of Jacquet's answers are here. A state started with :func:`jacquet_state` carries the
rules' turn model (:class:`~controller.rules.JacquetTurn`): one state is one player
playing one set of numbers. After the thrower's play, numbers they could not play are
handed over (rule 10): the next state is the opponent playing them with their own
checkers, with the thrower's dice given, before their own throw;
:attr:`TurnState.behalf` says on whose behalf they are played. When the opponent may
decline them (rule 11) the Decline button ends the state and hands them back. The first
turn is thrown for (rule 2, phase ``PRIMAUTE``: one die each, by side): a doublet is
played by both players, then thrown again. The game ends the moment the fifteenth checker
is off (rule 12), even mid-turn: the turn ends at once and :attr:`TurnEnd.result` gives
the winner and the points. Numbers given (handed over, handed back, a primauté doublet)
do not wait for a roll: the service moves on to :meth:`TurnState.next_turn` as soon as
the turn is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from controller.controls import Button
from controller.referee._wording import say_numbers
from controller.referee.inputs import (
    BoardSeen,
    ButtonPressed,
    DiceEntered,
    DiceRolled,
    Roll,
    TurnInput,
)
from controller.referee.judge import Judge
from controller.referee.turn import Phase, TurnState
from controller.referee.turn_rules import TurnEnd, TurnRules
from controller.referee.verdict import Kind
from controller.rules import (
    Board,
    IllegalActionError,
    JacquetResult,
    JacquetTurn,
    Play,
    Player,
    jacquet_result,
)
from hardware.board.geometry import Location

__all__ = ["JacquetTurnRules", "jacquet_state", "jacquet_turn_of"]


def jacquet_state(
    turn: JacquetTurn,
    *,
    dice: Sequence[int] | None = None,
    notice: str = "",
    waive_void_roll: bool = True,
) -> TurnState:
    """The state of a game of Jacquet at ``turn`` (the start: ``JacquetTurn.start()``).

    Args:
        turn: who plays what now.
        dice: the throw ``turn.numbers`` came from, when it has numbers; may be left
            out when the numbers are a whole throw (two different numbers, or a
            doublet's ``n`` moves).
        notice: what to tell the players (by default, who throws or on whose behalf
            numbers are played).
        waive_void_roll: waive the void-roll rule for a forced play.

    Raises:
        IllegalActionError: if the game is over, or the throw of handed numbers is
            needed and not given.
        InvalidDiceError: if ``dice`` is not two numbers from 1 to 6 that give
            ``turn.numbers``.
    """
    if turn.result is not None:
        raise IllegalActionError(f"the game is over: player {turn.result.winner} won")
    rules = JacquetTurnRules(turn)
    if not turn.numbers:
        primaute = turn.primaute
        default = "primauté: each player throws one die" if primaute else ""
        state = TurnState.start(
            turn.board,
            turn.player,
            notice=notice or default or f"player {turn.player} to throw",
            waive_void_roll=waive_void_roll,
            rules=rules,
        )
        return replace(state, phase=Phase.PRIMAUTE) if primaute else state
    state = TurnState.start(
        turn.board,
        turn.player,
        dice=_throw_of(turn) if dice is None else dice,
        waive_void_roll=waive_void_roll,
        rules=rules,
    )
    return replace(state, notice=notice or state.behalf)


def jacquet_turn_of(rules: TurnRules) -> JacquetTurn | None:
    """The rules' Jacquet turn model that ``rules`` carry (a state's, or a turn end's
    following), or None for another variant's rules."""
    return rules.turn if isinstance(rules, JacquetTurnRules) else None


@dataclass(frozen=True, slots=True)
class JacquetTurnRules:
    """Jacquet's turn (a :class:`TurnRules`): ``turn`` is who plays what now, before the
    throw when the mover throws."""

    turn: JacquetTurn

    @property
    def behalf(self) -> str:
        """Who plays which numbers on whose behalf, or ``""`` for an own throw.

        ``player 1 plays the 5 handed over by player 0`` (rule 10); ``player 0 plays the 5
        handed back by player 1`` (rule 11); ``primauté: player 0 plays 3 moves of 3``.
        """
        turn = self.turn
        if not turn.numbers:
            return ""
        numbers = say_numbers(turn.numbers)
        if turn.primaute:
            return f"primauté: player {turn.player} plays {numbers}"
        if turn.is_handed_over:
            return f"player {turn.player} plays {numbers} handed over by player {turn.thrower}"
        if turn.handed_back:
            return f"player {turn.player} plays {numbers} handed back by player {1 - turn.player}"
        return ""

    @property
    def courier(self) -> Location | None:
        """The location of the mover's courier travelling alone (rule 5), or None."""
        point = self.turn.courier
        return None if point is None else point - 1

    @property
    def mover_throws_next(self) -> bool:
        """Rule 10: the mover of numbers handed over throws their own next, at once."""
        return self.turn.is_handed_over

    def judge(self, before: Board, player: Player, dice: tuple[int, int]) -> Judge:
        """A judge of the numbers to play: the throw's, or the numbers handed over."""
        variant = self.turn.variant
        numbers = self.turn.numbers or None
        if numbers == variant.moves_of(dice):
            numbers = None
        return Judge(before, player, dice, variant=variant, numbers=numbers)

    def on(self, state: TurnState, event: TurnInput) -> TurnState | None:
        """The primauté (rule 2), the Decline (rule 11), and the mover's own throw after
        numbers handed over (rule 10); None for the rest."""
        if state.phase is Phase.PRIMAUTE:
            if isinstance(event, DiceRolled | DiceEntered):
                return self._primaute(state, event.dice)
            if not isinstance(event, ButtonPressed):
                return replace(state, notice="primauté: each player throws one die, enter both")
            return None
        if event == ButtonPressed(Button.DECLINE) and state.may_decline:
            return self._decline(state)
        if isinstance(event, Roll):
            return self._own_throw(state, event)
        return None

    def may_decline(self, state: TurnState) -> bool:
        """Rule 11: numbers handed over that can only be played by breaking a point."""
        playing = self.playing(state)
        return playing is not None and playing.may_decline()

    def has_contact(self, board: Board, player: Player) -> bool:
        """Always: both players run the same way on tracks half a board apart, so contact
        lasts as long as the game (only a forced play waives the void-roll rule)."""
        return True

    def result(self, board: Board) -> JacquetResult | None:
        """Rule 12: the game ends the moment a player's fifteenth checker is off."""
        return jacquet_result(board)

    def with_board(self, board: Board) -> TurnRules:
        """The same turn from ``board`` (the position corrected before a throw)."""
        return JacquetTurnRules(replace(self.turn, board=board))

    def after(self, state: TurnState, play: Play | None, board: Board) -> TurnRules:
        """Who plays what next: a legal play follows the rules (numbers handed over, rule
        12); an illegal play accepted as made hands nothing over."""
        playing = self.playing(state)
        assert playing is not None  # a turn ends once its numbers are known
        if play is not None and play in playing.plays():
            return JacquetTurnRules(playing.play(play))
        return JacquetTurnRules(playing.after_illegal(board))

    def next_turn(self, ended: TurnState) -> TurnState:
        """The state of ``turn`` after ``ended``: numbers given are played at once."""
        assert ended.end is not None
        turn = self.turn
        if turn.result is not None:
            raise IllegalActionError(
                f"the game is over: player {turn.result.winner} won {turn.result.points}"
            )
        dice = ended.dice if turn.numbers else None  # handed over, handed back, a doublet
        state = jacquet_state(turn, dice=dice, waive_void_roll=ended.waive_void_roll)
        if ended.end.void_roll:
            state = replace(state, notice=f"the roll was void: player {state.player} throws again")
        return state

    def playing(self, state: TurnState) -> JacquetTurn | None:
        """The turn model with the numbers ``state``'s mover plays: ``turn``'s own, or
        its throw's once thrown (None before the throw)."""
        turn = self.turn
        if turn.numbers:
            return turn
        if state.dice is None or turn.result is not None:
            return None
        return turn.throw(state.dice)

    def _primaute(self, state: TurnState, dice: tuple[int, int]) -> TurnState:
        """Rule 2: the higher die wins the first turn; a doublet is played by both."""
        turn = self.turn.throw_primaute(*dice)
        if turn.primaute:
            notice = (
                f"primauté {dice[0]}-{dice[1]}: player 0 plays {say_numbers(turn.numbers)}, "
                "then player 1, then the primauté is thrown again"
            )
        else:
            notice = f"player {turn.player} wins the primauté {dice[0]}-{dice[1]} and plays it"
        following = jacquet_state(
            turn, dice=dice, notice=notice, waive_void_roll=state.waive_void_roll
        )
        following = replace(following, previous=state)
        return following.on(BoardSeen(state.cells)) if state.cells is not None else following

    def _decline(self, state: TurnState) -> TurnState:
        """Rule 11: the mover declines the numbers handed over; the hand goes back."""
        if state.verdict is not None and state.verdict.kind is not Kind.WAITING:
            return replace(state, notice="put the checkers back before declining")
        back = self.turn.decline()  # numbers handed over are the state's own numbers
        end = TurnEnd(state.before, None, declined=True, following=JacquetTurnRules(back))
        notice = (
            f"player {state.player} declines {say_numbers(self.turn.numbers)}: "
            f"the hand goes back to player {back.player}"
        )
        return replace(state, phase=Phase.DONE, end=end, previous=state, notice=notice)

    def _own_throw(self, state: TurnState, event: Roll) -> TurnState | None:
        """Rule 10: the mover's own throw ends their play of the numbers handed over: it is
        their next turn's roll, not an opponent's roll made too early."""
        playing = self.playing(state)
        if (
            playing is None
            or not playing.is_handed_over
            or state.phase not in (Phase.MOVING, Phase.FLAGGED, Phase.CONFIRM_DICE)
        ):
            return None
        if state.final_verdict().kind not in (Kind.COMPLETE, Kind.ILLEGAL):
            notice = f"player {state.player} threw before playing {say_numbers(playing.numbers)}"
            return replace(state, notice=notice)
        return state.ended_as_it_stands(roll=event, previous=None)


def _throw_of(turn: JacquetTurn) -> tuple[int, int]:
    """The throw that gives ``turn.numbers`` whole, when one does.

    Raises:
        IllegalActionError: for numbers that are part of a throw (handed over).
    """
    numbers = turn.numbers
    throw = (numbers[0], numbers[-1])
    if len(numbers) <= 2 and turn.variant.moves_of(throw) == tuple(sorted(numbers, reverse=True)):
        return throw
    if len(set(numbers)) == 1 and turn.variant.moves_of(throw) == numbers:
        return throw
    raise IllegalActionError(
        f"the throw of the numbers {list(numbers)!r} handed over is needed to referee them"
    )

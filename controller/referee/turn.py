"""One turn as a state machine: roll, move, commit, and the irregularities of the seed.

Why a value: the asyncio service keeps the current :class:`TurnState`, feeds it every
event (a dice reading, a stable observation, a button; :mod:`.events`) with
:meth:`TurnState.on`, journals the event, and renders the new state; nothing here reads a
clock or a device, so a turn replays exactly from its journal.

The seed's rules (``regles-du-backgammon.txt``, "Irrégularités"):

1. dice that land cocked, off the right-hand half, or on a checker are rolled again;
2. a turn ends when the player picks up the dice; an incomplete or otherwise illegal play
   may be accepted by the opponent as made, or the opponent may demand a legal play; the
   opponent rolling or doubling accepts the play as made;
3. a roll made before the opponent finished the turn (picked up the dice) is void; the rule
   is generally waived when the play is forced or there is no more contact.

Tabula adds the Done button as a way to finish, the Accept and Demand buttons for the
opponent's choice, manual dice when the camera cannot read them, and Undo.

Jacquet de Versailles (``shared/JACQUET.md``). A state started with
:meth:`TurnState.from_jacquet` carries the rules' turn model
(:class:`~controller.rules.JacquetTurn`): one state is one player playing one set of
numbers. After the thrower's play, numbers they could not play are handed over (rule 10):
the next state is the opponent playing them with their own checkers, with the thrower's
dice given, before their own throw; :attr:`TurnState.behalf` says on whose behalf they are
played. When the opponent may decline them (rule 11) the Decline button ends the state and
hands them back. The first turn is thrown for (rule 2, phase ``PRIMAUTE``, event
:class:`Primaute`): a doublet is played by both players, then thrown again. The game ends
the moment the fifteenth checker is off (rule 12), even mid-turn: the turn ends at once
and :attr:`TurnEnd.result` gives the winner and the points. Numbers given (handed over,
handed back, a primauté doublet) do not wait for a roll: the service moves on to
:meth:`TurnState.next_turn` as soon as the turn is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from controller.controls import Button
from controller.referee._wording import describe_dice, disagree, say_numbers
from controller.referee.events import (
    DiceLifted,
    Event,
    ManualDice,
    Press,
    Primaute,
    Rolled,
    RollEvent,
    RollFault,
    RollUnreadable,
    Seen,
)
from controller.referee.judge import Judge, explaining_dice
from controller.referee.verdict import Fault, Kind, Verdict
from controller.rules import (
    BACKGAMMON,
    Board,
    IllegalActionError,
    JacquetResult,
    JacquetTurn,
    Play,
    Player,
    check_board,
    check_dice,
    flip,
    jacquet_result,
)
from hardware.board.geometry import Cells, cells_from_board

__all__ = ["DiceSource", "Phase", "TurnEnd", "TurnState"]


class Phase(StrEnum):
    """Where the turn stands."""

    ROLL = "roll"
    """Waiting for the mover's roll."""
    MANUAL_DICE = "manual_dice"
    """The camera could not read the dice: they must be entered by hand."""
    MOVING = "moving"
    """The dice are known; the mover plays."""
    CONFIRM_DICE = "confirm_dice"
    """The dice read and the checkers moved disagree: which dice were rolled?"""
    FLAGGED = "flagged"
    """The mover finished with an illegal play: the opponent accepts it or demands a legal one."""
    DONE = "done"
    """The turn is over (:attr:`TurnState.end`)."""
    PRIMAUTE = "primaute"
    """Jacquet's first turn is thrown for: one die each (rule 2)."""


class DiceSource(StrEnum):
    """Where the dice of the turn come from."""

    CAMERA = "camera"
    MANUAL = "manual"
    """Entered with the buttons or the web view (or confirmed there after a disagreement)."""
    GIVEN = "given"
    """Given with the turn, not rolled: numbers handed over (Jacquet), a replayed game."""


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """How a turn ended: the board it leaves and what the record needs.

    Attributes:
        board: the position after the turn (the next turn's position before).
        play: the legal play made, or None for an illegal play accepted as made.
        fault: why the accepted play is illegal, or None.
        accepted: the play was accepted as made (Accept, or the opponent rolled or doubled).
        next_roll: the opponent's roll that ended the turn (a reading, a cocked die, an
            unreadable roll), when it counts: the next turn starts from it.
        void_roll: the opponent rolled too early: that roll is void and must be made again.
        doubled: the opponent doubled, which ended the turn.
        declined: Jacquet: the mover declined the numbers handed over (rule 11).
        jacquet: Jacquet: the rules' turn model after this turn (who plays what next).
    """

    board: Board
    play: Play | None
    fault: Fault | None = None
    accepted: bool = False
    next_roll: RollEvent | None = None
    void_roll: bool = False
    doubled: bool = False
    declined: bool = False
    jacquet: JacquetTurn | None = None

    @property
    def result(self) -> JacquetResult | None:
        """Jacquet: the game's result if this turn ended it (rule 12), else None."""
        return jacquet_result(self.board) if self.jacquet is not None else None


JudgeFactory = Callable[[Board, Player, tuple[int, int]], Judge]


@dataclass(frozen=True, slots=True)
class TurnState:
    """The state of one turn; :meth:`on` returns the next state, never changing this one.

    Start a turn with :meth:`start`. Attributes:
        before: the position before the turn (the reference while the turn lasts).
        player: the player to move.
        phase: where the turn stands.
        dice: the roll, once known; ``dice_source`` says from where.
        cells: the latest stable observation, if any.
        verdict: the verdict on ``cells`` with ``dice`` (None before the roll).
        flagged: the illegal verdict the opponent must decide on (``FLAGGED``).
        alternatives: the rolls that explain the checkers moved (``CONFIRM_DICE``).
        commit_trigger: what finished the turn, when the dice must be confirmed first.
        demanded: the opponent demanded a legal play.
        notice: the last thing to tell the players (a refused button, a void roll).
        roll_fault: why the last roll must be made again (a cocked die), until a good roll.
        end: how the turn ended (``DONE``).
        previous: the state Undo returns to.
        waive_void_roll: waive the void-roll rule when the play is forced or contact is over.
        judge_factory: builds the judge of a roll (backgammon's :class:`Judge` by default);
            a Jacquet state builds its own from ``jacquet``'s variant and numbers.
        jacquet: Jacquet: the rules' turn model of this turn, before the throw when the
            mover throws (None in backgammon).
    """

    before: Board
    player: Player
    phase: Phase = Phase.ROLL
    dice: tuple[int, int] | None = None
    dice_source: DiceSource | None = None
    cells: Cells | None = None
    verdict: Verdict | None = None
    flagged: Verdict | None = None
    alternatives: tuple[tuple[int, int], ...] = ()
    commit_trigger: str = ""
    demanded: bool = False
    notice: str = ""
    roll_fault: str = ""
    end: TurnEnd | None = None
    previous: TurnState | None = field(default=None, repr=False)
    waive_void_roll: bool = True
    judge_factory: JudgeFactory = field(default=Judge, repr=False, compare=False)
    judge: Judge | None = field(default=None, repr=False, compare=False)
    jacquet: JacquetTurn | None = None

    @classmethod
    def from_jacquet(
        cls,
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

        Raises:
            IllegalActionError: if the game is over, or the throw of handed numbers is
                needed and not given.
            InvalidDiceError: if ``dice`` is not two numbers from 1 to 6 that give
                ``turn.numbers``.
        """
        if turn.result is not None:
            raise IllegalActionError(f"the game is over: player {turn.result.winner} won")
        state = cls(
            turn.board,
            turn.player,
            waive_void_roll=waive_void_roll,
            jacquet=turn,
            notice=notice or f"player {turn.player} to throw",
        )
        if turn.primaute and not turn.numbers:
            return replace(
                state,
                phase=Phase.PRIMAUTE,
                notice=notice or "primauté: each player throws one die",
            )
        if not turn.numbers:
            return state
        if dice is None:
            dice = _throw_of(turn)
        state = state._with_dice(check_dice(dice), DiceSource.GIVEN)
        return replace(state, notice=notice or state.behalf)

    @property
    def behalf(self) -> str:
        """Jacquet: who plays which numbers on whose behalf, or ``""`` for an own throw.

        ``player 1 plays the 5 handed over by player 0`` (rule 10); ``player 0 plays the 5
        handed back by player 1`` (rule 11); ``primauté: player 0 plays 3 moves of 3``.
        """
        turn = self.jacquet
        if turn is None or not turn.numbers:
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
    def may_decline(self) -> bool:
        """Jacquet's rule 11: whether the mover may decline the numbers handed over now."""
        playing = self._playing()
        return self.phase is Phase.MOVING and playing is not None and playing.may_decline()

    def _playing(self) -> JacquetTurn | None:
        """The Jacquet turn model with the numbers being played (None before the throw)."""
        turn = self.jacquet
        if turn is None or turn.numbers:
            return turn
        if self.dice is None or turn.result is not None:
            return None
        return turn.throw(self.dice)

    @classmethod
    def start(
        cls,
        board: Board,
        player: Player,
        *,
        dice: Sequence[int] | None = None,
        notice: str = "",
        waive_void_roll: bool = True,
        judge_factory: JudgeFactory = Judge,
    ) -> TurnState:
        """A new turn for ``player`` from ``board``, waiting for the roll unless ``dice`` given.

        Raises:
            InvalidPositionError: if ``board`` is not a possible board.
            InvalidDiceError: if ``dice`` is given and is not two numbers from 1 to 6.
        """
        state = cls(
            check_board(board),
            player,
            notice=notice or f"player {player} to roll",
            waive_void_roll=waive_void_roll,
            judge_factory=judge_factory,
        )
        if dice is None:
            return state
        return state._with_dice(check_dice(dice), DiceSource.GIVEN)

    # Transitions.

    def on(self, event: Event) -> TurnState:
        """The state after ``event``."""
        if isinstance(event, Seen):
            return self._seen(event.cells)
        if isinstance(event, Primaute):
            return self._primaute(event.dice)
        if self.phase is Phase.PRIMAUTE and isinstance(event, ManualDice):
            return self._primaute(event.dice)
        if self.phase is Phase.PRIMAUTE and not isinstance(event, Press):
            return replace(self, notice="primauté: each player throws one die, enter both")
        if self.phase is Phase.DONE:
            if event == Press(Button.UNDO) and self._can_undo():
                return self._undo()
            return replace(self, notice="the turn is over")
        if isinstance(event, Press):
            return self._press(event.button)
        if isinstance(event, Rolled | RollFault | RollUnreadable):
            return self._roll(event)
        if isinstance(event, ManualDice):
            return self._manual(event.dice)
        if isinstance(event, DiceLifted):
            if event.player == self.player and self.phase is Phase.MOVING:
                return self._commit("picked up the dice")
            return self
        if event.player == self.player:
            if self.phase is Phase.ROLL:
                return self  # a double before rolling is the cube's business, not the play's
            return replace(self, notice="the cube is offered before rolling")
        if self.phase in (Phase.ROLL, Phase.MANUAL_DICE):
            return replace(self, notice=f"player {event.player} doubled out of turn")
        return self._accept_as_made(doubled=True)

    def _seen(self, cells: Cells) -> TurnState:
        verdict = self.judge.verdict(cells) if self.judge is not None else None
        state = replace(self, cells=cells, verdict=verdict)
        if (
            self.jacquet is not None
            and self.phase is Phase.MOVING
            and verdict is not None
            and verdict.kind is Kind.COMPLETE
            and verdict.board is not None
            and jacquet_result(verdict.board) is not None
        ):
            return state._commit("the fifteenth checker is off: the game is over")
        return state

    def _primaute(self, dice: tuple[int, int]) -> TurnState:
        """Rule 2: the higher die wins the first turn; a doublet is played by both."""
        if self.phase is not Phase.PRIMAUTE or self.jacquet is None:
            return replace(self, notice="the primauté is thrown before the first turn only")
        turn = self.jacquet.throw_primaute(*dice)
        if turn.primaute:
            notice = (
                f"primauté {dice[0]}-{dice[1]}: player 0 plays {say_numbers(turn.numbers)}, "
                "then player 1, then the primauté is thrown again"
            )
        else:
            notice = f"player {turn.player} wins the primauté {dice[0]}-{dice[1]} and plays it"
        state = TurnState.from_jacquet(
            turn, dice=dice, notice=notice, waive_void_roll=self.waive_void_roll
        )
        state = replace(state, previous=self)
        return state._seen(self.cells) if self.cells is not None else state

    def _roll(self, event: Rolled | RollFault | RollUnreadable) -> TurnState:
        playing = self._playing()
        if (
            playing is not None
            and playing.is_handed_over
            and event.player == self.player
            and self.phase in (Phase.MOVING, Phase.FLAGGED, Phase.CONFIRM_DICE)
        ):
            # The mover's own throw ends their play of the numbers handed over: it is their
            # next turn's roll, not an opponent's roll made too early.
            if self._final_verdict().kind not in (Kind.COMPLETE, Kind.ILLEGAL):
                numbers = say_numbers(playing.numbers)
                return replace(self, notice=f"player {self.player} threw before playing {numbers}")
            return self._accepted(roll=event, previous=None)
        if event.player != self.player:
            if self.phase in (Phase.MOVING, Phase.FLAGGED, Phase.CONFIRM_DICE):
                return self._accept_as_made(roll=event)
            return replace(self, notice=f"player {event.player} rolled out of turn")
        if self.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            return replace(self, notice="the dice are already rolled")
        if isinstance(event, RollFault):
            return replace(
                self,
                phase=Phase.ROLL,
                roll_fault=event.reason,
                notice=f"roll again: {event.reason}",
            )
        if isinstance(event, RollUnreadable):
            return replace(self, phase=Phase.MANUAL_DICE, notice="cannot read the dice: enter them")
        return self._with_dice(event.dice, DiceSource.CAMERA)

    def _with_dice(self, dice: tuple[int, int], source: DiceSource) -> TurnState:
        if self.jacquet is None:
            judge = self.judge_factory(self.before, self.player, dice)
        else:
            variant = self.jacquet.variant
            numbers = self.jacquet.numbers or None
            if numbers == variant.moves_of(dice):
                numbers = None
            judge = Judge(self.before, self.player, dice, variant=variant, numbers=numbers)
        cells = self.cells
        verdict = judge.verdict(cells) if cells is not None else None
        return replace(
            self,
            phase=Phase.MOVING,
            dice=dice,
            dice_source=source,
            roll_fault="",
            commit_trigger="",
            judge=judge,
            verdict=verdict,
            notice=f"player {self.player} to play {describe_dice(dice)}",
        )

    def _manual(self, dice: tuple[int, int]) -> TurnState:
        if self.phase is Phase.CONFIRM_DICE:
            state = replace(
                self._with_dice(dice, DiceSource.MANUAL), previous=self, alternatives=()
            )
            return state._commit(self.commit_trigger) if self.commit_trigger else state
        if self.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            return replace(self, notice="the dice are already known")
        state = replace(self._with_dice(dice, DiceSource.MANUAL), previous=self)
        # Dice entered after the move: check them against the checkers moved.
        alternatives = state._explaining()
        if alternatives and _ordered(dice) not in alternatives:
            return replace(
                state,
                phase=Phase.CONFIRM_DICE,
                alternatives=alternatives,
                notice=disagree("were entered", dice, alternatives),
            )
        return state

    def _explaining(self) -> tuple[tuple[int, int], ...]:
        """The rolls that explain a whole, moved board that no play of these dice reaches.

        A board on the way to a play of these dice (an unfinished play) is not a disagreement.
        """
        verdict = self.verdict
        if verdict is None or verdict.kind is not Kind.ILLEGAL:
            return ()
        board = verdict.board
        if board is None or verdict.pending_hits or board == self.before:
            return ()
        variant = self.jacquet.variant if self.jacquet is not None else BACKGAMMON
        return explaining_dice(self.before, self.player, board, variant)

    def _press(self, button: Button) -> TurnState:
        if button is Button.UNDO:
            if self._can_undo():
                return self._undo()
            return replace(self, notice="nothing to undo")
        if button is Button.DONE:
            if self.phase is Phase.MOVING:
                return self._commit("pressed Done")
            return replace(self, notice="Done counts only while playing")
        if button is Button.DECLINE:
            return self._decline()
        if button not in (Button.ACCEPT, Button.DEMAND):
            return replace(self, notice=f"{button.value} is not the turn's to answer")
        if self.phase is not Phase.FLAGGED:
            return replace(self, notice=f"{button.value} counts only after an illegal play")
        if button is Button.DEMAND:
            return replace(
                self,
                phase=Phase.MOVING,
                demanded=True,
                flagged=None,
                previous=self,
                notice="a legal play is demanded: play again from the position before the turn",
            )
        return self._accepted(previous=self)

    def _decline(self) -> TurnState:
        """Rule 11: the mover declines the numbers handed over; the hand goes back."""
        playing = self._playing()
        if not self.may_decline or playing is None:
            return replace(
                self,
                notice="Decline counts only for numbers handed over that would break a point",
            )
        if self.verdict is not None and self.verdict.kind is not Kind.WAITING:
            return replace(self, notice="put the checkers back before declining")
        back = playing.decline()
        end = TurnEnd(self.before, None, declined=True, jacquet=back)
        notice = (
            f"player {self.player} declines {say_numbers(playing.numbers)}: "
            f"the hand goes back to player {back.player}"
        )
        return replace(self, phase=Phase.DONE, end=end, previous=self, notice=notice)

    def _after(self, play: Play | None, board: Board) -> JacquetTurn | None:
        """Jacquet: the turn model after this turn ends on ``board`` (None in backgammon).

        A legal play follows the rules (numbers handed over, rule 12); an illegal play
        accepted as made hands nothing over.
        """
        playing = self._playing()
        if playing is None:
            return None
        if play is not None and play in playing.plays():
            return playing.play(play)
        return playing.after_illegal(board)

    def _commit(self, trigger: str) -> TurnState:
        """The mover finished: end the turn on a legal play, else flag it or ask for the dice."""
        verdict = self._final_verdict()
        if verdict.kind is Kind.COMPLETE:
            assert verdict.play is not None and verdict.board is not None
            end = TurnEnd(
                verdict.board, verdict.play, jacquet=self._after(verdict.play, verdict.board)
            )
            return replace(self, phase=Phase.DONE, end=end, previous=self, notice=trigger)
        if verdict.kind is not Kind.ILLEGAL:
            return replace(self, notice=f"not finished: {verdict.text}")
        alternatives = self._explaining() if self.dice_source is DiceSource.CAMERA else ()
        if alternatives:
            assert self.dice is not None
            return replace(
                self,
                phase=Phase.CONFIRM_DICE,
                alternatives=alternatives,
                commit_trigger=trigger,
                previous=self,
                notice=disagree("were read", self.dice, alternatives),
            )
        return replace(
            self,
            phase=Phase.FLAGGED,
            flagged=verdict,
            previous=self,
            notice=f"illegal play, {verdict.text}: Accept it or demand a legal play",
        )

    def _final_verdict(self) -> Verdict:
        assert self.judge is not None
        cells = self.cells if self.cells is not None else cells_from_board(self.before)
        return self.judge.final_verdict(cells)

    def _accept_as_made(self, *, roll: RollEvent | None = None, doubled: bool = False) -> TurnState:
        """The opponent rolled or doubled: the play is accepted as it stands (seed rule 2).

        A roll made before the mover finished (picked up the dice or pressed Done) is void
        (seed rule 3), unless the rule is waived for this play.
        """
        early = self.phase is Phase.MOVING
        if early and self._final_verdict().kind not in (Kind.COMPLETE, Kind.ILLEGAL):
            what = "rolled" if roll else "doubled"
            return replace(
                self, notice=f"player {1 - self.player} {what} before the play was finished"
            )
        return self._accepted(roll=roll, doubled=doubled, early=early, previous=None)

    def _accepted(
        self,
        *,
        roll: RollEvent | None = None,
        doubled: bool = False,
        early: bool = False,
        previous: TurnState | None,
    ) -> TurnState:
        """End the turn on the board as it stands: a legal play, or an illegal one accepted.

        If the board is no longer whole (a checker in hand), the flagged board is accepted.
        """
        verdict = self._final_verdict()
        if verdict.kind not in (Kind.COMPLETE, Kind.ILLEGAL) and self.flagged is not None:
            verdict = self.flagged
        board = verdict.board
        if board is None:
            board = verdict.nearest if verdict.nearest is not None else self.before
        void = early and roll is not None and not self._waived(board)
        end = TurnEnd(
            board,
            verdict.play,
            fault=verdict.fault,
            accepted=verdict.kind is not Kind.COMPLETE,
            next_roll=None if void else roll,
            void_roll=void,
            doubled=doubled,
            jacquet=self._after(verdict.play, board),
        )
        notice = "the play is accepted as made" if end.accepted else "turn over"
        if void:
            notice += f"; player {1 - self.player}'s roll is void: roll again"
        return replace(self, phase=Phase.DONE, end=end, previous=previous, notice=notice)

    def _waived(self, board: Board) -> bool:
        """Whether the void-roll rule is waived: a forced play, or no more contact."""
        if not self.waive_void_roll or self.judge is None:
            return False
        if len(self.judge.tree.plays) == 1:
            return True
        if self.jacquet is not None:
            # Both players run the same way on tracks half a board apart: contact lasts
            # as long as the game, so only a forced play waives the rule.
            return False
        view = board if self.player == 0 else flip(board)
        back = max((point for point in range(1, 26) if view[point] > 0), default=0)
        return not any(view[point] < 0 for point in range(back))

    def _can_undo(self) -> bool:
        return self.previous is not None

    def _undo(self) -> TurnState:
        assert self.previous is not None
        state = replace(self.previous, notice="undone")
        return state._seen(self.cells) if self.cells is not None else state

    def next_turn(self) -> TurnState:
        """The opponent's turn after this one ended (with the roll that ended it, if valid).

        The service moves on once the opponent rolls; until then Undo may reopen this turn.

        Raises:
            IllegalActionError: if the turn is not over.
        """
        if self.end is None:
            raise IllegalActionError(f"turn of player {self.player} is not over: {self.phase}")
        if self.end.jacquet is not None:
            return self._next_jacquet(self.end.jacquet)
        notice = f"player {1 - self.player} to roll"
        if self.end.void_roll:
            notice = f"the roll was void: player {1 - self.player} rolls again"
        state = TurnState.start(
            self.end.board,
            1 - self.player,
            notice=notice,
            waive_void_roll=self.waive_void_roll,
            judge_factory=self.judge_factory,
        )
        if self.cells is not None:
            state = replace(state, cells=self.cells)
        if self.end.next_roll is not None:
            state = state.on(self.end.next_roll)
        return state

    def _next_jacquet(self, turn: JacquetTurn) -> TurnState:
        assert self.end is not None
        if turn.result is not None:
            raise IllegalActionError(
                f"the game is over: player {turn.result.winner} won {turn.result.points}"
            )
        dice = self.dice if turn.numbers else None  # handed over, handed back, a doublet
        state = TurnState.from_jacquet(turn, dice=dice, waive_void_roll=self.waive_void_roll)
        if self.end.void_roll:
            state = replace(state, notice=f"the roll was void: player {state.player} throws again")
        if self.cells is not None:
            state = state._seen(self.cells)
        roll = self.end.next_roll
        if roll is not None and state.phase is Phase.ROLL and roll.player == state.player:
            state = state.on(roll)
        return state


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


def _ordered(dice: tuple[int, int]) -> tuple[int, int]:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])

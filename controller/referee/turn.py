"""One turn as a state machine: roll, move, commit, and the irregularities of the seed.

Why a value: the match keeps the current :class:`TurnState`, feeds it every input (a dice
reading, a stable observation, a button; :mod:`.inputs`) with :meth:`TurnState.on`,
journals what it implies, and renders the new state; nothing here reads a clock or a
device, so a turn replays exactly from its journal.

The seed's rules (``regles-du-backgammon.txt``, "Irrégularités"):

1. dice that land cocked, off the right-hand half, or on a checker are rolled again;
2. a turn ends when the player picks up the dice; an incomplete or otherwise illegal play
   may be accepted by the opponent as made, or the opponent may demand a legal play; the
   opponent rolling or doubling accepts the play as made;
3. a roll made before the opponent finished the turn (picked up the dice) is void; the rule
   is generally waived when the play is forced or there is no more contact.

Tabula adds the Done button as a way to finish, the Accept and Demand buttons for the
opponent's choice, manual dice when the camera cannot read them, and Undo.

What a variant changes in a turn (how its dice are judged, its own phases and buttons,
who plays next, when the game ends mid-turn) is asked of the state's :class:`TurnRules`,
never tested here: backgammon's are :class:`BackgammonTurnRules`; Jacquet de Versailles'
(the primauté, numbers handed over, the Decline of rule 11) are in
:mod:`controller.referee.jacquet_turn`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from controller.controls import Button
from controller.referee._wording import describe_dice, disagree
from controller.referee.inputs import (
    BoardSeen,
    ButtonPressed,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceUnreadable,
    Roll,
    TurnInput,
)
from controller.referee.judge import Judge, explaining_dice
from controller.referee.turn_rules import TurnEnd, TurnRules
from controller.referee.verdict import Kind, Verdict
from controller.rules import (
    Board,
    IllegalActionError,
    JacquetResult,
    Play,
    Player,
    check_board,
    check_dice,
    flip,
)
from hardware.board.geometry import Cells, Location, cells_from_board

__all__ = ["BackgammonTurnRules", "DiceSource", "Phase", "TurnState"]


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
class BackgammonTurnRules:
    """Backgammon's turn: the roll's numbers, then the opponent rolls (a :class:`TurnRules`)."""

    @property
    def behalf(self) -> str:
        """Always ``""``: each player plays their own roll."""
        return ""

    @property
    def courier(self) -> Location | None:
        """Always None: backgammon has no courier rule."""
        return None

    @property
    def mover_throws_next(self) -> bool:
        """Never: the opponent throws next."""
        return False

    def judge(self, before: Board, player: Player, dice: tuple[int, int]) -> Judge:
        """A judge of the whole roll."""
        return Judge(before, player, dice)

    def on(self, state: TurnState, event: TurnInput) -> TurnState | None:
        """None: backgammon has no phase or button of its own."""
        return None

    def may_decline(self, state: TurnState) -> bool:
        """Never: nothing is handed over."""
        return False

    def has_contact(self, board: Board, player: Player) -> bool:
        """Whether an opponent's checker stands behind ``player``'s last checker."""
        view = board if player == 0 else flip(board)
        back = max((point for point in range(1, 26) if view[point] > 0), default=0)
        return any(view[point] < 0 for point in range(back))

    def result(self, board: Board) -> JacquetResult | None:
        """None: the match flow ends the game (the cube sets the points)."""
        return None

    def after(self, state: TurnState, play: Play | None, board: Board) -> TurnRules:
        """The same rules: nothing is carried from turn to turn."""
        return self

    def with_board(self, board: Board) -> TurnRules:
        """The same rules: they carry no board."""
        return self

    def next_turn(self, ended: TurnState) -> TurnState:
        """The opponent's turn, waiting for their roll."""
        assert ended.end is not None
        opponent = 1 - ended.player
        notice = f"player {opponent} to roll"
        if ended.end.void_roll:
            notice = f"the roll was void: player {opponent} rolls again"
        return TurnState.start(
            ended.end.board,
            opponent,
            notice=notice,
            waive_void_roll=ended.waive_void_roll,
            rules=self,
        )


_BACKGAMMON_TURN = BackgammonTurnRules()


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
        judge: the judge of the roll, once known (built by ``rules``).
        rules: what the variant changes in the turn (backgammon's by default).
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
    judge: Judge | None = field(default=None, repr=False, compare=False)
    rules: TurnRules = _BACKGAMMON_TURN

    @classmethod
    def start(
        cls,
        board: Board,
        player: Player,
        *,
        dice: Sequence[int] | None = None,
        notice: str = "",
        waive_void_roll: bool = True,
        rules: TurnRules = _BACKGAMMON_TURN,
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
            rules=rules,
        )
        if dice is None:
            return state
        return state._with_dice(check_dice(dice), DiceSource.GIVEN)

    @property
    def behalf(self) -> str:
        """On whose behalf numbers are played (Jacquet's rule 10), or ``""`` for an own roll."""
        return self.rules.behalf

    @property
    def may_decline(self) -> bool:
        """Whether the mover may decline the numbers being played (Jacquet's rule 11)."""
        return self.phase is Phase.MOVING and self.rules.may_decline(self)

    @property
    def thrower(self) -> Player | None:
        """Who throws the dice the camera reads next: the mover before playing, else the
        opponent (whose throw accepts the play as made); None for one die each (primauté)."""
        if self.phase is Phase.PRIMAUTE:
            return None
        if self.phase in (Phase.ROLL, Phase.MANUAL_DICE) or self.rules.mover_throws_next:
            return self.player
        return 1 - self.player

    # Transitions.

    def on(self, event: TurnInput) -> TurnState:
        """The state after ``event``."""
        if isinstance(event, BoardSeen):
            return self._seen(event.cells)
        answered = self.rules.on(self, event)
        if answered is not None:
            return answered
        if self.phase is Phase.DONE:
            if event == ButtonPressed(Button.UNDO) and self._can_undo():
                return self._undo()
            return replace(self, notice="the turn is over")
        if isinstance(event, ButtonPressed):
            return self._press(event.button)
        if isinstance(event, DiceEntered):
            return self._manual(event.dice)
        if isinstance(event, DiceLifted):
            return self._commit("picked up the dice") if self.phase is Phase.MOVING else self
        return self._roll(event)

    def _seen(self, cells: Cells) -> TurnState:
        verdict = self.judge.verdict(cells) if self.judge is not None else None
        state = replace(self, cells=cells, verdict=verdict)
        if (
            self.phase is Phase.MOVING
            and verdict is not None
            and verdict.kind is Kind.COMPLETE
            and verdict.board is not None
            and self.rules.result(verdict.board) is not None
        ):
            return state._commit("the fifteenth checker is off: the game is over")
        return state

    def _roll(self, event: Roll) -> TurnState:
        if self.thrower != self.player:
            return self._accept_as_made(roll=event)
        if self.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            return replace(self, notice="the dice are already rolled")
        if isinstance(event, DiceCocked):
            notice = f"roll again: {event.reason}"
            return replace(self, phase=Phase.ROLL, roll_fault=event.reason, notice=notice)
        if isinstance(event, DiceUnreadable):
            return replace(self, phase=Phase.MANUAL_DICE, notice="cannot read the dice: enter them")
        return self._with_dice(_ordered(event.dice), DiceSource.CAMERA)

    def _with_dice(self, dice: tuple[int, int], source: DiceSource) -> TurnState:
        judge = self.rules.judge(self.before, self.player, dice)
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
        verdict, judge = self.verdict, self.judge
        if verdict is None or judge is None or verdict.kind is not Kind.ILLEGAL:
            return ()
        board = verdict.board
        if board is None or verdict.pending_hits or board == self.before:
            return ()
        return explaining_dice(self.before, self.player, board, judge.variant)

    def _press(self, button: Button) -> TurnState:
        if button is Button.UNDO and self.phase is Phase.FLAGGED:
            button = Button.DEMAND  # Demand has no button of its own: Undo while flagged
        if button is Button.DOUBLE and self.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            return self._accept_as_made(doubled=True)  # the opponent doubled (seed rule 2)
        if button is Button.UNDO:
            if self._can_undo():
                return self._undo()
            return replace(self, notice="nothing to undo")
        if button is Button.DONE:
            if self.phase is Phase.MOVING:
                return self._commit("pressed Done")
            return replace(self, notice="Done counts only while playing")
        if button is Button.DECLINE:  # a variant that allows it answers first (TurnRules.on)
            notice = "Decline counts only for numbers handed over that would break a point"
            return replace(self, notice=notice)
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
        return self.ended_as_it_stands(previous=self)

    def _commit(self, trigger: str) -> TurnState:
        """The mover finished: end the turn on a legal play, else flag it or ask for the dice."""
        verdict = self.final_verdict()
        if verdict.kind is Kind.COMPLETE:
            assert verdict.play is not None and verdict.board is not None
            following = self.rules.after(self, verdict.play, verdict.board)
            end = TurnEnd(verdict.board, verdict.play, following=following)
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
        notice = f"illegal play, {verdict.text}: Accept it or demand a legal play"
        return replace(self, phase=Phase.FLAGGED, flagged=verdict, previous=self, notice=notice)

    def final_verdict(self) -> Verdict:
        """The verdict if the turn ended now (:meth:`Judge.final_verdict`), once dice are known."""
        assert self.judge is not None
        cells = self.cells if self.cells is not None else cells_from_board(self.before)
        return self.judge.final_verdict(cells)

    def _accept_as_made(
        self, *, roll: Roll | None = None, doubled: bool = False
    ) -> TurnState:
        """The opponent rolled or doubled: the play is accepted as it stands (seed rule 2).

        A roll made before the mover finished (picked up the dice or pressed Done) is void
        (seed rule 3), unless the rule is waived for this play.
        """
        early = self.phase is Phase.MOVING
        if early and self.final_verdict().kind not in (Kind.COMPLETE, Kind.ILLEGAL):
            what = "rolled" if roll else "doubled"
            return replace(
                self, notice=f"player {1 - self.player} {what} before the play was finished"
            )
        return self.ended_as_it_stands(roll=roll, doubled=doubled, early=early, previous=None)

    def ended_as_it_stands(
        self,
        *,
        roll: Roll | None = None,
        doubled: bool = False,
        early: bool = False,
        previous: TurnState | None,
    ) -> TurnState:
        """End the turn on the board as it stands: a legal play, or an illegal one accepted.

        If the board is no longer whole (a checker in hand), the flagged board is accepted.
        ``roll`` is the roll that ended the turn, void if ``early`` (seed rule 3) unless
        waived; ``previous`` is what Undo returns to.
        """
        verdict = self.final_verdict()
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
            following=self.rules.after(self, verdict.play, board),
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
        return not self.rules.has_contact(board, self.player)

    def _can_undo(self) -> bool:
        return self.previous is not None

    def _undo(self) -> TurnState:
        assert self.previous is not None
        state = replace(self.previous, notice="undone")
        return state._seen(self.cells) if self.cells is not None else state

    def next_turn(self) -> TurnState:
        """The next turn after this one ended (with the roll that ended it, if valid).

        Who plays next is the variant's (:meth:`TurnRules.next_turn`): in backgammon the
        opponent, once they roll; until then Undo may reopen this turn.

        Raises:
            IllegalActionError: if the turn is not over, or the game is.
        """
        if self.end is None:
            raise IllegalActionError(f"turn of player {self.player} is not over: {self.phase}")
        state = self.end.following.next_turn(self)
        if self.cells is not None:
            state = state._seen(self.cells)
        roll = self.end.next_roll
        if roll is not None and state.phase is Phase.ROLL and state.player == self.thrower:
            state = state.on(roll)
        return state


def _ordered(dice: tuple[int, int]) -> tuple[int, int]:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])

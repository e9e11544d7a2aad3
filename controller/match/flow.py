"""The match's flow as a pure state machine: opening roll, cube, turns, game and match end.

Why pure: the service (:mod:`controller.service.service`) feeds every input (a settled
observation, a camera reading, a button, an action of the web view) to :meth:`Flow.on`,
which returns the next flow *and the record events it implies*; the service writes those
to the journal and only then adopts the new flow (journal before acting). Nothing here
reads a clock or a device, so a match resumes exactly from its journal
(:meth:`Flow.resume`): the match itself changes only by folding the events the flow
records, through the fold that resuming folds the journal with
(:func:`~controller.match.fold.fold`), so the live match and the resumed one are one state
machine.

The turn itself is the referee's :class:`~controller.referee.TurnState`, the live detail
a resumed flow rebuilds from the snapshot; the cube is the rules engine's
:class:`~controller.rules.CubeState`; the score the rules' :class:`MatchState`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.match import events as recorded
from controller.match.errors import InvalidEventError, RefusedError, RefusedEventError
from controller.match.fold import fold, new_match
from controller.match.resignation import offer_resignation, pending_refusal, resignation_answer
from controller.match.snapshot import MatchSnapshot
from controller.match.turn_record import dice_changed, ended_event, play_event, seen_events
from controller.match.variant_turns import VariantTurns
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    Cells,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    DiceUnreadable,
    Display,
    Input,
    Mode,
    Phase,
    PositionCorrected,
    TurnState,
    render,
)
from controller.rules import (
    Board,
    CubePhase,
    CubeState,
    MatchState,
    OpeningRoll,
    Player,
    Rules,
    RulesError,
    Variant,
    WinKind,
)
from controller.rules.variants import BACKGAMMON, Scoring
from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = ["Flow", "register_variant_turns"]

_VARIANT_TURNS: dict[Scoring, VariantTurns[Flow]] = {}


def register_variant_turns(scoring: Scoring, turns: VariantTurns[Flow]) -> None:
    """Let ``turns`` play the matches scored by ``scoring``."""
    _VARIANT_TURNS[scoring] = turns


_OPENING_SCENE = Scene(status=Lamp(Colour.AMBER, Pattern.SLOW))


@dataclass(frozen=True, slots=True)
class Flow:
    """Where a match stands and what it listens to; :meth:`on` returns the next flow.

    The match itself (score, cube, opening, board between turns, resignation, games'
    starts and ends) is :attr:`snapshot`, changed only by folding the events the flow
    records (:meth:`fold`); the rest is the turn's live detail, which resuming rebuilds.

    Attributes:
        snapshot: the match as its events so far fold it.
        mode: referee, learner or recorder (what the LEDs show).
        turn: the referee's turn of the game in progress.
        cells: the latest observation (logical locations).
        notice: the last thing to tell the players.
        partial: the last partial board journalled this turn (not journalled twice).
    """

    snapshot: MatchSnapshot
    mode: Mode = Mode.REFEREE
    turn: TurnState | None = None
    cells: Cells | None = None
    notice: str = "opening roll: one die each"
    partial: Board | None = None

    @classmethod
    def new(
        cls,
        names: tuple[str, str],
        rules: Rules,
        mode: Mode = Mode.REFEREE,
        variant: Variant = BACKGAMMON,
    ) -> Flow:
        """A new match of ``variant``."""
        flow = cls(new_match(names, rules, variant), mode)
        hooks = flow._variant_turns
        return flow if hooks is None else hooks.start(flow)

    @property
    def _variant_turns(self) -> VariantTurns[Flow] | None:
        """The hooks of a variant with turns of its own; None for backgammon's."""
        return _VARIANT_TURNS.get(self.snapshot.variant.scoring)

    @classmethod
    def resume(
        cls, snapshot: MatchSnapshot, mode: Mode = Mode.REFEREE
    ) -> tuple[Flow, list[recorded.Event]]:
        """The flow a journal's snapshot stands at, and the events still owed (a game's end).

        A turn being played resumes with its dice; the board then tells how far the play got.
        """
        flow = cls(snapshot, mode)
        if snapshot.pending is not None:
            return flow.end_game([])
        if flow._variant_turns is not None:
            return flow._variant_turns.resume(flow), []
        cube = snapshot.cube
        if cube is None:
            return flow, []
        dice = snapshot.dice if cube.phase is CubePhase.ROLLED else None
        turn = TurnState.start(snapshot.board, cube.turn, dice=dice)
        return replace(flow, turn=turn, notice=f"resumed: {snapshot.describe()}"), []

    def fold(self, events: list[recorded.Event], *new: recorded.Event) -> Flow:
        """This flow with the ``new`` events recorded: folded into :attr:`snapshot` and added
        to ``events`` (those to journal).

        Why vouched: the flow has just decided them from what the referee checked, so a
        play's board is not searched for among the legal plays again; the rest of the
        fold's checks hold.

        Raises:
            RefusedError: for an event the match cannot have now (nothing is recorded).
        """
        snapshot = self.snapshot
        for event in new:
            try:
                snapshot = fold(snapshot, event, vouched=True)
            except (RefusedEventError, RulesError) as error:
                raise RefusedError(f"the record refuses {event!r}: {error}") from None
        events.extend(new)
        return replace(self, snapshot=snapshot)

    @property
    def names(self) -> tuple[str, str]:
        """The players' names."""
        return self.snapshot.names

    @property
    def rules(self) -> Rules:
        """The match's rules."""
        return self.snapshot.rules

    @property
    def variant(self) -> Variant:
        """The game played; Jacquet de Versailles goes through :mod:`controller.match.jacquet`
        (no cube: :attr:`cube` stays None)."""
        return self.snapshot.variant

    @property
    def match(self) -> MatchState:
        """The score between games."""
        return self.snapshot.match

    @property
    def opening(self) -> OpeningRoll | None:
        """The opening roll so far (ties), in the opening phase."""
        return self.snapshot.opening

    @property
    def cube(self) -> CubeState | None:
        """The cube of the game in progress; None before its opening roll is decided."""
        return self.snapshot.cube

    @property
    def resignation(self) -> recorded.Resigned | None:
        """A resignation offered, awaiting the opponent's answer."""
        return self.snapshot.resignation

    # What is shown.

    @property
    def phase(self) -> str:
        """The status page's phase (``controller.status.BoardStatus.phase``)."""
        if self.match.is_over:
            return "match-over"
        if self.turn is None or self.turn.phase is Phase.PRIMAUTE:
            return "opening"
        if self.cube is None and self.variant.has_cube:
            return "opening"
        if self.cube is not None and self.cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            return "cube-offered"
        if self.resignation is not None:
            return "resign-offered"
        return {
            Phase.ROLL: "roll",
            Phase.MANUAL_DICE: "manual-dice",
            Phase.MOVING: "moving",
            Phase.CONFIRM_DICE: "confirm-dice",
            Phase.FLAGGED: "flagged",
            Phase.DONE: "roll",
        }[self.turn.phase]

    def display(self) -> Display:
        """What the LEDs and the status line show now."""
        if self.turn is None:
            return Display(_OPENING_SCENE, self.notice)
        shown = render(self.turn, self.mode)
        offered = self.cube is not None and self.cube.phase in (
            CubePhase.DOUBLED,
            CubePhase.BEAVERED,
        )
        if offered or self.resignation is not None:
            status = Lamp(Colour.AMBER, Pattern.FLASH)
            return Display(shown.scene.with_status(status), self.notice)
        text = self.notice if self.turn.phase is Phase.ROLL else shown.text
        return Display(shown.scene, text)

    @property
    def thrower(self) -> Player | None:
        """Who throws the next dice the camera sees (:attr:`TurnState.thrower`); None when
        each player throws one die (the opening roll, Jacquet's primauté). The camera needs
        it: each player throws into the right-hand half of the board as he sees it."""
        return None if self.turn is None else self.turn.thrower

    # Transitions.

    def on(self, event: Input) -> tuple[Flow, list[recorded.Event]]:
        """The next flow after ``event`` and the record events to journal before adopting it.

        Raises:
            RefusedError: for an input that cannot count now (the flow is unchanged).
        """
        try:
            return self._on(event)
        except (RulesError, InvalidEventError) as error:
            raise RefusedError(str(error)) from None

    def _on(self, event: Input) -> tuple[Flow, list[recorded.Event]]:
        if self._variant_turns is not None:
            return self._variant_turns.on(self, event)
        if isinstance(event, BoardSeen):
            flow = replace(self, cells=event.cells)
            if self.turn is None or self.resignation is not None:
                return flow, []  # a resignation pending: the turn waits for its answer
            return flow._turn(self.turn.on(event))
        if self.resignation is not None:
            raise pending_refusal(self.resignation)
        if self.match.is_over:
            raise RefusedError("the match is over")
        if self.cube is None or self.turn is None:
            return self._opening(event)
        cube = self.cube
        if cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            return self._answer(event, cube)
        turn = self.turn
        if isinstance(event, ButtonPressed):
            return self._key(event.button, turn, cube)
        if isinstance(event, PositionCorrected):
            return self.correct(event.board, turn)
        return self._turn(turn.on(event))

    def _opening(self, event: Input) -> tuple[Flow, list[recorded.Event]]:
        if isinstance(event, DiceCocked):
            return replace(self, notice=f"opening roll again: {event.reason}"), []
        if isinstance(event, DiceUnreadable):
            return replace(self, notice="cannot read the opening dice: enter them"), []
        if isinstance(event, DiceLifted):
            return self, []  # the dice of a tie picked up
        if isinstance(event, DiceRolled | DiceEntered):
            dice = event.dice
        else:
            raise RefusedError("waiting for the opening roll: one die each")
        events: list[recorded.Event] = []
        flow = self.fold(events, recorded.OpeningRolled(dice))
        cube = flow.cube
        if cube is None:
            return replace(flow, notice=f"opening roll {dice}: tie, roll again"), events
        snapshot = flow.snapshot
        turn = TurnState.start(snapshot.board, cube.turn, dice=snapshot.dice)
        if self.cells is not None:
            turn = turn.on(BoardSeen(self.cells))
        return replace(flow, turn=turn, partial=None, notice=turn.notice), events

    def correct(self, board: Board, turn: TurnState) -> tuple[Flow, list[recorded.Event]]:
        """The referee sets the position (a knocked board): ``turn`` starts again from it.

        Raises:
            RefusedError: once the dice are known (during a play).
        """
        if turn.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            raise RefusedError("the position is corrected before the roll, not during a play")
        events: list[recorded.Event] = []
        flow = self.fold(events, recorded.PositionEdited(board, "corrected by the referee"))
        after = flow.snapshot.board
        following = TurnState.start(
            after, turn.player, notice="position corrected", rules=turn.rules.with_board(after)
        )
        if self.cells is not None:
            following = following.on(BoardSeen(self.cells))
        return replace(flow, turn=following, partial=None, notice=following.notice), events

    def abandon(self, reason: str) -> tuple[Flow, list[recorded.Event]]:
        """The game in progress abandoned (a knocked board): the score stays, a new opening.

        Raises:
            RefusedError: when no game is in progress (or the match is over).
        """
        if self.match.is_over:
            raise RefusedError("the match is over")
        if self.turn is None and self.opening is None:
            raise RefusedError("no game in progress: waiting for the opening roll")
        events: list[recorded.Event] = []
        flow = self.fold(events, recorded.GameAbandoned(reason))
        text = f"game {self.match.game_number} abandoned: opening roll, one die each"
        return replace(flow, turn=None, partial=None, notice=text), events

    def resign(self, player: Player, kind: WinKind) -> tuple[Flow, list[recorded.Event]]:
        """``player`` offers to resign a single game, a gammon or a backgammon.

        The opponent then accepts (:meth:`answer_resignation`: the game ends with ``kind``
        times the cube) or refuses (play goes on); nothing else counts meanwhile.

        Raises:
            RefusedError: in a variant without resignation (its hooks say why), with no
                game in progress, a double to answer, or a resignation already pending.
        """
        if self._variant_turns is not None:
            return self._variant_turns.resign(self, player, kind)
        cube = self.cube if self.turn is not None else None
        event, notice = offer_resignation(self.match, cube, self.resignation, player, kind)
        events: list[recorded.Event] = []
        return replace(self.fold(events, event), notice=notice), events

    def answer_resignation(self, accept: bool) -> tuple[Flow, list[recorded.Event]]:
        """The opponent accepts the pending resignation (the game ends) or refuses it.

        Raises:
            RefusedError: when no resignation is pending.
        """
        offered = self.resignation
        if offered is None or self.cube is None:
            raise RefusedError("no resignation to answer")
        answer, notice = resignation_answer(offered, accept)
        events: list[recorded.Event] = []
        flow = self.fold(events, answer)
        if accept:
            return flow.end_game(events)
        return replace(flow, notice=notice), events

    def with_mode(self, mode: Mode) -> Flow:
        """The same flow shown in another mode (the Mode button)."""
        return replace(self, mode=mode, notice=f"{mode.value} mode")

    def _answer(self, event: Input, cube: CubeState) -> tuple[Flow, list[recorded.Event]]:
        """A double (or beaver) is pending: only Take, Drop and (a beaver) Double count."""
        player = cube.to_act
        key = event.button if isinstance(event, ButtonPressed) else None
        events: list[recorded.Event] = []
        if key is Button.TAKE:
            flow = self.fold(events, recorded.Taken(player))
            assert flow.cube is not None
            return replace(flow, notice=f"player {player} took: cube at {flow.cube.value}"), events
        if key is Button.DROP:
            return self.fold(events, recorded.Dropped(player)).end_game(events)
        if key is Button.DOUBLE:
            problem = cube.beaver_problem(player)
            if problem is not None:
                raise RefusedError(problem)
            value = cube.value * 4
            flow = self.fold(events, recorded.Beavered(player, value))
            return replace(flow, notice=f"beaver to {value}"), events
        raise RefusedError(f"player {player} must take or drop the cube first")

    def _key(
        self, key: Button, turn: TurnState, cube: CubeState
    ) -> tuple[Flow, list[recorded.Event]]:
        if key is Button.DOUBLE and turn.phase in (Phase.ROLL, Phase.MANUAL_DICE):
            problem = cube.double_problem(turn.player)
            if problem is not None:
                raise RefusedError(problem)
            value = cube.value * 2
            events: list[recorded.Event] = []
            flow = self.fold(events, recorded.Doubled(turn.player, value))
            return replace(flow, notice=f"player {turn.player} doubles to {value}"), events
        if key in (Button.TAKE, Button.DROP):
            raise RefusedError("no double to answer")
        # The turn's buttons; Double while the mover plays is the opponent's: it ends the play.
        return self._turn(turn.on(ButtonPressed(key)))

    def _turn(self, turn: TurnState) -> tuple[Flow, list[recorded.Event]]:
        """Adopt the turn's new state: record what it implies, end it when it is over."""
        assert self.turn is not None and self.cube is not None
        old = self.turn
        events: list[recorded.Event] = []
        flow = self
        if self.cube.phase is CubePhase.ROLLED and dice_changed(old.dice, turn.dice):
            # Other dice than those on record (a misread confirmed by hand): correct them.
            assert turn.dice is not None
            flow = flow.fold(events, recorded.DiceCorrected(turn.player, turn.dice))
        elif old.dice is None and turn.dice is not None and turn.phase is not Phase.DONE:
            flow = flow.fold(events, recorded.Rolled(turn.player, turn.dice))
        partial, seen = seen_events(old, turn, self.partial)
        flow = replace(flow.fold(events, *seen), turn=turn, partial=partial, notice=turn.notice)
        if turn.phase is not Phase.DONE:
            return flow, events
        return flow._end_turn(turn, events)

    def _end_turn(
        self, turn: TurnState, events: list[recorded.Event]
    ) -> tuple[Flow, list[recorded.Event]]:
        end = turn.end
        assert end is not None and turn.dice is not None
        flow = self.fold(events, play_event(turn, end.board))
        if flow.snapshot.pending is not None:
            return flow.end_game(events)
        cube = flow.cube
        assert cube is not None
        opponent = 1 - turn.player
        following = turn.next_turn()  # with the board seen, and the roll that ended the turn
        flow = replace(flow, turn=following, partial=None, notice=following.notice)
        if end.doubled:
            problem = cube.double_problem(opponent)
            if problem is not None:
                return replace(flow, notice=problem), events
            value = cube.value * 2
            flow = flow.fold(events, recorded.Doubled(opponent, value))
            return replace(flow, notice=f"doubles to {value}"), events
        if following.dice is not None:
            flow = flow.fold(events, recorded.Rolled(opponent, following.dice))
        return flow, events

    def end_game(self, events: list[recorded.Event]) -> tuple[Flow, list[recorded.Event]]:
        """Record the end of the game that the events folded so far ended (its result
        pending: a play bearing off the last checker, a drop, a resignation accepted)."""
        result = self.snapshot.pending
        assert result is not None
        flow = self.fold(events, ended_event(result))
        match = flow.match
        text = (
            f"player {result.winner} wins {result.points}; score {match.score[0]}-{match.score[1]}"
        )
        if match.is_over:
            text += ": match over"
        return replace(flow, turn=None, partial=None, notice=text), events

"""The match's flow as a pure state machine: opening roll, cube, turns, game and match end.

Why pure: the service (:mod:`controller.service.service`) feeds every input (a settled
observation, a camera reading, a button, an action of the web view) to :meth:`Flow.on`,
which returns the next flow *and the record events it implies*; the service writes those
to the journal and only then adopts the new flow (journal before acting). Nothing here
reads a clock or a device, so a match resumes exactly from its journal
(:meth:`Flow.resume`).

The turn itself is the referee's :class:`~controller.referee.TurnState`; the cube is the
rules engine's :class:`~controller.rules.CubeState`; the score the rules' :class:`MatchState`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from controller.match import events as recorded
from controller.match.errors import InvalidEventError, RefusedError
from controller.match.inputs import (
    CameraLifted,
    CameraRoll,
    CameraRollFault,
    CameraUnreadable,
    DiceEntered,
    Input,
    KeyPressed,
    Observed,
    PositionSet,
)
from controller.match.resignation import offer_resignation, pending_refusal, resignation_answer
from controller.match.snapshot import MatchSnapshot
from controller.match.turn_record import (
    dice_changed,
    ended_event,
    high_first,
    play_event,
    seen_events,
    turn_thrower,
)
from controller.referee import (
    Button,
    Cells,
    DiceLifted,
    Display,
    ManualDice,
    Mode,
    Phase,
    Press,
    Rolled,
    RollFault,
    RollUnreadable,
    Seen,
    TurnState,
    render,
)
from controller.referee import Doubled as TurnDoubled
from controller.rules import (
    Board,
    CubePhase,
    CubeState,
    GameResult,
    MatchState,
    OpeningRoll,
    Player,
    Rules,
    RulesError,
    Variant,
    WinKind,
    check_board,
    legal_plays,
    outcome,
)
from controller.rules.variants import BACKGAMMON, Scoring
from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = ["Flow", "VariantTurns", "register_variant_turns"]


class VariantTurns(Protocol):
    """The turns of a variant with states of its own (Jacquet's primauté, numbers handed
    over, Decline).

    Why hooks: :class:`Flow` hands such a match's inputs to its variant, as python-chess's
    variant boards override a few methods, and never imports the variant's module; each
    variant module registers its hooks (:func:`register_variant_turns`).
    """

    def start(self, flow: Flow) -> Flow:
        """The flow of a new match (what its players are told first)."""
        ...

    def resume(self, flow: Flow, snapshot: MatchSnapshot) -> Flow:
        """The flow where the journal's ``snapshot`` stands (no game over owed)."""
        ...

    def on(self, flow: Flow, event: Input) -> tuple[Flow, list[recorded.Event]]:
        """The next flow after ``event`` and the record events to journal first."""
        ...

    def thrower(self, flow: Flow) -> Player | None:
        """Who throws the next dice the camera sees (:attr:`Flow.thrower`)."""
        ...

    def resign(
        self, flow: Flow, player: Player, kind: WinKind
    ) -> tuple[Flow, list[recorded.Event]]:
        """``player`` offers to resign (:meth:`Flow.resign`).

        Raises:
            RefusedError: when the variant's games cannot be resigned, or not now.
        """
        ...


_VARIANT_TURNS: dict[Scoring, VariantTurns] = {}


def register_variant_turns(scoring: Scoring, turns: VariantTurns) -> None:
    """Let ``turns`` play the matches scored by ``scoring``."""
    _VARIANT_TURNS[scoring] = turns


_OPENING_SCENE = Scene(status=Lamp(Colour.AMBER, Pattern.SLOW))


@dataclass(frozen=True, slots=True)
class Flow:
    """Where a match stands and what it listens to; :meth:`on` returns the next flow.

    Attributes:
        names: the players' names.
        rules: the match's rules.
        match: the score between games.
        mode: referee, learner or recorder (what the LEDs show).
        opening: the opening roll so far (ties), in the opening phase.
        cube: the cube of the game in progress; None before its opening roll is decided.
        turn: the referee's turn of the game in progress.
        cells: the latest observation (logical locations).
        notice: the last thing to tell the players.
        partial: the last partial board journalled this turn (not journalled twice).
        variant: the game played; Jacquet de Versailles goes through
            :mod:`controller.match.jacquet` (no cube: ``cube`` stays None).
        resignation: a resignation offered, awaiting the opponent's answer.
    """

    names: tuple[str, str]
    rules: Rules
    match: MatchState
    mode: Mode = Mode.REFEREE
    opening: OpeningRoll | None = None
    cube: CubeState | None = None
    turn: TurnState | None = None
    cells: Cells | None = None
    notice: str = "opening roll: one die each"
    partial: Board | None = None
    variant: Variant = BACKGAMMON
    resignation: recorded.Resigned | None = None

    @classmethod
    def new(
        cls,
        names: tuple[str, str],
        rules: Rules,
        mode: Mode = Mode.REFEREE,
        variant: Variant = BACKGAMMON,
    ) -> Flow:
        """A new match of ``variant``."""
        flow = cls(names, rules, MatchState(rules), mode, variant=variant)
        hooks = flow._variant_turns
        return flow if hooks is None else hooks.start(flow)

    @property
    def _variant_turns(self) -> VariantTurns | None:
        """The hooks of a variant with turns of its own; None for backgammon's."""
        return _VARIANT_TURNS.get(self.variant.scoring)

    @classmethod
    def resume(
        cls, snapshot: MatchSnapshot, mode: Mode = Mode.REFEREE
    ) -> tuple[Flow, list[recorded.Event]]:
        """The flow a journal's snapshot stands at, and the events still owed (a game's end).

        A turn being played resumes with its dice; the board then tells how far the play got.
        """
        flow = cls(
            snapshot.names,
            snapshot.rules,
            snapshot.match,
            mode,
            opening=snapshot.opening,
            variant=snapshot.variant,
        )
        cube = snapshot.cube
        owed: list[recorded.Event] = []
        if snapshot.pending is not None:
            result = snapshot.pending
            owed.append(ended_event(result))
            return flow._game_over(result, owed)
        if flow._variant_turns is not None:
            return flow._variant_turns.resume(flow, snapshot), owed
        if cube is None:
            return flow, owed
        dice = snapshot.dice if cube.phase is CubePhase.ROLLED else None
        turn = TurnState.start(snapshot.board, cube.turn, dice=dice)
        flow = replace(flow, resignation=snapshot.resignation)
        return replace(flow, cube=cube, turn=turn, notice=f"resumed: {snapshot.describe()}"), owed

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
        """Who throws the next dice the camera sees; None when each player throws one die
        (the opening roll, Jacquet's primauté). The camera needs it: each player throws
        into the right-hand half of the board as he sees it."""
        if self._variant_turns is not None:
            return self._variant_turns.thrower(self)
        if self.cube is None or self.turn is None:
            return None
        return turn_thrower(self.turn)

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
        if isinstance(event, Observed):
            flow = replace(self, cells=event.cells)
            if self.turn is None or self.resignation is not None:
                return flow, []  # a resignation pending: the turn waits for its answer
            return flow._turn(self.turn.on(Seen(event.cells)))
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
        if isinstance(event, KeyPressed):
            return self._key(event.key, turn, cube)
        if isinstance(event, PositionSet):
            return self._correct(event.board, turn)
        if isinstance(event, DiceEntered):
            return self._turn(turn.on(ManualDice(event.dice)))
        if isinstance(event, CameraLifted):
            return self._turn(turn.on(DiceLifted(turn.player)))
        roller = turn_thrower(turn)
        if isinstance(event, CameraRoll):
            return self._turn(turn.on(Rolled(roller, high_first(event.dice))))
        if isinstance(event, CameraRollFault):
            return self._turn(turn.on(RollFault(roller, event.reason)))
        return self._turn(turn.on(RollUnreadable(roller)))

    def _opening(self, event: Input) -> tuple[Flow, list[recorded.Event]]:
        if isinstance(event, CameraRollFault):
            return replace(self, notice=f"opening roll again: {event.reason}"), []
        if isinstance(event, CameraUnreadable):
            return replace(self, notice="cannot read the opening dice: enter them"), []
        if isinstance(event, CameraLifted):
            return self, []  # the dice of a tie picked up
        if isinstance(event, CameraRoll | DiceEntered):
            dice = event.dice
        else:
            raise RefusedError("waiting for the opening roll: one die each")
        opening = (self.opening or OpeningRoll(rules=self.rules)).roll(*dice)
        events: list[recorded.Event] = [recorded.OpeningRolled(dice)]
        if not opening.is_decided:
            return replace(
                self, opening=opening, notice=f"opening roll {dice}: tie, roll again"
            ), events
        cube = self.match.start_game(opening)
        assert opening.play_dice is not None
        turn = TurnState.start(self.variant.start, cube.turn, dice=opening.play_dice)
        if self.cells is not None:
            turn = turn.on(Seen(self.cells))
        flow = replace(self, opening=None, cube=cube, turn=turn, partial=None)
        return replace(flow, notice=turn.notice), events

    def _correct(self, board: Board, turn: TurnState) -> tuple[Flow, list[recorded.Event]]:
        if turn.phase not in (Phase.ROLL, Phase.MANUAL_DICE):
            raise RefusedError("the position is corrected before the roll, not during a play")
        edited = recorded.PositionEdited(check_board(board), "corrected by the referee")
        following = TurnState.start(edited.board, turn.player, notice="position corrected")
        if self.cells is not None:
            following = following.on(Seen(self.cells))
        return replace(self, turn=following, partial=None, notice=following.notice), [edited]

    def abandon(self, reason: str) -> tuple[Flow, list[recorded.Event]]:
        """The game in progress abandoned (a knocked board): the score stays, a new opening.

        Raises:
            RefusedError: when no game is in progress (or the match is over).
        """
        if self.match.is_over:
            raise RefusedError("the match is over")
        if self.turn is None and self.opening is None:
            raise RefusedError("no game in progress: waiting for the opening roll")
        event = recorded.GameAbandoned(reason)
        text = f"game {self.match.game_number} abandoned: opening roll, one die each"
        flow = replace(self, opening=None, cube=None, turn=None, partial=None, notice=text)
        return replace(flow, resignation=None), [event]

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
        return replace(self, resignation=event, notice=notice), [event]

    def answer_resignation(self, accept: bool) -> tuple[Flow, list[recorded.Event]]:
        """The opponent accepts the pending resignation (the game ends) or refuses it.

        Raises:
            RefusedError: when no resignation is pending.
        """
        offered = self.resignation
        if offered is None or self.cube is None:
            raise RefusedError("no resignation to answer")
        result, events, notice = resignation_answer(offered, self.cube, accept)
        flow = replace(self, resignation=None)
        if result is None:
            return replace(flow, notice=notice), events
        return flow._game_over(result, events)

    def with_mode(self, mode: Mode) -> Flow:
        """The same flow shown in another mode (the Mode button)."""
        return replace(self, mode=mode, notice=f"{mode.value} mode")

    def _answer(self, event: Input, cube: CubeState) -> tuple[Flow, list[recorded.Event]]:
        """A double (or beaver) is pending: only Take, Drop and (a beaver) Double count."""
        player = cube.to_act
        key = event.key if isinstance(event, KeyPressed) else None
        if key is Button.TAKE:
            cube = cube.take(player)
            return replace(self, cube=cube, notice=f"player {player} took: cube at {cube.value}"), [
                recorded.Taken(player)
            ]
        if key is Button.DROP:
            result = cube.drop(player)
            return self._game_over(result, [recorded.Dropped(player), ended_event(result)])
        if key is Button.DOUBLE:
            problem = cube.beaver_problem(player)
            if problem is not None:
                raise RefusedError(problem)
            value = cube.value * 4
            return replace(self, cube=cube.beaver(player), notice=f"beaver to {value}"), [
                recorded.Beavered(player, value)
            ]
        raise RefusedError(f"player {player} must take or drop the cube first")

    def _key(
        self, key: Button, turn: TurnState, cube: CubeState
    ) -> tuple[Flow, list[recorded.Event]]:
        if key is Button.DOUBLE:
            if turn.phase in (Phase.ROLL, Phase.MANUAL_DICE):
                problem = cube.double_problem(turn.player)
                if problem is not None:
                    raise RefusedError(problem)
                value = cube.value * 2
                flow = replace(self, cube=cube.double(turn.player))
                return replace(flow, notice=f"player {turn.player} doubles to {value}"), [
                    recorded.Doubled(turn.player, value)
                ]
            return self._turn(turn.on(TurnDoubled(1 - turn.player)))
        if key in (Button.TAKE, Button.DROP):
            raise RefusedError("no double to answer")
        if key is Button.UNDO and turn.phase is Phase.FLAGGED:
            key = Button.DEMAND
        return self._turn(turn.on(Press(key)))

    def _turn(self, turn: TurnState) -> tuple[Flow, list[recorded.Event]]:
        """Adopt the turn's new state: record what it implies, end it when it is over."""
        assert self.turn is not None and self.cube is not None
        old, cube = self.turn, self.cube
        events: list[recorded.Event] = []
        if cube.phase is CubePhase.ROLLED and dice_changed(old.dice, turn.dice):
            # Other dice than those on record (a misread confirmed by hand): correct them.
            assert turn.dice is not None
            events.append(recorded.DiceCorrected(turn.player, turn.dice))
        elif old.dice is None and turn.dice is not None and turn.phase is not Phase.DONE:
            events.append(recorded.Rolled(turn.player, turn.dice))
            cube = cube.roll(turn.player)
        partial = seen_events(old, turn, self.partial, events)
        flow = replace(self, cube=cube, turn=turn, partial=partial, notice=turn.notice)
        if turn.phase is not Phase.DONE:
            return flow, events
        return flow._end_turn(turn, cube, events)

    def _end_turn(
        self, turn: TurnState, cube: CubeState, events: list[recorded.Event]
    ) -> tuple[Flow, list[recorded.Event]]:
        end = turn.end
        assert end is not None and turn.dice is not None
        after = end.board
        events.append(play_event(turn, after, legal_plays(turn.before, turn.player, turn.dice)))
        ended = outcome(after)
        if ended is not None:
            result = cube.result(ended)
            events.append(ended_event(result))
            return replace(self, cube=cube)._game_over(result, events)
        cube = cube.end_turn(turn.player)
        opponent = 1 - turn.player
        notice = f"player {opponent} to roll"
        if end.void_roll:
            notice = f"the roll was void: player {opponent} rolls again"
        following = TurnState.start(
            after, opponent, notice=notice, waive_void_roll=turn.waive_void_roll
        )
        if turn.cells is not None:
            following = following.on(Seen(turn.cells))
        if end.next_roll is not None:
            following = following.on(end.next_roll)
        flow = replace(self, cube=cube, turn=following, partial=None, notice=following.notice)
        if end.doubled:
            problem = cube.double_problem(opponent)
            if problem is not None:
                return replace(flow, notice=problem), events
            value = cube.value * 2
            events.append(recorded.Doubled(opponent, value))
            return replace(flow, cube=cube.double(opponent), notice=f"doubles to {value}"), events
        if following.dice is not None:
            events.append(recorded.Rolled(opponent, following.dice))
            flow = replace(flow, cube=cube.roll(opponent))
        return flow, events

    def _game_over(
        self, result: GameResult, events: list[recorded.Event]
    ) -> tuple[Flow, list[recorded.Event]]:
        match = self.match.after_game(result.points, result.winner)
        text = (
            f"player {result.winner} wins {result.points}; score {match.score[0]}-{match.score[1]}"
        )
        if match.is_over:
            text += ": match over"
        flow = replace(
            self, match=match, opening=None, cube=None, turn=None, partial=None, notice=text
        )
        return flow, events

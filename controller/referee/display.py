"""What to show: one lamp per location, a status lamp and a line of text, per mode.

Why here: the modes differ only in what they show (DESIGN.md, "Modes"), so the choice is
made once, purely. The lamps are a :class:`hardware.board.scene.Scene`, the one LED model that
both back-ends (the Pi's shift registers, the sensor board's chain) and the web view show:

* ``referee`` flags illegal plays, sensor faults and irregular rolls;
* ``learner`` also lights the legal destinations of a lifted checker (amber: where it
  came from; green: where it may go) and flashes green the checkers of a complete play;
* ``recorder`` is silent, as tournament rules forbid aids: only faults (the sensors, the
  dice) are shown, never a verdict on a play.

Jacquet de Versailles adds what a board alone does not say (``shared/JACQUET.md``): the
text names on whose behalf numbers are played (``player 1 plays the 5 handed over by
player 0: 5 to play``); when the mover may decline them (rule 11) the status light
blinks amber slowly and the text offers Decline, since the referee never guesses that
choice; the primauté asks for one die each; a game over names the winner and the points.
The courier still travelling alone (rule 5) is named in the text while the board waits,
and in learner mode its point blinks amber slowly.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.controls import Mode
from controller.referee.turn import Phase, TurnState
from controller.referee.verdict import Kind
from hardware.board.geometry import LOCATIONS, Location, cells_from_board, location_name
from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = ["Display", "render"]


DARK = Lamp()


@dataclass(frozen=True, slots=True)
class Display:
    """Everything to show at one moment.

    Attributes:
        scene: the 28 location lamps (indexed as the observation's cells) and the status lamp.
        text: one line for the status display and the web view.
    """

    scene: Scene
    text: str

    @property
    def lights(self) -> tuple[Lamp, ...]:
        """The 28 location lamps."""
        return self.scene.lamps

    @property
    def status(self) -> Lamp:
        """The status lamp."""
        return self.scene.status

    def lit(self, colour: Colour) -> frozenset[Location]:
        """The locations lit in ``colour``."""
        return frozenset(index for index, light in enumerate(self.lights) if light.colour is colour)


def render(state: TurnState, mode: Mode) -> Display:
    """What ``state`` shows in ``mode``."""
    lights = [DARK] * LOCATIONS

    def light(locations: frozenset[Location], colour: Colour, blink: Pattern) -> None:
        for location in locations:
            lights[location] = Lamp(colour, blink)

    verdict = state.verdict
    fault = Lamp(Colour.RED, Pattern.FAST)
    silent = mode is Mode.RECORDER
    if verdict is not None and verdict.kind is Kind.INCONSISTENT:
        light(verdict.locations, Colour.AMBER, Pattern.FAST)
        return _display(lights, Lamp(Colour.AMBER, Pattern.FAST), verdict.text)
    if state.roll_fault:
        return _display(lights, fault, state.notice)
    if state.phase in (Phase.MANUAL_DICE, Phase.CONFIRM_DICE):
        return _display(lights, Lamp(Colour.AMBER, Pattern.SLOW), state.notice)
    if silent:
        return _display(lights, DARK, "recording")
    if state.phase is Phase.FLAGGED and state.flagged is not None:
        light(state.flagged.locations, Colour.RED, Pattern.FAST)
        return _display(lights, fault, state.notice)
    if state.phase is Phase.DONE and state.end is not None and state.end.result is not None:
        result = state.end.result
        points = "2 points, a double win" if result.is_double else "1 point"
        return _display(lights, Lamp(Colour.GREEN), f"player {result.winner} wins: {points}")
    if state.phase is Phase.DONE or verdict is None:
        return _display(lights, DARK, state.notice)
    status = DARK
    courier = state.rules.courier if verdict.kind is Kind.WAITING else None
    if verdict.kind is Kind.ILLEGAL:
        light(verdict.locations, Colour.RED, Pattern.FAST)
        status = fault
    elif verdict.kind is Kind.COMPLETE:
        status = Lamp(Colour.GREEN)
        if mode is Mode.LEARNER and verdict.play is not None:
            before, after = cells_from_board(state.before), cells_from_board(verdict.play.result)
            gained = frozenset(
                location
                for location, (old, new) in enumerate(zip(before, after, strict=True))
                if old is not None and new is not None and new[state.player] > old[state.player]
            )
            light(gained, Colour.GREEN, Pattern.FAST)
    elif mode is Mode.LEARNER:
        if courier is not None:
            light(frozenset({courier}), Colour.AMBER, Pattern.SLOW)
        light(verdict.pending_hits, Colour.AMBER, Pattern.SLOW)
        for checker in verdict.lifted:
            light(checker.destinations, Colour.GREEN, Pattern.STEADY)
            light(frozenset({checker.source}), Colour.AMBER, Pattern.STEADY)
    text = verdict.text
    if courier is not None:
        text += f"; the courier on {location_name(courier)} travels alone (rule 5)"
    if state.behalf:
        text = f"{state.behalf}: {text}"
    if state.may_decline:
        text += "; or Decline: the hand goes back (rule 11)"
        if status == DARK:
            status = Lamp(Colour.AMBER, Pattern.SLOW)
    return _display(lights, status, text)


def _display(lights: list[Lamp], status: Lamp, text: str) -> Display:
    return Display(Scene(tuple(lights), status), text)

"""What each mode shows: the lights, the status light and the text."""

from __future__ import annotations

import pytest

from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceCocked,
    DiceRolled,
    DiceUnreadable,
    Mode,
    TurnState,
    cells_from_board,
    render,
)
from controller.rules import START
from hardware.board.errors import SceneError
from hardware.board.scene import Colour, Lamp, Pattern, Scene
from tests.referee._support import PARTIAL_13_8, PLAY_24_13, lift


def moving() -> TurnState:
    return TurnState.start(START, 0).on(DiceRolled((6, 5)))


def test_learner_lights_the_destinations_of_a_lifted_checker() -> None:
    state = moving().on(BoardSeen(lift(cells_from_board(START), 23, 0)))
    display = render(state, Mode.LEARNER)
    assert display.lit(Colour.GREEN) == {17, 12}
    assert display.lit(Colour.AMBER) == {23}
    assert display.lights[17] == Lamp(Colour.GREEN, Pattern.STEADY)
    assert display.text == "checker in hand"


def test_referee_and_recorder_do_not_show_destinations() -> None:
    state = moving().on(BoardSeen(lift(cells_from_board(START), 23, 0)))
    assert render(state, Mode.REFEREE).lit(Colour.GREEN) == set()
    recorder = render(state, Mode.RECORDER)
    assert all(light == Lamp() for light in recorder.lights)
    assert recorder.text == "recording"


def test_learner_flashes_a_complete_play_green() -> None:
    state = moving().on(BoardSeen(cells_from_board(PLAY_24_13)))
    display = render(state, Mode.LEARNER)
    assert display.lit(Colour.GREEN) == {12}
    assert display.lights[12].pattern is Pattern.FAST
    assert display.status == Lamp(Colour.GREEN)
    assert render(state, Mode.REFEREE).lit(Colour.GREEN) == set()


def test_an_illegal_board_blinks_the_differing_locations_red() -> None:
    observed = list(cells_from_board(START))
    observed[23] = (1, 0)
    observed[18] = (1, 5)
    state = moving().on(BoardSeen(tuple(observed)))
    for mode in (Mode.REFEREE, Mode.LEARNER):
        display = render(state, mode)
        assert 18 in display.lit(Colour.RED)
        assert display.status == Lamp(Colour.RED, Pattern.FAST)
        assert display.text == "blocked point: the opponent holds your 19 point"
    assert render(state, Mode.RECORDER).lit(Colour.RED) == set()


def test_a_flagged_play_tells_the_opponent_what_to_do() -> None:
    state = moving().on(BoardSeen(cells_from_board(PARTIAL_13_8)))
    state = state.on(ButtonPressed(Button.DONE))
    display = render(state, Mode.REFEREE)
    assert display.lit(Colour.RED)
    assert display.text.endswith("Accept it or demand a legal play")


def test_before_the_roll_the_board_is_dark_and_says_who_rolls() -> None:
    display = render(TurnState.start(START, 1), Mode.LEARNER)
    assert all(light == Lamp() for light in display.lights)
    assert display.text == "player 1 to roll"


@pytest.mark.parametrize("mode", list(Mode))
def test_faults_show_in_every_mode(mode: Mode) -> None:
    unknown = (None, *cells_from_board(START)[1:])
    display = render(moving().on(BoardSeen(unknown)), mode)
    assert display.lit(Colour.AMBER) == {0}
    assert display.text == "check the board: cannot read point 1"
    cocked = render(TurnState.start(START, 0).on(DiceCocked("a die is cocked")), mode)
    assert cocked.status == Lamp(Colour.RED, Pattern.FAST)
    assert cocked.text == "roll again: a die is cocked"
    manual = render(TurnState.start(START, 0).on(DiceUnreadable()), mode)
    assert manual.status == Lamp(Colour.AMBER, Pattern.SLOW)


def test_a_display_is_a_scene_of_one_lamp_per_location() -> None:
    display = render(moving(), Mode.LEARNER)
    assert isinstance(display.scene, Scene)
    assert display.lights == display.scene.lamps and display.status == display.scene.status
    with pytest.raises(SceneError, match="scene of 27 lamps: expected 28"):
        Scene((Lamp(),) * 27, Lamp())

"""The status, events and actions the web view and MQTT exchange with a board's service."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from controller.referee import Button, ButtonPressed, DiceEntered, PositionCorrected
from controller.rules.board import START
from controller.status import (
    STATUS_VERSION,
    ActionError,
    BoardEvent,
    BoardStatus,
    ConfirmOrientation,
    LightState,
    NewGame,
    NewMatch,
    action_from_json,
)


def test_status_round_trips_through_json_with_a_version() -> None:
    status = BoardStatus(
        board_id="hall-3",
        seq=42,
        position=START,
        cells=((0, 2), None) + ((0, 0),) * 26,
        dice=(5, 3),
        dice_confidence=(0.99, 0.97),
        lights=(LightState("green", "slow"),) * 29,
        moves=("X 52: 13/11 13/8",),
        links={"board": "live", "camera": "searching"},
    )
    data = json.loads(json.dumps(status.to_json()))
    assert data["version"] == STATUS_VERSION
    assert BoardStatus.from_json(data) == status
    # Every field, each as its dataclass says (to_json writes them one by one).
    assert data == {"version": STATUS_VERSION, **json.loads(json.dumps(asdict(status)))}


def test_a_status_of_another_version_is_refused() -> None:
    with pytest.raises(ActionError, match="status version 2: expected 1"):
        BoardStatus.from_json({"version": 2, "board_id": "b", "seq": 0})


def test_events_carry_board_id_and_sequence() -> None:
    event = BoardEvent("hall-3", 7, "played", {"notation": "13/11 13/8"}, 1.5)
    assert event.to_json() == {
        "version": 1, "board_id": "hall-3", "seq": 7, "kind": "played",
        "data": {"notation": "13/11 13/8"}, "time": 1.5,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("body", "action"),
    [
        ({"action": "enter-dice", "dice": [5, 3]}, DiceEntered((5, 3))),
        ({"action": "accept"}, ButtonPressed(Button.ACCEPT)),
        ({"action": "demand"}, ButtonPressed(Button.DEMAND)),
        ({"action": "hint"}, ButtonPressed(Button.HINT)),
        ({"action": "decline"}, ButtonPressed(Button.DECLINE)),
        ({"action": "correct-position", "board": list(START)}, PositionCorrected(START)),
        ({"action": "new-match", "length": 7}, NewMatch(7)),
        ({"action": "new-match", "length": 64}, NewMatch(64)),
        (
            {"action": "new-match", "names": ["Cy", "Di"], "crawford": False},
            NewMatch(0, ("Cy", "Di"), (("crawford", False),)),
        ),
        ({"action": "new-game"}, NewGame("restarted by the referee")),
        ({"action": "new-game", "reason": " knocked board "}, NewGame("knocked board")),
        ({"action": "orientation"}, ConfirmOrientation(swap=False)),
        ({"action": "orientation", "swap": True}, ConfirmOrientation(swap=True)),
    ],
)
def test_actions_parse(body: dict, action: object) -> None:
    assert action_from_json(body) == action


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "an action is a JSON object"),
        ({"action": "concede"}, "unknown action 'concede'"),
        ({"action": "enter-dice", "dice": [7, 1]}, "two numbers 1-6, got [7, 1]"),
        ({"action": "enter-dice"}, "two numbers 1-6, got None"),
        ({"action": "enter-dice", "dice": [0, 1]}, "two numbers 1-6, got [0, 1]"),
        ({"action": "enter-dice", "dice": [True, 1]}, "two numbers 1-6, got [True, 1]"),
        ({"action": "correct-position", "board": [0] * 25}, "26 integers"),
        (
            {"action": "correct-position", "board": [0, 3, *START[2:]]},
            "correct-position: player 0 has 18 checkers on the board, more than 15",
        ),
        (
            {"action": "correct-position", "board": [16, *[0] * 25]},
            "correct-position: player 1's bar (index 0) cannot be positive, got 16",
        ),
        ({"action": "new-match", "length": -1}, "an integer from 0 (money play) to 64, got -1"),
        ({"action": "new-match", "length": 65}, "an integer from 0 (money play) to 64, got 65"),
        ({"action": "new-match", "length": 10**100}, "to 64, got 1" + "0" * 39 + "..."),
        ({"action": "new-match", "names": "Cy"}, "names: two strings, got 'Cy'"),
        ({"action": "new-match", "names": ["Cy", "Cy"]}, "names: both players are named 'Cy'"),
        ({"action": "new-match", "jacoby": 1}, "jacoby: true or false, got 1"),
        ({"action": "new-match", "cube": 2}, "unknown fields ['cube']"),
        ({"action": "new-game", "reason": 3}, "reason: 1 to 200 characters, got 3"),
        ({"action": "orientation", "swap": "yes"}, "swap: true or false, got 'yes'"),
        ({"action": []}, "unknown action []"),
        ({"action": {}}, "unknown action {}"),
        ({"action": "resign", "player": 0, "kind": ["single"]}, "got ['single']"),
    ],
)
def test_bad_actions_say_what_is_wrong(body: object, message: str) -> None:
    with pytest.raises(ActionError, match=None) as error:
        action_from_json(body)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "body",
    [
        {"action": "x" * 5000},
        {"action": "enter-dice", "dice": list(range(5000))},
        {"action": "correct-position", "board": "0" * 5000},
        {"action": "new-match", **{f"field{n}": n for n in range(500)}},
        {"action": "new-game", "reason": "r" * 5000},
        ["action"] * 5000,
    ],
)
def test_a_refusal_echoes_only_the_start_of_the_input(body: object) -> None:
    with pytest.raises(ActionError) as error:
        action_from_json(body)
    message = str(error.value)
    assert len(message) < 250 and "\n" not in message, message
    assert "..." in message, message

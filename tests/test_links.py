"""The links' states: what the status LED shows, the words, and SERVICE.md's table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from controller.links import BOARD_LINK, CAMERA_LINK, LinkSignal, link_text, with_link_lamp
from firmware_bridge import LinkState
from hardware.board.scene import DARK, Colour, Lamp, Pattern

SERVICE_MD = Path(__file__).parent.parent / "hardware" / "SERVICE.md"
_PATTERN_WORDS = {
    Pattern.STEADY: "steady",
    Pattern.SLOW: "slow blink",
    Pattern.FAST: "fast blink",
    Pattern.FLASH: "a short flash every second",
}


def _lamp_words(lamp: Lamp | None) -> str:
    if lamp is None:
        return "the match's own lamp"
    return f"{lamp.colour.name.lower()}, {_PATTERN_WORDS[lamp.pattern]}"


def _table(name: str) -> dict[str, tuple[str, str]]:
    """SERVICE.md's table after ``<!-- links: name -->``: state -> (LED, words)."""
    text = SERVICE_MD.read_text(encoding="utf-8")
    rows = text.split(f"<!-- links: {name} -->", 1)[1].strip().split("\n\n", 1)[0]
    cells = [row.strip("|").split("|") for row in rows.splitlines()[2:]]
    return {
        state.strip().strip("`"): (led.strip(), words.strip()) for state, led, words in cells
    }


@pytest.mark.parametrize(("name", "signals"), [("board", BOARD_LINK), ("camera", CAMERA_LINK)])
def test_service_md_table_is_the_code(name: str, signals: Mapping[str, LinkSignal]) -> None:
    expected = {state: (_lamp_words(s.lamp), s.words) for state, s in signals.items()}
    assert _table(name) == expected


def test_every_state_of_the_serial_link_has_a_signal() -> None:
    assert {state.value for state in LinkState} | {"off"} == set(BOARD_LINK)


def test_a_board_link_down_takes_the_status_led_over() -> None:
    match_lamp = DARK.with_status(Lamp(Colour.GREEN))
    for state in ("off", "live"):
        assert with_link_lamp(match_lamp, {"board": state, "camera": "live"}) == match_lamp
    down = {
        state: with_link_lamp(match_lamp, {"board": state}).status
        for state in ("searching", "syncing", "stale")
    }
    assert down == {
        "searching": Lamp(Colour.RED, Pattern.FLASH),
        "syncing": Lamp(Colour.GREEN, Pattern.FLASH),
        "stale": Lamp(Colour.RED),
    }
    # Each is told apart from every lamp the match itself shows (controller.referee.display).
    match_lamps = {
        Lamp(),
        Lamp(Colour.GREEN),
        Lamp(Colour.RED, Pattern.FAST),
        Lamp(Colour.AMBER, Pattern.FAST),
        Lamp(Colour.AMBER, Pattern.SLOW),
        Lamp(Colour.AMBER, Pattern.FLASH),
    }
    assert not set(down.values()) & match_lamps
    assert len(set(down.values())) == 3


def test_link_text_says_each_state_in_words() -> None:
    assert link_text({"board": "stale", "camera": "covered"}) == (
        "sensor board: silent: it stopped answering (check the cable and its power); "
        "camera: covered by a hand or an arm: no roll is read until it clears"
    )
    # A state without words is still shown, as it is.
    assert link_text({"board": "rebooting"}) == "sensor board: rebooting"
    assert re.fullmatch(r"sensor board: not found: .*", link_text({"board": "searching"}))

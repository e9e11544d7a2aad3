"""The links a board depends on (the sensor board, the camera): their states, what the
status LED shows for each, and the same states in words.

Why one table: the status LED, the web page and ``hardware/SERVICE.md`` must tell a person
the same thing about a knocked cable. While the sensor board's link is down nothing can be
refereed, so its state takes the status LED over from the match's own lamp; the camera's
states are shown in words only (a hand over the dice is ordinary play, not a fault).
``tests/test_links.py`` checks that SERVICE.md's table is this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = [
    "BOARD_LINK",
    "CAMERA_LINK",
    "LinkSignal",
    "LinkStates",
    "link_text",
    "link_words",
    "with_link_lamp",
]


@dataclass(frozen=True, slots=True)
class LinkSignal:
    """What a person is shown for one link state.

    Attributes:
        lamp: the status LED, or None when the match's own lamp stays.
        words: the state in words, for the web page.
    """

    lamp: Lamp | None
    words: str


BOARD_LINK: Final[Mapping[str, LinkSignal]] = {
    "off": LinkSignal(None, "no sensor board configured"),
    "searching": LinkSignal(
        Lamp(Colour.RED, Pattern.FLASH),
        "not found: looking for it (check its USB cable and the serial device)",
    ),
    "syncing": LinkSignal(
        Lamp(Colour.GREEN, Pattern.FLASH), "found: greeting it and reading the checkers"
    ),
    "live": LinkSignal(None, "connected"),
    "stale": LinkSignal(
        Lamp(Colour.RED, Pattern.STEADY),
        "silent: it stopped answering (check the cable and its power)",
    ),
}
"""The sensor board's link states (``firmware_bridge.LinkState``, and ``off``)."""

CAMERA_LINK: Final[Mapping[str, LinkSignal]] = {
    "off": LinkSignal(None, "no camera configured: enter the dice by hand"),
    "searching": LinkSignal(
        None, "not found: looking for it again (check its cable and [camera] source)"
    ),
    "live": LinkSignal(None, "watching the dice"),
    "covered": LinkSignal(None, "covered by a hand or an arm: no roll is read until it clears"),
}
"""The camera's states (``controller.service.camera.camera_link``)."""


@dataclass(slots=True)
class LinkStates:
    """Each link's state now, and what is wrong with the sensor board's (its ``problem``)."""

    states: dict[str, str] = field(default_factory=lambda: {"board": "off", "camera": "off"})
    board_problem: str | None = None

    def set(self, link: str, state: str, problem: str | None = None) -> bool:
        """Enter ``state`` (and, for the board, its ``problem``); whether what is shown changed."""
        before = (self.states.get(link), self.board_problem)
        self.states[link] = state
        if link == "board":
            self.board_problem = problem
        return before != (state, self.board_problem)


_TABLES: Final = {"board": ("sensor board", BOARD_LINK), "camera": ("camera", CAMERA_LINK)}


def with_link_lamp(scene: Scene, links: Mapping[str, str]) -> Scene:
    """``scene`` with the sensor board's link state on the status LED while it is down."""
    signal = BOARD_LINK.get(links.get("board", "off"))
    if signal is None or signal.lamp is None:
        return scene
    return scene.with_status(signal.lamp)


def link_words(link: str, state: str, problem: str | None = None) -> str:
    """``state`` of ``link`` in words, with the board's ``problem`` when there is one.

    >>> link_words("board", "stale", "no heartbeat for 3.0 s")
    'silent: it stopped answering (check the cable and its power) (no heartbeat for 3.0 s)'
    """
    signal = _TABLES.get(link, (link, {}))[1].get(state)
    words = state if signal is None else signal.words
    return f"{words} ({problem})" if problem else words


def link_text(links: Mapping[str, str]) -> str:
    """Every link's state in words (``sensor board: connected; camera: watching the dice``)."""
    return "; ".join(
        f"{_TABLES.get(link, (link, {}))[0]}: {link_words(link, state)}"
        for link, state in links.items()
    )

"""The set-up page's tests on the board's own devices: one lamp lit, the buttons named.

Why in the service: the LEDs and the buttons belong to the match while a game is played,
so the tests go through the service's one queue, in order with the match's inputs, and
hold only between games (before a game's opening roll, or once the match is over). Mid-game
they are refused (409 on the page) and nothing of the match changes; a game that starts
while a test is on ends the test, and the LEDs show the game's lamps again.

* The lamp test lights one location (or the status LED) through the service's own LED
  back-end, in place of the scene the match shows.
* Every button press is noted (the page names the last ones). While the button test is on
  a press is only noted, not handed to the match (Done would confirm the orientation, Mode
  switch the mode); the test ends by itself :data:`BUTTON_TEST_S` after it was started or a
  button was last pressed, so a phone left aside never leaves the buttons dead. That time
  is measured on a monotonic clock: a Pi has no real-time clock and sets its wall clock
  from the network after boot, a jump that would end the test at once or keep it on.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from controller.match.errors import RefusedError
from controller.referee import Button
from hardware.board.geometry import LOCATIONS, location_name
from hardware.board.json_types import JsonObject
from hardware.board.scene import Colour, Lamp, Scene

__all__ = [
    "BETWEEN_GAMES",
    "BUTTON_TEST_S",
    "STATUS_LAMP",
    "Bench",
    "BenchChange",
    "ButtonTest",
    "LampTest",
]

BUTTON_TEST_S: Final = 60.0
"""Seconds the button test lasts after it was started or a button was last pressed."""
STATUS_LAMP: Final = LOCATIONS
"""The lamp test's number of the status LED (after the 28 locations)."""
BETWEEN_GAMES: Final = frozenset({"opening", "match-over"})
"""The flow's phases in which no game is being played: the set-up tests may run."""
_PRESSES_KEPT = 12


@dataclass(frozen=True, slots=True)
class LampTest:
    """Light ``location`` (0..27, or :data:`STATUS_LAMP`) in ``colour``; None ends the test."""

    location: int | None
    colour: Colour = Colour.GREEN


@dataclass(frozen=True, slots=True)
class ButtonTest:
    """Start (``on``) or end the button test."""

    on: bool


BenchChange = LampTest | ButtonTest


@dataclass(frozen=True, slots=True)
class _Press:
    button: Button
    at: float


class Bench:
    """The lamp test and the button test of one board (state the service's loop owns).

    Args:
        clock: the service's wall clock (seconds), stamping presses for the page.
        timer: a monotonic clock (seconds), ending the button test.
        button_test_s: how long the button test outlives its start or last press.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        timer: Callable[[], float] = time.monotonic,
        button_test_s: float = BUTTON_TEST_S,
    ) -> None:
        self._clock = clock
        self._timer = timer
        self._button_test_s = button_test_s
        self.lamp: LampTest | None = None
        """The lamp lit by the test, or None."""
        self._button_test_until: float | None = None
        self._presses: collections.deque[_Press] = collections.deque(maxlen=_PRESSES_KEPT)

    @property
    def testing_buttons(self) -> bool:
        """Whether presses are noted only (not handed to the match)."""
        until = self._button_test_until
        return until is not None and self._timer() < until

    def change(self, change: BenchChange, phase: str, *, has_leds: bool = True) -> None:
        """Start, move or end a test, the match being in ``phase``.

        Raises:
            RefusedError: a test started mid-game (ending one is always taken), or a lamp
                test on a board without LEDs.
        """
        if isinstance(change, LampTest) and not has_leds:
            raise RefusedError("this board has no LEDs to test ([gpio] leds = 'none')")
        starting = change.location is not None if isinstance(change, LampTest) else change.on
        if starting and phase not in BETWEEN_GAMES:
            raise RefusedError(
                f"a game is being played ({phase}): the set-up tests wait until it is over"
            )
        if isinstance(change, LampTest):
            self.lamp = change if change.location is not None else None
        else:
            self._button_test_until = self._timer() + self._button_test_s if change.on else None

    def game_going_on(self) -> None:
        """A game is being played: end both tests (the LEDs show the game's lamps again)."""
        self.lamp = None
        self._button_test_until = None

    def scene(self) -> Scene | None:
        """The lamp test's scene, or None when no test lamp is lit."""
        if self.lamp is None or self.lamp.location is None:
            return None
        lamp = Lamp(self.lamp.colour)
        if self.lamp.location == STATUS_LAMP:
            return Scene.of({}, status=lamp)
        return Scene.of({self.lamp.location: lamp})

    def takes(self, button: Button) -> bool:
        """Note a press of ``button``; True when the button test keeps it from the match."""
        testing = self.testing_buttons
        self._presses.append(_Press(button, self._clock()))
        if testing:
            self._button_test_until = self._timer() + self._button_test_s
        return testing

    def to_json(self) -> JsonObject:
        """The tests' state for the page: the lamp lit, the button test, the last presses."""
        lamp = self.lamp
        lit: JsonObject | None = None
        if lamp is not None and lamp.location is not None:
            name = "status LED" if lamp.location == STATUS_LAMP else location_name(lamp.location)
            lit = {"location": lamp.location, "name": name, "colour": lamp.colour.name.lower()}
        return {
            "lamp": lit,
            "testing_buttons": self.testing_buttons,
            "presses": [{"button": p.button.value, "at": p.at} for p in self._presses],
        }

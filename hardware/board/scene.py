"""What the LEDs show: a colour and a blink pattern per location, plus the status LED.

Why a pure value shared by all: the referee's :func:`~controller.referee.render` decides
*what* to show and returns a :class:`Scene` (one model for the LEDs and the web view), and
each back-end (:class:`~controller.devices.ShiftRegisterLeds` on the
Pi, :class:`~controller.devices.BoardLeds` on the sensor board) decides *how*. Blinking
is a pure function of a phase in milliseconds (:func:`is_lit`), with the timings of
``hardware/PROTOCOL.md`` (slow 1 Hz, fast 4 Hz, flash 100 ms a second, all from phase 0),
so the Pi's chain and the board's chain blink alike.

Locations are those of :mod:`hardware.board.geometry`: 0..23 points 1..24, 24 the bar of
player 0, 25 the bar of player 1, 26 the tray of player 0, 27 the tray of player 1.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hardware.board.errors import SceneError
from hardware.board.geometry import LOCATIONS

__all__ = [
    "DARK",
    "Colour",
    "Lamp",
    "Pattern",
    "Scene",
    "is_lit",
    "phase_ms",
]


class Colour(enum.Enum):
    """A bicolour LED's colour: its red and green dies, amber is both."""

    OFF = (False, False)
    GREEN = (False, True)
    RED = (True, False)
    AMBER = (True, True)

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @property
    def red(self) -> bool:
        """Whether the red die is on."""
        return self.value[0]

    @property
    def green(self) -> bool:
        """Whether the green die is on."""
        return self.value[1]


class Pattern(enum.IntEnum):
    """How a lamp blinks; the numbers are those of the LED frame's pattern byte."""

    STEADY = 0
    SLOW = 1
    """1 Hz, half on."""
    FAST = 2
    """4 Hz, half on."""
    FLASH = 3
    """On 100 ms every second."""

    def __repr__(self) -> str:
        return f"Pattern.{self.name}"


# Pattern -> (period, lit part of the period), in milliseconds.
_TIMING = {
    Pattern.SLOW: (1000, 500),
    Pattern.FAST: (250, 125),
    Pattern.FLASH: (1000, 100),
}


def phase_ms(now: float) -> int:
    """The blink phase of a clock reading in seconds: whole milliseconds within a second.

    >>> phase_ms(12.3456)
    345
    """
    return int(now * 1000) % 1000


def is_lit(pattern: Pattern, phase_ms: int) -> bool:
    """Whether a lamp with this pattern is lit at ``phase_ms`` (ms since any whole second).

    Every pattern starts lit at phase 0, so a new scene shows at once.

    >>> [is_lit(Pattern.FAST, t) for t in (0, 124, 125, 250)]
    [True, True, False, True]
    >>> [is_lit(Pattern.FLASH, t) for t in (0, 99, 100, 1000)]
    [True, True, False, True]
    """
    if pattern is Pattern.STEADY:
        return True
    period, lit = _TIMING[pattern]
    return phase_ms % period < lit


@dataclass(frozen=True, slots=True)
class Lamp:
    """One LED's colour and blink pattern; ``Lamp()`` is off."""

    colour: Colour = Colour.OFF
    pattern: Pattern = Pattern.STEADY

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise SceneError(f"lamp colour {self.colour!r}: expected a Colour")
        if not isinstance(self.pattern, Pattern):
            raise SceneError(f"lamp pattern {self.pattern!r}: expected a Pattern")

    def __repr__(self) -> str:
        if self.pattern is Pattern.STEADY:
            return "Lamp()" if self.is_off else f"Lamp({self.colour!r})"
        return f"Lamp({self.colour!r}, {self.pattern!r})"

    @property
    def is_off(self) -> bool:
        """Whether the lamp shows nothing, whatever its pattern."""
        return self.colour is Colour.OFF

    def colour_at(self, phase_ms: int) -> Colour:
        """The colour shown at ``phase_ms``: the lamp's colour while lit, else off."""
        return self.colour if is_lit(self.pattern, phase_ms) else Colour.OFF


_OFF = Lamp()


@dataclass(frozen=True, slots=True)
class Scene:
    """The whole board's LEDs: 28 location lamps and the status lamp.

    Build one with :meth:`of` from the lit locations only; the repr is that call:

    >>> Scene.of({5: Lamp(Colour.GREEN), 7: Lamp(Colour.RED, Pattern.FAST)})
    Scene.of({5: Lamp(Colour.GREEN), 7: Lamp(Colour.RED, Pattern.FAST)})

    Raises:
        SceneError: if there are not 28 lamps or one is not a :class:`Lamp`.
    """

    lamps: tuple[Lamp, ...] = (_OFF,) * LOCATIONS
    status: Lamp = _OFF

    def __post_init__(self) -> None:
        if len(self.lamps) != LOCATIONS:
            raise SceneError(f"scene of {len(self.lamps)} lamps: expected {LOCATIONS}")
        for index, lamp in enumerate((*self.lamps, self.status)):
            if not isinstance(lamp, Lamp):
                where = "status" if index == LOCATIONS else f"location {index}"
                raise SceneError(f"scene lamp {lamp!r} at {where}: expected a Lamp")

    def __repr__(self) -> str:
        lamps = ", ".join(f"{i}: {lamp!r}" for i, lamp in enumerate(self.lamps) if lamp != _OFF)
        status = "" if self.status == _OFF else f", status={self.status!r}"
        return f"Scene.of({{{lamps}}}{status})"

    @classmethod
    def of(cls, lamps: Mapping[int, Lamp], status: Lamp = _OFF) -> Scene:
        """A scene lighting only the given locations.

        Raises:
            SceneError: for a location outside 0..27.

        >>> Scene.of({26: Lamp(Colour.AMBER)}).lit()
        (26,)
        """
        row = [_OFF] * LOCATIONS
        for location, lamp in lamps.items():
            if not (isinstance(location, int) and 0 <= location < LOCATIONS):
                raise SceneError(f"scene location {location!r}: expected 0..{LOCATIONS - 1}")
            row[location] = lamp
        return cls(tuple(row), status)

    @classmethod
    def all(cls, locations: Iterable[int], lamp: Lamp, status: Lamp = _OFF) -> Scene:
        """A scene lighting every one of ``locations`` with the same lamp.

        Raises:
            SceneError: for a location outside 0..27.
        """
        return cls.of(dict.fromkeys(locations, lamp), status)

    def lit(self) -> tuple[int, ...]:
        """The locations whose lamp is not off, in order."""
        return tuple(i for i, lamp in enumerate(self.lamps) if not lamp.is_off)

    def with_status(self, status: Lamp) -> Scene:
        """The same locations with another status lamp."""
        return Scene(self.lamps, status)


#: Everything off.
DARK = Scene()

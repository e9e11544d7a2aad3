"""The buzzer, sounding short patterns for faults.

Why patterns are values played by an asyncio task, not gpiozero's ``beep()``: ``beep``
runs a thread of its own, while the service has one loop; a task with an injected
``sleep`` is also what the tests drive, step by step, asserting the pin's states.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import Buzzer

from controller.closing import Closing
from controller.devices.errors import DeviceClosedError, SceneError
from controller.devices.factory import PinFactory

__all__ = ["ATTENTION", "FAULT", "ILLEGAL", "BuzzPattern", "FaultBuzzer"]

#: The longest pattern: a buzzer is for short signals.
_MAX_PATTERN_S = 5.0


@dataclass(frozen=True, slots=True)
class BuzzPattern:
    """A short sound: ``steps`` of (on, off) seconds, played in order.

    Raises:
        SceneError: if there is no step, a time is negative or not finite, an "on" is not
            positive, or the pattern lasts more than 5 s.
    """

    name: str
    steps: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise SceneError(f"buzz pattern {self.name!r}: no step")
        for on, off in self.steps:
            if not (math.isfinite(on) and math.isfinite(off) and on > 0 and off >= 0):
                raise SceneError(
                    f"buzz pattern {self.name!r}: step ({on!r}, {off!r}) needs on > 0, off >= 0"
                )
        if self.duration > _MAX_PATTERN_S:
            raise SceneError(
                f"buzz pattern {self.name!r} lasts {self.duration:g} s: at most {_MAX_PATTERN_S:g}"
            )

    @property
    def duration(self) -> float:
        """The pattern's length in seconds."""
        return sum(on + off for on, off in self.steps)


#: A sensor or link fault: three short beeps.
FAULT = BuzzPattern("fault", ((0.08, 0.08), (0.08, 0.08), (0.08, 0.0)))
#: An illegal play flagged: one long beep.
ILLEGAL = BuzzPattern("illegal", ((0.4, 0.0),))
#: Something to look at (a reroll, a question on the screen): two blips.
ATTENTION = BuzzPattern("attention", ((0.04, 0.1), (0.04, 0.0)))


class FaultBuzzer(Closing):
    """An active buzzer that sounds :class:`BuzzPattern` values.

    Wiring: the buzzer's + to 5 V, its - to the collector of an NPN transistor whose
    base is driven by ``pin`` through 1 kOhm (a buzzer draws more than a GPIO gives).

    Example::

        buzzer = FaultBuzzer(18)
        buzzer.play(FAULT)        # returns at once; a new pattern cuts the old one
        await buzzer.sound(ILLEGAL)  # or wait for the end

    Args:
        pin: BCM pin driving the transistor.
        pin_factory: gpiozero pin factory; None for gpiozero's default.
        sleep: the loop's sleep, injected for tests.
    """

    def __init__(
        self,
        pin: int,
        *,
        pin_factory: PinFactory | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self._buzzer: Any = Buzzer(pin, pin_factory=pin_factory)
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def is_sounding(self) -> bool:
        """Whether the buzzer is on now."""
        return bool(self._buzzer.value)

    async def sound(self, pattern: BuzzPattern) -> None:
        """Play ``pattern`` to its end; the buzzer is off afterwards, even if cancelled.

        Raises:
            DeviceClosedError: if closed.
        """
        self._check_open()
        try:
            for on, off in pattern.steps:
                self._buzzer.on()
                await self._sleep(on)
                self._buzzer.off()
                if off:
                    await self._sleep(off)
        finally:
            if not self._closed:
                self._buzzer.off()

    def play(self, pattern: BuzzPattern) -> asyncio.Task[None]:
        """Start ``pattern`` in the running loop, cutting short the one playing.

        Raises:
            DeviceClosedError: if closed.
        """
        self._check_open()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(
            self._after(self._task, pattern), name=f"buzz-{pattern.name}"
        )
        return self._task

    async def _after(self, previous: asyncio.Task[None] | None, pattern: BuzzPattern) -> None:
        if previous is not None:
            # Let the cut pattern switch the buzzer off before this one starts.
            await asyncio.gather(previous, return_exceptions=True)
        await self.sound(pattern)

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosedError("buzzer is closed")

    def close(self) -> None:
        """Silence the buzzer, cancel any pattern and release the pin; idempotent."""
        if self._closed:
            return
        if self._task is not None:
            self._task.cancel()
        self._buzzer.off()
        self._closed = True
        self._buzzer.close()

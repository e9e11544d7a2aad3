"""The LED back-ends' common interface, and the sensor board's LED chain as one of them.

Why an interface: the service shows a :class:`~controller.devices.Scene` and does not
care whether the Pi shifts it into 74HC595s (:class:`~controller.devices.ShiftRegisterLeds`)
or the sensor board lights its WS2812 chain on an LED frame (:class:`BoardLeds`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from controller.closing import Closing
from controller.devices.errors import DeviceClosedError, SceneError
from controller.devices.status import StatusLed
from firmware_bridge import LedFrame, led_frame
from hardware.board.scene import DARK, Scene, phase_ms

__all__ = ["BLINK_PERIOD_S", "BoardLeds", "LedBackend", "StatusLeds", "blink_forever"]

#: How often the service calls :meth:`LedBackend.tick`: every blink edge (multiples of
#: 25 ms: 100, 125, 500 ms) falls on a tick.
BLINK_PERIOD_S = 0.025


class LedBackend(Protocol):
    """What the service needs of an LED back-end."""

    @property
    def scene(self) -> Scene:
        """The scene being shown."""
        ...

    async def show(self, scene: Scene) -> None:
        """Show ``scene`` from now on."""
        ...

    def tick(self) -> None:
        """Advance blinking to the current time (a no-op where the hardware blinks)."""
        ...

    def close(self) -> None:
        """Darken and release the LEDs; idempotent."""
        ...


async def blink_forever(
    leds: LedBackend,
    *,
    period_s: float = BLINK_PERIOD_S,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Call ``leds.tick()`` every ``period_s`` until cancelled (a task of the service)."""
    while True:
        leds.tick()
        await sleep(period_s)


class BoardLeds(Closing):
    """The sensor board's LED chain (28 locations and the status LED), over the serial link.

    Wiring: the board's WS2812 chain (``[rp2040] led_data`` of the pin map); the board
    blinks by itself. The Pi's own status LED, when wired, shows the same status lamp
    (blinked by :meth:`tick`): it still shows a sensor board that is unplugged or silent,
    which the board's chain then cannot (``controller.links``).

    Example::

        async with BoardLink(path) as link:
            leds = BoardLeds(link.send_leds)
            await leds.show(scene)

    Args:
        send: queues an :class:`~firmware_bridge.LedFrame` for the board
            (``BoardLink.send_leds``, which writes what is queued before it closes).
        level: brightness of a lit die, 1..255.
        status: the Pi's status LED, or None.
        clock_s: the clock of its blinking.

    Raises:
        SceneError: if ``level`` is outside 1..255.
    """

    def __init__(
        self,
        send: Callable[[LedFrame], None],
        *,
        level: int = 255,
        status: StatusLed | None = None,
        clock_s: Callable[[], float] = time.monotonic,
    ) -> None:
        if not (isinstance(level, int) and 1 <= level <= 255):
            raise SceneError(f"LED level {level!r}: expected 1..255")
        self._send = send
        self._status = status
        self._clock_s = clock_s
        self._level = level
        self._scene = DARK
        self._sent: LedFrame | None = None
        self._frames = 0
        self._closed = False

    @property
    def scene(self) -> Scene:
        """The scene being shown."""
        return self._scene

    @property
    def frames(self) -> int:
        """How many LED frames were sent."""
        return self._frames

    async def show(self, scene: Scene) -> None:
        """Send the frame of ``scene`` unless the board already shows it.

        Raises:
            DeviceClosedError: if closed.
        """
        if self._closed:
            raise DeviceClosedError("board LEDs are closed")
        self._scene = scene
        self.tick()
        frame = led_frame(scene, level=self._level)
        if frame == self._sent:
            return
        self._send(frame)
        self._sent = frame
        self._frames += 1

    def tick(self) -> None:
        """Blink the Pi's status LED, if any (the board blinks its chain itself)."""
        if self._status is not None and not self._closed:
            self._status.show(self._scene.status, phase_ms(self._clock_s()))

    def close(self) -> None:
        """Send a dark frame (if the board shows anything) and stop sending; idempotent.

        Close it before the link: the link writes the dark frame before its port closes.
        """
        if self._closed:
            return
        self._closed = True
        if self._status is not None:
            self._status.close()
        dark = led_frame(DARK, level=self._level)
        if self._sent is not None and self._sent != dark:
            self._send(dark)
            self._sent = dark


class StatusLeds(Closing):
    """No location LEDs, only the Pi's status LED (``leds = "none"``): the match's status
    lamp, and a sensor board that is unplugged or silent, still show.

    Args:
        status: the Pi's status LED (closed with this back-end).
        clock_s: the clock of its blinking.
    """

    def __init__(self, status: StatusLed, *, clock_s: Callable[[], float] = time.monotonic) -> None:
        self._status = status
        self._clock_s = clock_s
        self._scene = DARK

    @property
    def scene(self) -> Scene:
        """The scene being shown (only its status lamp is lit)."""
        return self._scene

    async def show(self, scene: Scene) -> None:
        """Show ``scene``'s status lamp from now on.

        Raises:
            DeviceClosedError: if closed.
        """
        self._scene = scene
        self.tick()

    def tick(self) -> None:
        """Bring the status LED to the clock's blink phase."""
        self._status.show(self._scene.status, phase_ms(self._clock_s()))

    def close(self) -> None:
        """Darken and release the status LED; idempotent."""
        self._status.close()

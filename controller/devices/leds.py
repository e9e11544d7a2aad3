"""The LED back-ends' common interface, and the sensor board's LED chain as one of them.

Why an interface: the service shows a :class:`~controller.devices.Scene` and does not
care whether the Pi shifts it into 74HC595s (:class:`~controller.devices.ShiftRegisterLeds`)
or the sensor board lights its WS2812 chain on an LED frame (:class:`BoardLeds`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from controller.closing import Closing
from controller.devices.errors import DeviceClosedError, SceneError
from firmware_bridge import LedFrame, led_frame
from hardware.board.scene import DARK, Scene

__all__ = ["BLINK_PERIOD_S", "BoardLeds", "LedBackend", "blink_forever"]

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
    blinks by itself, so :meth:`tick` does nothing.

    Example::

        async with BoardLink(path) as link:
            leds = BoardLeds(link.send_leds)
            await leds.show(scene)

    Args:
        send: queues an :class:`~firmware_bridge.LedFrame` for the board
            (``BoardLink.send_leds``, which writes what is queued before it closes).
        level: brightness of a lit die, 1..255.

    Raises:
        SceneError: if ``level`` is outside 1..255.
    """

    def __init__(
        self,
        send: Callable[[LedFrame], None],
        *,
        level: int = 255,
    ) -> None:
        if not (isinstance(level, int) and 1 <= level <= 255):
            raise SceneError(f"LED level {level!r}: expected 1..255")
        self._send = send
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
        frame = led_frame(scene, level=self._level)
        if frame == self._sent:
            return
        self._send(frame)
        self._sent = frame
        self._frames += 1

    def tick(self) -> None:
        """Nothing to do: the board blinks its LEDs itself."""

    def close(self) -> None:
        """Send a dark frame (if the board shows anything) and stop sending; idempotent.

        Close it before the link: the link writes the dark frame before its port closes.
        """
        if self._closed:
            return
        self._closed = True
        dark = led_frame(DARK, level=self._level)
        if self._sent is not None and self._sent != dark:
            self._send(dark)
            self._sent = dark

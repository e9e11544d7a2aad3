"""The players' push buttons: one typed stream of presses in the service's asyncio loop.

Why one door: gpiozero calls ``when_pressed`` from its own thread (lgpio's callback
thread on a Pi); the service has one event loop and touches its state only from there.
So every callback does one thing, hand a :class:`ButtonPress` value to the loop through
``loop.call_soon_threadsafe``, and the service reads the presses with ``async for``, as
it reads the board's observations; nothing else of the service runs in gpiozero's thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import Button as GpioButton

from controller.closing import Closing
from controller.controls import Button
from controller.devices.errors import DeviceClosedError, PinError
from controller.devices.factory import PinFactory

__all__ = ["ButtonPress", "Buttons"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """One press of a button, at a time of the service's clock (seconds)."""

    button: Button
    at: float


class Buttons(Closing):
    """The buttons of the pin map, each a gpiozero :class:`~gpiozero.Button`.

    Wiring: each button between its GPIO and ground; the Pi's internal pull-up holds the
    pin high, a press pulls it low. gpiozero debounces (``bounce_s``).

    Presses arrive in ``loop``, in order, on the :attr:`presses` queue, which iterating
    the buttons empties. Example::

        buttons = Buttons({Button.DONE: 17, Button.UNDO: 27})
        async for press in buttons:
            print(press.button)

    Args:
        pins: BCM pin of each button (a :class:`Button` or its value).
        loop: the service's loop; None for the running loop.
        bounce_s: gpiozero's debounce time, None for none.
        clock: the service's clock, stamping each press.
        pin_factory: gpiozero pin factory; None for gpiozero's default.

    Raises:
        PinError: for a name that is not a button.
    """

    def __init__(
        self,
        pins: Mapping[Button | str, int],
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        bounce_s: float | None = 0.05,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: PinFactory | None = None,
    ) -> None:
        names: dict[Button, int] = {}
        for name, pin in pins.items():
            try:
                names[Button(name)] = pin
            except ValueError:
                known = ", ".join(b.value for b in Button)
                raise PinError(f"button {name!r}: expected one of {known}") from None
        self._loop = loop or asyncio.get_running_loop()
        self._clock = clock
        self.presses: asyncio.Queue[ButtonPress] = asyncio.Queue()
        """Presses not read yet, oldest first."""
        self._buttons: dict[Button, Any] = {}
        self._closed = False
        try:
            for name, pin in names.items():
                button = GpioButton(
                    pin, pull_up=True, bounce_time=bounce_s, pin_factory=pin_factory
                )
                self._buttons[name] = button
                button.when_pressed = self._callback(name)
        except BaseException:
            self.close()
            raise

    def _callback(self, name: Button) -> Callable[[], None]:
        def pressed() -> None:
            press = ButtonPress(name, self._clock())
            try:
                self._loop.call_soon_threadsafe(self.presses.put_nowait, press)
            except RuntimeError:
                # The loop is closed: the service is stopping, nobody would read it.
                _log.warning("button %s pressed after the service stopped", name.value)

        return pressed

    async def __aiter__(self) -> AsyncIterator[ButtonPress]:
        """Every press, in order, as it arrives (until the reader stops)."""
        while True:
            yield await self.presses.get()

    @property
    def names(self) -> tuple[Button, ...]:
        """The buttons present, in the order given."""
        return tuple(self._buttons)

    def is_pressed(self, name: Button) -> bool:
        """Whether ``name`` is held down now.

        Raises:
            DeviceClosedError: if closed.
            KeyError: if the board has no such button.
        """
        if self._closed:
            raise DeviceClosedError("buttons are closed")
        return bool(self._buttons[name].is_pressed)

    def close(self) -> None:
        """Stop listening and release the pins; idempotent."""
        self._closed = True
        for button in self._buttons.values():
            button.when_pressed = None
            button.close()
        self._buttons.clear()

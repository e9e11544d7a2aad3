"""The players' push buttons, delivered into the service's asyncio loop.

Why through ``loop.call_soon_threadsafe``: gpiozero calls ``when_pressed`` from its own
thread (lgpio's callback thread on a Pi); the service has one event loop and touches its
state only from there, so a press becomes a :class:`ButtonPress` value handed over to
the loop, never a call into the service from another thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import Button as GpioButton

from controller.closing import Closing
from controller.controls import Button
from controller.devices.errors import DeviceClosedError, PinError

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

    Presses go to ``on_press`` if given, else to the :attr:`presses` queue; either way
    they arrive in ``loop``, in order. Example::

        buttons = Buttons({Button.DONE: 17, Button.UNDO: 27})
        press = await buttons.presses.get()

    Args:
        pins: BCM pin of each button (a :class:`Button` or its value).
        loop: the service's loop; None for the running loop.
        on_press: called in the loop with each press, instead of queueing it.
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
        on_press: Callable[[ButtonPress], object] | None = None,
        bounce_s: float | None = 0.05,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        names: dict[Button, int] = {}
        for name, pin in pins.items():
            try:
                names[Button(name)] = pin
            except ValueError:
                known = ", ".join(b.value for b in Button)
                raise PinError(f"button {name!r}: expected one of {known}") from None
        self._loop = loop or asyncio.get_running_loop()
        self._on_press = on_press
        self._clock = clock
        self.presses: asyncio.Queue[ButtonPress] = asyncio.Queue()
        """Presses not delivered to ``on_press``, oldest first."""
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
                self._loop.call_soon_threadsafe(self._deliver, press)
            except RuntimeError:
                # The loop is closed: the service is stopping, nobody would read it.
                _log.warning("button %s pressed after the service stopped", name.value)

        return pressed

    def _deliver(self, press: ButtonPress) -> None:
        if self._on_press is not None:
            self._on_press(press)
        else:
            self.presses.put_nowait(press)

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

"""The status LED on the Pi: an RGB LED, or a red and a green LED, through gpiozero.

Why its own class: both LED back-ends of the locations may run with the Pi's status LED,
and the wiring differs between boards (the reference pin map has red, green and blue).
"""

from __future__ import annotations

from typing import Any

from gpiozero import LED, RGBLED

from controller.closing import Closing
from controller.devices.errors import DeviceClosedError
from controller.devices.factory import PinFactory
from hardware.board.scene import Colour, Lamp

__all__ = ["StatusLed"]


class StatusLed(Closing):
    """The status LED, showing a :class:`~controller.devices.Colour`.

    Wiring: with ``blue`` an RGB LED (common cathode, each anode through its resistor to
    the pins ``red``, ``green``, ``blue``); without it, two LEDs (or a bicolour LED's two
    dies) on ``red`` and ``green``. Amber lights red and green together.

    Example::

        with StatusLed(24, 23, 25) as status:
            status.colour = Colour.AMBER

    Args:
        red: BCM pin of the red LED.
        green: BCM pin of the green LED.
        blue: BCM pin of the blue LED, or None for a red and green pair.
        pin_factory: gpiozero pin factory; None for gpiozero's default.
    """

    def __init__(
        self,
        red: int,
        green: int,
        blue: int | None = None,
        *,
        pin_factory: PinFactory | None = None,
    ) -> None:
        self._rgb: Any = None
        self._pair: tuple[Any, Any] | None = None
        if blue is None:
            red_led = LED(red, pin_factory=pin_factory)
            try:
                green_led = LED(green, pin_factory=pin_factory)
            except BaseException:
                red_led.close()
                raise
            self._pair = (red_led, green_led)
        else:
            # Plain on/off: blinking is done by the caller's tick, not by PWM threads.
            self._rgb = RGBLED(red, green, blue, pwm=False, pin_factory=pin_factory)
        self._colour = Colour.OFF
        self._closed = False

    @property
    def colour(self) -> Colour:
        """The colour shown now."""
        return self._colour

    @colour.setter
    def colour(self, colour: Colour) -> None:
        if self._closed:
            raise DeviceClosedError("status LED is closed")
        if self._rgb is not None:
            self._rgb.value = (int(colour.red), int(colour.green), 0)
        elif self._pair is not None:
            self._pair[0].value = colour.red
            self._pair[1].value = colour.green
        self._colour = colour

    def show(self, lamp: Lamp, phase: int) -> None:
        """Show ``lamp`` as it is at blink phase ``phase`` ms (the pins move on a change)."""
        colour = lamp.colour_at(phase)
        if colour is not self._colour:
            self.colour = colour

    def close(self) -> None:
        """Turn the LED off and release its pins; a second call does nothing."""
        if self._closed:
            return
        self.colour = Colour.OFF
        self._closed = True
        for device in (self._rgb, *(self._pair or ())):
            if device is not None:
                device.close()

"""All the Pi's devices at once, from the ``[gpio]`` section of the configuration.

Why one place: the service, the demo and the tests open the same set (LED back-end,
buttons, buzzer) from the same settings, and must release every pin if one fails.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from controller.closing import Closing
from controller.config import GpioConfig
from controller.devices.buttons import Buttons
from controller.devices.buzzer import FaultBuzzer
from controller.devices.errors import PinError
from controller.devices.factory import PinFactory
from controller.devices.leds import BoardLeds, LedBackend, StatusLeds
from controller.devices.shift_register import ShiftRegisterLeds
from controller.devices.status import StatusLed
from firmware_bridge import LedFrame

__all__ = ["PiDevices"]


class PiDevices(Closing):
    """The LED back-end, the buttons and the buzzer named by a :class:`GpioConfig`.

    Example::

        factory = make_pin_factory(config.gpio.pin_factory)
        with PiDevices.open(config.gpio, send_leds=link.send_leds, pin_factory=factory) as pi:
            await pi.leds.show(scene)
            await service.run(board=link, buttons=pi.buttons)

    Attributes:
        leds: the scene's back-end; with ``leds = "none"`` the status LED alone, or None
            when the pin map wires none.
        buttons: every wired button, their presses read with ``async for``.
        buzzer: None if the pin map has no buzzer.
    """

    def __init__(
        self, leds: LedBackend | None, buttons: Buttons, buzzer: FaultBuzzer | None
    ) -> None:
        self.leds = leds
        self.buttons = buttons
        self.buzzer = buzzer

    @classmethod
    def open(
        cls,
        gpio: GpioConfig,
        *,
        send_leds: Callable[[LedFrame], None],
        loop: asyncio.AbstractEventLoop | None = None,
        pin_factory: PinFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> PiDevices:
        """Open every device; on a failure, close those already open and re-raise.

        Args:
            gpio: the ``[gpio]`` settings.
            send_leds: sends an LED frame to the sensor board (``BoardLink.send_leds``).
            loop: the service's loop, for the buttons; None for the running loop.
            pin_factory: gpiozero pin factory; None for gpiozero's default.
            clock: the clock of blinking and of button presses.

        Raises:
            PinError: if ``leds = "shift-register"`` and a chain pin is missing.
        """
        pins = gpio.pins
        opened: list[Closing] = []
        try:
            leds: LedBackend | None = None
            status_pins = pins.status_pins()
            status = None
            if status_pins is not None and gpio.leds != "shift-register":
                status = StatusLed(*status_pins, pin_factory=pin_factory)
                opened.append(status)
            if gpio.leds == "board":
                leds = BoardLeds(send_leds, status=status, clock_s=clock)
            elif status is not None:  # leds = "none": the status LED alone
                leds = StatusLeds(status, clock_s=clock)
            elif gpio.leds == "shift-register":
                if pins.shift_data is None or pins.shift_clock is None or pins.shift_latch is None:
                    raise PinError(
                        "the shift-register LEDs need shift_data, shift_clock, shift_latch"
                    )
                chain = ShiftRegisterLeds(
                    pins.shift_data,
                    pins.shift_clock,
                    pins.shift_latch,
                    enable=pins.shift_enable,
                    registers=gpio.shift_registers,
                    status_pins=status_pins,
                    pin_factory=pin_factory,
                    clock_s=clock,
                )
                opened.append(chain)
                leds = chain
            buttons = Buttons(pins.buttons(), loop=loop, pin_factory=pin_factory, clock=clock)
            opened.append(buttons)
            buzzer = None
            if pins.buzzer is not None:
                buzzer = FaultBuzzer(pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            for device in reversed(opened):
                device.close()
            raise
        return cls(leds, buttons, buzzer)

    def close(self) -> None:
        """Darken the LEDs, silence the buzzer, release every pin; idempotent."""
        for device in (self.buzzer, self.buttons, self.leds):
            if device is not None:
                device.close()

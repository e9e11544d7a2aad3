"""The Pi's own devices: LEDs (on the Pi or on the sensor board), buttons, buzzer.

The referee decides what to show; the service turns it into a :class:`Scene` (a colour
and a blink pattern per location, plus the status lamp) and hands it to one LED
back-end, both behind :class:`LedBackend`:

- :class:`ShiftRegisterLeds`: a 74HC595 chain on three GPIO pins (bit order in
  :mod:`controller.devices.shift_register`), the status LED on the Pi (:class:`StatusLed`);
- :class:`BoardLeds`: an LED frame to the sensor board over the serial link, and the
  Pi's status LED beside it;
- :class:`StatusLeds`: the Pi's status LED alone (no location LEDs).

Buttons (:class:`Buttons`) are one typed stream of :class:`ButtonPress` values in the
service's asyncio loop (``async for``); :class:`FaultBuzzer` sounds short
:class:`BuzzPattern` values. Every device takes ``pin_factory`` (gpiozero's, a
:class:`PinFactory` chosen once with :func:`make_pin_factory`),
is a context manager, and has an idempotent ``close()``; :class:`PiDevices` opens them
all from the configuration's ``[gpio]`` section.

>>> scene = Scene.of({5: Lamp(Colour.GREEN, Pattern.SLOW)}, status=Lamp(Colour.AMBER))
>>> scene.lit(), sum(frame_bits(scene, 0)), sum(frame_bits(scene, 500))
((5,), 1, 0)
"""

from __future__ import annotations

from controller.devices.buttons import ButtonPress, Buttons
from controller.devices.buzzer import ATTENTION, FAULT, ILLEGAL, BuzzPattern, FaultBuzzer
from controller.devices.errors import (
    DeviceClosedError,
    DevicesError,
    GpioUnavailableError,
    PinError,
    PinFactoryError,
    SceneError,
)
from controller.devices.factory import PIN_FACTORIES, PinFactory, make_pin_factory
from controller.devices.leds import (
    BLINK_PERIOD_S,
    BoardLeds,
    LedBackend,
    StatusLeds,
    blink_forever,
)
from controller.devices.pi import PiDevices
from controller.devices.shift_register import REGISTERS, ShiftRegisterLeds, frame_bits
from controller.devices.status import StatusLed
from hardware.board.scene import DARK, Colour, Lamp, Pattern, Scene, is_lit, phase_ms

__all__ = [
    "ATTENTION",
    "BLINK_PERIOD_S",
    "DARK",
    "FAULT",
    "ILLEGAL",
    "PIN_FACTORIES",
    "REGISTERS",
    "BoardLeds",
    "ButtonPress",
    "Buttons",
    "BuzzPattern",
    "Colour",
    "DeviceClosedError",
    "DevicesError",
    "FaultBuzzer",
    "GpioUnavailableError",
    "Lamp",
    "LedBackend",
    "Pattern",
    "PiDevices",
    "PinError",
    "PinFactory",
    "PinFactoryError",
    "Scene",
    "SceneError",
    "ShiftRegisterLeds",
    "StatusLed",
    "StatusLeds",
    "blink_forever",
    "frame_bits",
    "is_lit",
    "make_pin_factory",
    "phase_ms",
]

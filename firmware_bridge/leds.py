"""The LED frame that shows a scene on the sensor board's WS2812 chain.

Why beside the protocol: how a lamp becomes a frame's bytes (the amber mix of a WS2812,
off lamps sent alike) is part of speaking to the board, so the devices hand over a
:class:`~hardware.board.scene.Scene` and never build the protocol's frame themselves.
"""

from __future__ import annotations

from firmware_bridge.messages import Blink, Led, LedFrame
from hardware.board.scene import Colour, Lamp, Scene

__all__ = ["led_frame"]


def _rgb(colour: Colour, level: int) -> tuple[int, int, int]:
    if colour is Colour.AMBER:
        # A WS2812's green die is brighter than its red: 5/8 green reads as amber.
        return level, level * 5 // 8, 0
    return level * colour.red, level * colour.green, 0


def _led(lamp: Lamp, level: int) -> Led:
    if lamp.is_off:
        return Led()
    red, green, blue = _rgb(lamp.colour, level)
    return Led(red, green, blue, Blink(int(lamp.pattern)))


def led_frame(scene: Scene, *, level: int = 255) -> LedFrame:
    """The LED frame of ``scene``: 28 location LEDs, then the status LED.

    A lamp that is off is sent as ``Led()`` whatever its pattern, so scenes that look
    alike give equal frames.

    >>> from hardware.board.scene import Colour, Lamp, Pattern, Scene
    >>> frame = led_frame(Scene.of({3: Lamp(Colour.RED, Pattern.FAST)}))
    >>> len(frame.leds), frame.leds[3]
    (29, Led(red=255, green=0, blue=0, blink=<Blink.FAST: 2>))
    """
    return LedFrame(tuple(_led(lamp, level) for lamp in (*scene.lamps, scene.status)))

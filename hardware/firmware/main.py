"""Entry point on the board: copied to the RP2040 as /main.py (see hardware/README.md).

The firmware package is copied as /firmware and the pin map as /pinmap.toml.
"""

import os
import struct

from firmware import app, hal_rp2040, pinmap


def main() -> None:
    """Build the real hardware and run the firmware forever."""
    pins = pinmap.load("pinmap.toml")
    slots = pinmap.slots_per_location(pins)
    firmware = app.Firmware(
        pins,
        slots,
        hal_rp2040.MuxSensorMatrix(pins, sum(slots)),
        hal_rp2040.Ws2812Chain(pins),
        hal_rp2040.UsbPort(),
        hal_rp2040.TicksClock(),
        boot_id=struct.unpack("<I", os.urandom(4))[0],
    )
    firmware.run_forever()


if __name__ == "__main__":
    main()

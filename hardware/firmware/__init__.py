"""Tabula sensor-board firmware (MicroPython on an RP2040; also runs on CPython).

Modules: ``wire`` (COBS, CRC-16, frames), ``pinmap`` (reads pinmap.toml), ``scanner``
(classification, hysteresis, debouncing, per-location counts), ``app`` (the protocol and
main loop), ``hal`` (the hardware interface and its virtual implementation for CPython),
``hal_rp2040`` (the real hardware), ``main`` (the entry point on the board).
"""

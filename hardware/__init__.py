"""Tabula's reference sensor board: pin map, firmware (``hardware.firmware``) and simulator.

The firmware package is MicroPython code that also runs on CPython; the simulator
(:mod:`hardware.simulator`) runs it behind a pseudo-terminal against a virtual board.
"""

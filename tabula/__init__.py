"""The words every package of Tabula shares: the root error, the 28 locations, the LED scene.

Why a package of its own: the rules, the referee, the serial bridge, the dice reader and
the firmware's simulator all speak of the same locations and refuse input the same way,
and none of them may depend on another for it. It imports nothing but the standard library.

* :mod:`~tabula.errors` — :class:`~tabula.errors.TabulaError`, the root of every refusal.
* :mod:`~tabula.geometry` — the 28 locations and the 26-integer layout.
* :mod:`~tabula.scene` — what the LEDs show, for the referee and every LED back-end.
"""

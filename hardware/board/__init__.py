"""The words every package of Tabula shares: the root error, the 28 locations, the LED scene.

Why here, in a leaf of ``hardware``: the rules, the referee, the serial bridge, the dice
reader and the board's simulator all speak of the same locations of the physical board and
refuse input the same way, and none of them may depend on another (or on ``controller``)
for it. The project's top level is fixed, so the leaf lives under the board's own package;
it imports nothing but the standard library (``tests/test_layering.py``).

* :mod:`~hardware.board.errors`: :class:`~hardware.board.errors.TabulaError`, the root
  of every refusal.
* :mod:`~hardware.board.geometry`: the 28 locations and the 26-integer layout.
* :mod:`~hardware.board.scene`: what the LEDs show, for the referee and every LED back-end.
* :mod:`~hardware.board.ids`: the rule of a board's id and a topic prefix (the
  configuration, the MQTT codec and the hub's archive folders).
* :mod:`~hardware.board.json_types`: JSON payloads as a type, for whatever crosses packages
  as JSON (statuses, events, requests), and their one reader of JSON from outside.
* :mod:`~hardware.board.toml_text`: the one reader of TOML from outside (the configuration,
  the pin map, the calibration).
* :mod:`~hardware.board.frozen`: frozen dataclasses made or copied without their checks,
  where the values are vouched for (the rules' cube, the match's snapshot and events).
"""

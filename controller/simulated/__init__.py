"""The simulated table: players, camera, pins and the demo's assembly, in one place.

* :mod:`~controller.simulated.players` — :class:`SimulatedPlayer` and matches played on the
  rules engine alone (``play_match``, ``play_jacquet_game``, their recorded events).
* :mod:`~controller.simulated.table` — the players around the real :class:`Service`: their
  hands on the board, their rolls, the buttons pressed (:mod:`~controller.simulated.hands`:
  what they show the camera; :mod:`~controller.simulated.camera`: the camera and the
  rendered rolls; :mod:`~controller.simulated.progress`: waiting on the service's progress).
* :mod:`~controller.simulated.jacquet_table` — the same table playing Jacquet de Versailles.
* :mod:`~controller.simulated.demo` — ``tabula demo``: the real service assembled on the
  simulated board (``hardware.simulator`` on a pty), camera and gpiozero's MockFactory.
* :mod:`~controller.simulated.board_service` — :class:`SelfPlayBoard`, the real service fed
  by two simulated players (no board, no camera): the web view's, MQTT's and the hub's board.

Why no re-exports here: the rules tests import the players alone, and must not pull in
the asyncio service, OpenCV and gpiozero that the table and the demo need.
"""

"""Dice reading with OpenCV for Tabula: camera sources, calibration, dice, cube, settling.

Two small learned nets (a die detector and a die-face classifier, ONNX files in
``vision/models`` run by ``cv2.dnn``; no PyTorch at run time) find the dice when no empty
board is learnt and read every die's face; OpenCV does the rest (the learnt board's
difference, outlines, the cube, calibration, settling). They are retrained on demand with
``python -m vision.train`` (the ``train`` extra), with 5-fold held-out evaluation on the
real photos: see :mod:`vision.train`.

The referee service uses a small API::

    from vision import DiceReader, RollWatcher, Thrower, open_source, load_calibration

    reader = DiceReader(load_calibration("tabula.toml"), expected_dice=2)
    reading = reader.read(frame, Thrower.FAR)  # RollReading(dice, verdict, reason, cube)
    reading.verdict                       # Verdict.OK / REROLL / UNREADABLE
    reading.values                        # (6, 3)

    watcher = RollWatcher(lambda: open_source("0"), reader)
    event = watcher.step(Thrower.NEAR)    # RollEvent("roll", reading) / ("lifted") / None
    # A roll is new only when the dice were lifted (the board seen where they lay) or moved:
    # a hand, a sleeve or a player leaning over dice that stayed put is no roll.
    watcher.state                         # searching / moving / settled / empty / covered

- :class:`FrameSource` is the protocol of the frame sources (``read()`` -> an
  :data:`Image`, a BGR uint8 array, or None; ``close()``): :class:`CameraSource` (USB,
  ``cv2.VideoCapture``), :class:`PiCameraSource` (``picamera2``), :class:`FolderSource`,
  :class:`VideoFileSource`, :class:`SyntheticSource`.
- :func:`calibrate` finds the ArUco markers (DICT_4X4_50 ids 0..3 at
  :data:`MARKER_CENTRES` of the board view) and gives a :class:`Calibration`;
  :func:`save_calibration` / :func:`load_calibration` keep it in ``[camera.calibration]``.
  It keeps the frame's size too, which places the camera: a camera at an angle (a
  webcam on a stand at the table's edge) sees the dice's side faces, and the reader then
  reads each die's top face and places the die where it stands (:mod:`vision._oblique`).
- :class:`SettleDetector` takes an injectable clock; its threshold derives from the camera
  noise (measured with :meth:`SettleDetector.measure_noise`, else estimated).
- :func:`render_roll` draws labelled synthetic rolls (tests, demo, training), under
  the empty board's light or a changed one (:class:`LightChange`, :func:`shadow_video`);
  :func:`hand_crossing`, :func:`leaning_over`, :func:`nudged` and :func:`without_die` put
  hands over them.
"""

from __future__ import annotations

from vision._arrays import Image
from vision._calibration import (
    BOARD_SIZE,
    MARKER_CENTRES,
    Calibration,
    CalibrationTable,
    MarkerDetection,
    annotate,
    calibrate,
    calibration_file,
    find_markers,
    load_calibration,
    marker_image,
    save_calibration,
)
from vision._focus import MAX_EDGE_BLUR, edge_blur
from vision._hands import (
    Arm,
    draw_arm,
    hand_crossing,
    leaning_over,
    nudged,
    random_arm,
    with_noise,
    without_die,
)
from vision._model import (
    CUBE_VALUES,
    CubeJson,
    CubeReading,
    Die,
    DieJson,
    ReadingJson,
    RollReading,
    Thrower,
    Verdict,
)
from vision._reader import BoardView, DiceReader
from vision._settle import RollEvent, RollWatcher, SettleDetector, WatchState, frame_change
from vision._sources import (
    IMAGE_SUFFIXES,
    CameraSource,
    FolderSource,
    FrameSource,
    PiCameraSource,
    SyntheticSource,
    VideoFileSource,
    open_source,
    read_image,
)
from vision._synth import LightChange, SyntheticDie, SyntheticRoll, render_roll, shadow_video
from vision.errors import CalibrationError, CameraError, ImageError, ModelError, VisionError

__all__ = [
    "BOARD_SIZE",
    "CUBE_VALUES",
    "IMAGE_SUFFIXES",
    "MARKER_CENTRES",
    "MAX_EDGE_BLUR",
    "Arm",
    "BoardView",
    "Calibration",
    "CalibrationError",
    "CalibrationTable",
    "CameraError",
    "CameraSource",
    "CubeJson",
    "CubeReading",
    "DiceReader",
    "Die",
    "DieJson",
    "FolderSource",
    "FrameSource",
    "Image",
    "ImageError",
    "LightChange",
    "MarkerDetection",
    "ModelError",
    "PiCameraSource",
    "ReadingJson",
    "RollEvent",
    "RollReading",
    "RollWatcher",
    "SettleDetector",
    "SyntheticDie",
    "SyntheticRoll",
    "SyntheticSource",
    "Thrower",
    "Verdict",
    "VideoFileSource",
    "VisionError",
    "WatchState",
    "annotate",
    "calibrate",
    "calibration_file",
    "draw_arm",
    "edge_blur",
    "find_markers",
    "frame_change",
    "hand_crossing",
    "leaning_over",
    "load_calibration",
    "marker_image",
    "nudged",
    "open_source",
    "random_arm",
    "read_image",
    "render_roll",
    "save_calibration",
    "shadow_video",
    "with_noise",
    "without_die",
]

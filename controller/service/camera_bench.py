"""The set-up page's camera: the frame with the markers found, the board view, the figures.

Why apart from :mod:`~controller.service.camera`: the dice reader of the match steps its
own frames in its own thread; the page looks at one frame on demand, with a reader of its
own, so looking never disturbs a roll being read. Calibrating stores the calibration as
``tabula calibrate`` does (the same :func:`vision.calibrate` and
:func:`vision.save_calibration`, into ``[camera.calibration]`` of the configuration); the
running dice reader keeps the calibration it started with until the service restarts.

The page's frames come through a :class:`FrameTap` on the dice reader's own source: the
camera is opened once, by the reader, and the page looks at the frame it last took.

Every call blocks (OpenCV, the nets, the file): the page runs them in a thread.
"""

from __future__ import annotations

import base64
import math
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Self

import cv2
import numpy as np

from controller.match.errors import RefusedError
from hardware.board.json_types import JsonObject
from vision import (
    MAX_EDGE_BLUR,
    Calibration,
    CalibrationError,
    CameraError,
    DiceReader,
    FrameSource,
    Image,
    annotate,
    calibrate,
    calibration_file,
    edge_blur,
    find_markers,
    load_calibration,
    save_calibration,
)

__all__ = ["CameraBench", "FrameTap", "exposure"]


def _focus(frame: Image) -> JsonObject:
    """The focus as ``tabula doctor`` judges it: the blur of the sharpest edges (None for a
    flat picture, without an edge), the limit and the verdict."""
    blur = edge_blur(frame)
    flat = math.isinf(blur)
    return {
        "blur_px": None if flat else round(blur, 2),
        "limit_px": MAX_EDGE_BLUR,
        "sharp": not flat and blur <= MAX_EDGE_BLUR,
    }

_SHOWN_WIDTH = 640
"""The pictures are sent at most this wide: a phone's screen, and a small answer."""
_DARK, _BRIGHT = 5, 250
"""Grey levels at or beyond which a pixel is crushed black or blown white."""


def exposure(grey: Image) -> JsonObject:
    """The mean grey level and the parts of the image crushed black and blown white (%).

    >>> exposure(np.uint8([[0, 128], [255, 255]]))
    {'mean': 159.5, 'dark_pct': 25.0, 'bright_pct': 50.0}
    """
    return {
        "mean": round(float(grey.mean()), 1),
        "dark_pct": round(100.0 * float(np.mean(grey <= _DARK)), 1),
        "bright_pct": round(100.0 * float(np.mean(grey >= _BRIGHT)), 1),
    }


def _jpeg_url(image: Image) -> str:
    """``image`` as a JPEG data URL, at most :data:`_SHOWN_WIDTH` wide."""
    height, width = image.shape[:2]
    if width > _SHOWN_WIDTH:
        size = (_SHOWN_WIDTH, round(height * _SHOWN_WIDTH / width))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok, "OpenCV encodes any BGR uint8 image as JPEG"
    return "data:image/jpeg;base64," + base64.b64encode(data.tobytes()).decode("ascii")


class FrameTap:
    """A frame source passing on another's frames, keeping the last one for the page.

    Why: a camera is one device, read by the dice reader in its own thread; the page looks
    at the frame the reader last took rather than opening the camera a second time.
    Example::

        tap = FrameTap(lambda: open_source("0"))
        watcher = RollWatcher(tap.open, reader)       # the service's dice source
        bench = CameraBench(tap.latest, config_path)  # the set-up page's camera

    Args:
        open_source: opens the camera (again after an error, as the reader asks).
    """

    def __init__(self, open_source: Callable[[], FrameSource]) -> None:
        self._open = open_source
        self._source: FrameSource | None = None
        self._latest: Image | None = None
        self._lock = threading.Lock()

    def open(self) -> Self:
        """Open the camera; the tap is the source the reader reads.

        Raises:
            CameraError: the camera cannot be opened.
        """
        self._source = self._open()
        return self

    def read(self) -> Image | None:
        """The camera's next frame, kept as the latest."""
        if self._source is None:
            raise CameraError("the camera is not open")
        frame = self._source.read()
        if frame is not None:
            with self._lock:
                self._latest = frame
        return frame

    def latest(self) -> Image | None:
        """The last frame the camera gave (None before the first)."""
        with self._lock:
            return self._latest

    def close(self) -> None:
        """Close the camera (idempotent)."""
        source, self._source = self._source, None
        if source is not None:
            source.close()


class CameraBench:
    """The camera as the set-up page sees it.

    Args:
        frames: the camera's latest frame (BGR), or None when it gives none.
        config: the configuration file that holds ``[camera.calibration]``.
        reader: a dice reader for a calibration (None: uncalibrated); the page's own.
    """

    def __init__(
        self,
        frames: Callable[[], Image | None],
        config: Path,
        *,
        reader: Callable[[Calibration | None], DiceReader] | None = None,
    ) -> None:
        self._frames = frames
        self.config = config
        self._make_reader = reader or (lambda c: DiceReader(c, expected_dice=2))
        self._reader: tuple[Calibration | None, DiceReader] | None = None
        # One look at a time: two phones pressing Look would share the reader's nets,
        # which OpenCV does not run from two threads at once.
        self._busy = threading.Lock()

    def _frame(self) -> Image:
        try:
            frame = self._frames()
        except CameraError as error:
            raise RefusedError(f"the camera gives no frame: {error}") from None
        if frame is None:
            raise RefusedError("the camera gives no frame: is it plugged in and configured?")
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise RefusedError(
                f"the camera's frame is no colour picture: {frame.dtype} {frame.shape}"
            )
        return frame

    def _stored(self) -> Calibration | None:
        """The calibration in the configuration, None before the first one."""
        if not self.config.exists():
            return None
        try:
            return load_calibration(self.config)
        except CalibrationError as error:
            raise RefusedError(str(error)) from None

    def _dice_reader(self, calibration: Calibration | None) -> DiceReader:
        """The page's reader for ``calibration`` (made again only when it changes)."""
        if self._reader is None or self._reader[0] != calibration:
            self._reader = (calibration, self._make_reader(calibration))
        return self._reader[1]

    def look(self) -> JsonObject:
        """One frame: the markers found drawn on it, the board view, the focus and exposure
        figures, and the dice read on it.

        The board view uses the stored calibration, else the one the markers give now.

        Raises:
            RefusedError: the camera gives no frame, or the stored calibration is broken.
        """
        with self._busy:
            return self._look()

    def _look(self) -> JsonObject:
        frame = self._frame()
        detection = find_markers(frame)
        stored = self._stored()
        calibration, kind = stored, "stored"
        if stored is None:
            try:
                calibration, kind = calibrate(frame)[0], "found now, not stored"
            except CalibrationError:
                calibration, kind = None, "none"
        grey = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)
        reading = self._dice_reader(stored).read(frame)
        board = calibration.warp(frame) if calibration is not None else None
        return {
            "markers": sorted(detection.corners),
            "calibration": kind,
            "config": str(calibration_file(self.config)),
            "size": [int(frame.shape[1]), int(frame.shape[0])],
            "focus": _focus(frame),
            "exposure": exposure(grey),
            "dice": {
                "values": list(reading.values),
                "verdict": str(reading.verdict),
                "reason": reading.reason,
            },
            "frame": _jpeg_url(annotate(frame, detection, calibration)),
            "board": _jpeg_url(board) if board is not None else None,
        }

    def calibrate(self) -> JsonObject:
        """Find the markers in a frame and store the calibration in the configuration, as
        ``tabula calibrate`` does; then look again.

        Raises:
            RefusedError: no frame, fewer than four markers (named), or the configuration
                cannot be written; the configuration is then left as it was.
        """
        with self._busy:
            frame = self._frame()
            try:
                calibration, detection = calibrate(frame)
                stored = save_calibration(self.config, calibration)
            except CalibrationError as error:
                raise RefusedError(f"not calibrated: {error}") from None
            except OSError as error:
                target = calibration_file(self.config)
                raise RefusedError(f"cannot store the calibration in {target}: {error}") from None
            answer = self._look()
        answer["stored"] = str(stored)
        answer["markers"] = sorted(detection.corners)  # those the calibration used
        return answer

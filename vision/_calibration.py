"""Board calibration: ArUco markers at known places give a homography to a top-down view.

The reader then works in board coordinates, where "the right-hand half" and "whose side
of the board" are plain comparisons. The result lives in the service's TOML config under
``[camera.calibration]``; only that table is written, atomically.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

import cv2
import numpy as np
import numpy.typing as npt

from hardware.board import toml_text
from hardware.board.errors import os_reason
from hardware.files import write_whole
from vision._arrays import Image, narrow
from vision.errors import CalibrationError

#: Board view size in pixels (width, height): the board's playing area and frame.
BOARD_SIZE: tuple[int, int] = (640, 480)
_MARKER_INSET = 30.0
#: Board-view centres of the ArUco markers (DICT_4X4_50 ids 0..3), clockwise from the
#: top-left corner of the board's frame.
MARKER_CENTRES: dict[int, tuple[float, float]] = {
    0: (_MARKER_INSET, _MARKER_INSET),
    1: (BOARD_SIZE[0] - _MARKER_INSET, _MARKER_INSET),
    2: (BOARD_SIZE[0] - _MARKER_INSET, BOARD_SIZE[1] - _MARKER_INSET),
    3: (_MARKER_INSET, BOARD_SIZE[1] - _MARKER_INSET),
}
TABLE = ("camera", "calibration")
#: How far the frame that carries the markers reaches into the board view (pixels): the
#: markers, 24 pixels wide, and their quiet zone end 47 pixels in.
FRAME_WIDTH = 48


class CalibrationTable(TypedDict):
    """The ``[camera.calibration]`` table of the config (:meth:`Calibration.to_mapping`)."""

    homography: list[list[float]]
    board_size: list[int]
    frame_size: NotRequired[list[int]]


@dataclass(frozen=True, slots=True)
class Calibration:
    """A homography from camera pixels to the top-down board view of ``board_size``."""

    homography: tuple[tuple[float, float, float], ...]
    board_size: tuple[int, int] = BOARD_SIZE
    #: The camera frame's size, which places the camera over the board (its principal
    #: point is the frame's centre); None in calibrations made before it was kept.
    frame_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        h = self.homography
        if len(h) != 3 or any(len(row) != 3 for row in h):
            raise CalibrationError(f"invalid homography {h!r}: expected 3 rows of 3 numbers")
        if not all(math.isfinite(v) for row in h for v in row):
            raise CalibrationError(f"invalid homography {h!r}: not finite")
        if abs(float(np.linalg.det(self.matrix))) < 1e-12:
            raise CalibrationError(f"invalid homography {h!r}: singular")
        if len(self.board_size) != 2 or min(self.board_size) < 16:
            raise CalibrationError(f"invalid board_size {self.board_size!r}")
        if self.frame_size is not None and (len(self.frame_size) != 2
                                            or min(self.frame_size) < 16):
            raise CalibrationError(f"invalid frame_size {self.frame_size!r}")

    @property
    def matrix(self) -> npt.NDArray[np.float64]:
        """The homography as a 3 x 3 array."""
        return np.array(self.homography, dtype=np.float64)

    @classmethod
    def identity(cls, board_size: tuple[int, int] = BOARD_SIZE) -> Calibration:
        """A calibration for frames that already are the board view (synthetic camera)."""
        return cls(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), board_size)

    @property
    def field(self) -> tuple[int, int, int, int]:
        """The playing field in the board view (x1, y1, x2, y2): inside the frame, where
        dice may land; the frame and what lies on it are not searched."""
        w, h = self.board_size
        return (FRAME_WIDTH, FRAME_WIDTH, w - FRAME_WIDTH, h - FRAME_WIDTH)

    def warp(self, frame: Image) -> Image:
        """The top-down board view of a camera frame."""
        if frame.shape[1::-1] == self.board_size and np.allclose(self.matrix, np.eye(3)):
            return frame  # already the board view (synthetic camera)
        return narrow(cv2.warpPerspective(frame, self.matrix, self.board_size,
                                          flags=cv2.INTER_LINEAR), np.uint8)

    def to_mapping(self) -> CalibrationTable:
        """The calibration as the ``[camera.calibration]`` table."""
        table: CalibrationTable = {"homography": [list(r) for r in self.homography],
                                   "board_size": list(self.board_size)}
        if self.frame_size is not None:
            table["frame_size"] = list(self.frame_size)
        return table

    @classmethod
    def from_mapping(cls, table: Mapping[str, object], where: str = "[camera.calibration]"
                     ) -> Calibration:
        """The calibration stored in a config table.

        Raises:
            CalibrationError: a key is missing or malformed (named with ``where``).
        """
        try:
            rows = [_fields(row, 3) for row in _array(table["homography"])]
            homography = tuple((float(a), float(b), float(c)) for a, b, c in rows)
            board = _size(table.get("board_size", list(BOARD_SIZE)))
            seen = table.get("frame_size")
            frame = None if seen is None else _size(seen)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise CalibrationError(f"invalid calibration in {where}: {error!r}") from None
        return cls(homography, board, frame)


def _array(value: object) -> Sequence[object]:
    """A TOML array (any sequence) of a calibration table.

    Raises:
        TypeError: ``value`` is no sequence.
    """
    if not isinstance(value, Sequence):
        raise TypeError(f"expected an array, got {value!r}")
    return value


def _size(value: object) -> tuple[int, int]:
    """A (width, height) TOML array."""
    width, height = _fields(value, 2)
    return int(width), int(height)


def _fields(value: object, count: int) -> list[float | str]:
    """The first ``count`` numbers of a TOML array (numbers, or strings of numbers).

    Raises:
        TypeError: ``value`` is no sequence, or a field is no number nor string.
        IndexError: it has fewer than ``count`` fields.
    """
    fields = _array(value)
    out: list[float | str] = []
    for k in range(count):
        field = fields[k]
        if not isinstance(field, int | float | str):
            raise TypeError(f"expected a number, got {field!r}")
        out.append(field)
    return out


@dataclass(frozen=True, slots=True)
class MarkerDetection:
    """The markers found in a frame: id -> the four corner points in the image."""

    corners: Mapping[int, tuple[tuple[float, float], ...]]

    def centre(self, marker_id: int) -> tuple[float, float]:
        """The centre of one marker in the image."""
        pts = self.corners[marker_id]
        return (sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4)


def marker_image(marker_id: int, side: int) -> Image:
    """The calibration's ArUco marker ``marker_id`` (DICT_4X4_50), ``side`` pixels square:
    what is printed (``tabula calibration-sheet``) and rendered (the synthetic boards)."""
    return narrow(cv2.aruco.generateImageMarker(_dictionary(), marker_id, side), np.uint8)


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def find_markers(frame: Image) -> MarkerDetection:
    """Every ArUco marker (DICT_4X4_50) visible in a frame.

    A camera at an angle sees the far markers foreshortened to a few pixels a cell: when
    some of the four are missing, the frame is searched again enlarged twice.
    """
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found: dict[int, tuple[tuple[float, float], ...]] = {}
    for zoom in (1, 2):
        if zoom > 1:
            grey = cv2.resize(grey, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        corners, ids, _rejected = detector.detectMarkers(grey)
        if ids is not None:
            for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
                found.setdefault(int(marker_id), tuple(
                    ((x + 0.5) / zoom - 0.5, (y + 0.5) / zoom - 0.5) for x, y in
                    quad.reshape(4, 2).tolist()))
        if len(found) >= len(MARKER_CENTRES):
            break
    return MarkerDetection(found)


def calibrate(
    frame: Image,
    *,
    markers: Mapping[int, tuple[float, float]] = MARKER_CENTRES,
    board_size: tuple[int, int] = BOARD_SIZE,
) -> tuple[Calibration, MarkerDetection]:
    """Find the board's markers in a frame and compute the homography to the board view.

    Raises:
        CalibrationError: fewer than four of the expected markers are visible.
    """
    detection = find_markers(frame)
    ids = sorted(set(detection.corners) & set(markers))
    if len(ids) < 4:
        raise CalibrationError(
            f"found markers {sorted(detection.corners)!r}, need at least 4 of "
            f"{sorted(markers)!r} (ArUco DICT_4X4_50) to calibrate"
        )
    src = np.array([detection.centre(i) for i in ids], dtype=np.float64)
    dst = np.array([markers[i] for i in ids], dtype=np.float64)
    matrix, _inliers = cv2.findHomography(src, dst, 0)
    if matrix is None:
        raise CalibrationError(f"markers {ids!r} are degenerate (in a line?)")
    homography = tuple((float(r[0]), float(r[1]), float(r[2])) for r in matrix)
    return Calibration(homography, board_size, (frame.shape[1], frame.shape[0])), detection


def annotate(frame: Image, detection: MarkerDetection, calibration: Calibration | None) -> Image:
    """A copy of the frame showing the markers found and the board outline they give."""
    out = frame.copy() if frame.ndim == 3 else narrow(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR),
                                                      np.uint8)
    for marker_id, pts in detection.corners.items():
        poly = np.array(pts, dtype=np.int32)
        cv2.polylines(out, [poly], True, (0, 255, 0), 2)
        cv2.putText(out, str(marker_id), tuple(int(v) for v in poly[0]),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
    if calibration is not None:
        w, h = calibration.board_size
        inverse = np.linalg.inv(calibration.matrix)
        board = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], dtype=np.float64)
        outline = cv2.perspectiveTransform(board, inverse).astype(np.int32)
        cv2.polylines(out, [outline.reshape(4, 2)], True, (255, 0, 0), 2)
        middle = np.array([[[w / 2, 0], [w / 2, h]]], dtype=np.float64)
        line = cv2.perspectiveTransform(middle, inverse).astype(np.int32).reshape(2, 2)
        cv2.line(out, tuple(line[0].tolist()), tuple(line[1].tolist()), (255, 0, 255), 1)
    return out


_HEADER = re.compile(r"^\s*\[")
_OWN_HEADER = re.compile(r"^\s*\[\s*camera\s*\.\s*calibration\s*\]\s*(#.*)?$")


def _toml_table(calibration: Calibration) -> str:
    rows = ", ".join("[" + ", ".join(repr(v) for v in r) + "]" for r in calibration.homography)
    w, h = calibration.board_size
    frame = ("" if calibration.frame_size is None
             else "frame_size = [{}, {}]\n".format(*calibration.frame_size))
    return f"[camera.calibration]\nboard_size = [{w}, {h}]\n{frame}homography = [{rows}]\n"


def calibration_file(path: str | os.PathLike[str]) -> Path:
    """The file holding the calibration of the TOML config ``path``: the file its
    ``[camera] calibration`` names (relative to its folder), as the service reads it, or
    ``path`` itself, which then holds the ``[camera.calibration]`` table.

    Why: ``tabula calibrate --config`` and the set-up page are given the service's own
    configuration, which names a calibration file; writing the table into it would clash
    with that key.

    Raises:
        CalibrationError: ``path`` exists and is not valid TOML.
    """
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return target
    except OSError as error:
        raise CalibrationError(f"cannot read config {str(target)!r}: {os_reason(error)}") from None
    except ValueError as error:  # not UTF-8
        raise CalibrationError(f"config {str(target)!r} is not valid TOML: {error}") from None
    try:
        camera = toml_text.loads(text).get("camera", {})
    except ValueError as error:
        raise CalibrationError(f"config {str(target)!r} is not valid TOML: {error}") from None
    # [camera] not a table: load_calibration names it
    named = camera.get("calibration") if isinstance(camera, dict) else None
    if not isinstance(named, str):
        return target
    named_path = Path(named).expanduser()
    return named_path if named_path.is_absolute() else target.parent / named_path


def save_calibration(path: str | os.PathLike[str], calibration: Calibration) -> Path:
    """Create or update the ``[camera.calibration]`` table of the calibration file of the
    TOML config ``path`` (:func:`calibration_file`); the file written.

    Every other line of the file is kept. The file is written whole
    (:func:`~hardware.files.write_whole`): a crash or a power cut leaves the old file
    or the new one, with the old one's permissions and owner.

    Raises:
        CalibrationError: the existing file is not valid TOML.
    """
    target = calibration_file(path)
    try:
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        toml_text.loads(text)
    except ValueError as error:  # not UTF-8, or not TOML
        raise CalibrationError(f"config {str(target)!r} is not valid TOML: {error}") from None
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if _OWN_HEADER.match(line):
            skipping = True
            continue
        if skipping and _HEADER.match(line):
            skipping = False
        if not skipping:
            kept.append(line)
    body = "".join(kept)
    if body and not body.endswith("\n"):
        body += "\n"
    if body.strip():
        body += "\n"
    new_text = body + _toml_table(calibration)
    tomllib.loads(new_text)  # a table this writer produced must read back
    write_whole(target, new_text.encode())
    return target


def load_calibration(path: str | os.PathLike[str]) -> Calibration | None:
    """The calibration stored for a TOML config (:func:`calibration_file`), or None when it
    has none.

    Raises:
        CalibrationError: the file cannot be read, is not TOML, or the table is malformed.
    """
    target = calibration_file(path)
    try:
        data = toml_text.loads(target.read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(f"cannot read config {str(target)!r}: {os_reason(error)}") from None
    except ValueError as error:  # not UTF-8, or not TOML
        raise CalibrationError(f"config {str(target)!r} is not valid TOML: {error}") from None
    camera = data.get("camera", {})
    if not isinstance(camera, dict):
        raise CalibrationError(f"invalid calibration in {str(target)!r} [camera]: "
                               f"expected a table, got {camera!r}")
    table = camera.get("calibration")
    if table is None:
        return None
    return Calibration.from_mapping(table, f"{str(target)!r} [camera.calibration]")

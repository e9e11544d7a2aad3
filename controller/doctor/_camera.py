"""The dice camera: it gives frames, of what size, in focus, with the board's markers in view.

The frame comes from the source the service opens (``vision.open_source`` of ``[camera]
source``), so what passes here is what the service will see.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from controller.config import CameraConfig
from controller.doctor._finding import Finding, fail, ok, warn
from vision import (
    BOARD_SIZE,
    MARKER_CENTRES,
    MAX_EDGE_BLUR,
    Calibration,
    CalibrationError,
    CameraError,
    Image,
    ImageError,
    calibrate,
    edge_blur,
    load_calibration,
    open_source,
)

__all__ = ["MAX_MARKER_SHIFT", "WARM_UP_FRAMES", "check_camera"]

#: How far (board-view pixels) the markers may lie from where the calibration puts them:
#: half a die's width, beyond which a die near the bar may be judged on the wrong half.
MAX_MARKER_SHIFT = 8.0
#: Frames read before the one judged.
WARM_UP_FRAMES = 5
_CALIBRATE = (
    'set [camera] calibration = "/etc/tabula/camera.toml" in the configuration, then '
    "tabula calibrate --config CONFIG (it writes that file)"
)


def check_camera(camera: CameraConfig) -> list[Finding]:
    """Open the camera, read one frame, and check its size, focus and the board's markers."""
    if not camera.enabled:
        return [
            ok(
                "camera",
                "off ([camera] enabled = false): dice come from the buttons or the web view",
            )
        ]
    source_name = str(camera.source)
    frame: Image | None = None
    try:
        source = open_source(source_name)
        try:
            # A camera's first frames come before its exposure settles: judge a later one.
            for _ in range(WARM_UP_FRAMES):
                latest = source.read()
                if latest is None:  # a file's last frame
                    break
                frame = latest
        finally:
            source.close()
    except (CameraError, ImageError) as error:
        frame, why = None, str(error)
    else:
        why = f"camera {source_name!r} gave no frame"
    if frame is None:
        return [
            fail(
                "camera",
                why,
                "plug the camera in (ls /dev/video* lists USB cameras; the Pi camera is "
                'source = "picamera"), check [camera] source, and that the user is in '
                "group 'video'",
            )
        ]
    height, width = frame.shape[:2]
    try:
        calibration = None if camera.calibration is None else load_calibration(camera.calibration)
    except CalibrationError as error:
        calibration = None
        resolution = fail("camera resolution", f"{width}x{height}; {error}", _CALIBRATE)
    else:
        resolution = _resolution(calibration, width, height)
    return [
        ok("camera", f"{source_name!r} gives frames"),
        resolution,
        _focus(frame),
        _markers(frame, calibration),
    ]


def _resolution(calibration: Calibration | None, width: int, height: int) -> Finding:
    size = f"{width}x{height}"
    if calibration is None:
        return warn(
            "camera resolution",
            f"{size}; not calibrated: the whole frame is searched for dice",
            _CALIBRATE,
        )
    if calibration.frame_size not in (None, (width, height)):
        calibrated = "{}x{}".format(*calibration.frame_size)
        return fail(
            "camera resolution",
            f"{size}, but the calibration was made at {calibrated}: it no longer fits the board",
            _CALIBRATE,
        )
    if width < BOARD_SIZE[0] or height < BOARD_SIZE[1]:
        return warn(
            "camera resolution",
            f"{size}: smaller than the board view "
            "({}x{}): pips may be too small to read".format(*BOARD_SIZE),
            "choose a larger mode of the camera, or a better camera",
        )
    return ok("camera resolution", f"{size}, calibrated")


def _focus(frame: Image) -> Finding:
    blur = edge_blur(frame)
    if math.isinf(blur):
        return fail(
            "camera focus",
            "the picture is flat: no edge at all",
            "take the lens cap off, and light the board",
        )
    if blur > MAX_EDGE_BLUR:
        return fail(
            "camera focus",
            f"edges blur over {blur:.1f} px (at most {MAX_EDGE_BLUR} when sharp)",
            "turn the lens until the board's edges and the markers are crisp, clean it, "
            "and check the camera is not closer to the board than its focus range",
        )
    return ok("camera focus", f"edges blur over {blur:.1f} px: sharp")


def _markers(frame: Image, stored: Calibration | None) -> Finding:
    """The markers are found, and where the stored calibration expects them, if any."""
    try:
        _calibration, detection = calibrate(frame)
    except CalibrationError as error:
        return fail(
            "camera markers",
            str(error),
            f"put the board's {len(MARKER_CENTRES)} ArUco markers (tabula calibration-sheet "
            "prints them) in the camera's view, lit and uncovered",
        )
    found = ", ".join(str(marker) for marker in sorted(detection.corners))
    if stored is None:
        return ok("camera markers", f"markers {found} found: the board view can be calibrated")
    ids = sorted(set(detection.corners) & set(MARKER_CENTRES))
    seen = np.array([[detection.centre(marker) for marker in ids]], dtype=np.float64)
    placed = cv2.perspectiveTransform(seen, stored.matrix)[0]
    shift = max(
        math.dist(point, MARKER_CENTRES[marker]) for point, marker in zip(placed, ids, strict=True)
    )
    if shift > MAX_MARKER_SHIFT:
        return fail(
            "camera markers",
            f"markers {found} found {shift:.0f} px (of the board view) from where the "
            "calibration puts them: the camera or the board moved",
            f"fix the camera's mount, then calibrate again: {_CALIBRATE}",
        )
    return ok("camera markers", f"markers {found} found where the calibration puts them "
              f"(within {shift:.1f} px)")  # fmt: skip

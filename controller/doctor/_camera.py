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
    Calibration,
    CalibrationError,
    CameraError,
    Image,
    ImageError,
    calibrate,
    load_calibration,
    open_source,
)

__all__ = ["MAX_EDGE_BLUR", "MAX_MARKER_SHIFT", "WARM_UP_FRAMES", "check_camera", "edge_blur"]

#: Edge blur (px, at :data:`vision.BOARD_SIZE`'s width) above which the lens needs focusing.
#: Measured on rendered boards of five seeds, with and without markers and sensor noise, at
#: 640 and 1280 pixels wide: sharp 0.7-1.2; under a Gaussian blur of 1.25 board-view pixels
#: 1.4-1.7, where the first of the four ArUco markers (cells of 4 pixels) is lost.
MAX_EDGE_BLUR = 1.4
#: How far (board-view pixels) the markers may lie from where the calibration puts them:
#: half a die's width, beyond which a die near the bar may be judged on the wrong half.
MAX_MARKER_SHIFT = 8.0
#: Frames read before the one judged.
WARM_UP_FRAMES = 5
_CALIBRATE = (
    'set [camera] calibration = "/etc/tabula/camera.toml" in the configuration, then '
    "tabula calibrate --config CONFIG (it writes that file)"
)


def edge_blur(frame: Image) -> float:
    """How far the frame's sharpest edges spread, in pixels of a frame as wide as the board view.

    Why not the variance of the Laplacian: it measures what the picture holds as much as its
    focus (39 to 714 on sharp rendered boards) and grows with sensor noise. An edge of
    contrast ``c`` blurred by a Gaussian of sigma ``s`` has a steepest slope of
    ``c / (s * sqrt(2 pi))``: at each pixel of a strong edge (a local contrast of at least
    half the frame's), ``s`` from the local contrast and the slope; the sharpest edges
    (the 5th percentile) are the focus.
    """
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    grey = grey.astype(np.float32)
    width: int = grey.shape[1]
    scale = width / BOARD_SIZE[0]
    # A 3x3 Sobel sums 8 differences of neighbours: divided by 8, a slope per pixel.
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) / 8
    # The contrast around each pixel, over a window wider than a blur worth measuring.
    window = np.ones((2 * round(5 * scale) + 1,) * 2, np.uint8)
    local = cv2.dilate(grey, window) - cv2.erode(grey, window)
    strong = float(np.percentile(grey, 99) - np.percentile(grey, 1)) / 2
    edges = (local >= max(strong, 1.0)) & (slope > 0)
    if not edges.any():
        return math.inf  # a flat picture: no edge at all
    spreads = local[edges] / (slope[edges] * math.sqrt(2 * math.pi))
    return float(np.percentile(spreads, 5)) / scale


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

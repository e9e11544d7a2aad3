"""``tabula calibrate``: find the board's ArUco markers and store the board view."""

from __future__ import annotations

import argparse

HELP = "find the board markers in a camera frame, store the calibration, draw what was found"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula calibrate``."""
    parser.add_argument("--config", required=True, metavar="PATH",
                        help="the service's TOML config (the calibration goes to the file its "
                        "[camera] calibration names), or a file to hold [camera.calibration]")
    parser.add_argument("--source", default="0", metavar="SOURCE",
                        help="camera index, 'picamera', an image file, a folder or a video")
    parser.add_argument("--annotated", default="calibration.png", metavar="PATH",
                        help="where to write the annotated image (default calibration.png)")


def run(args: argparse.Namespace) -> int:
    """Calibrate from one frame; the annotated image is written even when it fails."""
    from pathlib import Path

    import cv2

    from vision import (
        IMAGE_SUFFIXES,
        CalibrationError,
        CameraError,
        annotate,
        calibrate,
        find_markers,
        open_source,
        read_image,
        save_calibration,
    )

    if Path(args.source).suffix.lower() in IMAGE_SUFFIXES:
        frame = read_image(args.source)
    else:
        source = open_source(args.source)
        try:
            first = source.read()
        finally:
            source.close()
        if first is None:
            raise CameraError(f"source {args.source!r} gave no frame")
        frame = first
    try:
        calibration, detection = calibrate(frame)
    except CalibrationError:
        cv2.imwrite(args.annotated, annotate(frame, find_markers(frame), None))
        print(f"annotated image (markers found): {args.annotated}")
        raise
    written = save_calibration(args.config, calibration)
    cv2.imwrite(args.annotated, annotate(frame, detection, calibration))
    print(f"markers {sorted(detection.corners)} found; calibration written to {written}; "
          f"annotated image: {args.annotated}")
    return 0

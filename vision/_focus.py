"""How sharp a camera's picture is: the spread of its sharpest edges, in board-view pixels.

Why here: ``tabula doctor`` and the set-up page judge the camera's focus with the same
figure and the same limit.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision._arrays import Image
from vision._calibration import BOARD_SIZE

__all__ = ["MAX_EDGE_BLUR", "edge_blur"]

#: Edge blur (px, at :data:`vision.BOARD_SIZE`'s width) above which the lens needs focusing.
#: Measured on rendered boards of five seeds, with and without markers and sensor noise, at
#: 640 and 1280 pixels wide: sharp 0.7-1.2; under a Gaussian blur of 1.25 board-view pixels
#: 1.4-1.7, where the first of the four ArUco markers (cells of 4 pixels) is lost.
MAX_EDGE_BLUR = 1.4


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

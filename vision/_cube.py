"""The doubling cube: where it stands and the face it shows, in any of several fonts.

Why apart from the dice: the cube is found by its shape, a square a little larger than a
die, and not only by its difference from the learnt board. The board is learnt between
rolls with the cube on it, so a cube that has not moved since is part of that board.

Its face is read by the nearest of digit masks drawn in OpenCV's Hershey fonts, at the
four right angles. The face is first reduced to its ink: binarised by Otsu's threshold,
the ink being the minority. One set of masks then reads a white cube with black digits
and a black cube with gold ones, under any light. Faces whose ink is round blobs (a die's
pips) are no cube.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision._model import CUBE_VALUES, Box, CubeReading

#: The fonts a cube's digits are drawn in: the renderer's and the reader's masks.
FONTS: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)
#: A face read less like its best mask than this (cosine similarity) is no cube face.
#: Cubes read right, every font left out in turn, were at 0.97 or more; the gaps between
#: white checkers on a light point, read as a 4 or a 64, at 0.85 to 0.93 (the demo's
#: rolls, where no cube lay: 12 such in 152 rolls at 0.85, none at 0.95).
MIN_SIMILARITY = 0.95
_FACE = 48  # pixels of the upright face the masks are compared on
_MASK = 16  # pixels of a mask's side
_INNER = 0.14  # share of the face's side left out at each edge (its rim, its shadow)


@dataclass(frozen=True, slots=True)
class CubeLook:
    """How a cube's face is drawn: font, stroke, italics and colours (BGR)."""

    font: int = cv2.FONT_HERSHEY_SIMPLEX
    weight: float = 1.0
    italic: bool = False
    face: tuple[int, int, int] = (240, 240, 240)
    ink: tuple[int, int, int] = (20, 20, 20)


def draw_face(value: int, size: int, look: CubeLook = CubeLook()) -> Image:
    """An upright cube face (``size`` pixels square, BGR) showing ``value``."""
    face = np.empty((size, size, 3), np.uint8)
    face[:] = look.face
    text = str(value)
    font = look.font | (cv2.FONT_ITALIC if look.italic else 0)
    thickness = max(1, round(size / 24 * look.weight))
    # The digits fill about three fifths of the face's width, in whichever font.
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = 0.6 * size / max(tw, th * 0.8)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    cv2.putText(face, text, ((size - tw) // 2, (size + th) // 2), font, scale, look.ink,
                thickness, cv2.LINE_AA)
    return face


def ink_mask(face: Image) -> npt.NDArray[np.float32] | None:
    """The face's ink as a unit vector (its digits, scaled to a fixed box), or None when
    the face has no ink that could be digits (blank, noise, or a die's round pips)."""
    grey = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    s = grey.shape[0]
    m = round(s * _INNER)
    inner = grey[m : s - m, m : s - m]
    _t, binary = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if np.count_nonzero(binary) > binary.size / 2:
        binary = cv2.bitwise_not(binary)
    count, labels, stats, _c = cv2.connectedComponentsWithStats(binary)
    area = inner.size
    parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.004 * area]
    ink = sum(int(stats[i, cv2.CC_STAT_AREA]) for i in parts)
    if not parts or not 0.03 * area <= ink <= 0.45 * area:
        return None
    if all(_pip(stats[i], inner.shape[0]) for i in parts):
        return None  # a die's pips, not digits
    keep = np.isin(labels, parts).astype(np.uint8) * 255
    x, y, w, h = cv2.boundingRect(keep)
    # The ink's box, its longer side scaled to the mask: fonts differ in size, not shape.
    side = max(w, h)
    box = np.zeros((side, side), np.uint8)
    box[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = \
        keep[y : y + h, x : x + w]
    small = cv2.resize(box, (_MASK, _MASK), interpolation=cv2.INTER_AREA).astype(np.float32)
    # Strokes of any weight overlap.
    small = narrow(cv2.GaussianBlur(small, (0, 0), 0.8), np.float32)
    norm = float(np.linalg.norm(small))
    return (small.ravel() / norm) if norm > 0 else None


def _pip(stat: npt.NDArray[np.int32], side: int) -> bool:
    """Whether a component is pip-like: small, as wide as tall, filling its box like a
    disc (a digit spans most of the face's height)."""
    w, h, area = stat[cv2.CC_STAT_WIDTH], stat[cv2.CC_STAT_HEIGHT], stat[cv2.CC_STAT_AREA]
    return bool(max(w, h) <= 0.35 * side and 0.75 <= w / h <= 1.33 and area >= 0.68 * w * h)


@functools.cache
def _masks(fonts: tuple[int, ...]) -> tuple[npt.NDArray[np.float32], tuple[int, ...]]:
    """Every font's mask of every value at the four right angles, and their values."""
    vectors, values = [], []
    for font in fonts:
        for weight in (0.6, 1.0, 1.6):
            for italic in (False, True):
                look = CubeLook(font, weight, italic)
                for value in CUBE_VALUES:
                    face = draw_face(value, _FACE, look)
                    for k in range(4):
                        vector = ink_mask(np.rot90(face, k).copy())
                        if vector is not None:
                            vectors.append(vector)
                            values.append(value)
    return np.stack(vectors), tuple(values)


def read_face(face: Image, fonts: tuple[int, ...] = FONTS) -> tuple[int, float] | None:
    """The value an upright-or-turned cube face shows and the similarity of its nearest
    mask (of ``fonts``' masks), or None when it is no cube face."""
    vector = ink_mask(face)
    if vector is None:
        return None
    masks, values = _masks(fonts)
    similarity = masks @ vector
    best = int(np.argmax(similarity))
    if similarity[best] < MIN_SIMILARITY:
        return None
    return values[best], float(similarity[best])


def cube_side(centre: tuple[float, float], size: tuple[int, int]) -> str:
    """Where a cube at ``centre`` of the board view stands: ``centre`` (on the bar, half
    way up), else ``near`` (the bottom half) or ``far``."""
    (cx, cy), (w, h) = centre, size
    if abs(cx - w / 2) < 0.06 * w and abs(cy - h / 2) < 0.15 * h:
        return "centre"
    return "near" if cy > h / 2 else "far"


def find_cube(view: Image, die_side: float, *, mask: Image | None = None,
              keep_out: tuple[Box, ...] = (), fonts: tuple[int, ...] = FONTS
              ) -> CubeReading | None:  # fmt: skip
    """The cube in a board view: the likeliest square of a cube's size whose face reads.

    Squares come from the view's edges (a cube that is part of the learnt board) and from
    ``mask``, the difference from the learnt board. ``keep_out`` are boxes where no cube is
    looked for (the calibration markers). ``fonts`` are the masks' (all but one of them,
    to measure how the reader does on a font it has not seen).
    """
    grey = narrow(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), np.uint8)
    # The squares are looked for at half scale (a quarter of the time); faces are read
    # at full scale.
    half = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    edges = cv2.dilate(cv2.Canny(half, 60, 160), np.ones((2, 2), np.uint8))
    # Each outline with its scale to the view's pixels.
    contours = [(c, 2) for c in cv2.findContours(edges, cv2.RETR_LIST,
                                                 cv2.CHAIN_APPROX_SIMPLE)[0]]
    if mask is not None:
        contours += [(c, 1) for c in cv2.findContours(mask, cv2.RETR_EXTERNAL,
                                                      cv2.CHAIN_APPROX_SIMPLE)[0]]
    best: CubeReading | None = None
    tried: set[tuple[int, int, int]] = set()
    for found_at, scale in contours:
        # The smallest rectangle about an outline is no larger than its upright box:
        # the many outlines whose box is smaller than a cube's face are left at once.
        _x, _y, bw, bh = cv2.boundingRect(found_at)
        if bw * bh * scale * scale <= (1.1 * die_side) ** 2:
            continue
        # The rectangle of the outline as found, then scaled (the same numbers as the
        # scaled outline's: a power of two is exact), so that only the few outlines of a
        # cube's size are scaled.
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(found_at)
        cx, cy, rw, rh = cx * scale, cy * scale, rw * scale, rh * scale
        side = math.sqrt(rw * rh)
        if not 1.1 * die_side < side < 2.2 * die_side or max(rw, rh) > 1.25 * min(rw, rh):
            continue
        contour = found_at * scale
        area = cv2.contourArea(contour)
        if area < 0.4 * rw * rh:
            continue  # not square but a corner, a line's bend
        if area > 0.8 * math.pi * cv2.minEnclosingCircle(contour)[1] ** 2:
            continue  # round: a checker (a square fills 64% of its circle)
        if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in keep_out):
            continue
        # The inside and the outside of one edge's ring are one square: read once.
        key = (round(cx / 4), round(cy / 4), round(side / 4))
        if key in tried:
            continue
        tried.add(key)
        found = read_face(_upright(grey, (cx, cy), side, angle), fonts)
        if found is None:
            continue
        value, score = found
        if best is None or score > best.confidence:
            x, y, w, h = cv2.boundingRect(contour)
            best = CubeReading(value, (x, y, x + w, y + h),
                               cube_side((cx, cy), (view.shape[1], view.shape[0])),
                               min(1.0, score))
    return best


def _upright(grey: Image, centre: tuple[float, float], side: float, angle: float) -> Image:
    """The square of ``side`` at ``centre`` turned by ``angle`` degrees, as a face of
    :data:`_FACE` pixels (a right-angle turn of the face is left to the masks)."""
    m = cv2.getRotationMatrix2D(centre, angle, _FACE / side)
    m[0, 2] += _FACE / 2 - centre[0]
    m[1, 2] += _FACE / 2 - centre[1]
    return narrow(cv2.warpAffine(grey, m, (_FACE, _FACE), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE), np.uint8)

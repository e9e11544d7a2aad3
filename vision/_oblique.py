"""A camera at an angle: where it stands over the board, and the top faces of the dice.

The calibration warps the frame to the board's plane. A die is a cube: in that view its
top face is still an exact square (a central projection maps the plane of the tops onto
the board's plane by a homothety about the camera's foot), but it lies farther from the
camera than the die does, and the side faces turned to the camera fill the space between.
At 60 degrees from vertical they are wider than the top itself. So the reader needs the
camera's place: :func:`camera_pose` recovers it from the board's homography alone
(square pixels, principal point at the frame's centre), :func:`top_faces` keeps the
top face of each blob, and :func:`footprint` says where the die stands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Contour, Image, narrow
from vision._detect import Candidate

Floats = npt.NDArray[np.float64]

#: Below this, in units of the board view, the side faces' band is under a pixel: the
#: camera is treated as looking straight down.
_MIN_BAND = 1.0
#: A top piece this much longer toward the camera than wide holds two dice's tops.
_ROW = 1.5
#: A dent this deep, over the blob's width, is a waist between two dice.
_NECK = 0.15
#: The band measured on upright dice over the band of their top piece's size: the top
#: piece comes out a little large (measured on rendered dice, 30 to 60 degrees: 0.84 to
#: 0.90 in the median).
_BAND_SEEN = 0.87
#: The smaller piece of a cut holds at least this share of the blob: a die.
_HALF = 0.3


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera is, in board-view units: the point of the board's plane under it
    (``foot``, often outside the board) and its ``height`` above that plane."""

    foot: tuple[float, float]
    height: float
    #: The focal length in frame pixels: measured, or assumed when the camera looks
    #: straight down (then the homography does not tell it).
    focal: float
    focal_measured: bool


def focal_length(board_to_frame: Floats, frame_size: tuple[int, int]) -> float | None:
    """The focal length (pixels) a homography of a plane implies, or None when it does
    not say (a camera looking straight down: no perspective to measure).

    Square pixels and the principal point at the frame's centre are assumed; the two
    constraints of a rotation's orthonormal columns then give it in least squares.
    """
    w, h = frame_size
    centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]) @ board_to_frame
    h1, h2 = centred[:, 0], centred[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    if not float(a @ a) > 0:
        return None  # the board view itself (an identity): nothing to measure
    inverse_square = -float(a @ b) / float(a @ a)
    if inverse_square <= 0:
        return None
    focal = 1 / math.sqrt(inverse_square)
    # Far outside any webcam's lens: the perspective was too faint to measure.
    return focal if 0.3 * w < focal < 5 * w else None


def camera_pose(camera_to_board: Floats, frame_size: tuple[int, int]) -> CameraPose:
    """The camera's place over the board from the calibration's homography.

    When the focal length cannot be measured (a camera straight over the board), that of
    a common webcam (a field of view of about 56 degrees across) is assumed: the side
    faces are then narrow and an error in it matters little.
    """
    board_to_frame = narrow(np.linalg.inv(camera_to_board), np.float64)
    measured = focal_length(board_to_frame, frame_size)
    w, h = frame_size
    focal = measured if measured is not None else 0.95 * w
    k_inv = np.array([[1 / focal, 0, -w / 2 / focal], [0, 1 / focal, -h / 2 / focal], [0, 0, 1]])
    m = k_inv @ board_to_frame
    scale = 2 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0:
        scale = -scale  # the board is in front of the camera
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    u, _s, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    centre = -rotation.T @ t
    return CameraPose((float(centre[0]), float(centre[1])), abs(float(centre[2])), focal,
                      measured is not None)


def _line_kernel(dx: float, dy: float) -> tuple[Image, tuple[int, int]]:
    """A structuring element holding the segment from its anchor to (dx, dy)."""
    x0, y0 = max(0, -round(dx)), max(0, -round(dy))
    kernel = np.zeros((abs(round(dy)) + 1, abs(round(dx)) + 1), np.uint8)
    cv2.line(kernel, (x0, y0), (x0 + round(dx), y0 + round(dy)), 1, 1)
    return kernel, (x0, y0)


@dataclass(frozen=True, slots=True)
class Outline:
    """A blob of the board view and how far its shape is from an upright die's there."""

    hull: Contour
    #: An aspect compared as :attr:`Candidate.aspect` is: about 1 for an upright die (its
    #: side faces' band as its top predicts), more for a leaning one.
    elongation: float


@dataclass(frozen=True, slots=True)
class _Extent:
    """A blob's extents as the camera sees it."""

    toward: Floats  # the unit vector from the blob to the camera's foot
    length: float  # toward the camera
    width: float  # across
    ratio: float  # the side faces' band of a top 1 wide, there


def _extent(points: Floats, pose: CameraPose) -> _Extent | None:
    """The extents of a blob's outline points (None right under the camera)."""
    toward = np.array(pose.foot) - points.mean(axis=0)
    distance = float(np.linalg.norm(toward))
    if distance == 0:
        return None
    toward /= distance
    across = np.array([-toward[1], toward[0]])
    return _Extent(toward, float(np.ptp(points @ toward)), float(np.ptp(points @ across)),
                   distance / pose.height)


def top_faces(mask: Image, pose: CameraPose, *, min_area: float = 80.0
              ) -> tuple[Image, list[Outline]]:
    """The foreground mask of the board view with each blob cut to the top face of a die,
    and each blob's outline.

    Seen from the camera's foot, a die's blob is its top square swept toward the camera by
    the side faces' band: the top is what stays when the blob is eroded by that band
    toward the camera. Measured on the blob, the band is its length toward the camera
    less its width across (a square's extents along any two perpendicular directions are
    equal); it is kept within what an upright die of that width can show, so that
    touching dice and leaning ones still give a top-sized piece. The band the top's size
    predicts then tells an upright die from a leaning one. A blob longer than one die can
    be holds two, one behind the other: it is cut at its waist first.
    """
    out = np.zeros_like(mask)
    outlines: list[Outline] = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for found in contours:
        blob = narrow(found, np.int32)
        if cv2.contourArea(blob) < min_area:
            # A speck: maybe pips of a face lost against the board, which the dice finder
            # joins to the die beside them.
            cv2.drawContours(out, [blob], -1, 255, cv2.FILLED)
            continue
        extent = _extent(blob.reshape(-1, 2).astype(np.float64), pose)
        pieces = [blob]
        if extent is not None and extent.length > extent.width * (1 + 1.1 * extent.ratio):
            pieces = _cut_neck(blob, min_area)
        for piece in pieces:
            _top_face(out, outlines, piece, pose)
    return out, outlines


def _top_face(out: Image, outlines: list[Outline], contour: Contour,
              pose: CameraPose) -> None:
    """Draw into ``out`` the top face of one blob (:func:`top_faces`), add its outline."""
    # A die is convex: its hull restores faces partly lost against a board of their
    # colour (a white die on an ivory point), which would cut the erosion short.
    hull = narrow(cv2.convexHull(contour), np.int32)
    extent = _extent(hull.reshape(-1, 2).astype(np.float64), pose)
    if extent is None:
        return
    length, width, ratio = extent.length, extent.width, extent.ratio
    band = min(max(length - width, 0.9 * ratio * width / math.sqrt(2)), 1.1 * ratio * width)
    x, y, w, h = cv2.boundingRect(hull)
    pad = math.ceil(band) + 2
    blob = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(blob, [hull - [x - pad, y - pad]], -1, 255, cv2.FILLED)
    if band >= _MIN_BAND:
        kernel, anchor = _line_kernel(*(extent.toward * band))
        blob = narrow(cv2.erode(blob, kernel, anchor=anchor), np.uint8)
        blob = narrow(cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                      np.uint8)
    if _split_row(blob, extent.toward):
        # Dice in a row toward the camera: the outline is several dice's, no lean.
        outlines.append(Outline(hull, 1.0))
    else:
        outlines.append(Outline(hull, _elongation(blob, (x - pad, y - pad), pose, length,
                                                  width)))
    region = out[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
    piece = blob[max(0, pad - y) : max(0, pad - y) + region.shape[0],
                 max(0, pad - x) : max(0, pad - x) + region.shape[1]]
    np.maximum(region, piece, out=region)


def _cut_neck(contour: Contour, min_area: float) -> list[Contour]:
    """A blob cut in two across its narrowest waist, when it has one: two dice touching
    in the view (a die's own outline is convex, or has one bite where its face matched
    the board). The pieces smaller than ``min_area`` are dropped."""
    defects = cv2.convexityDefects(contour, cv2.convexHull(contour, returnPoints=False))
    (_c, (rw, rh), _a) = cv2.minAreaRect(contour)
    deep = [] if defects is None else sorted(
        (int(d[3]) / 256, int(d[2])) for d in defects.reshape(-1, 4)
        if int(d[3]) / 256 > _NECK * min(rw, rh))
    if len(deep) < 2:
        return [contour]
    (_d1, i), (_d2, j) = deep[-1], deep[-2]
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(blob, [contour - [x - 1, y - 1]], -1, 255, cv2.FILLED)
    a, b = contour[i, 0] - [x - 1, y - 1], contour[j, 0] - [x - 1, y - 1]
    cv2.line(blob, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 0, 2)
    pieces, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    areas = sorted((cv2.contourArea(p) for p in pieces), reverse=True)
    # Two dice make two halves; a bite in one die's outline makes a sliver.
    if len(areas) < 2 or areas[1] < _HALF * cv2.contourArea(contour):
        return [contour]
    return [narrow(p, np.int32) + np.array([x - 1, y - 1], np.int32) for p in pieces
            if cv2.contourArea(p) >= min_area]


def _split_row(tops: Image, toward: Floats) -> bool:
    """Cut apart, in place, the top faces of dice lying in a row toward the camera, and
    say whether there were any.

    The farther die's side faces reach the nearer die's top, so the erosion leaves one
    piece from the far top to the near top. Each top is as long toward the camera as it
    is wide (a square), so the piece keeps its far and its near end, a width each.
    """
    count, labels = cv2.connectedComponents(tops)
    split = False
    for label in range(1, count):
        ys, xs = np.nonzero(labels == label)
        along = xs * toward[0] + ys * toward[1]
        width = float(np.ptp(xs * -toward[1] + ys * toward[0])) + 1
        near, far = float(along.max()), float(along.min())  # "toward" points to the camera
        if near - far < _ROW * width:
            continue
        # Between the two tops, or (tops touching) a cut at the middle.
        low, high = far + width, near - width
        if high - low < 2:
            low, high = (far + near) / 2 - 1, (far + near) / 2 + 1
        middle = (along > low) & (along < high)
        tops[ys[middle], xs[middle]] = 0
        split = True
    return split


def _elongation(tops: Image, origin: tuple[int, int], pose: CameraPose, length: float,
                width: float) -> float:
    """How far a blob is from an upright die with its largest top piece, as an aspect: 1
    plus the error of its side faces' band over the top's side (and a quarter of the
    band: a long band is measured less surely).

    A die leaning toward or away from the camera shows a band of another length, one
    leaning across it a wider outline. Measured on rendered rolls (seeds 1000-1059 and,
    leaning, 2000-2059), with :attr:`DiceReader.max_aspect` 1.17: 0, 1.9 and 3.3% of
    upright dice flagged at 30, 45 and 60 degrees, 74, 73 and 87% of leaning ones.
    """
    pieces, _ = cv2.findContours(tops, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not pieces:
        return 1.0
    (cx, cy), (rw, rh), _angle = cv2.minAreaRect(max(pieces, key=cv2.contourArea))
    side = math.sqrt(max(1.0, rw * rh))
    at = math.hypot(cx + origin[0] - pose.foot[0], cy + origin[1] - pose.foot[1])
    expected = _BAND_SEEN * band(at, side, pose)
    # A square seen from any side is at most sqrt(2) times its side across.
    error = abs(length - width - expected) / (side + expected / 4)
    return max(1 + error, width / (math.sqrt(2) * side))


def _outline_at(point: tuple[float, float], outlines: list[Outline]) -> Outline | None:
    for outline in outlines:
        if cv2.pointPolygonTest(outline.hull, point, False) >= 0:
            return outline
    return None


def seen_field(field: tuple[int, int, int, int], pose: CameraPose, tallest: float,
               view: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where the dice standing on ``field`` are seen in a board view of size ``view``: the
    field grown on its sides away from the camera, as far as the top face of a die
    ``tallest`` high is moved there (:func:`footprint`'s homothety, inverted). A die
    standing near the far edge shows its top beyond the field: cutting the view at the
    field lost it."""
    grow = (pose.height + tallest) / pose.height
    fx, fy = pose.foot
    x1, y1, x2, y2 = field
    xs = (x1, x2, fx + (x1 - fx) * grow, fx + (x2 - fx) * grow)
    ys = (y1, y2, fy + (y1 - fy) * grow, fy + (y2 - fy) * grow)
    return (max(0, math.floor(min(xs))), max(0, math.floor(min(ys))),
            min(view[0], math.ceil(max(xs))), min(view[1], math.ceil(max(ys))))


def band(at: float, side: float, pose: CameraPose) -> float:
    """The length of the side faces' band of an upright die ``side`` wide whose top is
    seen ``at`` from the camera's foot, in the board view."""
    return at * side / (pose.height + side)


def longest_outline(field: tuple[int, int, int, int], pose: CameraPose, side: float) -> float:
    """How many times its own side the outline of an upright die ``side`` wide is long in
    the board view (its top and the side faces' band), at the field's point farthest from
    the camera."""
    fx, fy = pose.foot
    x1, y1, x2, y2 = field
    far = max(math.hypot(x - fx, y - fy) for x in (x1, x2) for y in (y1, y2))
    return 1 + band(far, side, pose) / side


def footprint(candidate: Candidate, pose: CameraPose, outlines: list[Outline]) -> Candidate:
    """A die read on its top face, moved to where it stands on the board, its aspect that
    of its whole outline against an upright die's (:func:`top_faces`).

    The top's plane maps to the board's by a homothety about the camera's foot, of ratio
    ``height / (height + side)`` for a top ``side`` wide in the board view.
    """
    outline = _outline_at(candidate.center, outlines)
    aspect = max(candidate.aspect, outline.elongation if outline is not None else 1.0)
    ratio = pose.height / (pose.height + candidate.side)
    fx, fy = pose.foot

    def moved(x: float, y: float) -> tuple[float, float]:
        return fx + (x - fx) * ratio, fy + (y - fy) * ratio

    x0, y0 = moved(candidate.box[0], candidate.box[1])
    x1, y1 = moved(candidate.box[2], candidate.box[3])
    box = (math.floor(min(x0, x1)), math.floor(min(y0, y1)), math.ceil(max(x0, x1)),
           math.ceil(max(y0, y1)))
    return replace(candidate, center=moved(*candidate.center), box=box,
                   side=candidate.side * ratio, aspect=aspect,
                   pip_list=tuple(moved(*p) for p in candidate.pip_list))

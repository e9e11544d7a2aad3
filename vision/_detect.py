"""Finding dice in an image and counting their pips: the pure OpenCV core of the reader."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Contour, Image, narrow
from vision._layout import fit_layouts
from vision.errors import VisionError


@dataclass(frozen=True, slots=True)
class Candidate:
    """One die found in the image, before the verdict logic looks at it."""

    value: int
    confidence: float
    box: tuple[int, int, int, int]
    center: tuple[float, float]
    side: float
    aspect: float
    pips: int
    pip_list: tuple[tuple[float, float], ...] = ()


def _background(image: Image, scale: int = 8, kernel: int = 9) -> Image:
    h, w = image.shape[:2]
    size = (max(1, w // scale), max(1, h // scale))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, kernel)
    return narrow(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


#: How much wider than the mask's pixels the box :func:`_clean` works in is: the closing
#: dilates 2 pixels out, and the erosions must still see a ring of zeros inside the box
#: (3 is the least that gives the whole frame's result; 8 leaves room).
_CLEAN_REACH = 8


def _clean(mask: Image) -> Image:
    """The mask closed, opened and with its small holes filled.

    Only the box around the mask's pixels is worked on, with a margin wider than the
    operations reach: the result is the same as on the whole frame, in a fraction of the
    time when the dice cover little of it.
    """
    out = np.zeros_like(mask)
    x, y, w, h = cv2.boundingRect(mask)
    if not w:
        return out
    x0, y0 = max(0, x - _CLEAN_REACH), max(0, y - _CLEAN_REACH)
    x1 = min(mask.shape[1], x + w + _CLEAN_REACH)
    y1 = min(mask.shape[0], y + h + _CLEAN_REACH)
    box = cv2.morphologyEx(mask[y0:y1, x0:x1], cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    box = cv2.morphologyEx(box, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Fill the holes a die's face leaves (a white face on a light board), but not the
    # inside of a large ring such as a tray's rim.
    contours, hierarchy = cv2.findContours(box, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        max_hole = 0.02 * mask.shape[0] * mask.shape[1]
        holes = [c for c, h in zip(contours, hierarchy[0], strict=True)
                 if h[3] >= 0 and cv2.contourArea(c) < max_hole]
        cv2.drawContours(box, holes, -1, 255, cv2.FILLED)
    out[y0:y1, x0:x1] = box
    return out


def _max_channel(image: Image) -> Image:
    """Per-pixel maximum over the colour channels (cv2: numpy's axis reduction is slow)."""
    b, g, r = cv2.split(image)
    return narrow(cv2.max(cv2.max(b, g), r), np.uint8)


def _min_channel(image: Image) -> Image:
    """Per-pixel minimum over the colour channels."""
    b, g, r = cv2.split(image)
    return narrow(cv2.min(cv2.min(b, g), r), np.uint8)


#: A gain of 1 in the 8-bit gain maps of :func:`light_gain` (8 bits: OpenCV's median
#: filter takes kernels over 5 on them only). Gains up to 4, in steps of 1/64.
GAIN_ONE = 64
#: The light's model's median window, in cells of 1/8 of the view: a die seen from
#: straight above covers a sixth of it, two touching dice a third.
LIGHT_KERNEL = 9


def light_gain(image: Image, background: Image, *, scale: int = 8,
               kernel: int = LIGHT_KERNEL) -> Image:
    """How much more light each colour of ``image`` gets than the learnt empty board did
    (``GAIN_ONE`` for the same light), at 1/``scale`` of its size.

    Lamps, daylight and a player's shadow change between the empty board and the roll:
    the change is a gain that varies smoothly over the board, or steps at a shadow's soft
    edge. It is the ratio of the two images, median-filtered over ``kernel`` cells: a die,
    a few cells, is an outlier the median leaves out; a shadow's straight edge is kept.
    """
    h, w = image.shape[:2]
    size = (max(1, w // scale), max(1, h // scale))
    # Sampled, not averaged (a tenth of the time): the median below does the averaging.
    small = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR).astype(np.float32)
    board = cv2.resize(background, size, interpolation=cv2.INTER_LINEAR).astype(np.float32)
    # The offset keeps the ratio of dark pixels (sensor noise over little light) tame.
    gain = cv2.convertScaleAbs((small + 8) / (board + 8), alpha=GAIN_ONE)
    return narrow(cv2.medianBlur(gain, kernel), np.uint8)


def foreground(image: Image, background: Image | None = None, *,
               model_light: bool = True, light_kernel: int = LIGHT_KERNEL) -> Image:
    """Mask of what differs from the board: from an empty-board image, else estimated.

    With ``background`` (the empty board, learnt between rolls), the change of the room's
    light since is modelled (:func:`light_gain`) and left out, and so are the dice's own
    shadows: a shadow darkens every channel by about the same ratio. Without
    ``model_light`` the light is taken as it was: a large even thing (an arm, a sleeve)
    is then not mistaken for a change of light (:mod:`vision._cover` tells the two apart
    by the board's own structure instead). ``light_kernel``: the light's model's window
    (:func:`light_gain`), larger where dice are seen larger (at an angle).
    """
    if background is None:
        # The estimate is rough near every object: a higher threshold keeps touching
        # dice apart (measured on the real photos).
        bg = _background(image)
        diff = _max_channel(narrow(cv2.absdiff(cv2.GaussianBlur(image, (3, 3), 0), bg),
                                   np.uint8))
        return _clean(narrow(cv2.threshold(diff, 40, 255, cv2.THRESH_BINARY)[1], np.uint8))
    h, w = image.shape[:2]
    if model_light:
        gain = light_gain(image, background, kernel=light_kernel)
        lit = cv2.multiply(background, cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR),
                           scale=1 / GAIN_ONE)  # the board under today's light
        # A difference of 28 under the learnt board's light: a die in a shadow stands out
        # from the board as much as it did in the light.
        limit = cv2.resize(cv2.convertScaleAbs(_min_channel(gain), alpha=28 / GAIN_ONE),
                           (w, h), interpolation=cv2.INTER_LINEAR)
        mask = narrow(cv2.compare(_max_channel(narrow(cv2.absdiff(image, lit), np.uint8)),
                                  limit, cv2.CMP_GT), np.uint8)
    else:
        lit = background
        mask = narrow(cv2.threshold(_max_channel(narrow(cv2.absdiff(image, lit), np.uint8)),
                                    28, 255, cv2.THRESH_BINARY)[1], np.uint8)
    x, y, rw, rh = cv2.boundingRect(mask)  # of the changed pixels
    if rw:
        # Only the changed pixels are tested for shadow (speed), by their index in the
        # box that holds them. A shadow's fringe on a colour edge, or the light's model a
        # little off, spreads the ratio of one pixel's channels: their neighbourhood's
        # ratio is measured instead.
        x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(w, x + rw + 1), min(h, y + rh + 1)
        box = np.ascontiguousarray(mask[y0:y1, x0:x1])
        near, board = (cv2.GaussianBlur(np.ascontiguousarray(im[y0:y1, x0:x1]), (3, 3), 0)
                       for im in (image, lit))
        # A shadow darkens every channel (the ratio's largest below 1 exactly when each
        # channel is darker): only those pixels are measured, a few of a die's.
        darker = _min_channel(narrow(cv2.compare(near, board, cv2.CMP_LT), np.uint8))
        changed = np.flatnonzero(cv2.bitwise_and(box, darker))
        near, board = (im.reshape(-1, 3)[changed].astype(np.float32) for im in (near, board))
        ratio = (near + 8) / (board + 8)
        # Each channel apart: numpy reduces an axis of three slowly.
        rmax = np.maximum(np.maximum(ratio[:, 0], ratio[:, 1]), ratio[:, 2])
        rmin = np.minimum(np.minimum(ratio[:, 0], ratio[:, 1]), ratio[:, 2])
        shadow = (rmax < 1.0) & (rmin > 0.4) & (rmax - rmin < 0.22)
        box.reshape(-1)[changed[shadow]] = 0
        mask[y0:y1, x0:x1] = box
    return _clean(mask)


#: The side a die's patch is enlarged to before its pips are looked for, and the step
#: between the blob detector's thresholds: the detector's time grows with both (64 and 8
#: before: 1.6 ms more a six-dice read, the same verdicts; vision/models/README.md).
PIP_ZOOM_SIDE = 48.0
PIP_THRESHOLD_STEP = 12


def _blobs(score: Image, inner: Image, side: float, floor: float
           ) -> list[tuple[float, float, float]]:
    """Round, pip-sized blobs that stay stable over several thresholds of a pip score map,
    where the mask ``inner`` is not 0.

    Stability over thresholds (OpenCV's blob detector) beats one global threshold: a
    pip is a bright compact spot at every level, a glint or a rim only at some.
    """
    # Small dice have pips of 3 or 4 pixels: the detector sees them better enlarged.
    # Large blobs (not dice, or dice seen close) are shrunk: the detector's time grows
    # with the area.
    zoom = min(max(1.0, PIP_ZOOM_SIDE / side), 128.0 / max(score.shape))
    side *= zoom
    params = cv2.SimpleBlobDetector.Params()
    top = cv2.minMaxLoc(score, inner)[1] if cv2.countNonZero(inner) else 0.0
    if top <= floor:
        return []
    params.minThreshold = floor
    params.thresholdStep = PIP_THRESHOLD_STEP
    # Thresholds above the highest score find nothing; the detector needs at least two.
    params.maxThreshold = max(top, floor + 2 * params.thresholdStep + 1)
    params.minRepeatability = 2
    params.filterByColor = True
    params.blobColor = 255
    params.filterByArea = True
    params.minArea = max(3.0, 0.005 * side * side)
    params.maxArea = 0.07 * side * side
    params.filterByCircularity = True
    params.minCircularity = 0.4
    params.filterByConvexity = True
    params.minConvexity = 0.6
    params.filterByInertia = True
    params.minInertiaRatio = 0.25
    params.minDistBetweenBlobs = 0.12 * side
    masked = cv2.bitwise_and(score, score, mask=inner)
    if zoom != 1.0:
        masked = narrow(cv2.resize(masked, None, fx=zoom, fy=zoom,
                                   interpolation=cv2.INTER_CUBIC), np.uint8)
    detector = cv2.SimpleBlobDetector.create(params)
    out = [(k.pt[0] / zoom, k.pt[1] / zoom, (k.size / zoom) ** 2)
           for k in detector.detect(masked)]
    if len(out) > 1:
        # Real pips of one face have one size: glints and rim shadows do not.
        typical = statistics.median(p[2] for p in out)  # numpy's is slow on a few
        out = [p for p in out if 0.4 * typical <= p[2] <= 2.5 * typical]
    return out


def _median_colour(image: Image, where: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """Each channel's median over the pixels ``where`` is true, as ``np.median`` then a
    cast to uint8 gives it (the two middle values' mean, rounded down), from each
    channel's histogram: numpy's median sorts, and took twice as long on a die.
    """
    mask = where.view(np.uint8)
    counts = np.stack([cv2.calcHist([image], [k], mask, [256], [0, 256]).ravel()
                       for k in range(3)])
    below = counts.cumsum(axis=1)
    n = below[0, -1]
    # The k-th smallest value (from 0) is the number of values whose count up to them
    # is at most k.
    low = (below <= (n - 1) // 2).sum(axis=1)
    high = (below <= n // 2).sum(axis=1)
    face: npt.NDArray[np.uint8] = ((low + high) // 2).astype(np.uint8)
    return face


def _pip_map(crop: Image, inner: npt.NDArray[np.bool_]) -> tuple[Image, float]:
    """A score map where pips stand out, with the least score a pip must reach.

    Pips are darker or lighter than the face, or only of another hue (red on black): the
    score is the colour distance from the face's median colour. (Top-hat and black-hat
    maps, and a local median, were tried and read the real photos worse.)
    """
    # The face's colour as a scalar (a 4-vector for OpenCV): no image of it is filled.
    face = np.zeros(4)
    face[:3] = _median_colour(crop, inner)
    return _max_channel(narrow(cv2.absdiff(crop, face), np.uint8)), 25.0


def _fit_costs(sets: npt.NDArray[np.float64], half: float | npt.NDArray[np.float64],
               counts: npt.NDArray[np.int64] | None = None
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                          npt.NDArray[np.float64]]:  # fmt: skip
    """Layout fits of sets of pips given relative to the blob's centre (S x N x 2), off-centre
    pips penalised: the values, the costs and the second best costs. ``half`` and
    ``counts`` as :func:`fit_layouts` takes them (several blobs' sets, padded).

    The pips of a face are symmetric about its centre, which lies near the blob's centre
    (a side face seen in perspective moves it a little); a stray blob moves the pips'
    centroid away from it.
    """
    if counts is None:
        centroids = sets.mean(axis=1)
    else:  # the mean of each set's own pips (the padding's zeros add nothing)
        own = np.arange(sets.shape[1])[None, :, None] < counts[:, None, None]
        centroids = np.where(own, sets, 0.0).sum(axis=1) / counts[:, None]
    values, costs, seconds = fit_layouts(sets - centroids[:, None], half, counts)
    offsets = np.hypot(centroids[:, 0], centroids[:, 1]) / half
    penalties = np.maximum(0.0, offsets - 0.4)  # tolerance and weight measured on the real photos
    return values, costs + penalties, seconds + penalties


def _first_fits(point_sets: list[npt.NDArray[np.float64]], halves: list[float]
                ) -> list[tuple[int, float, float]]:  # fmt: skip
    """:func:`_fit_costs` of each blob's pips (value, cost, second best cost), the blobs of
    fewer than 8 pips in one array computation: a fit's time is numpy's overhead, about
    the same for one blob as for six."""
    fits: list[tuple[int, float, float]] = [(0, 0.0, 0.0)] * len(point_sets)
    few = [i for i, points in enumerate(point_sets) if len(points) < 8]
    if few:
        counts = np.array([len(point_sets[i]) for i in few])
        sets = np.zeros((len(few), int(counts.max()), 2))
        for row, i in enumerate(few):
            sets[row, : counts[row]] = point_sets[i]
        values, costs, seconds = _fit_costs(sets, np.array([halves[i] for i in few]), counts)
        for row, i in enumerate(few):
            fits[i] = (int(values[row]), float(costs[row]), float(seconds[row]))
    for i, points in enumerate(point_sets):
        if len(points) >= 8:
            values, costs, seconds = _fit_costs(points[None], halves[i])
            fits[i] = (int(values[0]), float(costs[0]), float(seconds[0]))
    return fits


def _fit(points: npt.NDArray[np.float64], half: float, first: tuple[int, float, float]
         ) -> tuple[int, float, float, list[int]]:  # fmt: skip
    """Best layout for pip positions (``first``: their fit, :func:`_first_fits`), dropping
    blobs that spoil the fit."""
    value, cost, second = first
    keep = list(range(len(points)))
    # A blob that does not belong to the face (a side face's pip in perspective, a
    # neighbour's pip, a glint) spoils the fit: drop one when the fit gets far better.
    if len(keep) > 2 and cost > 0.25:
        rests = [[j for j in keep if j != i] for i in keep]
        values, costs, seconds = _fit_costs(points[rests], half)
        best = int(np.argmin(costs))  # of equal fits, the first blob's drop
        if costs[best] < 0.5 * cost:
            value, cost, second = int(values[best]), float(costs[best]), float(seconds[best])
            keep = rests[best]
    return value, cost, second, keep


_SQUARE_3 = np.ones((3, 3), np.uint8)
_SQUARE_5 = np.ones((5, 5), np.uint8)


@dataclass(frozen=True, slots=True)
class _Pips:
    """A blob's pips found, before their layout is fitted (:func:`_read_components`)."""

    box: tuple[int, int, int, int]
    center: tuple[float, float]
    side: float
    aspect: float
    found: list[tuple[float, float, float]]
    points: npt.NDArray[np.float64]  # in the die's frame, from its centre
    half: float  # the face's half side

    def candidate(self, fit: tuple[int, float, float, list[int]]) -> Candidate:
        """The die these pips read as with ``fit`` (:func:`_fit`)."""
        value, cost, second, keep = fit
        x, y = self.box[:2]
        pips = [self.found[j] for j in keep]
        confidence = max(0.0, min(1.0, 1.0 - cost)) * min(1.0, (second - cost) * 3 + 0.3)
        return Candidate(
            value=value,
            confidence=float(confidence),
            box=self.box,
            center=self.center,
            side=self.side,
            aspect=self.aspect,
            pips=len(pips),
            pip_list=tuple((p[0] + x, p[1] + y) for p in pips),
        )


def _read_components(image: Image, contours: list[Contour]) -> list[Candidate | None]:
    """Read blobs each as one die: their pips, the layouts they fit (fitted together), and
    how well (None: no die read)."""
    blobs = [_find_pips(image, contour) for contour in contours]
    read = [b for b in blobs if b is not None]
    firsts = iter(_first_fits([b.points for b in read], [b.half for b in read]))
    return [None if b is None else b.candidate(_fit(b.points, b.half, next(firsts)))
            for b in blobs]


def _find_pips(image: Image, contour: Contour) -> _Pips | None:
    """One blob's pips, in the frame of the die it would be (None: none found)."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    side = math.sqrt(max(rw * rh, 1.0))
    if side < 8:
        return None
    x, y, w, h = cv2.boundingRect(contour)
    crop = image[y : y + h, x : x + w]
    mask = np.zeros((h, w), np.uint8)
    # A die is convex: its hull restores a face partly lost against a board of its own
    # colour (a white die on a light point or tray).
    hull = cv2.convexHull(contour - np.array([x, y]))
    cv2.drawContours(mask, [hull], -1, 255, cv2.FILLED)
    depth = cv2.distanceTransform(cv2.dilate(mask, _SQUARE_3), cv2.DIST_L2, 3)
    e = max(1, round(side * 0.05))
    inner = cv2.erode(mask, np.ones((2 * e + 1, 2 * e + 1), np.uint8)) > 0
    if not inner.any():
        return None
    theta = math.radians(angle)
    rotate = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    # Pips are searched a little beyond the blob (a white face on a light board is
    # segmented short of its edge), but must lie inside it: rims and side faces are not.
    around = narrow(cv2.dilate(mask, _SQUARE_5), np.uint8)
    score, floor = _pip_map(crop, inner)
    found = [p for p in _blobs(score, around, side, floor)
             if depth[min(h - 1, round(p[1])), min(w - 1, round(p[0]))] > 0.10 * side]
    if not found:
        return None
    pts = np.array([[p[0] + x - cx, p[1] + y - cy] for p in found], dtype=np.float64)
    # A face is a little smaller than its blob (rounded edges, side faces): 0.9.
    return _Pips((x, y, x + w, y + h), (cx, cy), side, max(rw, rh) / max(1.0, min(rw, rh)),
                 found, pts @ rotate, side / 2 * 0.9)


def _split(contour: Contour, parts: int) -> list[Contour]:
    """Cut a blob of touching dice into ``parts`` compact pieces (k-means on its pixels)."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour - np.array([x, y])], -1, 255, cv2.FILLED)
    ys, xs = np.nonzero(blob)
    points = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)  # the same frame always splits the same way
    no_labels = np.empty((0, 1), np.int32)  # none to start from: k-means++ draws the centres
    _c, labels, _centres = cv2.kmeans(points, parts, no_labels, criteria, 2,
                                      cv2.KMEANS_PP_CENTERS)
    pieces = []
    for k in range(parts):
        piece = np.zeros_like(blob)
        sel = labels.ravel() == k
        piece[ys[sel], xs[sel]] = 255
        found, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if found:
            biggest = max(found, key=cv2.contourArea)
            pieces.append(narrow(biggest, np.int32) + np.array([x, y], dtype=np.int32))
    return pieces


def _attach_specks(contours: list[Contour],
                   specks: list[Contour]) -> list[Contour]:
    """Join small blobs lying next to a die to it: pips of a face partly lost against a
    board of its colour (an ivory die on an ivory point) are seen, the face is not."""
    if not specks:
        return contours
    rects = [cv2.minAreaRect(c) for c in contours]
    joined: list[list[Contour]] = [[c] for c in contours]
    for speck in specks:
        m = cv2.moments(speck)
        if m["m00"] == 0:
            continue
        sx, sy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        near = [(math.hypot(sx - r[0][0], sy - r[0][1]), i) for i, r in enumerate(rects)]
        dist, i = min(near)
        side = max(rects[i][1])
        if dist < 0.8 * side:
            joined[i].append(speck)
    return [parts[0] if len(parts) == 1 else narrow(cv2.convexHull(np.vstack(parts)), np.int32)
            for parts in joined]


def _elongation(contour: Contour) -> float:
    """Length over width of a blob's minimal rectangle."""
    (_cx, _cy), (rw, rh), _angle = cv2.minAreaRect(contour)
    return max(rw, rh) / max(1.0, min(rw, rh))


class ClutteredError(VisionError):
    """More die-like blobs than a roll makes: the frame is not read (time), but said so."""

    def __init__(self, blobs: int, limit: int) -> None:
        super().__init__(f"cluttered: {blobs} die-like blobs, at most {limit} are read")


def find_dice(image: Image, mask: Image, *, limit: int | None = None) -> list[Candidate]:
    """Every die-like object of a foreground mask of a BGR image, with value and confidence.

    Touching dice make one blob; a blob much larger than the typical one is cut into as
    many dice as its area holds.

    Raises:
        ClutteredError: more than ``limit`` die-like blobs (each costs a read).
    """
    # Outer outlines, including those inside the hole of a larger ring (dice in a tray).
    found, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    largest = 0.1 * mask.shape[0] * mask.shape[1]
    outer = [c for c, h in zip(found, hierarchy[0], strict=True) if h[3] < 0]
    contours = [narrow(c, np.int32) for c in outer if 80 <= cv2.contourArea(c) <= largest]
    if not contours:
        return []
    contours = _attach_specks(contours, [narrow(c, np.int32) for c in outer
                                         if 4 <= cv2.contourArea(c) < 80])
    areas = [cv2.contourArea(c) for c in contours]
    # A long sliver (the tip of a point, an edge of the board) is no die: not read.
    compact = [_elongation(c) < 2.5 for c in contours]
    if limit is not None and sum(compact) > limit:
        raise ClutteredError(sum(compact), limit)
    reads = iter(_read_components(image, [c for c, ok in zip(contours, compact, strict=True)
                                          if ok]))
    first = [next(reads) if ok else None for ok in compact]
    # The size of one die: from the blobs read confidently as single dice (specks and
    # clusters would bias a plain median).
    sure = [a for a, cand in zip(areas, first, strict=True)
            if cand is not None and cand.confidence > 0.6 and cand.aspect < 1.3]
    typical = statistics.median(sure if sure else areas)  # numpy's is slow on a few
    out = []
    for contour, area, cand in zip(contours, areas, first, strict=True):
        parts = round(area / typical) if area > 1.6 * typical else 1
        # A blob read confidently as one square die is one die, however large.
        single = cand is not None and cand.confidence > 0.6 and cand.aspect < 1.3
        if parts <= 1 or parts > 12 or single:
            if cand is not None:
                out.append(cand)
            continue
        pieces = _read_components(image, _split(contour, parts))
        read = [c for c in pieces if c is not None]
        # Keep the cut only when it reads better than the whole blob did.
        whole = cand.confidence if cand is not None else 0.0
        if read and (len(read) == len(pieces) or cand is None) and (
            sum(c.confidence for c in read) / len(pieces) > whole
        ):
            out.extend(read)
        elif cand is not None:
            out.append(cand)
    return out

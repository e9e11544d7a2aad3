"""Finding dice in an image and counting their pips: the pure OpenCV core of the reader."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision._layout import classify

Image = npt.NDArray[np.uint8]


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
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _clean(mask: Image) -> Image:
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Fill the holes a die's face leaves (a white face on a light board), but not the
    # inside of a large ring such as a tray's rim.
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    max_hole = 0.02 * mask.shape[0] * mask.shape[1]
    holes = [c for c, h in zip(contours, hierarchy[0], strict=True)
             if h[3] >= 0 and cv2.contourArea(c) < max_hole]
    cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
    return mask


def _max_channel(image: Image) -> Image:
    """Per-pixel maximum over the colour channels (cv2: numpy's axis reduction is slow)."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def foreground(image: Image, background: Image | None = None, threshold: int = 28) -> Image:
    """Mask of what differs from the board: from an empty-board image, else estimated.

    With ``background`` (the empty board under the same light, learnt between rolls),
    shadows are left out: a shadow darkens every channel by about the same ratio.
    """
    if background is None:
        bg = _background(image)
        diff = _max_channel(cv2.absdiff(cv2.GaussianBlur(image, (3, 3), 0), bg))
        return _clean(cv2.threshold(diff, threshold, 255, cv2.THRESH_BINARY)[1])
    diff = _max_channel(cv2.absdiff(image, background))
    mask = cv2.threshold(diff, threshold, 255, cv2.THRESH_BINARY)[1]
    ys, xs = np.nonzero(mask)
    if len(ys):
        # Only the changed pixels are tested for shadow (speed).
        ratio = (image[ys, xs].astype(np.float32) + 4) / (background[ys, xs].astype(np.float32) + 4)
        rmax, rmin = ratio.max(axis=1), ratio.min(axis=1)
        shadow = (rmax < 0.95) & (rmin > 0.4) & (rmax - rmin < 0.18)
        mask[ys[shadow], xs[shadow]] = 0
    return _clean(mask)


def _pip_blobs(
    crop: Image, mask: Image, side: float
) -> list[tuple[float, float, float]]:
    """Pips inside a die's mask: compact blobs far in colour from the die's own colour."""
    inner = mask > 0
    if not inner.any():
        return []
    face = np.median(crop[inner], axis=0)
    dist = cv2.absdiff(crop, np.full_like(crop, face.astype(np.uint8))).max(axis=2)
    inside = dist[inner]
    otsu, _ = cv2.threshold(inside.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(40.0, float(otsu))
    pipmask = ((dist > level) & inner).astype(np.uint8)
    n, _labels, stats, cents = cv2.connectedComponentsWithStats(pipmask, connectivity=4)
    out = []
    area_min = 0.005 * side * side
    area_max = 0.06 * side * side
    for i in range(1, n):
        _x, _y, w, h, area = stats[i]
        if not area_min <= area <= area_max:
            continue
        if max(w, h) > 2.0 * min(w, h) or area < 0.45 * w * h:
            continue
        out.append((float(cents[i][0]), float(cents[i][1]), float(area)))
    if len(out) > 1:
        # Real pips of one face have one size: glints and rim shadows do not.
        typical = float(np.median([p[2] for p in out]))
        out = [p for p in out if 0.4 * typical <= p[2] <= 2.5 * typical]
    return out


def _read_component(image: Image, contour: npt.NDArray[np.int32]) -> Candidate | None:
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    side = math.sqrt(max(rw * rh, 1.0))
    if side < 8:
        return None
    x, y, w, h = cv2.boundingRect(contour)
    crop = image[y : y + h, x : x + w]
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour - np.array([x, y])], -1, 255, cv2.FILLED)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    e = max(1, round(side * 0.05))
    mask = cv2.erode(mask, np.ones((2 * e + 1, 2 * e + 1), np.uint8))
    # A pip lies well inside the face; blobs on the rim are edges, glints or side faces.
    pips = [p for p in _pip_blobs(crop, mask, side)
            if depth[round(p[1]), round(p[0])] > 0.14 * side]
    if not pips:
        return None
    theta = math.radians(angle)
    c, s = math.cos(theta), math.sin(theta)
    half = side / 2 * 0.9
    pts = np.array([[p[0], p[1]] for p in pips], dtype=np.float64)
    # Every layout is symmetric about the face centre, so the pips' centroid is it; the
    # blob's centre is not (a side face seen in perspective widens the blob).
    pts -= pts.mean(axis=0)
    local = pts @ np.array([[c, -s], [s, c]])
    value, cost, second = classify(local, 0.0, half)
    keep = list(range(len(pips)))
    # A blob that does not belong to the face (a side face's pip in perspective, a
    # neighbour's pip, a glint) spoils the fit: drop it when the fit gets much better.
    while len(keep) > 2:
        trials = []
        for i in keep:
            rest = [j for j in keep if j != i]
            sub = local[rest] - local[rest].mean(axis=0)
            trials.append((classify(sub, 0.0, half), rest))
        (v2, c2, s2), rest = min(trials, key=lambda t: t[0][1])
        if c2 > cost - 0.2:
            break
        value, cost, second, keep = v2, c2, s2, rest
    pips = [pips[j] for j in keep]
    confidence = max(0.0, min(1.0, 1.0 - cost)) * min(1.0, (second - cost) * 3 + 0.3)
    return Candidate(
        value=value,
        confidence=float(confidence),
        box=(x, y, x + w, y + h),
        center=(cx, cy),
        side=side,
        aspect=max(rw, rh) / max(1.0, min(rw, rh)),
        pips=len(pips),
        pip_list=tuple((p[0] + x, p[1] + y) for p in pips),
    )


def _split(contour: npt.NDArray[np.int32], parts: int) -> list[npt.NDArray[np.int32]]:
    """Cut a blob of touching dice into ``parts`` compact pieces (k-means on its pixels)."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour - np.array([x, y])], -1, 255, cv2.FILLED)
    ys, xs = np.nonzero(blob)
    points = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)  # the same frame always splits the same way
    _c, labels, _centres = cv2.kmeans(points, parts, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    pieces = []
    for k in range(parts):
        piece = np.zeros_like(blob)
        sel = labels.ravel() == k
        piece[ys[sel], xs[sel]] = 255
        found, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if found:
            biggest = max(found, key=cv2.contourArea)
            pieces.append(biggest + np.array([x, y], dtype=np.int32))
    return pieces


def find_dice(image: Image, mask: Image) -> list[Candidate]:
    """Every die-like object of a foreground mask of a BGR image, with value and confidence.

    Touching dice make one blob; a blob much larger than the typical one is cut into as
    many dice as its area holds.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contours = [c for c in contours if cv2.contourArea(c) >= 80]
    if not contours:
        return []
    areas = [cv2.contourArea(c) for c in contours]
    typical = float(np.median(areas))
    out = []
    for contour, area in zip(contours, areas, strict=True):
        parts = round(area / typical) if area > 1.6 * typical else 1
        pieces = [contour] if parts <= 1 or parts > 12 else _split(contour, parts)
        for piece in pieces:
            cand = _read_component(image, piece)
            if cand is not None:
                out.append(cand)
    return out

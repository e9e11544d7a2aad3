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


def foreground(image: Image, background: Image | None = None, threshold: int = 28) -> Image:
    """Mask of what differs from the board: from an empty-board image, else estimated.

    With ``background`` (the empty board under the same light, learnt between rolls),
    shadows are left out: a shadow darkens every channel by about the same ratio.
    """
    if background is None:
        bg = _background(image)
        diff = cv2.absdiff(cv2.GaussianBlur(image, (3, 3), 0), bg).max(axis=2)
        return _clean((diff > threshold).astype(np.uint8) * 255)
    diff = cv2.absdiff(image, background).max(axis=2)
    ratio = (image.astype(np.float32) + 4) / (background.astype(np.float32) + 4)
    rmax, rmin = ratio.max(axis=2), ratio.min(axis=2)
    shadow = (rmax < 0.95) & (rmin > 0.4) & (rmax - rmin < 0.18)
    return _clean(((diff > threshold) & ~shadow).astype(np.uint8) * 255)


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
    level = max(40.0, 0.5 * float(np.percentile(inside, 98)))
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
    local = pts @ np.array([[c, -s], [s, c]]) / half
    value, cost, second = classify(local, 0.0)
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


def find_dice(image: Image, background: Image | None = None) -> list[Candidate]:
    """Every die-like object in a BGR image, with its value and a confidence."""
    mask = foreground(image, background)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for contour in contours:
        if cv2.contourArea(contour) < 80:
            continue
        cand = _read_component(image, contour)
        if cand is not None:
            out.append(cand)
    return out

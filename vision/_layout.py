"""Pip layouts of the six faces and the match of detected pips against them.

A blob count alone confuses 4, 5 and 6 (a missed or an extra blob), so the reader matches
the pip positions, in the die's own frame, against the six real patterns.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

#: Pip centres of each face in the die frame, in units of half the face side
#: (the face spans -1..1; pips sit at a quarter and three quarters of the side).
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.0), (0.5, 0.0), (-0.5, 0.5), (0.5, 0.5)),
}

_ROTATIONS = (0.0, math.pi / 2)


def _layout_array(value: int, angle: float) -> npt.NDArray[np.float64]:
    points = np.array(LAYOUTS[value], dtype=np.float64)
    c, s = math.cos(angle), math.sin(angle)
    return points @ np.array([[c, s], [-s, c]])


def _match_cost(pips: npt.NDArray[np.float64], layout: npt.NDArray[np.float64]) -> float:
    """Mean distance of a greedy one-to-one match, both ways, plus a count penalty."""
    if len(pips) == 0:
        return 9.0
    dist = np.linalg.norm(pips[:, None, :] - layout[None, :, :], axis=2)
    # Each detected pip to its nearest layout pip, and each layout pip to its nearest
    # detected pip: a missing or an extra pip costs in one of the two directions.
    forward = dist.min(axis=1)
    backward = dist.min(axis=0)
    missing = abs(len(pips) - len(layout))
    return float(forward.mean() + backward.mean()) / 2.0 + 0.45 * missing


def classify(
    pips: npt.NDArray[np.float64], angle: float, half_side: float = 1.0
) -> tuple[int, float, float]:
    """The face value whose layout best fits pips given relative to the face centre.

    The size of the face seen in the image is unsure (a side face in perspective, or a
    neighbour, widens the blob), so each layout is fitted at the scale of the pips
    themselves, kept within a factor of two of ``half_side``.

    Args:
        pips: N x 2 pip centres relative to the face centre (pixels, or any unit).
        angle: the face's rotation in radians (the layouts are tried at it and at 90 deg
            more, since the faces 2, 3 and 6 have two orientations).
        half_side: the expected half side of the face, in the unit of ``pips``.

    Returns:
        (value, cost of the best fit, cost of the second best fit).
    """
    costs: list[tuple[float, int]] = []
    spread = float(np.sqrt((pips**2).sum(axis=1).mean())) if len(pips) else 0.0
    for value, layout in LAYOUTS.items():
        radius = float(np.sqrt((np.array(layout) ** 2).sum(axis=1).mean()))
        scale = half_side
        if radius > 0 and len(pips) > 1:
            scale = min(max(spread / radius, 0.5 * half_side), 1.5 * half_side)
        local = pips / scale
        best = min(_match_cost(local, _layout_array(value, angle + r)) for r in _ROTATIONS)
        costs.append((best, value))
    costs.sort()
    return costs[0][1], costs[0][0], costs[1][0]

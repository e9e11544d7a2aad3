"""Pip layouts of the six faces and the match of detected pips against them.

A blob count alone confuses 4, 5 and 6 (a missed or an extra blob), so the reader matches
the pip positions, in the die's own frame, against the six real patterns.
"""

from __future__ import annotations

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

#: The face rotations tried (radians): every 6 degrees over a half turn (the faces 2, 3
#: and 6 have only a half-turn symmetry), since the
#: face's own outline gives its angle only roughly (shading, side faces, neighbours).
_ANGLES = np.radians(np.arange(0.0, 180.0, 6.0))
_ROTATED: dict[int, npt.NDArray[np.float64]] = {}


def _rotated(value: int) -> npt.NDArray[np.float64]:
    """The layout of a value at every angle of :data:`_ANGLES`: A x L x 2."""
    if value not in _ROTATED:
        points = np.array(LAYOUTS[value], dtype=np.float64)
        c, s = np.cos(_ANGLES), np.sin(_ANGLES)
        rot = np.stack([np.stack([c, s], axis=1), np.stack([-s, c], axis=1)], axis=1)
        _ROTATED[value] = np.einsum("lk,akj->alj", points, rot)
    return _ROTATED[value]


def _match_cost(pips: npt.NDArray[np.float64], value: int) -> float:
    """Mean nearest distance both ways at the best angle, plus a count penalty."""
    if len(pips) == 0:
        return 9.0
    layouts = _rotated(value)
    dist = np.linalg.norm(pips[None, :, None, :] - layouts[:, None, :, :], axis=3)
    # Each detected pip to its nearest layout pip, and each layout pip to its nearest
    # detected pip: a missing or an extra pip costs in one of the two directions.
    both = (dist.min(axis=2).mean(axis=1) + dist.min(axis=1).mean(axis=1)) / 2
    missing = abs(len(pips) - len(LAYOUTS[value]))
    return float(both.min()) + 0.45 * missing


def classify(
    pips: npt.NDArray[np.float64], half_side: float = 1.0
) -> tuple[int, float, float]:
    """The face value whose layout best fits pips given relative to the face centre.

    The size of the face seen in the image is unsure (a side face in perspective, or a
    neighbour, widens the blob), so each layout is fitted at the scale of the pips
    themselves, kept within a factor of 1.5 of ``half_side``; the rotation is searched.

    Args:
        pips: N x 2 pip centres relative to the face centre (pixels, or any unit).
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
        costs.append((_match_cost(pips / scale, value), value))
    costs.sort()
    return costs[0][1], costs[0][0], costs[1][0]

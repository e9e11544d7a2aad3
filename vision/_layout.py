"""Pip layouts of the six faces and the match of detected pips against them.

A blob count alone confuses 4, 5 and 6 (a missed or an extra blob), so the reader matches
the pip positions, in the die's own frame, against the six real patterns.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

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
_VALUES = np.array(sorted(LAYOUTS))
#: Pips of each layout, and the root mean square distance of its pips from its centre.
_SIZES = np.array([len(LAYOUTS[v]) for v in _VALUES])
_RADII = np.array([np.sqrt((np.array(LAYOUTS[v]) ** 2).sum(axis=1).mean()) for v in _VALUES])
#: Where the pips a layout lacks (it has fewer than six) are put: nearest to no pip.
_NOWHERE = 1e6


def _rotated() -> Floats:
    """Every layout at every angle of :data:`_ANGLES`, padded to six pips far away:
    values x angles x 6 x 2."""
    c, s = np.cos(_ANGLES), np.sin(_ANGLES)
    rot = np.stack([np.stack([c, s], axis=1), np.stack([-s, c], axis=1)], axis=1)
    out = np.full((len(_VALUES), len(_ANGLES), _SIZES.max(), 2), _NOWHERE)
    for i, value in enumerate(_VALUES):
        points = np.array(LAYOUTS[value], dtype=np.float64)
        out[i, :, : len(points)] = np.einsum("lk,akj->alj", points, rot)
    return out


_ROTATED = _rotated()
#: The layouts' x and y in the order of the distances below (1 x 6 x 1 x values x angles).
_LAYOUT_X, _LAYOUT_Y = (np.ascontiguousarray(_ROTATED[..., k].transpose(2, 0, 1)[None, :, None])
                        for k in (0, 1))
#: 1 for a layout's own pips, 0 for its padding (6 x 1 x values x 1).
_OWN = (np.arange(_SIZES.max())[:, None] < _SIZES[None, :]).astype(np.float64)[:, None, :, None]
#: The layouts' radii, the one pip's (0) replaced: its scale is never the pips'.
_SPREAD_RADII = np.where(_RADII > 0, _RADII, 1.0)


def fit_layouts(pips: Floats, half_side: float | Floats = 1.0,
                counts: npt.NDArray[np.int64] | None = None
                ) -> tuple[npt.NDArray[np.int64], Floats, Floats]:  # fmt: skip
    """:func:`classify` of several sets of as many pips each (S x N x 2) at once: the
    values, the costs of the best fits and those of the second best fits (each S long).

    Why at once: the reader fits a blob's pips once for each blob it may drop, and the
    blobs of a frame together, and one array computation costs about what one fit does.
    ``half_side`` is one for all sets or one per set; ``counts`` how many of each set's N
    pips are its own (at least one), the others padding it to N, which must then stay
    below 8: numpy sums so few in order, and the padding's zeros add exactly nothing (the
    same numbers as each set fitted alone).
    """
    sets, width = pips.shape[:2]
    if width == 0:
        return np.full(sets, _VALUES[0]), np.full(sets, 9.0), np.full(sets, 9.0)
    count = np.full(sets, width) if counts is None else counts
    padded = bool((count < width).any())
    if padded and width >= 8:
        raise ValueError(f"sets padded to {width} pips: at most 7 are summed in order")
    half = np.broadcast_to(np.asarray(half_side, np.float64), (sets,))[:, None]
    own = np.arange(width)[None, :] < count[:, None]
    squares = (pips**2).sum(axis=2)
    spread = np.sqrt((np.where(own, squares, 0.0) if padded else squares).sum(axis=1) / count)
    scale = np.minimum(np.maximum(spread[:, None] / _SPREAD_RADII, 0.5 * half), 1.5 * half)
    scale[:, _RADII == 0] = half
    scale = np.where(count[:, None] > 1, scale, half)  # one pip has no spread
    if padded:  # nearest to no layout pip, and left out of the sums below
        pips = np.where(own[:, :, None], pips, _NOWHERE)
    scaled = (pips[:, None] / scale[:, :, None, None]).transpose(3, 2, 0, 1)[..., None, :, :,
                                                                            None]
    # N x 6 x sets x values x angles: the axes reduced over come first, where numpy
    # reduces fast, and each coordinate apart (an axis of two is as slow to reduce).
    dist = scaled[0] - _LAYOUT_X
    dy = scaled[1] - _LAYOUT_Y
    dist *= dist
    dy *= dy
    dist += dy
    np.sqrt(dist, out=dist)
    # Each detected pip to its nearest layout pip, and each layout pip to its nearest
    # detected pip: a missing or an extra pip costs in one of the two directions.
    nearest = dist.min(axis=1)
    if padded:
        nearest = np.where(own.T[:, :, None, None], nearest, 0.0)
    if width < 8:  # summed in order, as numpy sums an axis of fewer than 8
        to_layout = nearest.sum(axis=0) / count[:, None, None]
    else:
        to_layout = np.ascontiguousarray(np.moveaxis(nearest, 0, -1)).mean(axis=-1)
    from_layout = dist.min(axis=0)
    from_layout *= _OWN
    both = (to_layout + from_layout.sum(axis=0) / _SIZES[:, None]) / 2
    costs = both.min(axis=2) + 0.45 * np.abs(count[:, None] - _SIZES[None, :])
    ranked = np.sort(costs, axis=1)
    return _VALUES[costs.argmin(axis=1)], ranked[:, 0], ranked[:, 1]  # a tie: the lower value


def classify(
    pips: Floats, half_side: float = 1.0
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
    values, costs, seconds = fit_layouts(np.asarray(pips, dtype=np.float64)[None], half_side)
    return int(values[0]), float(costs[0]), float(seconds[0])

"""Whether the learnt board is hidden: by something far larger than a die, or where a die was.

Why: a hand, a sleeve or a player leaning over dice that stayed put is neither a roll nor
the dice lifted, and must never be learnt as the empty board. What tells an arm from a
change of light, when both differ from the learnt board, is the board's own fine structure
(grain, felt, the points' edges): light scales it, an arm hides it.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image
from vision._model import Box

#: What differs from the learnt board is "far larger than a die" from this share of the
#: board view on: a die is 0.3% of it, the checkers one turn moves at most about 2%, an arm
#: reaching over the playing field 5 to 15% (measured on rendered frames).
COVER_SHARE = 0.03
#: Correlation of the fine structure of the frame and of the board below which the board
#: is hidden there: 0.0 to 0.3 under a rendered arm, 0.88 to 1.0 for the same board under
#: another light.
HIDDEN_BELOW = 0.5
#: Where a die was, the board is seen again (the die gone) only from this correlation on:
#: a die still there, unread, leaves up to 0.5 (the corners of its box are board).
SEEN_FROM = 0.7


def _detail(image: Image) -> npt.NDArray[np.float32]:
    """The fine structure of an image: its grey levels less their local mean."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return grey - cv2.GaussianBlur(grey, (0, 0), 2.0)


def _correlation(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum() + 1e-6))


def hides_board(view: Image, board: Image, mask: Image) -> bool:
    """Whether something far larger than a die hides part of ``board`` in ``view``.

    ``mask`` is what differs from the board (the reader's foreground); a part of it larger
    than :data:`COVER_SHARE` of the view that hides the board's structure is a hand, an
    arm, a sleeve or a player leaning over the board.
    """
    if cv2.countNonZero(mask) < COVER_SHARE * mask.size:
        return False  # no part can be that large: the parts need not be found
    # Grana's labelling: the same parts as the default's, in a quarter of its time on one
    # thread (0.7 against 2.6 ms at 640x480).
    count, labels, stats, _centres = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    large = [i for i in range(1, count)
             if stats[i, cv2.CC_STAT_AREA] >= COVER_SHARE * mask.size]
    if not large:
        return False
    seen, learnt = _detail(view), _detail(board)
    return any(_correlation(seen[labels == i], learnt[labels == i]) < HIDDEN_BELOW
               for i in large)


def board_seen_at(view: Image, board: Image, mask: Image, box: Box) -> bool:
    """Whether ``board`` is seen as learnt at ``box`` of ``view`` (no die, no hand there):
    little of it differs (``mask``), or it differs only by light."""
    x0, y0, x1, y1 = box
    pad = max(2, (x1 - x0) // 6)
    h, w = mask.shape
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    if x0 >= x1 or y0 >= y1 or float(mask[y0:y1, x0:x1].mean()) < 0.25 * 255:
        return True
    return _correlation(_detail(view[y0:y1, x0:x1]), _detail(board[y0:y1, x0:x1])) >= SEEN_FROM

"""The array types of the dice reader, and OpenCV's results narrowed to them.

Why: OpenCV's stubs type every image it returns as any numeric array
(``cv2.typing.MatLike``), while the reader's functions say what they hold: 8-bit images
and masks, float maps, int32 outlines. OpenCV keeps the depth of its input (or the one
asked for), so each result is narrowed once, where it leaves OpenCV, and checked there.
"""

from __future__ import annotations

from typing import TypeGuard, TypeVar

import numpy as np
import numpy.typing as npt

#: A BGR (H x W x 3) or single-channel (H x W) 8-bit image, or a 0/255 mask.
Image = npt.NDArray[np.uint8]
#: An outline's points as OpenCV gives them (N x 1 x 2).
Contour = npt.NDArray[np.int32]

_Scalar = TypeVar("_Scalar", bound=np.generic)


def _holds(array: npt.NDArray[np.generic], dtype: type[_Scalar]
           ) -> TypeGuard[npt.NDArray[_Scalar]]:  # fmt: skip
    return array.dtype == dtype


def narrow(array: npt.NDArray[np.generic], dtype: type[_Scalar]) -> npt.NDArray[_Scalar]:
    """``array`` as the array of ``dtype`` it is (the same object).

    Raises:
        TypeError: ``array`` holds another type: a wrong belief fails here, not as wrong
            numbers later.
    """
    if _holds(array, dtype):
        return array
    raise TypeError(f"expected an array of {np.dtype(dtype)}, got one of {array.dtype}")

"""OpenCV's results narrowed to the reader's array types, checked."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision._arrays import narrow


def test_an_array_of_the_type_asked_is_itself() -> None:
    grey = cv2.cvtColor(np.zeros((16, 16, 3), np.uint8), cv2.COLOR_BGR2GRAY)
    assert narrow(grey, np.uint8) is grey


def test_an_array_of_another_type_is_refused_naming_both() -> None:
    floats = cv2.GaussianBlur(np.zeros((16, 16), np.float32), (3, 3), 0)
    with pytest.raises(TypeError, match="expected an array of uint8, got one of float32"):
        narrow(floats, np.uint8)

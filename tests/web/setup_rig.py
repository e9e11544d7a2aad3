"""What the set-up page's tests share: a camera over a board with its markers, the shift
chain's lamps read back from recording mock pins, and the API called with the token."""

from __future__ import annotations

import json
import random
from typing import Any

import aiohttp
import cv2
import numpy as np

from controller.devices import REGISTERS, Scene, frame_bits
from tests.devices.conftest import RecordingFactory, bits_at_rising_edges
from vision import BOARD_SIZE, Image, render_roll

TOKEN = "referee-token-0123456789"
DATA, CLOCK, LATCH = 10, 11, 8
"""The shift chain's pins in these tests."""


def camera_frame(seed: int = 4, *, markers: bool = True) -> Image:
    """A roll on a board with its four markers, seen by a camera at an angle (960 x 720)."""
    board = render_roll(random.Random(seed), markers=markers).image
    w, h = BOARD_SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[80, 60], [880, 50], [900, 650], [70, 630]])
    to_camera = cv2.getPerspectiveTransform(corners, seen)
    frame = cv2.warpPerspective(board, to_camera, (960, 720), borderValue=(200, 200, 200))
    return np.asarray(frame, np.uint8)


def latched_frame(factory: RecordingFactory, since: int = 0) -> tuple[int, ...]:
    """The bits of the last frame the chain latched (after entry ``since`` of the pins'
    log): the data pin's level at each clock's rising edge, the last 8 x REGISTERS of them,
    replaying the whole log from the pins' creation (all low)."""
    log = factory.log
    latches = [i for i, (pin, level) in enumerate(log) if pin == LATCH and level]
    assert latches and latches[-1] >= since, "the chain latched no new frame"
    start = dict.fromkeys((DATA, CLOCK, LATCH), False)
    bits = bits_at_rising_edges(log[: latches[-1]], start, DATA, CLOCK)
    return tuple(bits[-8 * REGISTERS :])


def shown(scene: Scene) -> tuple[int, ...]:
    """The bits the chain latches for a steady ``scene``."""
    return frame_bits(scene, 0)


async def api(
    url: str, path: str, body: Any = None, *, token: str | None = TOKEN
) -> tuple[int, Any]:
    """GET (no ``body``) or POST ``path`` of the page's API; the status and JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    async with aiohttp.ClientSession() as session:
        if body is None:
            request = session.get(url + path, headers=headers)
        else:
            request = session.post(url + path, data=json.dumps(body), headers=headers)
        async with request as response:
            return response.status, await response.json()

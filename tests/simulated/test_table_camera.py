"""The simulated table's camera: the players wait for a slow reader, not for a clock."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from controller.simulated.camera import TableCamera


def test_a_slow_reader_is_waited_for_while_it_keeps_reading() -> None:
    # A throttled service reads a frame every 0.25 s: ten frames take longer than the stall
    # bound, yet each one is progress (a 10 s deadline killed the demo on a slow CPU).
    camera = TableCamera(np.zeros((4, 4, 3), np.uint8), period_s=0.001)
    stop = threading.Event()

    def read_slowly() -> None:
        while not stop.wait(0.25):
            camera.read()

    reader = threading.Thread(target=read_slowly)
    reader.start()
    try:
        camera.show(np.ones((4, 4, 3), np.uint8))
        asyncio.run(camera.taken_in(10, stall_s=1.5))
        assert camera.reads_since_show() >= 10
    finally:
        stop.set()
        reader.join()
        camera.close()


def test_a_camera_nobody_reads_fails_after_the_stall_bound() -> None:
    camera = TableCamera(np.zeros((4, 4, 3), np.uint8))
    camera.show(np.ones((4, 4, 3), np.uint8))
    with pytest.raises(TimeoutError, match=r"^waited for the camera to be read: nothing "
                       r"advanced for 0.2 s$"):  # fmt: skip
        asyncio.run(camera.taken_in(1, stall_s=0.2))


def test_frames_passed_over_are_shown_once_each_then_the_picture_again() -> None:
    # A hand passing over the dice (or a player leaning, the same frame held): the watcher
    # sees each frame once, then the roll it covered, which stayed where it was.
    empty, roll = np.zeros((16, 16, 3), np.uint8), np.full((16, 16, 3), 9, np.uint8)
    camera = TableCamera(empty, period_s=0.001)
    camera.show(roll)
    assert camera.read()[0, 0, 0] == 3  # the hand that throws (the dark band), then the roll
    assert camera.read()[0, 0, 0] == 9
    arm, lean = np.full((16, 16, 3), 200, np.uint8), np.full((16, 16, 3), 150, np.uint8)
    camera.pass_over([arm, lean, lean])
    assert camera.reads_since_show() == 0
    seen = [int(camera.read()[0, 0, 0]) for _ in range(5)]
    assert seen == [200, 150, 150, 9, 9]
    assert camera.picture is roll and camera.reads_since_show() == 5
    asyncio.run(camera.taken_in(5, stall_s=0.2))
    camera.close()
    assert camera.read() is None

"""The camera's link as the page shows it: a camera unplugged is said and looked for, at a
pause between tries, and read again once it is plugged back."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from pathlib import Path

from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.camera import TableCamera
from tests.service.test_match_actions import NAMES, QueueBoard, until
from vision import (
    Calibration,
    CameraError,
    DiceReader,
    FrameSource,
    RollWatcher,
    SettleDetector,
    render_roll,
)


def test_an_unplugged_camera_is_looked_for_and_read_again_once_plugged_back(
    tmp_path: Path,
) -> None:
    empty = render_roll(random.Random(3)).background
    camera = TableCamera(empty, period_s=0.005)
    plugged = False
    opened: list[float] = []

    def open_camera() -> FrameSource:
        opened.append(time.monotonic())
        if not plugged:
            raise CameraError("camera 0 cannot be opened (is it plugged in?)")
        return camera

    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(empty)
    watcher = RollWatcher(open_camera, reader, settle=SettleDetector(frames=1), votes=1,
                          reopen_s=0.05)  # fmt: skip

    async def main() -> None:
        nonlocal plugged
        with open_journal(tmp_path / "journal.sqlite3") as journal:
            service = Service("b1", journal, names=NAMES)
            task = asyncio.create_task(service.run(board=QueueBoard(), camera=watcher))
            try:
                await until(service, lambda: service.status().links["camera"] == "searching",
                            "the camera missed")  # fmt: skip
                assert "camera: not found: looking for it" in service.status().link_text
                plugged = True
                await until(service, lambda: service.status().links["camera"] == "live",
                            "the camera found again")  # fmt: skip
            finally:
                camera.close()
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    asyncio.run(main())
    assert len(opened) >= 2
    # Tried again after a pause each time: at once, an unplugged camera took a whole core.
    assert all(later - earlier >= 0.05 for earlier, later in itertools.pairwise(opened))

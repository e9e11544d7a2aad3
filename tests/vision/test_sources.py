from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import (
    CameraError,
    CameraSource,
    DiceReader,
    FolderSource,
    FrameSource,
    ImageError,
    PiCameraSource,
    RollWatcher,
    SyntheticSource,
    VideoFileSource,
    WatchState,
    open_source,
    read_image,
    render_roll,
)


def _frames(n: int) -> list[np.ndarray]:
    return [render_roll(random.Random(i)).image for i in range(n)]


def test_folder_source_reads_images_in_name_order(tmp_path: Path) -> None:
    frames = _frames(3)
    for i, frame in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), frame)
    (tmp_path / "notes.txt").write_text("not an image")
    with FolderSource(tmp_path) as source:
        assert isinstance(source, FrameSource)
        got = [source.read() for _ in range(4)]
    assert got[3] is None
    for frame, image in zip(frames, got[:3], strict=True):
        assert image is not None and np.array_equal(frame, image)


def test_folder_source_names_a_broken_image(tmp_path: Path) -> None:
    (tmp_path / "bad.jpg").write_bytes(b"not a jpeg")
    source = FolderSource(tmp_path)
    with pytest.raises(ImageError, match=r"cannot read image '.*bad\.jpg': not a decodable"):
        source.read()


def test_folder_source_missing_or_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist"):
        FolderSource(tmp_path / "nope")
    with pytest.raises(CameraError, match="holds no image"):
        FolderSource(tmp_path)


def test_video_file_source_reads_a_video_written_here(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    frames = _frames(5)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (640, 480))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()
    with VideoFileSource(path) as source:
        got = []
        while (frame := source.read()) is not None:
            got.append(frame)
        source.close()
        assert source.read() is None
    assert len(got) == 5
    # A lossy codec: close, not equal.
    assert float(np.abs(got[2].astype(int) - frames[2]).mean()) < 6
    with pytest.raises(CameraError, match="does not exist"):
        VideoFileSource(tmp_path / "missing.avi")
    (tmp_path / "junk.avi").write_bytes(b"junk")
    with pytest.raises(CameraError, match="cannot be opened"):
        VideoFileSource(tmp_path / "junk.avi")


def test_synthetic_source_gives_moving_settled_then_empty_frames() -> None:
    source = SyntheticSource(random.Random(3), count=2, moving=2, settled=3, empty=2)
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    assert len(frames) == 2 * (2 + 3 + 2)
    assert len(source.rolls) == 2


def test_missing_camera_is_a_clear_error() -> None:
    with pytest.raises(CameraError, match=r"camera 97 cannot be opened \(is it plugged in\?\)"):
        CameraSource(97)
    with pytest.raises(CameraError, match=r"'no_such_picamera_module'.*not installed"):
        PiCameraSource(module="no_such_picamera_module")


def _timed(open_source: Callable[[], FrameSource]) -> tuple[Callable[[], FrameSource], list[float]]:
    """``open_source``, and the times it is called at (a watcher's openings)."""
    opened: list[float] = []

    def opening() -> FrameSource:
        opened.append(time.monotonic())
        return open_source()

    return opening, opened


def test_watcher_without_camera_is_searching_not_crashing() -> None:
    open_missing, opened = _timed(lambda: CameraSource(97))
    watcher = RollWatcher(open_missing, DiceReader(), reopen_s=0.05)
    for _ in range(3):
        assert watcher.step() is None
    assert watcher.state is WatchState.SEARCHING
    assert "camera 97 cannot be opened" in watcher.error
    assert len(opened) == 3  # it keeps trying
    # ... after a pause each time: opened again at once, an unplugged camera took a core.
    assert all(later - earlier >= 0.05 for earlier, later in itertools.pairwise(opened))
    watcher.close()
    watcher.close()


def test_a_watcher_closed_while_it_waits_to_reopen_stops_waiting() -> None:
    # The service's shutdown closes the watcher: a step in its pause must not hold the
    # service's thread for the rest of the pause, nor open the camera again.
    open_missing, opened = _timed(lambda: CameraSource(97))
    watcher = RollWatcher(open_missing, DiceReader(), reopen_s=600.0)
    watcher.step()  # lost: the next opening in 600 s
    stepping = threading.Thread(target=watcher.step, daemon=True)
    stepping.start()
    watcher.close()
    stepping.join(timeout=300.0)
    assert not stepping.is_alive()
    assert len(opened) == 1


class _Still:
    """A camera that shows one picture for ever."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def read(self) -> np.ndarray:
        return self.frame

    def close(self) -> None:
        pass


def test_a_camera_plugged_back_is_read_again() -> None:
    frame = _frames(1)[0]
    attempts = 0

    def plugged_at_the_second_try() -> FrameSource:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise CameraError("camera 0 cannot be opened (is it plugged in?)")
        return _Still(frame)

    watcher = RollWatcher(plugged_at_the_second_try, DiceReader(), reopen_s=0.01)
    assert watcher.step() is None and watcher.state is WatchState.SEARCHING
    watcher.step()
    assert attempts == 2
    assert watcher.state is not WatchState.SEARCHING and watcher.error == ""


def test_a_recording_at_its_end_is_played_again_after_a_pause(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "0.png"), _frames(1)[0])
    open_folder, opened = _timed(lambda: open_source(str(tmp_path)))
    watcher = RollWatcher(open_folder, DiceReader(), reopen_s=0.05)
    for _ in range(6):  # each opening: the one image, then the end
        watcher.step()
    assert len(opened) == 3
    assert all(later - earlier >= 0.05 for earlier, later in itertools.pairwise(opened))
    watcher.close()


def test_watcher_passes_over_a_frame_it_cannot_decode(tmp_path: Path) -> None:
    """A folder's image that is not one (an ImageError out of the watcher before): the
    frame is said, and the next ones are read."""
    frames = _frames(2)
    cv2.imwrite(str(tmp_path / "0.png"), frames[0])
    (tmp_path / "1.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "2.png"), frames[1])
    watcher = RollWatcher(lambda: open_source(str(tmp_path)), DiceReader())
    watcher.step()
    assert watcher.step() is None
    assert watcher.error == f"cannot read image {str(tmp_path / '1.png')!r}: not a decodable image"
    watcher.step()
    assert watcher.error == ""
    watcher.close()


def test_open_source_specs(tmp_path: Path) -> None:
    assert isinstance(open_source("synthetic"), SyntheticSource)
    cv2.imwrite(str(tmp_path / "a.png"), _frames(1)[0])
    assert isinstance(open_source(str(tmp_path)), FolderSource)
    with pytest.raises(CameraError, match="does not exist"):
        open_source(str(tmp_path / "x.mp4"))
    with pytest.raises(CameraError, match=r"camera source '.*zzz': .*File name too long"):
        open_source(str(tmp_path / ("z" * 300)))  # an OSError before
    with pytest.raises(CameraError, match=r"image folder '.*zzz': .*File name too long"):
        FolderSource(tmp_path / ("z" * 300))
    with pytest.raises(ImageError, match=r"cannot read image '.*zzz.jpg': .*File name too long"):
        read_image(tmp_path / ("z" * 300 + ".jpg"))  # tabula dice's OSError before

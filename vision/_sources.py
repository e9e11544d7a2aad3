"""Frame sources behind one small interface: USB camera, Pi camera, folder, video, synthetic.

The watcher only needs ``read()`` (a frame, or None when a finite source is exhausted) and
``close()``; a source that cannot give frames raises :class:`CameraError`, so the service
can show "searching for camera" and try again.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

import cv2
import numpy as np

from vision._arrays import Image
from vision._hands import with_noise
from vision._synth import SyntheticRoll, render_roll
from vision.errors import CameraError, ImageError, VisionError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})


@runtime_checkable
class FrameSource(Protocol):
    """Anything that gives BGR frames."""

    def read(self) -> Image | None:
        """The next frame, or None when a finite source has no more."""
        ...

    def close(self) -> None:
        """Release the device or file; closing twice is harmless."""
        ...


class _Closing:
    """Context-manager behaviour shared by the sources."""

    def close(self) -> None:
        """Release the source (idempotent)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _path_is(test: Callable[[], bool], what: str, error: type[VisionError]) -> bool:
    """``test()``, a ``Path.is_file`` or ``is_dir``, which raises for a name that cannot be
    a path (too long, or holding a NUL): then ``error`` naming ``what`` and why."""
    try:
        return test()
    except (OSError, ValueError) as problem:
        raise error(f"{what}: {problem}") from None


def read_image(path: str | Path) -> Image:
    """Decode one image file as BGR.

    Raises:
        ImageError: the file is missing or is not an image OpenCV can decode.
    """
    what = f"cannot read image {str(path)!r}"
    if not _path_is(Path(path).is_file, what, ImageError):
        raise ImageError(f"{what}: no such file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None  # empty: it asserts
    if image is None:
        raise ImageError(f"{what}: not a decodable image")
    return np.asarray(image, dtype=np.uint8)


class CameraSource(_Closing):
    """A USB (UVC) camera through OpenCV's ``VideoCapture``.

    Raises:
        CameraError: the camera cannot be opened, or stops giving frames (unplugged).
    """

    def __init__(self, index: int = 0, *, width: int | None = None, height: int | None = None,
                 capture: Callable[[int], cv2.VideoCapture] = cv2.VideoCapture) -> None:
        self.index = index
        # OpenCV logs its own warnings for a missing device; the error below says it.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
        self._capture = capture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"camera {index!r} cannot be opened (is it plugged in?)")
        if width is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._closed = False

    def read(self) -> Image:
        """The next frame."""
        if self._closed:
            raise CameraError(f"camera {self.index!r} is closed")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.index!r} gave no frame (unplugged?)")
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        """Release the camera (idempotent)."""
        if not getattr(self, "_closed", True):
            self._closed = True
            self._capture.release()


class _PiCamera(Protocol):
    """What :class:`PiCameraSource` uses of ``picamera2.Picamera2``."""

    def create_video_configuration(self, *, main: dict[str, object]) -> object: ...

    def configure(self, config: object) -> None: ...

    def start(self) -> None: ...

    def capture_array(self, name: str) -> Image: ...

    def close(self) -> None: ...


class PiCameraSource(_Closing):
    """The Raspberry Pi camera through ``picamera2`` (OpenCV's capture cannot drive it).

    Raises:
        CameraError: picamera2 is not installed, or the camera cannot start.
    """

    def __init__(self, *, size: tuple[int, int] = (1280, 720),
                 module: str = "picamera2") -> None:
        try:
            picamera2 = importlib.import_module(module)
        except ImportError:
            raise CameraError(f"the Pi camera needs the {module!r} package, "
                              "which is not installed") from None
        try:
            self._camera: _PiCamera = picamera2.Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": size, "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # picamera2 raises RuntimeError, IndexError, ...
            raise CameraError(f"the Pi camera cannot start: {error}") from None
        self._closed = False

    def read(self) -> Image:
        """The next frame (picamera2's "RGB888" is BGR in memory, as OpenCV wants)."""
        if self._closed:
            raise CameraError("the Pi camera is closed")
        try:
            return np.asarray(self._camera.capture_array("main"), dtype=np.uint8)
        except Exception as error:
            raise CameraError(f"the Pi camera gave no frame: {error}") from None

    def close(self) -> None:
        """Stop the camera (idempotent)."""
        if not getattr(self, "_closed", True):
            self._closed = True
            self._camera.close()


class FolderSource(_Closing):
    """The images of a folder, in name order (a recorded session, or test photos).

    Raises:
        CameraError: the folder does not exist or holds no image.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not _path_is(self.folder.is_dir, f"image folder {str(self.folder)!r}", CameraError):
            raise CameraError(f"image folder {str(self.folder)!r} does not exist")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"image folder {str(self.folder)!r} holds no image")
        self._next = 0

    def read(self) -> Image | None:
        """The next image, or None after the last one.

        Raises:
            ImageError: an image of the folder cannot be decoded (named).
        """
        if self._next >= len(self.paths):
            return None
        path = self.paths[self._next]
        self._next += 1
        return read_image(path)


class VideoFileSource(_Closing):
    """The frames of a video file.

    Raises:
        CameraError: the file cannot be opened as a video.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not _path_is(self.path.is_file, f"video {str(self.path)!r}", CameraError):
            raise CameraError(f"video {str(self.path)!r} does not exist")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"video {str(self.path)!r} cannot be opened")
        self._closed = False

    def read(self) -> Image | None:
        """The next frame, or None at the end of the video."""
        if self._closed:
            return None
        ok, frame = self._capture.read()
        return np.asarray(frame, dtype=np.uint8) if ok else None

    def close(self) -> None:
        """Release the file (idempotent)."""
        if not self._closed:
            self._closed = True
            self._capture.release()


class SyntheticSource(_Closing):
    """A simulated camera over the board: rolls tumble, settle, and are lifted again.

    The board is the same for every roll. Each roll gives ``empty`` frames of the board
    without dice (before the throw, or the dice lifted), ``moving`` frames (the dice
    still rolling), ``settled`` frames of the same picture with fresh sensor noise.
    ``rolls`` holds the truth of each roll, in order.
    """

    def __init__(self, rng: random.Random, *, count: int | None = None, moving: int = 3,
                 settled: int = 6, empty: int = 4) -> None:
        self._rng = rng
        self._count = count
        self._moving, self._settled, self._empty = moving, settled, empty
        self.rolls: list[SyntheticRoll] = []
        self._board_seed = rng.getrandbits(32)
        self._frames: Iterator[Image] = self._generate()

    def empty_board(self) -> Image:
        """The board without dice, as the camera sees it (to prime a reader)."""
        return render_roll(random.Random(0), board_seed=self._board_seed, dice=0).image

    def _noisy(self, image: Image) -> Image:
        return with_noise(image, self._rng)

    def _generate(self) -> Iterator[Image]:
        n = 0
        while self._count is None or n < self._count:
            n += 1
            seed = self._rng.getrandbits(32)
            roll = render_roll(random.Random(seed), board_seed=self._board_seed)
            for _ in range(self._empty):
                yield self._noisy(roll.background)
            for k in range(self._moving):
                yield render_roll(random.Random(seed + k + 1), board_seed=self._board_seed).image
            self.rolls.append(roll)
            for _ in range(self._settled):
                yield self._noisy(roll.image)

    def read(self) -> Image | None:
        """The next frame, or None after ``count`` rolls."""
        return next(self._frames, None)


def open_source(spec: str) -> FrameSource:
    """A frame source from a command-line spec.

    ``0`` (a number: USB camera index), ``picamera``, ``synthetic``, a folder of images,
    or a video file.

    Raises:
        CameraError: the source cannot be opened.
    """
    if spec.isdigit():
        return CameraSource(int(spec))
    if spec == "picamera":
        return PiCameraSource()
    if spec == "synthetic":
        return SyntheticSource(random.Random(0))
    path = Path(spec)
    folder = _path_is(path.is_dir, f"camera source {spec!r}", CameraError)
    return FolderSource(path) if folder else VideoFileSource(path)

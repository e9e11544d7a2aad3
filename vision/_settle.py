"""Settle detection and the roll watcher: read a roll only once the dice have stopped.

The threshold of "nothing moves" comes from the camera's own noise (the frame-to-frame
change of a still scene), so one setting works for a noisy webcam and a clean Pi camera.
The reading is voted over the settled frames; the dice vanishing ends the turn (lifted).
A roll is new only when the dice were lifted in between or moved: a hand passing over dice
that stayed put, or a player leaning over them, is neither a roll nor the dice lifted.
"""

from __future__ import annotations

import collections
import enum
import itertools
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision._arrays import Image, narrow
from vision._model import Die, RollReading, Thrower
from vision._reader import BoardView, DiceReader, check_frame
from vision._sources import FrameSource
from vision.errors import CameraError, ImageError

_SMALL = (160, 120)
#: The blocks a scene change is sought in (8 x 8 pixels of the small frame each): a die.
_BLOCKS = (20, 15)
#: A block whose mean grey changes this much has changed, whatever the settle threshold
#: says (one set far too high, or fitted to a camera's noise not known yet).
MOST_UNCHANGED = 12.0
#: Frame changes seen before the camera's noise is estimated from them.
NOISE_SAMPLES = 8
#: A die found again this share of its side or more from where it lay was moved: a roll.
MOVED_FROM = 0.5


def frame_change(previous: Image, current: Image) -> float:
    """Mean absolute grey difference of two frames at 160 x 120: cheap and noise-averaging."""
    return _mean_change(_thumbnail(previous), _thumbnail(current))


def _mean_change(previous: Image, current: Image) -> float:
    """:func:`frame_change` of two thumbnails (:func:`_thumbnail`)."""
    return float(cv2.absdiff(previous, current).mean())


def _thumbnail(frame: Image) -> Image:
    """``frame`` in grey at 160 x 120, as changes are measured."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return narrow(cv2.resize(grey, _SMALL, interpolation=cv2.INTER_AREA), np.uint8)


def _largest_change(previous: Image, current: Image) -> float:
    """The largest mean grey change of the 8 x 8 blocks of two thumbnails (:func:`_thumbnail`):
    a die appearing changes a block, where the whole frame's mean hides it."""
    blocks = cv2.resize(cv2.absdiff(previous, current), _BLOCKS, interpolation=cv2.INTER_AREA)
    return float(blocks.max())


class SettleDetector:
    """Tells when the scene has stopped moving for ``frames`` consecutive frames.

    Args:
        frames: how many consecutive still frames make the scene settled.
        noise_factor: the threshold is this many times the camera noise, plus ``floor``.
        floor: the smallest threshold (grey levels), against a noiseless source.
        min_still: seconds the scene must also have been still (by ``clock``).
        clock: the time source, injectable for tests.
    """

    def __init__(self, *, frames: int = 4, noise_factor: float = 3.0, floor: float = 0.3,
                 min_still: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if frames < 1:
            raise ValueError(f"invalid frames {frames!r}: expected at least 1")
        self.frames = frames
        self.noise_factor = noise_factor
        self.floor = floor
        self.min_still = min_still
        self._clock = clock
        #: The last frame fed, as a thumbnail (:func:`_thumbnail`), or None.
        self.thumbnail: Image | None = None
        self._recent: collections.deque[float] = collections.deque(maxlen=64)
        self._noise: float | None = None
        self._still = 0
        self._still_since: float | None = None

    def measure_noise(self, frames: list[Image]) -> float:
        """Measure the camera noise on frames of a still scene and use it from now on."""
        if len(frames) < 2:
            raise ValueError(f"need at least 2 still frames to measure noise, got {len(frames)}")
        changes = [frame_change(a, b) for a, b in itertools.pairwise(frames)]
        self._noise = float(np.median(changes))
        return self._noise

    @property
    def noise(self) -> float:
        """The camera noise: measured, else the low quantile of the recent changes (none
        before :data:`NOISE_SAMPLES` of them: the first change after start-up, a hand
        coming in, is no measure of the noise and would make it count as still)."""
        if self._noise is not None:
            return self._noise
        if len(self._recent) < NOISE_SAMPLES:
            return 0.0
        return float(np.percentile(list(self._recent), 10))

    @property
    def threshold(self) -> float:
        """The change below which a frame counts as still."""
        return self.noise_factor * self.noise + self.floor

    @property
    def is_settled(self) -> bool:
        """Whether the last ``frames`` frames were all still (and long enough)."""
        if self._still < self.frames or self._still_since is None:
            return False
        return self._clock() - self._still_since >= self.min_still

    def update(self, frame: Image) -> bool:
        """Feed a frame; returns whether the scene is now settled."""
        thumbnail = _thumbnail(frame)
        if self.thumbnail is not None:
            change = _mean_change(self.thumbnail, thumbnail)
            self._recent.append(change)
            if change < self.threshold:
                if self._still == 0:
                    self._still_since = self._clock()
                self._still += 1
            else:
                self._still = 0
                self._still_since = None
        self.thumbnail = thumbnail
        return self.is_settled

    def reset(self) -> None:
        """Forget the previous frame (after a gap in the frames)."""
        self.thumbnail = None
        self._still = 0
        self._still_since = None


class WatchState(enum.StrEnum):
    """What the watcher sees."""

    SEARCHING = "searching"  # no camera: waiting for one to come back
    MOVING = "moving"
    SETTLED = "settled"  # dice at rest, read
    EMPTY = "empty"  # settled with no dice on the board
    #: Settled with something far larger than a die over the board (a hand, a sleeve, a
    #: player leaning over it), or over where the dice lay: nothing is read or learnt.
    COVERED = "covered"


@dataclass(frozen=True, slots=True)
class RollEvent:
    """A roll read over settled frames (``kind="roll"``) or the dice lifted (``"lifted"``)."""

    kind: Literal["roll", "lifted"]
    reading: RollReading | None = None
    votes: int = 0


REOPEN_S = 1.0
"""How long a :class:`RollWatcher` waits, once its frame source is lost, before opening it
again. Opened again at once, an unplugged camera (or a recording at its end) took a whole
core (96% and 110% of one, measured on ``tabula run``)."""


class RollWatcher:
    """Turns frames into roll events: settled roll read and voted, dice lifted.

    Args:
        open_source: opens the frame source; called again after a camera error, or at the
            end of the frames, ``reopen_s`` seconds after it.
        reader: the dice reader.
        settle: the settle detector (a default one if None).
        votes: how many settled frames are read and voted over.
    """

    def __init__(self, open_source: Callable[[], FrameSource], reader: DiceReader, *,
                 settle: SettleDetector | None = None, votes: int = 3,
                 reopen_s: float = REOPEN_S) -> None:
        self._open = open_source
        self._reopen_s = reopen_s
        #: When the source may be opened (again): at once at first, later after a loss.
        self._reopen_at = 0.0
        self.reader = reader
        self.settle = settle or SettleDetector()
        self.votes = votes
        self.state = WatchState.SEARCHING
        self.error: str = ""
        self._source: FrameSource | None = None
        self._readings: list[RollReading] = []
        #: The dice of the last roll sent, until they are seen lifted.
        self._last: RollReading | None = None
        #: The thumbnail of the frame that made the state empty or covered: until the scene
        #: changes from it, reading again would say the same (:meth:`_unchanged`).
        self._concluded: Image | None = None
        #: Set once closed: it also ends a pause before the source is opened again.
        self._closed = threading.Event()

    def step(self, thrower: Thrower | str = Thrower.NEAR) -> RollEvent | None:
        """Take one frame of a throw by ``thrower`` and return the event it completes, if
        any (the caller, who knows whose turn it is, says who throws).

        Never raises for a missing or failing camera: the state becomes ``searching``
        with :attr:`error` saying why, and the next step tries to open it again, after a
        pause (it blocks until then, as a camera's read blocks until its next frame). A
        frame that cannot be decoded is passed over, :attr:`error` saying why.
        """
        try:
            if self._source is None:
                if self._closed.wait(max(0.0, self._reopen_at - time.monotonic())):
                    return None
                self._source = self._open()
            frame = self._source.read()
        except CameraError as error:
            self._lose_source(str(error))
            return None
        except ImageError as error:  # a frame that cannot be decoded (a folder's file)
            self.error = str(error)
            return None
        if frame is None:
            self._lose_source("the frame source has no more frames")
            return None
        try:
            frame = check_frame(frame)
        except ImageError as error:
            self.error = str(error)
            return None
        self.error = ""
        if not self.settle.update(frame):
            self.state = WatchState.MOVING
            self._readings.clear()
            return None
        if len(self._readings) >= self.votes or self._unchanged():
            return None
        seen = self.reader.look(frame)  # warped once for the questions below
        # Checked on every settled frame that changed: a hand drawn back too slowly to be
        # seen moving (or a camera whose noise is not known yet) must not leave the board
        # covered.
        if self.reader.is_covered(seen):
            self._conclude(WatchState.COVERED)
            self._readings.clear()
            return None
        reading = self.reader.read(seen, thrower)
        if reading.is_empty:  # not a cluttered frame (no dice read, unreadable)
            return self._no_dice(seen)
        self.state = WatchState.SETTLED
        self._readings.append(reading)
        if len(self._readings) < self.votes:
            return None
        voted = _vote(self._readings)
        if self._last is not None and _same_dice(voted, self._last, self.reader.min_confidence):
            return None  # the dice that stayed put: a hand passed, a player leant over them
        self._last = voted
        return RollEvent("roll", voted, len(self._readings))

    def _no_dice(self, frame: BoardView) -> RollEvent | None:
        """A settled frame without dice: the board is learnt, and the dice of the last roll
        are lifted, only if the board is seen where they lay (else something hides it)."""
        last = self._last
        if last is not None and not self.reader.shows_board(frame, [d.box for d in last.dice]):
            self._conclude(WatchState.COVERED)
            return None
        self.reader.set_background(frame)
        self._conclude(WatchState.EMPTY)
        if last is None:
            return None
        self._last = None
        return RollEvent("lifted")

    def _conclude(self, state: WatchState) -> None:
        """Enter ``state`` (empty or covered), read on the frame just fed to the settle
        detector."""
        self.state = state
        self._concluded = self.settle.thumbnail

    def _unchanged(self) -> bool:
        """Whether the board is still empty or covered as last read: the state says so, and
        no 8 x 8 block of the frame (a die's size) changed from the frame read by more than
        the settle threshold, or :data:`MOST_UNCHANGED`.

        Why: an idle board is a settled one, and each frame of it was read (the board
        covered? dice? the board learnt again) at about 7 ms here, a camera's whole frame
        rate on a Pi. A slow change (a hand drawn back, the light) still adds up to a read.
        """
        if self.state not in (WatchState.EMPTY, WatchState.COVERED):
            return False
        concluded, now = self._concluded, self.settle.thumbnail
        if concluded is None or now is None:
            return False
        return _largest_change(concluded, now) < min(self.settle.threshold, MOST_UNCHANGED)

    def _lose_source(self, why: str) -> None:
        self.state = WatchState.SEARCHING
        self.error = why
        self._reopen_at = time.monotonic() + self._reopen_s
        if self._source is not None:
            self._source.close()
            self._source = None
        self.settle.reset()
        self._readings.clear()

    def close(self) -> None:
        """Close the frame source (idempotent)."""
        if not self._closed.is_set():
            self._closed.set()
            if self._source is not None:
                self._source.close()
                self._source = None


def _same_dice(seen: RollReading, last: RollReading, sure: float) -> bool:
    """Whether every die seen is a die of ``last`` that stayed put: found within
    :data:`MOVED_FROM` of its side from where it lay, showing the same face (or a face the
    reader is not ``sure`` of on either reading). Some of them (one die picked up) are no
    roll either."""
    left = list(last.dice)
    for die in seen.dice:
        stayed = next((old for old in left if _stayed(die, old, sure)), None)
        if stayed is None:
            return False
        left.remove(stayed)
    return True


def _stayed(die: Die, old: Die, sure: float) -> bool:
    side = math.sqrt(max(1, old.box[2] - old.box[0]) * max(1, old.box[3] - old.box[1]))
    if math.dist(die.center, old.center) >= MOVED_FROM * side:
        return False
    return die.value == old.value or min(die.confidence, old.confidence) < sure


def _vote(readings: list[RollReading]) -> RollReading:
    """The reading most settled frames agree on (values and verdict), latest on a tie."""
    keys = [(r.values, r.verdict) for r in readings]
    counts = collections.Counter(keys)
    best = max(counts.values())
    for reading, key in zip(reversed(readings), reversed(keys), strict=True):
        if counts[key] == best:
            return reading
    return readings[-1]

"""The camera over the simulated table, and the rendered rolls the players throw before it.

* :class:`TableCamera` — a frame source over the table: the empty board, or a roll.
* :class:`RollPool` — rendered rolls (``vision.render_roll``) composited on one board under
  one light, each checked once by the real reader: the camera then shows only rolls whose
  truth is known, flat ones read right and cocked ones read as rerolls. Now and then the
  room's light has changed since the empty board (up to 30%, some with a shadow across).

Why OpenCV and numpy are imported inside the functions: the rules tests import the
simulated players alone, and must not load them.
"""

from __future__ import annotations

import collections
import os
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from controller.simulated.progress import STALL_S, until_progress

if TYPE_CHECKING:
    from vision import Image

__all__ = ["POOL_SIZES", "PoolRoll", "RollPool", "TableCamera"]


class TableCamera:
    """A camera over the table (``vision.FrameSource``): shows what the players put there.

    :meth:`read` returns the current picture at most every ``period_s`` (a camera's frame
    rate), at once after a change.
    """

    def __init__(self, empty: Image, *, period_s: float = 0.02) -> None:
        self.empty = empty
        self._frame = empty
        self._period_s = period_s
        self._version = 0
        self._seen = 0
        self._reads_since = 0
        self._closed = False
        self._passing: collections.deque[Image] = collections.deque()
        self._condition = threading.Condition()

    @property
    def picture(self) -> Image:
        """What stands in front of the camera (a hand passing aside)."""
        with self._condition:
            return self._frame

    def show(self, image: Image) -> None:
        """Put ``image`` in front of the camera (a roll, or the empty board).

        A hand passes first (one frame with a dark band along the left edge, clear of the
        dice): the watcher sees movement even when the change itself is as small as two dice.
        """
        hand = image.copy()
        hand[:, : hand.shape[1] // 8] //= 3
        self._change([hand], image)

    def pass_over(self, frames: Sequence[Image]) -> None:
        """Show ``frames`` once each (a hand passing, a player leaning over the board: the
        same frame several times is something held still), then the picture again."""
        self._change(frames)

    def _change(self, passing: Sequence[Image], picture: Image | None = None) -> None:
        """Show the frames ``passing``, then ``picture`` (None: the picture as it is)."""
        with self._condition:
            if picture is not None:
                self._frame = picture
            self._passing = collections.deque(passing)
            self._version += 1
            self._reads_since = 0
            self._condition.notify_all()

    def read(self) -> Image | None:
        with self._condition:
            self._condition.wait_for(
                lambda: self._version != self._seen or self._closed, timeout=self._period_s
            )
            self._seen = self._version
            self._reads_since += 1
            self._condition.notify_all()
            if self._closed:
                return None
            return self._passing.popleft() if self._passing else self._frame

    def reads_since_show(self) -> int:
        """Frames read since the last :meth:`show` or :meth:`pass_over`."""
        with self._condition:
            return self._reads_since

    async def taken_in(self, frames: int, *, stall_s: float = STALL_S) -> None:
        """Wait until ``frames`` frames have been read since the last :meth:`show`.

        A slow reader (a throttled service) is waited for as long as it keeps reading.

        Raises:
            TimeoutError: no frame was read for ``stall_s`` seconds.
        """
        await until_progress(
            "the camera to be read",
            lambda: self.reads_since_show() >= frames,
            self.reads_since_show,
            stall_s=stall_s,
        )

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rendered roll whose reading is known.

    ``thrower`` is who threw it (``vision.Thrower``'s values: the dice lie in his
    right-hand half); ``dice`` is (the near player's die, the far player's) for an opening
    throw (``both``), else the two values.
    """

    image: Image
    dice: tuple[int, int]
    cocked: bool
    thrower: str = "near"
    relit: bool = False
    """Lit otherwise than the empty board (lamps, daylight, a player's shadow)."""


#: How many rolls the pool keeps of each (thrower, cocked).
POOL_SIZES: dict[tuple[str, bool], int] = {
    ("near", False): 12,
    ("far", False): 12,
    ("both", False): 8,
    ("near", True): 3,
    ("far", True): 3,
}


class RollPool:
    """Rendered rolls checked once by the real reader (see the module docstring).

    Args:
        seed: the rendering's seed.
        sizes: how many rolls to keep of each (thrower, cocked).
        relit: the share of the rolls lit otherwise than the empty board.
    """

    def __init__(self, seed: int = 0, *, sizes: Mapping[tuple[str, bool], int] = POOL_SIZES,
                 relit: float = 0.3) -> None:  # fmt: skip
        import cv2
        import numpy as np

        from vision import Calibration, DiceReader, LightChange, Verdict, render_roll

        self.empty = render_roll(random.Random(seed), board_seed=seed, dice=0).background
        reader = DiceReader(Calibration.identity(), expected_dice=2)
        reader.set_background(self.empty)
        self.rolls: list[PoolRoll] = []
        attempt = 0
        for (thrower, cocked), wanted in sizes.items():
            kept = 0
            while kept < wanted:
                attempt += 1
                rng = random.Random(seed * 7919 + attempt)
                roll = render_roll(
                    rng, board_seed=seed, cocked=1 if cocked else 0, thrower=thrower
                )
                mask = (cv2.absdiff(roll.image, roll.background).max(axis=2) > 12).astype(np.uint8)
                mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
                image = np.where(mask[..., None] > 0, roll.image, self.empty)
                lit = rng.random() < relit
                if lit:
                    image = LightChange.random(rng, shadow=rng.random() < 0.5).apply(image)
                reading = reader.read(image, thrower)
                if cocked:
                    # Read as cocked, not merely a reroll: dice the reader did not see at
                    # all would be learnt as the empty board.
                    if len(reading.dice) == 2 and any("cocked" in d.flags for d in reading.dice):
                        self.rolls.append(PoolRoll(image, (1, 1), True, thrower, lit))
                        kept += 1
                    continue
                if reading.verdict is not Verdict.OK or len(reading.dice) != 2:
                    continue
                # The die further right is the near player's (the opening throw's order).
                truth = sorted(roll.dice, key=lambda die: -(die.box[0] + die.box[2]))
                seen = sorted(reading.dice, key=lambda die: -die.center[0])
                dice = (truth[0].value, truth[1].value)
                if (seen[0].value, seen[1].value) == dice:
                    self.rolls.append(PoolRoll(image, dice, False, thrower, lit))
                    kept += 1

    def save(self, path: Path) -> None:
        """Keep the pool in a ``.npz`` file (rendering it takes seconds, loading it not).

        The partial file's name is unique: several boards in one process (or several
        demos) may render and save the same pool at once; each rename is atomic.
        """
        import tempfile

        import numpy as np

        rolls = self.rolls
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part.npz")
        os.close(handle)
        partial = Path(name)
        np.savez(
            partial,
            empty=self.empty,
            images=np.stack([roll.image for roll in rolls]),
            dice=np.array([roll.dice for roll in rolls]),
            cocked=np.array([roll.cocked for roll in rolls]),
            thrower=np.array([roll.thrower for roll in rolls]),
            relit=np.array([roll.relit for roll in rolls]),
        )
        partial.replace(path)

    @classmethod
    def cached(cls, seed: int, cache: Path) -> RollPool:
        """The pool of ``seed`` from ``cache`` (a directory), rendered and saved if missing."""
        import numpy as np

        path = cache / f"tabula-rolls-{seed}-{_reader_version()}.npz"
        if path.exists():
            with np.load(path) as data:
                pool = cls.__new__(cls)
                pool.empty = data["empty"]
                pool.rolls = [
                    PoolRoll(image, (int(dice[0]), int(dice[1])), bool(cocked), str(thrower),
                             bool(relit))
                    for image, dice, cocked, thrower, relit in zip(
                        data["images"], data["dice"], data["cocked"], data["thrower"],
                        data["relit"], strict=True,
                    )
                ]
                return pool
        pool = cls(seed)
        pool.save(path)
        return pool

    def pick(self, rng: random.Random, thrower: str, *, cocked: bool = False) -> PoolRoll:
        """A roll thrown by ``thrower`` (``near``, ``far`` or ``both``), cocked or flat."""
        return rng.choice(
            [roll for roll in self.rolls if roll.thrower == thrower and roll.cocked == cocked]
        )


def _reader_version() -> str:
    """A digest of the dice reader's code and the pool's: a cached pool was made and
    checked by this code only."""
    import hashlib

    import vision

    digest = hashlib.sha256()
    for source in [*sorted(Path(vision.__file__).parent.glob("*.py")), Path(__file__)]:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]

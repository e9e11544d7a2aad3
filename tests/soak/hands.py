"""Hands and leaning players over dice that stayed put: no second roll, no false lift, none lost."""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from vision import (
    Calibration,
    DiceReader,
    RollWatcher,
    SettleDetector,
    Verdict,
    WatchState,
    hand_crossing,
    leaning_over,
    nudged,
    render_roll,
    with_noise,
    without_die,
)

#: Each scene's video and the events the watcher must send for it, in order.
EXPECTED: dict[str, tuple[str, ...]] = {
    "crossing": ("roll",),  # a hand passes over the dice
    "leaning-both": ("roll", "lifted"),  # a player leans over both dice, then they are lifted
    "leaning-one": ("roll", "lifted"),
    "leaning-board": ("roll", "lifted"),  # the arm rests on the board beside the dice
    "nudged": ("roll", "roll"),  # a die pushed to a new place: a new roll
    "rolled-again": ("roll", "lifted", "roll"),  # the same roll lifted and thrown again
    "one-lifted-first": ("roll", "lifted"),  # the dice picked up one at a time
}
_STILL = 5  # frames of each still scene: the watcher settles and votes in 4


@dataclass(slots=True)
class Seen:
    """What the watcher made of a video."""

    kinds: list[str] = field(default_factory=list)
    states: set[WatchState] = field(default_factory=set)


class VideoSource:
    """A camera over a scripted video (``vision.FrameSource``): the frames, then None."""

    def __init__(self, frames: list[Any]) -> None:
        self._frames = iter(frames)

    def read(self) -> Any:
        return next(self._frames, None)

    def close(self) -> None:
        self._frames = iter(())


def _still(image: Any, rng: random.Random) -> list[Any]:
    return [with_noise(image, rng) for _ in range(_STILL)]


def _nudged(reader: DiceReader, roll: Any, rng: random.Random) -> Any | None:
    """The roll with one die pushed a die and a half away, still read as two flat dice (None
    when no push keeps it so: off the field, onto a checker or the other die)."""
    die = rng.choice(roll.dice)
    step = round(1.5 * (die.box[2] - die.box[0]))
    offsets = [(step, 0), (-step, 0), (0, step), (0, -step)]
    rng.shuffle(offsets)
    for offset in offsets:
        try:
            image = nudged(roll.image, roll.background, die.box, offset)
        except ValueError:
            continue
        reading = reader.read(image)
        if reading.verdict is Verdict.OK and len(reading.dice) == 2:
            return image
    return None


def hand_over(image: Any, then: Any, boxes: list[Any], rng: random.Random) -> list[Any]:
    """A hand crossing ``image`` over the dice at ``boxes``, then ``then`` still: a throw,
    a lift or a move as made at a table."""
    return hand_crossing(image, boxes, rng)[:-1] + _still(then, rng)


def video(scene: str, seed: int, reader: DiceReader) -> tuple[list[Any], Any] | None:
    """The frames of ``scene`` for ``seed`` and the empty board they are read against (None
    when the seed's roll cannot be nudged).

    Every throw and every lift has a hand in it, as at a table: dice appearing or vanishing
    alone change too little of the view to be seen as movement.
    """
    rng = random.Random(seed)
    roll = render_roll(random.Random(seed), board_seed=seed)
    boxes = [die.box for die in roll.dice]

    def hand(image: Any, then: Any) -> list[Any]:
        return hand_over(image, then, boxes, rng)

    thrown = _still(roll.background, rng) + hand(roll.background, roll.image)
    if scene == "crossing":
        return thrown + hand(roll.image, roll.image), roll.background
    if scene.startswith("leaning-"):
        lean = leaning_over(roll.image, boxes, rng, cover=scene.removeprefix("leaning-"))
        lifted = hand(roll.image, roll.background)
        return thrown + lean + _still(roll.image, rng) + lifted, roll.background
    if scene == "nudged":
        reader.set_background(roll.background)
        pushed = _nudged(reader, roll, rng)
        if pushed is None:
            return None
        return thrown + hand(roll.image, pushed), roll.background
    if scene == "rolled-again":
        lifted = hand(roll.image, roll.background)
        return thrown + lifted + hand(roll.background, roll.image), roll.background
    if scene == "one-lifted-first":
        one = without_die(roll.image, roll.background, rng.choice(boxes))
        return thrown + hand(roll.image, one) + hand(one, roll.background), roll.background
    raise ValueError(f"invalid scene {scene!r}: expected one of {', '.join(EXPECTED)}")


def watch(frames: list[Any], board: Any, reader: DiceReader) -> Seen:
    """Run a real :class:`RollWatcher` over ``frames``, the empty board learnt first."""
    reader.set_background(board)
    settle = SettleDetector(frames=2)
    rng = random.Random(0)
    settle.measure_noise([with_noise(board, rng) for _ in range(3)])
    source = VideoSource(frames)
    watcher = RollWatcher(lambda: source, reader, settle=settle, votes=2)
    seen = Seen()
    for _ in frames:
        event = watcher.step()
        seen.states.add(watcher.state)
        if event is not None:
            seen.kinds.append(event.kind)
    return seen


def check(scene: str, seed: int, reader: DiceReader) -> str | None:
    """What went wrong in ``scene`` for ``seed`` (None: the events expected).

    Raises:
        LookupError: the seed's video cannot be made (see :func:`video`).
    """
    made = video(scene, seed, reader)
    if made is None:
        raise LookupError(f"{scene} seed {seed}: no video")
    seen = watch(*made, reader)
    expected = list(EXPECTED[scene])
    if seen.kinds != expected:
        return f"{scene} seed {seed}: events {seen.kinds}, expected {expected}"
    if scene in ("leaning-both", "leaning-one") and WatchState.COVERED not in seen.states:
        return f"{scene} seed {seed}: never {WatchState.COVERED}, states {sorted(seen.states)}"
    return None


@dataclass(slots=True)
class Report:
    """Per scene: videos watched, and every failure."""

    cases: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    """Videos not made: no push of the seed's die keeps two flat dice in view."""
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def soak(seeds: range, scenes: tuple[str, ...] = tuple(EXPECTED)) -> Report:
    """Watch every scene for every seed."""
    start = time.perf_counter()
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    report = Report()
    for scene in scenes:
        for seed in seeds:
            try:
                failure = check(scene, seed, reader)
            except LookupError:
                report.skipped[scene] = report.skipped.get(scene, 0) + 1
                continue
            report.cases[scene] = report.cases.get(scene, 0) + 1
            if failure is not None:
                report.failures.append(failure)
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak hands", description=__doc__)
    parser.add_argument("--seeds", type=int, default=100, help="videos per scene (100)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (0)")
    parser.add_argument("--scenes", nargs="+", choices=list(EXPECTED), default=list(EXPECTED))
    args = parser.parse_args(argv)
    report = soak(range(args.first, args.first + args.seeds), tuple(args.scenes))
    print(f"{sum(report.cases.values())} videos in {report.seconds:.0f} s")
    for scene, cases in report.cases.items():
        failed = sum(f.startswith(f"{scene} ") for f in report.failures)
        skipped = report.skipped.get(scene, 0)
        print(
            f"  {scene:16} {cases - failed}/{cases} as expected {EXPECTED[scene]}"
            + (f" ({skipped} seeds without a video)" if skipped else "")
        )
    for failure in report.failures:
        print(f"FAILED {failure}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

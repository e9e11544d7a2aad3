"""Dice reader figures: ms per frame (full read, settle check) and accuracy.

Run ``python -m benchmarks.bench_vision [--rolls N] [--photos DIR]``. Timings are on one
core (OpenCV's threads are limited to one), median of repeated runs. The accuracy part
reads the real photos (the project copy, or ``../shared`` when given) and the
deterministic synthetic set of two-dice rolls (2,000 by default).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import cv2

from vision import Calibration, DiceReader, SettleDetector, render_roll
from vision._evaluate import evaluate_photos, evaluate_synthetic

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-photos"


def _time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def speed(repeat: int = 40) -> None:
    """Print ms per frame at 640x480 and 1280x720: full read and settle check."""
    roll = render_roll(random.Random(1))
    for size in ((640, 480), (1280, 720)):
        frame = cv2.resize(roll.image, size, interpolation=cv2.INTER_LINEAR)
        background = cv2.resize(roll.background, size, interpolation=cv2.INTER_LINEAR)
        plain = DiceReader()
        with_board = DiceReader()
        with_board.set_background(background)
        settle = SettleDetector()
        settle.update(frame)
        full = _time(lambda f=frame, r=plain: r.read(f), repeat)
        learnt = _time(lambda f=frame, r=with_board: r.read(f), repeat)
        check = _time(lambda f=frame, s=settle: s.update(f), repeat * 5)
        print(f"{size[0]}x{size[1]}: full read {full:.2f} ms (estimated background), "
              f"{learnt:.2f} ms (learnt empty board); settle check {check:.3f} ms")
    board = DiceReader(Calibration.identity(), expected_dice=2)
    board.set_background(roll.background)
    calibrated = _time(lambda: board.read(roll.image), repeat)
    print(f"640x480 board view, calibrated (warp + dice + cube + verdict): {calibrated:.2f} ms")


def main() -> None:
    """Print the speed and accuracy figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--no-accuracy", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    speed()
    if args.no_accuracy:
        return
    photos = evaluate_photos(args.photos)
    print(f"real photos ({args.photos}): {photos.summary()}")
    print("  most frequent confusions (label, read):", photos.confusions.most_common(8))
    synthetic = evaluate_synthetic(args.rolls)
    print(f"synthetic: {synthetic.summary()}")
    for line in synthetic.misses[:20]:
        print("  ", line)


if __name__ == "__main__":
    main()

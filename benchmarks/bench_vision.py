"""Dice reader figures: ms per frame (full read, settle check) and accuracy.

Targets (issue 4): full read under 10 ms at 640x480 and settle check under 2 ms, on one
core of this machine (a Raspberry Pi 4 is 3-4 times slower). Reference: one 5x5 Gaussian
blur of the same frame, timed in the same run, so that the ratio survives a busy machine.

Run ``python -m benchmarks.bench_vision [--rolls N] [--photos DIR]``. Timings are CPU time
(``time.process_time``, steady on a shared machine) on one
core (OpenCV's threads are limited to one), median of repeated runs. The accuracy part
reads the real photos (the project copy, or ``../shared`` when given) and the
deterministic synthetic set of two-dice rolls (2,000 by default).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2

from vision import Calibration, DiceReader, SettleDetector, read_image, render_roll
from vision._evaluate import evaluate_photos, evaluate_synthetic

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-photos"


def _time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
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
        blur = _time(lambda f=frame: cv2.GaussianBlur(f, (5, 5), 0), repeat * 5)
        print(f"{size[0]}x{size[1]}: full read {full:.2f} ms (estimated background), "
              f"{learnt:.2f} ms (learnt empty board); settle check {check:.3f} ms; "
              f"reference blur {blur:.3f} ms (ratios {full / blur:.0f}, {learnt / blur:.0f}, "
              f"{check / blur:.1f})")
    photo = read_image(PHOTOS / "images" / "IMG_20191208_111228.jpg")  # 24 dice, a tray
    photo_ms = _time(lambda: DiceReader().read(photo), repeat)
    print(f"real photo 640x640 with 24 dice (estimated background): {photo_ms:.2f} ms")
    board = DiceReader(Calibration.identity(), expected_dice=2)
    board.set_background(roll.background)
    calibrated = _time(lambda: board.read(roll.image), repeat)
    print(f"640x480 board view, calibrated (warp + dice + cube + verdict): {calibrated:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    """Print the speed and accuracy figures (``python -m benchmarks`` passes no options)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--no-accuracy", action="store_true")
    args = parser.parse_args(argv or [])
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
    main(sys.argv[1:])

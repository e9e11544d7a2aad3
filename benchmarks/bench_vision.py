"""Dice reader figures: ms per frame (full read, settle check) and accuracy.

Targets (issue 4): full read under 10 ms at 640x480 and settle check under 2 ms, on one
core of this machine (a Raspberry Pi 4 is 3-4 times slower); on the real photos at least
98% value accuracy and 97% recall. Reference: the classical OpenCV reader
(``DiceReader(model=None)``), timed and scored in the same run, so that the ratio survives
a busy machine.

Run ``python -m benchmarks.bench_vision [--rolls N] [--photos DIR]``. Timings are CPU time
(``time.process_time``, steady on a shared machine) on one core (OpenCV's threads are
limited to one), median of repeated runs. The accuracy part reads the real photos (the
project copy, or ``../shared`` when given) each with the model of its own fold, which never
saw it (held-out figures, see :mod:`vision.train`), and the deterministic synthetic set of
two-dice rolls (2,000 by default) with the service's model.
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
from vision._evaluate import Score, evaluate_photos, evaluate_synthetic, evaluate_varied

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-photos"


def _time(fn: Callable[[], object], repeat: int) -> float:
    fn()  # the first call loads the nets
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return statistics.median(samples)


def _pair(label: str, learned: float, classical: float) -> str:
    return (f"{label}: {learned:.2f} ms (classical reference {classical:.2f} ms, "
            f"ratio {learned / classical:.2f})")


def speed(repeat: int = 40) -> None:
    """Print ms per frame at 640x480 and 1280x720: full read and settle check."""
    roll = render_roll(random.Random(1))
    for size in ((640, 480), (1280, 720)):
        frame = cv2.resize(roll.image, size, interpolation=cv2.INTER_LINEAR)
        background = cv2.resize(roll.background, size, interpolation=cv2.INTER_LINEAR)
        times = {}
        for model in ("all", None):
            plain = DiceReader(model=model)
            with_board = DiceReader(model=model)
            with_board.set_background(background)
            times[model] = (_time(lambda f=frame, r=plain: r.read(f), repeat),
                            _time(lambda f=frame, r=with_board: r.read(f), repeat))
        settle = SettleDetector()
        settle.update(frame)
        check = _time(lambda f=frame, s=settle: s.update(f), repeat * 5)
        print(f"{size[0]}x{size[1]}:")
        print("  " + _pair("full read, learnt empty board (service)", times["all"][1],
                           times[None][1]))
        print("  " + _pair("full read, no board learnt (detector)", times["all"][0],
                           times[None][0]))
        print(f"  settle check {check:.3f} ms")
    photo = read_image(PHOTOS / "images" / "IMG_20191208_111228.jpg")  # 24 dice, a tray
    print(_pair("real photo 640x640 with 24 dice", _time(lambda: DiceReader().read(photo), repeat),
                _time(lambda: DiceReader(model=None).read(photo), repeat)))
    board = DiceReader(Calibration.identity(), expected_dice=2)
    board.set_background(roll.background)
    calibrated = _time(lambda: board.read(roll.image), repeat)
    print(f"640x480 board view, calibrated (warp + dice + cube + verdict): {calibrated:.2f} ms")


def _print_photos(label: str, score: Score) -> None:
    print(f"{label}: {score.summary()}")
    for threshold in (0.5, 0.8, 0.95):
        share, accuracy = score.confident(threshold)
        print(f"  confidence >= {threshold}: {share:.1%} of the dice, value accuracy "
              f"{accuracy:.2%}")
    print("  most frequent confusions (label, read):", score.confusions.most_common(8))


def main(argv: list[str] | None = None) -> None:
    """Print the speed and accuracy figures (``python -m benchmarks`` passes no options)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--no-accuracy", action="store_true")
    parser.add_argument("--failures", action="store_true", help="list the real-photo failures")
    args = parser.parse_args(argv or [])
    cv2.setNumThreads(1)
    speed()
    if args.no_accuracy:
        return
    held_out = evaluate_photos(args.photos)
    _print_photos(f"real photos, held out ({args.photos})", held_out)
    if args.failures:
        for line in held_out.failures:
            print("  ", line)
    _print_photos("real photos, classical reference", evaluate_photos(
        args.photos, DiceReader(model=None)))
    synthetic = evaluate_synthetic(args.rolls)
    print(f"synthetic: {synthetic.summary()}")
    for line in synthetic.misses[:20]:
        print("  ", line)
    _print_photos("synthetic odd dice (marbled, translucent, glossy), no board learnt",
                  evaluate_varied(args.rolls // 4))


if __name__ == "__main__":
    main(sys.argv[1:])

"""Dice reader figures: ms per frame (full read, settle check) and accuracy.

Targets (issue 4): full read under 10 ms at 640x480 and settle check under 2 ms, on one
core of this machine (a Raspberry Pi 4 is 3-4 times slower); on the real photos at least
98% value accuracy and 97% recall. Reference: the classical OpenCV reader
(``DiceReader(model=None)``), timed and scored in the same run on the same frames; the
settle check's is the bare ``cv2.absdiff`` of two whole frames.

Read time against the number of candidate dice (issue 15: at most 10 ms at 640x480 with
up to 6), and on a cluttered frame (more die-like blobs than a roll makes: said, not read);
the reference is the classical reader on the same frame. Lighting (issue 15): flat rolls
under a room light up to 30% off the learnt board's, with a shadow band, read right and
not called cocked; the reference is the same rolls under the learnt board's light. A
settled frame of a 1280x720 camera at 30 degrees: the watcher's covered check and read on
the frame warped once to the board view; the reference asks the same of the camera frame,
each question warping it.

``python -m benchmarks vision [--rolls N] [--light-rolls N] [--oblique-rolls N]
[--cube-rolls N] [--photos DIR] [--photo-limit N]``. Timings are CPU time on one core
(OpenCV's threads are limited to one), the best of ``--repeats`` taken in turns with the
reference. The accuracy part reads the real photos (the project copy, or ``../shared``
when given) each with the model of its own fold, which never saw it (held-out figures, see
:mod:`vision.train`), a die not read right being a miss; and the deterministic synthetic
set of two-dice rolls (2,000 by default) with the service's model, which the classical
reader is not scored on.

Cameras at an angle: ``--oblique-rolls`` two-dice rolls per angle (0, 30, 45 and 60
degrees from vertical), rendered in 3-D (:func:`vision._scene3d.render_oblique`, seeds
from ``OBLIQUE_SEEDS``, held out from all tuning) and calibrated on their empty board,
then as many with one die leaning; the reference is the same reader with a calibration
that does not place the camera (the board-plane view only, as before the camera's place
was kept). The doubling cube: ``--cube-rolls`` rolls (three in four with a cube of any
look, where the learnt board had it or not), read with every font's masks, then with
each font left out of them.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.measure import Row, best_of, count, timed_row
from vision import Calibration, DiceReader, SettleDetector, calibrate, read_image, render_roll
from vision._cube import FONTS, find_cube
from vision._evaluate import (
    KINDS,
    CubeScore,
    ObliqueScore,
    Score,
    SyntheticScore,
    evaluate_cube,
    evaluate_oblique,
    evaluate_photos,
    evaluate_synthetic,
    evaluate_varied,
)
from vision._scene3d import render_oblique
from vision._synth import with_clutter

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-photos"

SMALL = ("--repeats", "1", "--rolls", "8", "--light-rolls", "10", "--photo-limit", "2",
         "--oblique-rolls", "1", "--cube-rolls", "4")

CLASSICAL = "the classical OpenCV reader, same frame"


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--repeats", type=count, default=40, help="interleaved repeats")
    parser.add_argument("--rolls", type=count, default=2000, help="synthetic rolls")
    parser.add_argument("--light-rolls", type=_every_kind, default=200,
                        help="synthetic rolls under a changed light")  # fmt: skip
    parser.add_argument("--photos", type=_labelled, default=PHOTOS,
                        help="a folder of labelled real photos (its manifest.jsonl)")  # fmt: skip
    parser.add_argument("--photo-limit", type=count, default=None,
                        help="the first N photos only")  # fmt: skip
    parser.add_argument("--oblique-rolls", type=count, default=100,
                        help="rolls per camera angle (and as many with a leaning die)")
    parser.add_argument("--cube-rolls", type=count, default=200,
                        help="rolls read for the cube, per font left out")  # fmt: skip
    parser.add_argument("--no-accuracy", action="store_true", help="the timings only")
    parser.add_argument("--failures", action="store_true", help="list the real-photo failures")


def _every_kind(text: str) -> int:
    """A number of synthetic rolls that holds each kind of roll at least once (an
    ``argparse`` type): the lighting rows are shares of the flat and of the irregular rolls.

    Raises:
        argparse.ArgumentTypeError: below :data:`vision._evaluate.KINDS`'s length.
    """
    rolls = count(text)
    if rolls < len(KINDS):
        kinds = ", ".join(dict.fromkeys(KINDS))
        raise argparse.ArgumentTypeError(
            f"expected at least {len(KINDS)} (a roll of each kind: {kinds}), got {text!r}"
        )
    return rolls


def _labelled(text: str) -> Path:
    """A folder of labelled photos (an ``argparse`` type).

    Raises:
        argparse.ArgumentTypeError: if it has no ``manifest.jsonl``.
    """
    folder = Path(text)
    if not (folder / "manifest.jsonl").is_file():
        raise argparse.ArgumentTypeError(f"{text!r} has no manifest.jsonl of labelled photos")
    return folder


def _read(reader: DiceReader, image: Any) -> Callable[[], object]:
    return lambda: reader.read(image)


def _check(settle: SettleDetector, image: Any) -> Callable[[], object]:
    return lambda: settle.update(image)


def _difference(image: Any) -> Callable[[], object]:
    return lambda: cv2.absdiff(image, image)


def _speed(repeats: int) -> list[Row]:
    """ms per frame at 640x480 and 1280x720: full reads, settle check, a photo, a board."""
    roll = render_roll(random.Random(1))
    rows = []
    for width, height in ((640, 480), (1280, 720)):
        frame, background = (
            cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.uint8)
            for image in (roll.image, roll.background)
        )
        readers: dict[str | None, tuple[DiceReader, DiceReader]] = {}
        for model in ("all", None):
            plain, with_board = DiceReader(model=model), DiceReader(model=model)
            with_board.set_background(background)
            plain.read(frame)  # the first read loads the nets
            readers[model] = (plain, with_board)
        for label, index in (("learnt empty board (service)", 1), ("no board learnt", 0)):
            learned, classical = best_of(
                _read(readers["all"][index], frame), _read(readers[None][index], frame),
                repeats=repeats,
            )
            rows.append(timed_row(f"{width}x{height} full read, {label}", learned, classical,
                                  unit="ms", reference_name=CLASSICAL))  # fmt: skip
        settle = SettleDetector()
        settle.update(frame)
        check, difference = best_of(_check(settle, frame), _difference(frame),
                                    repeats=repeats * 5)  # fmt: skip
        rows.append(timed_row(f"{width}x{height} settle check", check, difference, unit="ms",
                              reference_name="cv2.absdiff of two whole frames"))  # fmt: skip
    photo = read_image(PHOTOS / "images" / "IMG_20191208_111228.jpg")  # 24 dice, a tray
    learned, classical = best_of(_read(DiceReader(), photo), _read(DiceReader(model=None), photo),
                                 repeats=repeats)  # fmt: skip
    rows.append(timed_row("real photo 640x640 with 24 dice", learned, classical, unit="ms",
                          reference_name=CLASSICAL))  # fmt: skip
    readers_on_board = []
    for model in ("all", None):
        board = DiceReader(Calibration.identity(), expected_dice=2, model=model)
        board.set_background(roll.background)
        readers_on_board.append(board)
    calibrated, classical = best_of(
        _read(readers_on_board[0], roll.image), _read(readers_on_board[1], roll.image),
        repeats=repeats,
    )
    rows.append(timed_row("640x480 board view, calibrated (warp, dice, cube, verdict)",
                          calibrated, classical, unit="ms", reference_name=CLASSICAL))  # fmt: skip
    return rows


def _candidates(repeats: int) -> list[Row]:
    """ms per service read of the 640x480 board view against the dice on it, and on a
    cluttered frame (30 things put down on the field)."""
    frames = [(f"{dice} dice", render_roll(random.Random(1), dice=dice)) for dice in (0, 2, 4, 6)]
    frames.append(("a cluttered frame (30 things)",
                   with_clutter(render_roll(random.Random(1)), random.Random(1), 30)))
    rows = []
    for label, roll in frames:
        readers = []
        for model in ("all", None):
            reader = DiceReader(Calibration.identity(), expected_dice=2, model=model)
            reader.set_background(roll.background)
            readers.append(reader)
        reading = readers[0].read(roll.image)  # the first read loads the nets
        print(f"  {label}: {len(reading.dice)} read, {reading.verdict} {reading.reason}")
        service, classical = best_of(_read(readers[0], roll.image),
                                     _read(readers[1], roll.image), repeats=repeats)  # fmt: skip
        rows.append(timed_row(f"640x480 board view read, learnt board, {label}", service,
                              classical, unit="ms", reference_name=CLASSICAL))  # fmt: skip
    # The cube's search, part of every calibrated read above (issue 15): its own share.
    roll = render_roll(random.Random(1), cube=(4, "near"), cube_still=True)
    reader = DiceReader(Calibration.identity(), expected_dice=2, model=None)
    reader.set_background(roll.background)
    cube, classical = best_of(lambda: find_cube(roll.image, 30.0),
                              _read(reader, roll.image), repeats=repeats)  # fmt: skip
    rows.append(timed_row("640x480 cube search (a cube on the learnt board, 2 dice)", cube,
                          classical, unit="ms", reference_name=CLASSICAL))  # fmt: skip
    return rows


def _settled(repeats: int) -> list[Row]:
    """ms of the questions the watcher asks a settled frame (is the board covered, which
    dice) from a 1280x720 camera at 30 degrees: the frame warped to the board view once,
    against the same questions asked of the camera frame, each warping it."""
    roll = render_oblique(random.Random(1), tilt=30)
    calibration, _found = calibrate(roll.background)
    reader = DiceReader(calibration, expected_dice=2)
    reader.set_background(roll.background)
    reader.read(roll.image)  # the first read loads the nets

    def once() -> object:
        seen = reader.look(roll.image)
        return reader.is_covered(seen), reader.read(seen)

    def each() -> object:
        return reader.is_covered(roll.image), reader.read(roll.image)

    warped, reference = best_of(once, each, repeats=repeats)
    return [timed_row("1280x720 camera at 30 degrees, a settled frame's covered check and "
                      "read (2 dice)", warped, reference, unit="ms",
                      reference_name="the same questions each warping the frame")]


def _lighting(rolls: int) -> list[Row]:
    """Rolls under a room light up to 30% off the learnt board's, with a shadow band."""
    same = evaluate_synthetic(rolls)
    changed = evaluate_synthetic(rolls, light_change=0.3, cast_shadow=True)
    for label, score in (("learnt board's light", same), ("changed light", changed)):
        print(f"  synthetic, {label}: {score.summary()}")
        for line in score.misses[:10]:
            print("    ", line)
    reference = "the same rolls under the learnt board's light"

    def right(score: SyntheticScore) -> float:
        return 100 * (score.flat_rolls - score.abstained - score.wrong_ok) / score.flat_rolls

    def caught(score: SyntheticScore) -> float:
        return 100 * score.irregular_caught / score.irregular

    room = f"under a light up to 30% off the learnt board's and a shadow, of {rolls} rolls"
    return [
        Row(f"flat rolls read ok with the right values {room}", right(changed), "%",
            right(same), reference, misses=changed.abstained + changed.wrong_ok, clock=None),
        Row(f"flat rolls called cocked {room}", changed.flat_cocked, "rolls", None, "",
            reason=f"a count, of {changed.flat_rolls} flat rolls ({same.flat_cocked} under "
            "the learnt board's light)", misses=changed.flat_cocked, clock=None),
        Row(f"irregular rolls (cocked, off the half, on a checker, missing) read as reroll "
            f"{room}", caught(changed), "%", caught(same), reference,
            misses=changed.irregular - changed.irregular_caught, clock=None),
    ]  # fmt: skip


def _print_photos(label: str, score: Score) -> None:
    print(f"  {label}: {score.summary()}")
    for threshold in (0.5, 0.8, 0.95):
        share, accuracy = score.confident(threshold)
        print(f"    confidence >= {threshold}: {share:.1%} of the dice, value accuracy "
              f"{accuracy:.2%}")  # fmt: skip
    print("    most frequent confusions (label, read):", score.confusions.most_common(8))


def _accuracy(options: argparse.Namespace) -> list[Row]:
    held_out = evaluate_photos(options.photos, limit=options.photo_limit)
    _print_photos(f"real photos, held out ({options.photos})", held_out)
    if options.failures:
        for line in held_out.failures:
            print("    ", line)
    classical = evaluate_photos(options.photos, DiceReader(model=None), limit=options.photo_limit)
    _print_photos("real photos, classical reference", classical)
    synthetic = evaluate_synthetic(options.rolls)
    print(f"  synthetic: {synthetic.summary()}")
    for line in synthetic.misses[:20]:
        print("    ", line)
    varied = evaluate_varied(max(1, options.rolls // 4))
    _print_photos("synthetic odd dice (marbled, translucent, glossy), no board learnt", varied)
    photos = f"{held_out.labels} dice of the real photos"
    no_classical = "the classical reader is not scored on the synthetic sets"
    return [
        Row(f"value accuracy, {photos} (held out)", held_out.accuracy * 100, "%",
            classical.accuracy * 100, CLASSICAL.replace("frame", "photos"),
            misses=held_out.labels - held_out.correct, clock=None),
        Row(f"recall, {photos} (held out)", held_out.recall * 100, "%",
            classical.recall * 100, CLASSICAL.replace("frame", "photos"),
            misses=held_out.labels - held_out.matched, clock=None),
        Row(f"value accuracy, {synthetic.flat.labels} dice of {synthetic.rolls} synthetic "
            "rolls", synthetic.flat.accuracy * 100, "%", None, "", reason=no_classical,
            misses=synthetic.flat.labels - synthetic.flat.correct, clock=None),
        Row(f"value accuracy, {varied.labels} odd synthetic dice", varied.accuracy * 100, "%",
            None, "", reason=no_classical, misses=varied.labels - varied.correct, clock=None),
    ]  # fmt: skip


#: Camera angles from vertical, degrees.
TILTS = (0, 30, 45, 60)
_NO_POSE = "the same reader, calibration without the camera's place"


def _share_row(name: str, figure: float, reference: float, misses: int) -> Row:
    """A percentage beside the reference's; a reference of 0 has no ratio, said so."""
    if reference > 0:
        return Row(name, figure * 100, "%", reference * 100, _NO_POSE, misses=misses,
                   clock=None)
    return Row(name, figure * 100, "%", None, "", misses=misses, clock=None,
               reason=f"{_NO_POSE} scores 0 here")


def _oblique(rolls: int) -> list[Row]:
    """Value accuracy, recall and precision per camera angle, and leaning dice caught."""
    rows = []
    for tilt in TILTS:
        scores: dict[bool, ObliqueScore] = {}
        leaning: dict[bool, ObliqueScore] = {}
        for geometry in (True, False):
            scores[geometry] = evaluate_oblique(rolls, tilt, geometry=geometry)
            leaning[geometry] = evaluate_oblique(rolls, tilt, geometry=geometry, cocked=1)
            print(f"  oblique{'' if geometry else ' (reference)'}: {scores[geometry].summary()}")
            print(f"    one die leaning: {leaning[geometry].summary()}")
        new, old = scores[True], scores[False]
        dice = f"{new.dice.labels} dice at {tilt} degrees"
        rows += [
            _share_row(f"value accuracy, {dice}", new.dice.accuracy, old.dice.accuracy,
                       new.dice.matched - new.dice.correct),
            _share_row(f"recall, {dice}", new.dice.recall, old.dice.recall,
                       new.dice.labels - new.dice.matched),
            _share_row(f"precision, {dice}", new.dice.precision, old.dice.precision,
                       new.dice.false_positives),
            _share_row(f"rolls read ok and right, {dice}",
                       new.ok_right / max(1, new.rolls - new.uncalibrated),
                       old.ok_right / max(1, old.rolls - old.uncalibrated), new.ok_wrong),
        ]
        caught, before = leaning[True], leaning[False]
        rows.append(_share_row(
            f"leaning die a reroll, {caught.rolls - caught.uncalibrated} rolls at {tilt} "
            "degrees", caught.reroll / max(1, caught.rolls - caught.uncalibrated),
            before.reroll / max(1, before.rolls - before.uncalibrated), caught.ok_wrong))
    return rows


_ALL_FONTS = "every font's masks, same rolls"


def _cube(rolls: int) -> list[Row]:
    """Cubes read right (face and side), with every font's masks and each font left out;
    cubes reported wrong, and where there is none, are the misses that matter."""
    seen = evaluate_cube(rolls)
    print(f"  cube, every font: {seen.summary()}")
    rows = [Row(f"cube read right, {seen.cubes} cubes, every font", 100 * seen.right /
                max(1, seen.cubes), "%", None, "", misses=seen.wrong + seen.false_alarms,
                clock=None, reason="the masks' own fonts: the reference of the rows below")]
    for font in FONTS:
        held: CubeScore = evaluate_cube(rolls, held_out=font)
        print(f"  cube, font {font} left out: {held.summary()}")
        reference = 100 * seen.right / max(1, seen.cubes)
        rows.append(Row(f"cube read right, {held.cubes} cubes in font {font}, left out",
                        100 * held.right / max(1, held.cubes), "%", reference or None,
                        _ALL_FONTS if reference else "", misses=held.wrong + held.false_alarms,
                        clock=None, reason=None if reference else "no cube read with every font"))
    return rows


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    cv2.setNumThreads(1)
    rows = _speed(options.repeats) + _candidates(options.repeats) + _settled(options.repeats)
    if options.no_accuracy:
        return rows
    return (rows + _lighting(options.light_rolls) + _accuracy(options)
            + _oblique(options.oblique_rolls) + _cube(options.cube_rolls))

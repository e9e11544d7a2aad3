"""Accuracy of the reader on labelled images: match predictions to labels by box centre.

Shared by the tests and the benchmark, so that both report the same figures.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision._calibration import Calibration, calibrate
from vision._cube import FONTS, find_cube
from vision._detect import find_dice, foreground
from vision._model import Box, Die, Verdict
from vision._net import FOLDS, photo_fold
from vision._reader import DiceReader
from vision._scene3d import render_oblique
from vision._sources import read_image
from vision._synth import cube_look, render_roll
from vision.errors import CalibrationError


@dataclass(slots=True)
class Score:
    """Counts of a detection and reading evaluation."""

    labels: int = 0
    matched: int = 0
    correct: int = 0
    false_positives: int = 0
    confusions: Counter[tuple[int, int]] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    #: (confidence, right?) of every matched die: does the confidence tell right from wrong?
    reads: list[tuple[float, bool]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        """Share of the labelled dice found."""
        return self.matched / self.labels if self.labels else 1.0

    @property
    def precision(self) -> float:
        """Share of the found dice that are real."""
        found = self.matched + self.false_positives
        return self.matched / found if found else 1.0

    @property
    def accuracy(self) -> float:
        """Share of the found real dice whose value is right."""
        return self.correct / self.matched if self.matched else 1.0

    def summary(self) -> str:
        """One line of figures."""
        return (f"{self.labels} dice: recall {self.recall:.3f}, precision {self.precision:.3f}, "
                f"value accuracy {self.accuracy:.3f} ({self.correct}/{self.matched})")

    def confident(self, threshold: float) -> tuple[float, float]:
        """Share of the matched dice read with at least ``threshold`` confidence, and the
        value accuracy of those (what the service would accept without asking)."""
        sure = [right for conf, right in self.reads if conf >= threshold]
        if not sure:
            return 0.0, 1.0
        return len(sure) / len(self.reads), sum(sure) / len(sure)


def score_image(score: Score, name: str, dice: Sequence[Die],
                labels: Sequence[tuple[Box | Sequence[float], int]]) -> None:
    """Add one image: a prediction matches a free label whose box holds its centre."""
    used: set[int] = set()
    score.labels += len(labels)
    for die in dice:
        cx, cy = die.center
        # Of the free labels whose box holds the centre, the nearest (boxes of touching
        # dice overlap).
        holding = [(math.hypot(cx - (box[0] + box[2]) / 2, cy - (box[1] + box[3]) / 2), j)
                   for j, (box, _v) in enumerate(labels)
                   if j not in used and box[0] <= cx <= box[2] and box[1] <= cy <= box[3]]
        hit = min(holding)[1] if holding else None
        if hit is None:
            score.false_positives += 1
            score.failures.append(f"{name}: false die {die.value} at {list(die.box)}")
            continue
        used.add(hit)
        score.matched += 1
        truth = labels[hit][1]
        score.reads.append((die.confidence, truth == die.value))
        if truth == die.value:
            score.correct += 1
        else:
            score.confusions[(truth, die.value)] += 1
            score.failures.append(f"{name}: {truth} read as {die.value} at {list(die.box)}")
    for j, (box, value) in enumerate(labels):
        if j not in used:
            score.failures.append(f"{name}: missed {value} at {[round(v) for v in box]}")


def evaluate_photos(folder: Path, reader: DiceReader | None = None, *,
                    limit: int | None = None) -> Score:
    """Read every photo of a labelled folder (``manifest.jsonl``), or its first ``limit``,
    and score it.

    Without ``reader``, each photo is read by the model of its own fold
    (:func:`vision._net.photo_fold`), which never saw it in training: held-out figures.
    """
    folds = {k: DiceReader(model=f"fold{k}") for k in range(FOLDS)}
    score = Score()
    with (folder / "manifest.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle][:limit]
    for row in rows:
        read_by = reader or folds[photo_fold(row["image"])]
        reading = read_by.read(read_image(folder / row["image"]))
        labels = [(d["box"], d["value"]) for d in row["dice"]]
        score_image(score, row["image"], reading.dice, labels)
    return score


@dataclass(slots=True)
class SyntheticScore:
    """Figures of the synthetic roll set."""

    flat: Score = field(default_factory=Score)
    rolls: int = 0
    flat_rolls: int = 0
    abstained: int = 0  # flat regular rolls answered reroll or unreadable
    flat_cocked: int = 0  # flat regular rolls with a die called cocked
    wrong_ok: int = 0  # flat regular rolls answered ok with wrong values
    irregular: int = 0
    irregular_caught: int = 0
    misses: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One paragraph of figures."""
        return (f"{self.rolls} rolls; flat dice: {self.flat.summary()}; flat rolls "
                f"{self.flat_rolls}, wrong ok {self.wrong_ok}, abstained {self.abstained} "
                f"({self.abstained / max(1, self.flat_rolls):.2%}), called cocked "
                f"{self.flat_cocked}; irregular "
                f"{self.irregular_caught}/{self.irregular} read as reroll")


#: The mix of the synthetic set: most rolls regular, one in five irregular.
KINDS = ("flat", "flat", "flat", "flat", "flat", "flat", "cocked", "off_half", "on_checker",
         "missing")


def evaluate_synthetic(count: int, seed: int = 0, *, light_change: float = 0.0,
                       cast_shadow: bool = False) -> SyntheticScore:
    """Render ``count`` two-dice rolls deterministically and score the reader on them.

    ``light_change`` and ``cast_shadow`` light each roll differently from the empty
    board the reader learnt (:func:`vision._synth.render_roll`), as a room does.
    """
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    out = SyntheticScore()
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        roll = render_roll(random.Random(seed * 1_000_003 + i), light_change=light_change,
                           cast_shadow=cast_shadow, cocked=int(kind == "cocked"),
                           off_half=int(kind == "off_half"), on_checker=int(kind == "on_checker"),
                           missing=int(kind == "missing"))
        reader.set_background(roll.background)
        reading = reader.read(roll.image)
        out.rolls += 1
        if roll.irregular:
            out.irregular += 1
            if reading.verdict is Verdict.REROLL:
                out.irregular_caught += 1
            else:
                out.misses.append(f"roll {i} ({kind}): {reading.verdict} {reading.reason}")
            continue
        out.flat_rolls += 1
        score_image(out.flat, f"roll {i}", reading.dice, [(d.box, d.value) for d in roll.dice])
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        if reading.verdict is not Verdict.OK:
            out.abstained += 1
            out.flat_cocked += any("cocked" in d.flags for d in reading.dice)
        elif reading.values != truth:
            out.wrong_ok += 1
            out.misses.append(f"roll {i}: {truth} read as {reading.values}")
    return out


def evaluate_varied(count: int, seed: int = 0) -> Score:
    """Render ``count`` rolls of three odd dice (marbled, translucent, glossy, any colours:
    :func:`vision._synth.varied_look`) and score the service's nets on them with no board
    learnt, as ``tabula dice`` reads a photo (seeds the training does not use)."""
    reader = DiceReader()
    score = Score()
    for i in range(count):
        roll = render_roll(random.Random(90_000 + seed * 1_000_003 + i), dice=3, varied=True)
        score_image(score, f"varied roll {i}", reader.read(roll.image).dice,
                    [(d.box, d.value) for d in roll.dice])
    return score


@dataclass(slots=True)
class CubeScore:
    """Counts of a cube reading evaluation."""

    cubes: int = 0
    right: int = 0
    """Value and side both right."""
    wrong: int = 0
    """A cube reported with a wrong value or side."""
    empty: int = 0
    """Rolls without a cube."""
    false_alarms: int = 0
    """A cube reported in a roll without one."""

    @property
    def missed(self) -> int:
        """Cubes not found."""
        return self.cubes - self.right - self.wrong

    def summary(self) -> str:
        """One line of figures."""
        share = self.right / self.cubes if self.cubes else 1.0
        return (f"{self.cubes} cubes: {self.right} right ({share:.3f}), {self.wrong} wrong, "
                f"{self.missed} not found; {self.false_alarms} seen in {self.empty} rolls "
                "without a cube")


#: The cube evaluation's first seed: apart from the tests' and the training's seeds.
CUBE_SEED = 70_000


def evaluate_cube(count: int, *, seed: int = CUBE_SEED, held_out: int | None = None
                  ) -> CubeScore:  # fmt: skip
    """Read ``count`` rendered rolls, three in four with a cube of a random look and
    place (half of them standing where the learnt board had them already), the others
    without one.

    Args:
        held_out: a font of :data:`~vision._cube.FONTS`: every cube is drawn in it and the
            reader's masks leave it out (how the reader does on a font it has not seen).
    """
    fonts = FONTS if held_out is None else tuple(f for f in FONTS if f != held_out)
    score = CubeScore()
    for index in range(count):
        rng = random.Random(seed + index)
        look = cube_look(rng)
        if held_out is not None:
            look = replace(look, font=held_out)
        cube = (rng.choice((2, 4, 8, 16, 32, 64)), rng.choice(("near", "far", "centre")))
        has_cube = index % 4 != 3
        roll = render_roll(rng, cube=cube if has_cube else None, cube_look=look,
                           cube_still=rng.random() < 0.5, board_seed=index % 8)
        mask = foreground(roll.image, roll.background)
        die_side = float(np.median([c.side for c in find_dice(roll.image, mask)]))
        found = find_cube(roll.image, die_side, mask=mask, fonts=fonts)
        if not has_cube:
            score.empty += 1
            score.false_alarms += found is not None
            continue
        score.cubes += 1
        if found is not None:
            if (found.value, found.side) == cube:
                score.right += 1
            else:
                score.wrong += 1
    return score


#: Seeds of the oblique set: none is used by a test or was looked at while tuning.
OBLIQUE_SEEDS = 50_000


@dataclass(slots=True)
class ObliqueScore:
    """Figures of rolls seen by a camera at an angle."""

    tilt: float
    dice: Score = field(default_factory=Score)
    rolls: int = 0
    ok_right: int = 0  # rolls read ``ok`` with the right values
    ok_wrong: int = 0  # rolls read ``ok`` with wrong values: the harm
    reroll: int = 0
    unreadable: int = 0
    uncalibrated: int = 0  # rolls whose empty board's markers were not all found

    def summary(self) -> str:
        """One line of figures."""
        return (f"tilt {self.tilt:g}: {self.rolls} rolls, {self.uncalibrated} not calibrated; "
                f"{self.dice.summary()}; ok and right {self.ok_right}, ok and wrong "
                f"{self.ok_wrong}, reroll {self.reroll}, unreadable {self.unreadable}")


def evaluate_oblique(count: int, tilt: float, *, seed: int = OBLIQUE_SEEDS,
                     model: str | None = "all", geometry: bool = True, cocked: int = 0,
                     clutter: bool = False) -> ObliqueScore:
    """Render ``count`` two-dice rolls seen ``tilt`` degrees from vertical
    (:func:`vision._scene3d.render_oblique`), calibrate on each empty board as a user
    does, and score the reader on the roll.

    ``geometry=False`` reads as a calibration made before the frame's size was kept
    (no camera pose: the board-plane view only), the reference. With ``cocked``, that
    many dice of each roll lean, and any ``ok`` is wrong.
    """
    out = ObliqueScore(tilt)
    for i in range(count):
        roll = render_oblique(random.Random(seed + i), tilt=tilt, cocked=cocked,
                              clutter=clutter)
        out.rolls += 1
        try:
            calibration, _found = calibrate(roll.background)
        except CalibrationError:
            out.uncalibrated += 1
            continue
        if not geometry:
            calibration = replace(calibration, frame_size=None)
        reader = DiceReader(calibration, expected_dice=roll.expected_dice, model=model)
        reader.set_background(roll.background)
        reading = reader.read(roll.image)
        score_image(out.dice, f"tilt {tilt:g} roll {seed + i}", reading.dice,
                    [(d.box, d.value) for d in roll.dice])
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        if reading.verdict is Verdict.REROLL:
            out.reroll += 1
        elif reading.verdict is Verdict.UNREADABLE:
            out.unreadable += 1
        elif reading.values == truth and not cocked:
            out.ok_right += 1
        else:
            out.ok_wrong += 1
    return out

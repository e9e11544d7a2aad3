"""Accuracy of the reader on labelled images: match predictions to labels by box centre.

Shared by the tests and the benchmark, so that both report the same figures.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vision._calibration import Calibration
from vision._model import Box, Die, Verdict
from vision._net import FOLDS, photo_fold
from vision._reader import DiceReader
from vision._sources import read_image
from vision._synth import render_roll


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
                           cast_shadow=cast_shadow, **({} if kind == "flat" else {kind: 1}))
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

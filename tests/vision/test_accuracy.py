"""Accuracy of the reader on the real photos and on the synthetic roll set.

The floors below are the figures measured when the tests were written, as a regression
guard; the issue's targets (98% value accuracy, 97% recall on the photos; 99.9% on flat
synthetic dice) are NOT met yet: the report of the branch says so and why.
"""

from __future__ import annotations

from tests.vision.conftest import PHOTOS
from vision._evaluate import evaluate_photos, evaluate_synthetic


def test_real_photos_accuracy_floor() -> None:
    score = evaluate_photos(PHOTOS)
    assert score.labels == 1487
    print(score.summary())
    assert score.recall >= 0.55, score.summary()
    assert score.precision >= 0.95, score.summary()
    assert score.accuracy >= 0.57, score.summary() + "\n" + "\n".join(score.failures[:30])


def test_synthetic_rolls_irregular_ones_are_rerolls() -> None:
    score = evaluate_synthetic(150, seed=1)
    print(score.summary())
    assert score.irregular == 60
    assert score.irregular_caught >= 58, "\n".join(score.misses)
    assert score.flat.accuracy >= 0.93, score.summary() + "\n" + "\n".join(score.misses)
    assert score.flat.recall >= 0.93, score.summary()

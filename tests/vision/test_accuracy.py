"""Accuracy of the reader on the real photos and on the synthetic roll set.

The floors below are the figures measured when the tests were written, as a regression
guard. On the real photos the issue's targets (98% value accuracy, 97% recall) are NOT
met (about 78% and 88%): the classical reader misses or adds pips on marbled,
translucent and low-contrast dice, and merges touching clusters. The synthetic set meets
its targets (see ``python -m benchmarks.bench_vision`` for the 2,000-roll figures).
"""

from __future__ import annotations

from tests.vision.conftest import PHOTOS
from vision._evaluate import evaluate_photos, evaluate_synthetic


def test_real_photos_accuracy_floor() -> None:
    score = evaluate_photos(PHOTOS)
    assert score.labels == 1487
    print(score.summary())
    assert score.recall >= 0.85, score.summary()
    assert score.precision >= 0.96, score.summary()
    assert score.accuracy >= 0.76, score.summary() + "\n" + "\n".join(score.failures[:30])


def test_synthetic_rolls() -> None:
    score = evaluate_synthetic(400, seed=1)
    print(score.summary())
    assert score.irregular == 160
    assert score.irregular_caught >= 158, "\n".join(score.misses)
    assert score.wrong_ok <= 1, "\n".join(score.misses)
    assert score.abstained <= 0.02 * score.flat_rolls, score.summary()
    assert score.flat.accuracy >= 0.995, score.summary() + "\n" + "\n".join(score.misses)

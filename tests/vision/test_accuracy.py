"""Accuracy of the reader on the real photos and on the synthetic roll set.

The real photos are read held out: each by the model of its fold, trained without it
(:mod:`vision.train`). The floors below sit a little under the figures measured when the
models were trained, as a regression guard (see ``python -m benchmarks vision`` for
the figures and the 2,000-roll synthetic set).
"""

from __future__ import annotations

from tests.vision.conftest import PHOTOS
from vision._evaluate import evaluate_photos, evaluate_synthetic

# Measured held out (vision/models as committed): recall 0.997, precision 0.997, value
# accuracy 0.980; confidence >= 0.8 on 93.2% of the dice, 99.5% of those right.
RECALL = 0.99
PRECISION = 0.985
ACCURACY = 0.97
SURE_SHARE = 0.88
SURE_ACCURACY = 0.99


def test_real_photos_held_out_accuracy_floor() -> None:
    score = evaluate_photos(PHOTOS)
    assert score.labels == 1487
    print(score.summary())
    assert score.recall >= RECALL, score.summary()
    assert score.precision >= PRECISION, score.summary()
    assert score.accuracy >= ACCURACY, score.summary() + "\n" + "\n".join(score.failures[:30])
    # The confidence means something: the dice read sure are read right far more often.
    share, sure_accuracy = score.confident(0.8)
    assert share >= SURE_SHARE, (share, sure_accuracy)
    assert sure_accuracy >= SURE_ACCURACY, (share, sure_accuracy)


def test_synthetic_rolls() -> None:
    score = evaluate_synthetic(400, seed=1)
    print(score.summary())
    assert score.irregular == 160
    assert score.irregular_caught >= 158, "\n".join(score.misses)
    assert score.wrong_ok <= 1, "\n".join(score.misses)
    assert score.abstained <= 0.02 * score.flat_rolls, score.summary()
    assert score.flat.accuracy >= 0.995, score.summary() + "\n" + "\n".join(score.misses)

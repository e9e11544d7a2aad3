"""The synthetic renderer's dice: plain sets, and the varied looks the nets train on."""

from __future__ import annotations

import random

import numpy as np

from vision._evaluate import evaluate_varied
from vision._synth import DieLook, _die_patch, varied_look


def _centre(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return image[h // 2 - 1 : h // 2 + 2, w // 2 - 1 : w // 2 + 2]


def test_a_translucent_die_shows_the_board_through_its_body_not_its_pips() -> None:
    clear = DieLook((40, 40, 160), (240, 240, 240), clear=0.4)
    _patch, alpha = _die_patch(1, 40, 0.0, 0.0, rng=random.Random(1), look=clear)
    assert _centre(alpha).min() > 0.95  # the one pip, in the middle
    body = alpha[alpha.shape[0] // 2, alpha.shape[1] // 2 - 12]
    assert 0.5 < body < 0.7
    _patch, solid = _die_patch(
        1, 40, 0.0, 0.0, rng=random.Random(1), look=DieLook((40, 40, 160), (240, 240, 240))
    )
    assert solid[alpha.shape[0] // 2, alpha.shape[1] // 2 - 12] > 0.99


def test_a_marbled_die_has_veins_a_plain_one_none() -> None:
    plain = DieLook((40, 40, 160), (240, 240, 240))
    marbled = DieLook((40, 40, 160), (240, 240, 240), vein=(200, 200, 230))
    spread = []
    for look in (plain, marbled):
        deviations = []
        for seed in range(5):
            patch, _alpha = _die_patch(1, 40, 0.0, 0.0, rng=random.Random(seed), look=look)
            h, w = patch.shape[:2]
            face = patch[h // 2 - 14 : h // 2 + 15, w // 2 - 14 : w // 2 + 15].astype(float)
            body = face[np.abs(np.mgrid[-14:15, -14:15]).max(axis=0) > 6]  # off the pip
            deviations.append(body.std(axis=0).max())
        spread.append(float(np.mean(deviations)))
    assert spread[0] < 6 and spread[1] > 3 * spread[0], spread  # plain: the light's gradient


def test_varied_looks_cover_marbled_translucent_and_glossy_dice() -> None:
    looks = [varied_look(random.Random(seed)) for seed in range(200)]
    assert 50 < sum(look.vein is not None for look in looks) < 110
    assert 25 < sum(look.clear > 0 for look in looks) < 80
    assert 50 < sum(look.glare > 0 for look in looks) < 110
    assert len({look.face for look in looks}) > 150
    # The pips stand out from the face by colour if not by brightness.
    assert all(
        max(abs(a - b) for a, b in zip(look.pip, look.face, strict=True)) > 90 for look in looks
    )


def test_the_nets_find_and_read_odd_dice() -> None:
    # Measured with vision/models as committed: 120 dice, recall 0.983, value accuracy
    # 0.983 (1,500 dice in the benchmark: 0.979 and 0.987); the detectors trained before
    # the odd looks found 0.825 of them.
    score = evaluate_varied(40)
    print(score.summary())
    assert score.recall >= 0.95, score.summary() + "\n" + "\n".join(score.failures)
    assert score.accuracy >= 0.95, score.summary() + "\n" + "\n".join(score.failures)

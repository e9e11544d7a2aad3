"""The synthetic renderer's dice: plain sets, the varied looks the nets train on, and the
room's light changing between the empty board and the roll."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision._evaluate import evaluate_varied
from vision._synth import (
    DieLook,
    LightChange,
    _die_patch,
    render_roll,
    shadow_video,
    varied_look,
)


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


def test_a_relit_roll_is_the_same_roll_under_another_light_and_its_shadow_moves() -> None:
    plain = render_roll(random.Random(3))
    relit = render_roll(random.Random(3), light_change=0.3, cast_shadow=True)
    assert relit.dice == plain.dice
    assert relit.unlit is not None and np.array_equal(relit.unlit, plain.image)
    assert np.array_equal(relit.background, plain.background)  # the board's own light
    assert relit.light is not None and 0.25 <= relit.light.shadow <= 0.5
    assert all(0.7 <= gain <= 1.3 for gain in relit.light.corners)
    frames = shadow_video(relit, 3)
    # The band starts and ends off the board: only the smooth gain is left there.
    gain = LightChange(relit.light.corners).field((640, 480))
    first, middle, last = (relit.light.moved(at).field((640, 480)) for at in (0, 0.5, 1))
    assert np.allclose(first, gain, atol=0.005) and np.allclose(last, gain, atol=0.005)
    assert (middle / gain).min() < 1 - relit.light.shadow / 2  # across the board
    assert not np.array_equal(frames[0], frames[1])


def test_a_shadow_video_needs_a_light_change_and_frames() -> None:
    roll = render_roll(random.Random(3))
    with pytest.raises(ValueError, match="the roll has no light change: render it with"):
        shadow_video(roll, 3)
    relit = render_roll(random.Random(3), cast_shadow=True)
    with pytest.raises(ValueError, match="invalid frames 0: expected at least 1"):
        shadow_video(relit, 0)

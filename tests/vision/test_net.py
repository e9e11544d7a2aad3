from __future__ import annotations

import random

import numpy as np
import pytest

from vision import DiceReader, ModelError, render_roll
from vision._net import FOLDS, MODEL_NAMES, MODELS, crop, load_nets, photo_fold


def test_every_model_is_shipped_and_small() -> None:
    for name in MODEL_NAMES:
        for part in ("detector", "classifier"):
            path = MODELS / f"{part}-{name}.onnx"
            assert path.is_file(), path
            assert path.stat().st_size < 500_000, path


def test_folds_are_a_stable_hash_of_the_file_name(photo_labels: list[dict[str, object]]) -> None:
    assert photo_fold("images/IMG_20191208_111228.jpg") == photo_fold("IMG_20191208_111228.jpg")
    counts = np.bincount([photo_fold(str(row["image"])) for row in photo_labels], minlength=FOLDS)
    assert counts.sum() == 200
    assert counts.min() >= 25, counts  # every fold holds out a fair share of the photos


def test_crop_is_centred_and_sized() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    image[40:60, 40:60] = 255
    patch = crop(image, (50.0, 50.0), 20.0, size=26)
    assert patch.shape == (26, 26, 3)
    # The die spans 1/1.3 of the patch, centred.
    assert patch[13, 13].tolist() == [255, 255, 255]
    assert patch[1, 1].tolist() == [0, 0, 0]


def test_detector_and_classifier_read_a_synthetic_roll_without_background() -> None:
    right = 0
    for seed in range(6):
        roll = render_roll(random.Random(500 + seed), dice=3)
        reading = DiceReader().read(roll.image)
        truth = sorted(d.value for d in roll.dice)
        right += sorted(d.value for d in reading.dice) == truth
    assert right >= 5


def test_classifier_says_an_empty_patch_is_no_die() -> None:
    nets = load_nets("all")
    board = render_roll(random.Random(2)).background
    probs = nets.classify(board, [(100.0, 240.0), (320.0, 240.0)], [30.0, 30.0])
    assert probs.shape == (2, 7)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert (probs[:, 0] > 0.5).all(), probs


def test_only_the_doubtful_dice_are_read_mirrored_too() -> None:
    nets = load_nets("all")
    roll = render_roll(random.Random(3), dice=3)
    image, width = roll.image, roll.image.shape[1]
    centres = [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in roll.dice]
    centres.append((60.0, 60.0))  # the bare board
    sides = [30.0] * len(centres)
    turns = nets.classify(image, centres, sides)
    # The mirror image of the whole frame gives the mirrored patches (to a pixel's shift).
    flipped = nets.classify(
        np.ascontiguousarray(image[:, ::-1]), [(width - 1 - x, y) for x, y in centres], sides
    )
    both = nets.classify(image, centres, sides, unsure=1.01)
    assert np.allclose(both, (turns + flipped) / 2, atol=0.02)
    assert not np.allclose(both, turns, atol=1e-4)
    assert np.allclose(nets.classify(image, centres, sides, unsure=0.0), turns)
    cut = float(np.median(turns.max(axis=1)))
    some = nets.classify(image, centres, sides, unsure=cut)
    doubt = turns.max(axis=1) < cut
    assert doubt.any() and not doubt.all()
    assert np.allclose(some[doubt], both[doubt], atol=1e-4)
    assert np.allclose(some[~doubt], turns[~doubt])


def test_unknown_model_is_a_clear_error() -> None:
    with pytest.raises(ModelError, match=r"no dice model 'fold9': .*detector-fold9\.onnx"):
        DiceReader(model="fold9")


def test_the_shared_nets_serve_several_camera_threads_at_once() -> None:
    """Two boards in one process read their dice in two threads through the same nets."""
    import threading

    nets = load_nets("all")
    image = np.random.default_rng(0).integers(0, 255, (480, 640, 3)).astype(np.uint8)
    alone = nets.classify(image, [(100.0, 100.0), (200.0, 100.0)], [30.0, 30.0])
    errors: list[BaseException] = []
    differ: list[int] = []

    def read(offset: int) -> None:
        try:
            for i in range(60):
                count = 1 + (i + offset) % 3  # the input's shape changes from read to read
                centres = [(100.0 + 100 * j, 100.0) for j in range(count)]
                probs = nets.classify(image, centres, [30.0] * count)
                nets.detect(image)
                if count == 2 and not np.allclose(probs, alone, atol=1e-5):
                    differ.append(i)
        except Exception as error:  # whatever a thread raised, reported below
            errors.append(error)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and differ == []


def test_a_patch_reads_the_same_alone_or_with_others() -> None:
    """Patches run in batches of 4, 2 and 1 (none padded), and a doubtful die's first turn
    is reused for its four: each patch's probabilities must not depend on its company."""
    nets = load_nets("all")
    roll = render_roll(random.Random(4), dice=6)
    centres = [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in roll.dice]
    patches = nets.patches(roll.image, centres, [30.0] * len(centres))
    together = nets.turns(patches, range(4))
    alone = np.concatenate([nets.turns(patches[i : i + 1], range(4)) for i in range(6)],
                           axis=1)
    assert np.array_equal(together, alone)
    assert np.array_equal(together[1:], nets.turns(patches, range(1, 4)))
    assert np.array_equal(nets.classify(roll.image, centres, [30.0] * 6), together.mean(axis=0))

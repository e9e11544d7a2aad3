"""Train the dice reader's nets (detector and face classifier) and export them to ONNX.

Run on demand, never at run time: it needs the ``train`` extra (PyTorch and ``onnx`` for the
export), ``pip install -e '.[train]'``::

    python -m vision.train                 # every model: fold0..fold4, then all
    python -m vision.train --model fold2   # one model

Honest evaluation: the real photos (``tests/data/dice-photos``) are split into 5 folds by
a hash of the file name (:func:`vision._net.photo_fold`). Model ``foldK`` is trained on
the photos of the other four folds plus synthetic rolls, never on fold K; the tests and
the benchmark read each photo with the model of its own fold, so every real-photo figure
is held out. Model ``all`` (every photo plus synthetic rolls) is the one the service uses.
The detection threshold (0.3) was fixed in advance; the few choices made after seeing
held-out figures (epochs, the die/no-die rule, mirrored views, odd synthetic dice) are
listed in ``vision/models/README.md``.

Runs on one CPU thread (small inputs, tiny nets): with the rolls seen at an angle, about
1,100 s CPU a model, classifier and detector (measured on a busy machine; 8 and 3 minutes
before them, on a quiet one).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from vision._arrays import Image, narrow
from vision._net import (
    CROP,
    DETECT_WIDTH,
    MODEL_NAMES,
    MODELS,
    STRIDE,
    crop,
    detector_size,
    normalise,
    photo_fold,
)
from vision._scene3d import render_oblique
from vision._sources import read_image
from vision._synth import render_roll

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-photos"
#: A labelled die: (cx, cy, w, h, value).
Label = tuple[float, float, float, float, int]
#: (image, [(cx, cy, w, h, value)]) of one labelled picture.
Sample = tuple[Image, list[Label]]
#: Training epochs of the classifier and of the detector (vision/models/README.md: why).
EPOCHS = (60, 30)
#: Rendered rolls seen at an angle, beside the 500 seen from above (vision/models/README.md).
OBLIQUE_ROLLS = 200


class Trained(TypedDict):
    """What :func:`train_model` did: the model's name, its photos and its CPU time."""

    model: str
    photos: int
    cpu_seconds: int


def load_photos(folder: Path, exclude_fold: int | None) -> list[Sample]:
    """The labelled real photos, without those of ``exclude_fold``."""
    out = []
    with (folder / "manifest.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    for row in rows:
        if exclude_fold is not None and photo_fold(row["image"]) == exclude_fold:
            continue
        image = read_image(folder / row["image"])
        dice: list[Label] = [((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2,
                 d["box"][2] - d["box"][0], d["box"][3] - d["box"][1], d["value"])
                for d in row["dice"]]
        out.append((image, dice))
    return out


def synthetic_rolls(count: int, seed: int) -> list[Sample]:
    """Rendered board views with 1 to 4 dice (a seed other than the test sets'): two
    rolls in three of odd dice (marbled, translucent, glossy, any colours), one in four
    with a leaning die labelled with its top face (real photos show side faces too)."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 7_919 + i)
        roll = render_roll(rng, dice=rng.randint(1, 4), cocked=int(rng.random() < 0.25),
                           varied=rng.random() < 2 / 3)
        dice: list[Label] = [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2,
                              d.box[2] - d.box[0], d.box[3] - d.box[1], d.value)
                             for d in roll.dice]
        out.append((roll.image, dice))
    return out


def oblique_rolls(count: int, seed: int) -> list[Sample]:
    """Board views of rolls rendered in 3-D by a camera 15 to 60 degrees from vertical
    (:func:`vision._scene3d.render_oblique`, seeds far from ``OBLIQUE_SEEDS``), 1 to 3
    dice, one roll in four with a leaning die: the frame warped to the board view by the
    camera's own homography (what a calibration gives), each die labelled with its top
    face as that view shows it, stretched away from the camera (what the reader reads)."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 100_003 + i)
        roll = render_oblique(rng, tilt=rng.uniform(15, 60), dice=rng.randint(1, 3),
                              cocked=int(rng.random() < 0.25))
        view = roll.camera.calibration().warp(roll.image)
        dice: list[Label] = []
        for die, top in zip(roll.dice, roll.tops_in_view(), strict=True):
            (x1, y1), (x2, y2) = top.min(axis=0), top.max(axis=0)
            dice.append(((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, die.value))
        out.append((view, dice))
    return out


def _colour_jitter(img: Image, rng: np.random.Generator) -> Image:
    # float32, then float64 from the per-channel gain on.
    x: npt.NDArray[np.floating] = img.astype(np.float32)
    gain = rng.uniform(0.75, 1.25) * rng.uniform(0.9, 1.1, size=3)
    x = (x - 128) * rng.uniform(0.8, 1.2) + 128
    x = x * gain + rng.uniform(-20, 20)
    if rng.random() < 0.3:
        x = narrow(cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.0)), np.float64)
    x += rng.normal(0, rng.uniform(0, 4), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


# ---- the classifier -------------------------------------------------------------------


def classifier_net() -> nn.Module:
    """About 60k weights: four conv blocks (three halve the size), global average, 7
    outputs."""
    def block(cin: int, cout: int, pool: bool) -> list[nn.Module]:
        layers: list[nn.Module] = [nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                                   nn.BatchNorm2d(cout), nn.ReLU()]
        return layers + ([nn.MaxPool2d(2)] if pool else [])
    return nn.Sequential(*block(3, 16, True), *block(16, 32, True), *block(32, 48, True),
                         *block(48, 64, False), *block(64, 64, False),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(64, 7))


def classifier_samples(samples: list[Sample], rng: np.random.Generator, copies: int,
                       negatives: float) -> tuple[Image, npt.NDArray[np.int64]]:
    """Augmented patches: each die ``copies`` times (jittered centre, size, any turn,
    colours), and about ``negatives`` x as many patches that are not one die's centre."""
    patches, labels = [], []
    for image, dice in samples:
        if not dice:
            continue
        sides = [math.sqrt(w * h) for _x, _y, w, h, _v in dice]
        for (cx, cy, _w, _h, value), side in zip(dice, sides, strict=True):
            for _ in range(copies):
                s = side * rng.uniform(0.85, 1.2)
                c = (cx + rng.uniform(-0.1, 0.1) * side, cy + rng.uniform(-0.1, 0.1) * side)
                patches.append(_colour_jitter(crop(image, c, s, rng.uniform(0, 360)), rng))
                labels.append(value)
        want = round(len(dice) * copies * negatives)
        ih, iw = image.shape[:2]
        got = 0
        for _ in range(want * 20):
            if got >= want:
                break
            side = float(rng.choice(sides)) * rng.uniform(0.85, 1.2)
            if rng.random() < 0.5:
                # Near a die (between touching dice, on half a die): the hard negatives.
                cx, cy, *_ = dice[rng.integers(len(dice))]
                a = rng.uniform(0, 2 * math.pi)
                r = side * rng.uniform(0.5, 1.0)
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            else:
                x, y = rng.uniform(0, iw), rng.uniform(0, ih)
            near = min(math.hypot(x - dx, y - dy) / s
                       for (dx, dy, *_r), s in zip(dice, sides, strict=True))
            if near < 0.45:
                continue
            patches.append(_colour_jitter(crop(image, (x, y), side, rng.uniform(0, 360)), rng))
            labels.append(0)
            got += 1
    return np.stack(patches), np.array(labels, np.int64)


def train_classifier(train: list[Sample], synth: list[Sample], epochs: int,
                     seed: int) -> nn.Module:
    """Train the face classifier: fresh augmentations every epoch."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = classifier_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    step = 0
    for epoch in range(epochs):
        xr, yr = classifier_samples(train, rng, copies=3, negatives=0.5)
        xs, ys = classifier_samples(synth, rng, copies=1, negatives=0.5)
        x = torch.from_numpy(normalise(np.concatenate([xr, xs])))
        y = torch.from_numpy(np.concatenate([yr, ys]))
        if epoch == 0:  # the epochs are about this size: the schedule's length
            total_steps = epochs * math.ceil(len(y) * 1.05 / 64)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3,
                                                        total_steps=total_steps)
        order = torch.randperm(len(y))
        net.train()
        total, right = 0.0, 0
        for i in range(0, len(y), 64):
            if step >= total_steps - 1:
                break
            idx = order[i : i + 64]
            out = net(x[idx])
            loss = loss_fn(out, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item() * len(idx)
            right += int((out.argmax(1) == y[idx]).sum())
        print(f"  classifier epoch {epoch}: {len(y)} patches, loss {total / len(y):.3f}, "
              f"train acc {right / len(y):.3f}", flush=True)
    return net


# ---- the detector ---------------------------------------------------------------------


def detector_net() -> nn.Module:
    """About 20k weights: two stride-2 convolutions, two dilated ones, a 5-channel head."""
    def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation,
                          bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
    head = nn.Conv2d(24, 5, 1)
    with torch.no_grad():
        head.bias.copy_(torch.tensor([-2.2, 0.0, 0.0, 2.5, 2.5]))
    return nn.Sequential(*conv(3, 16, 2), *conv(16, 24, 2), *conv(24, 24), *conv(24, 24, 1, 2),
                         *conv(24, 24, 1, 4), head)


def detector_sample(image: Image, dice: list[Label], rng: np.random.Generator, size: int
                    ) -> tuple[Image, npt.NDArray[np.float32]]:  # fmt: skip
    """One augmented ``size`` x ``size`` window of the detector input and its targets."""
    _w, _h, scale = detector_size(image.shape[1], image.shape[0])
    scale *= rng.uniform(0.8, 1.25)
    small = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                       interpolation=cv2.INTER_AREA)
    boxes = np.array([[x * scale, y * scale, bw * scale, bh * scale] for x, y, bw, bh, _v in dice]
                     ).reshape(-1, 4)
    k = int(rng.integers(4))
    for _ in range(k):  # quarter turns: (x, y) -> (y, W - x)
        small = np.rot90(small)
        boxes = boxes[:, [1, 0, 3, 2]]
        boxes[:, 1] = small.shape[0] - boxes[:, 1]
    if rng.random() < 0.5:
        small = small[:, ::-1]
        boxes[:, 0] = small.shape[1] - boxes[:, 0]
    pad = np.full((max(size, small.shape[0]), max(size, small.shape[1]), 3),
                  np.median(small.reshape(-1, 3), axis=0), np.uint8)
    pad[: small.shape[0], : small.shape[1]] = small
    ox = int(rng.integers(0, pad.shape[1] - size + 1))
    oy = int(rng.integers(0, pad.shape[0] - size + 1))
    window = _colour_jitter(np.ascontiguousarray(pad[oy : oy + size, ox : ox + size]), rng)
    g = size // STRIDE
    target = np.zeros((6, g, g), np.float32)  # heat, dx, dy, log w, log h, mask
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for bx, by, bw, bh in boxes:
        gx, gy = (bx - ox) / STRIDE - 0.5, (by - oy) / STRIDE - 0.5
        if not (-0.5 <= gx < g - 0.5 and -0.5 <= gy < g - 0.5):
            continue
        sigma = max(0.7, math.sqrt(bw * bh) / STRIDE / 5)
        blob = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2))
        target[0] = np.maximum(target[0], blob)
        cx, cy = round(gx), round(gy)
        target[0, cy, cx] = 1.0
        target[1:5, cy, cx] = (gx - cx, gy - cy, math.log(bw), math.log(bh))
        target[5, cy, cx] = 1.0
    return window, target


def detector_loss(out: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat map, L1 on offset and size at the centres."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    heat = target[:, 0]
    pos = heat >= 1.0
    n = pos.sum().clamp(min=1)
    pos_loss = -(torch.log(p) * (1 - p) ** 2)[pos].sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4)[~pos].sum()
    mask = target[:, 5:6]
    reg = (torch.abs(out[:, 1:5] - target[:, 1:5]) * mask).sum()
    return (pos_loss + neg_loss) / n + 0.5 * reg / n


def train_detector(train: list[Sample], synth: list[Sample], epochs: int,
                   seed: int) -> nn.Module:
    """Train the detector on random windows of the photos and synthetic rolls."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = detector_net()
    per_epoch = 2 * len(train) + len(synth) // 2
    steps = epochs * math.ceil(per_epoch / 16)
    opt = torch.optim.AdamW(net.parameters(), lr=4e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=steps)
    for epoch in range(epochs):
        pool = train + train + [synth[int(i)] for i in rng.integers(0, len(synth), len(synth) // 2)]
        order = rng.permutation(len(pool))
        windows, targets = zip(*(detector_sample(*pool[int(i)], rng, 128) for i in order),
                               strict=True)
        x = torch.from_numpy(normalise(np.stack(windows)))
        t = torch.from_numpy(np.stack(targets))
        net.train()
        total = 0.0
        for i in range(0, len(x), 16):
            loss = detector_loss(net(x[i : i + 16]), t[i : i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        if epoch % 5 == 4 or epoch == epochs - 1:
            print(f"  detector epoch {epoch}: loss {total / math.ceil(len(x) / 16):.3f}",
                  flush=True)
    return net


def export(net: nn.Module, path: Path, shape: tuple[int, int]) -> None:
    """Write the net as ONNX (batch, height and width dynamic)."""
    net.eval()
    dummy = torch.zeros(1, 3, *shape)
    torch.onnx.export(net, (dummy,), str(path), dynamo=False, input_names=["x"],
                      output_names=["y"], opset_version=13,
                      dynamic_axes={"x": {0: "n", 2: "h", 3: "w"}, "y": {0: "n"}})


def train_model(name: str, photos: Path, out: Path, *, quick: bool = False,
                part: str = "both", epochs: tuple[int, int] = EPOCHS) -> Trained:
    """Train and export the detector and (or) the classifier of one model name
    (``epochs``: the classifier's and the detector's)."""
    fold = None if name == "all" else int(name.removeprefix("fold"))
    start = time.process_time()
    train = load_photos(photos, fold)
    data_seed = 1000 + (fold if fold is not None else 9)
    synth = synthetic_rolls(60 if quick else 500, seed=data_seed)
    oblique = oblique_rolls(12 if quick else OBLIQUE_ROLLS, seed=data_seed)
    print(f"{name}: {len(train)} photos, {sum(len(d) for _i, d in train)} dice; "
          f"{len(synth)} synthetic rolls, {len(oblique)} seen at an angle", flush=True)
    synth += oblique
    seed = 17 + (fold if fold is not None else 9)
    if part in ("both", "classifier"):
        classifier = train_classifier(train, synth, 2 if quick else epochs[0], seed)
        export(classifier, out / f"classifier-{name}.onnx", (CROP, CROP))
    if part in ("both", "detector"):
        detector = train_detector(train, synth, 2 if quick else epochs[1], seed)
        export(detector, out / f"detector-{name}.onnx", (DETECT_WIDTH * 3 // 4, DETECT_WIDTH))
    seconds = time.process_time() - start
    print(f"{name}: trained in {seconds:.0f} s CPU", flush=True)
    return {"model": name, "photos": len(train), "cpu_seconds": round(seconds)}


def main(argv: list[str] | None = None) -> int:
    """Train the models named (all of them by default) into ``vision/models``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", choices=MODEL_NAMES,
                        help="a model to train (repeatable); default every one")
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run (2 epochs)")
    parser.add_argument("--part", choices=("both", "classifier", "detector"), default="both")
    parser.add_argument("--classifier-epochs", type=int, default=EPOCHS[0])
    parser.add_argument("--detector-epochs", type=int, default=EPOCHS[1])
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.model or MODEL_NAMES:
        train_model(name, args.photos, args.out, quick=args.quick, part=args.part,
                    epochs=(args.classifier_epochs, args.detector_epochs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

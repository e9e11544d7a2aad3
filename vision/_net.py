"""The learned part of the dice reader: a tiny die detector and a die-face classifier.

Both are small convolutional nets trained with PyTorch by :mod:`vision.train` (on demand,
not a run-time dependency) and shipped as ONNX files in ``vision/models/``, run here with
OpenCV's ``cv2.dnn`` (no torch at run time). The pre-processing below is shared by the
training and the run time, so both see the same pixels.

- The **detector** (CenterNet-like) reads the frame scaled to :data:`DETECT_WIDTH` pixels
  wide and gives, on a grid of stride :data:`STRIDE`, a die-centre heat map, the centre's
  offset within the cell and the box's log width and height.
- The **classifier** reads a :data:`CROP` x :data:`CROP` patch centred on a candidate die
  (side :data:`CROP_SCALE` times the die's) and gives 7 probabilities: not a die, then the
  values 1 to 6.

Models come per fold (``fold0`` .. ``fold4``: trained without the real photos of that fold,
see :func:`photo_fold`) for honest held-out figures, and ``all`` (every photo) for the
service.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision.errors import ModelError

Floats = npt.NDArray[np.float32]

MODELS = Path(__file__).resolve().parent / "models"
#: The detector reads frames scaled to this width.
DETECT_WIDTH = 256
#: Output stride of the detector, in pixels of its input.
STRIDE = 4
#: Side of the classifier's input patch, and the patch side over the die's side. 32
#: pixels (40 before): a patch costs two thirds of the time, read as well held out
#: (vision/models/README.md, session 27).
CROP = 32
CROP_SCALE = 1.3
#: Patches per classifier run, largest first: N patches run as the fewest of these (a
#: few input shapes whatever the number of dice; a run costs the same per patch at any
#: batch size, so no patch is run for nothing).
BATCHES = (4, 2, 1)
#: The real photos are split into this many folds for cross-validation.
FOLDS = 5
#: The model names shipped: one per fold, and ``all``.
MODEL_NAMES = (*(f"fold{k}" for k in range(FOLDS)), "all")


def photo_fold(name: str) -> int:
    """The fold of a real photo, from a hash of its file name (stable, not tuned)."""
    digest = hashlib.sha1(Path(name).name.encode("utf-8")).digest()
    return digest[0] % FOLDS


def normalise(image: Image) -> Floats:
    """BGR uint8 (H x W x 3 or N x H x W x 3) to the nets' float input, channels first."""
    x = image.astype(np.float32) * (1 / 64.0) - 2.0
    return np.ascontiguousarray(np.moveaxis(x, -1, -3))


def detector_size(width: int, height: int) -> tuple[int, int, float]:
    """The detector's input size (a multiple of 8 high) for a frame, and the scale."""
    scale = DETECT_WIDTH / width
    h = max(8, round(height * scale / 8) * 8)
    return DETECT_WIDTH, h, scale


def crop(image: Image, centre: tuple[float, float], side: float, angle: float = 0.0,
         size: int = CROP) -> Image:
    """The classifier's patch: ``CROP_SCALE`` x ``side`` around ``centre``, rotated by
    ``angle`` degrees, resampled to ``size`` x ``size`` (the border replicates)."""
    span = max(4.0, side * CROP_SCALE)
    m = cv2.getRotationMatrix2D(centre, angle, size / span)
    m[0, 2] += size / 2 - centre[0]
    m[1, 2] += size / 2 - centre[1]
    flags = cv2.INTER_AREA if span > size else cv2.INTER_LINEAR
    return narrow(cv2.warpAffine(image, m, (size, size), flags=flags,
                                 borderMode=cv2.BORDER_REPLICATE), np.uint8)


@dataclass(frozen=True, slots=True)
class Detection:
    """A die found by the detector, in frame pixels."""

    center: tuple[float, float]
    size: tuple[float, float]
    score: float

    @property
    def box(self) -> tuple[int, int, int, int]:
        """The axis-aligned box (x1, y1, x2, y2)."""
        (cx, cy), (w, h) = self.center, self.size
        return (round(cx - w / 2), round(cy - h / 2), round(cx + w / 2), round(cy + h / 2))


def decode(out: Floats, scale: float, threshold: float) -> list[Detection]:
    """Peaks of the detector's output (5 x H x W: heat logit, dx, dy, log w, log h)."""
    heat = 1 / (1 + np.exp(-out[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    found = []
    for gy, gx in zip(*np.nonzero(peaks), strict=True):
        cx = (gx + 0.5 + float(out[1, gy, gx])) * STRIDE / scale
        cy = (gy + 0.5 + float(out[2, gy, gx])) * STRIDE / scale
        w = float(np.exp(out[3, gy, gx])) / scale
        h = float(np.exp(out[4, gy, gx])) / scale
        found.append(Detection((cx, cy), (w, h), float(heat[gy, gx])))
    return found


class Nets:
    """The detector and the classifier of one model name, run with ``cv2.dnn``.

    One instance is shared per process (:func:`load_nets`) and a ``cv2.dnn.Net`` is not
    thread-safe (its input buffer is shared state): each run holds a lock, so the camera
    threads of several boards in one process never mix their inputs.

    Args:
        name: ``all`` (the service's model) or ``foldK`` (evaluation of fold K's photos).
        folder: where the ``detector-NAME.onnx`` and ``classifier-NAME.onnx`` files are.
    """

    def __init__(self, name: str = "all", folder: Path = MODELS) -> None:
        self.name = name
        paths = [folder / f"{part}-{name}.onnx" for part in ("detector", "classifier")]
        for path in paths:
            if not path.is_file():
                raise ModelError(f"no dice model {name!r}: {str(path)!r} is missing "
                                 f"(models: {', '.join(MODEL_NAMES)}; python -m vision.train)")
        self._detector = cv2.dnn.readNetFromONNX(str(paths[0]))
        self._classifier = cv2.dnn.readNetFromONNX(str(paths[1]))
        self._lock = threading.Lock()

    def detect(self, image: Image, threshold: float = 0.3) -> list[Detection]:
        """The dice the detector sees in a BGR frame."""
        w, h, scale = detector_size(image.shape[1], image.shape[0])
        small = narrow(cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
        with self._lock:
            self._detector.setInput(normalise(small)[None])
            out = narrow(self._detector.forward(), np.float32)
        return decode(out[0], scale, threshold)

    def classify(self, image: Image, centres: list[tuple[float, float]],
                 sides: list[float], *, unsure: float | None = None,
                 turns: int = 4) -> Floats:
        """N x 7 probabilities (not a die, values 1..6) of patches around the centres.

        Each patch is read at its four right-angle turns (or the first ``turns``) and the
        probabilities averaged: a face's value does not turn with it, and the average is
        steadier. With ``unsure``, a patch whose likeliest class is below that probability
        is read again mirrored (every face's pattern is symmetric) and the eight views
        averaged: the mirror lifts the held-out value accuracy, and costs only the
        doubtful dice's time.
        """
        patches = self.patches(image, centres, sides)
        probs: Floats = self.turns(patches, range(turns)).mean(axis=0)
        if unsure is not None:
            doubt = probs.max(axis=1) < unsure
            if doubt.any():
                mirrored = self.turns(patches[doubt][:, :, ::-1], range(4)).mean(axis=0)
                probs[doubt] = (probs[doubt] + mirrored) / 2
        return probs

    @staticmethod
    def patches(image: Image, centres: list[tuple[float, float]], sides: list[float]
                ) -> Image:  # fmt: skip
        """The classifier's patches (N x CROP x CROP x 3) around the centres."""
        if not centres:
            return np.zeros((0, CROP, CROP, 3), np.uint8)
        return np.stack([crop(image, c, s) for c, s in zip(centres, sides, strict=True)])

    def turns(self, patches: Image, which: range) -> Floats:
        """The probabilities of N patches at each of ``which`` right-angle turns
        (len(which) x N x 7): a caller that needs more turns of some patches later runs
        only those."""
        if not len(patches):
            return np.zeros((len(which), 0, 7), np.float32)
        turned = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in which])
        logits = self._run_classifier(normalise(np.ascontiguousarray(turned)))
        logits = logits.reshape(len(which), len(patches), 7)
        e = np.exp(logits - logits.max(axis=2, keepdims=True))
        probs: Floats = (e / e.sum(axis=2, keepdims=True)).astype(np.float32)
        return probs

    def _run_classifier(self, batch: Floats) -> Floats:
        """The classifier's logits, run in batches of the sizes of :data:`BATCHES`.

        Why a few fixed shapes: ``cv2.dnn`` keeps buffers for each input shape it has seen,
        so a varying number of dice grew the service by tens of megabytes.
        """
        out: list[Floats] = []
        with self._lock:
            start = 0
            for size in BATCHES:
                while len(batch) - start >= size:
                    self._classifier.setInput(batch[start : start + size])
                    out.append(narrow(self._classifier.forward(), np.float32).copy())
                    start += size
        return np.concatenate(out)


@functools.cache
def load_nets(name: str = "all") -> Nets:
    """The nets of a model name, loaded once per process."""
    return Nets(name)

"""The dice reader: one frame in, the dice, the cube and a verdict out.

The verdict implements the seed's rule that dice must land flat on the right-hand half of
the board: a cocked die, a die off that half or on a checker, or a missing die is a
``reroll``; a die the reader is not sure of is ``unreadable`` (ask for manual entry),
never a guess.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from vision._calibration import Calibration
from vision._detect import Candidate, ClutteredError, find_dice, foreground
from vision._model import CUBE_VALUES, CubeReading, Die, RollReading, Verdict
from vision._net import Nets, load_nets
from vision.errors import ImageError

Image = npt.NDArray[np.uint8]

#: A die the detector found is read mirrored as well when its four turns agree on a class
#: with less than this probability (fixed before measuring; see vision/models/README.md).
MIRROR_BELOW = 0.95
#: A blob the pip layouts read as the classifier's one view does, with at least this
#: probability, is read: the four turns (four times the time) are for the others.
AGREED_AT_ONCE = 0.95


def check_frame(frame: object, what: str = "frame") -> Image:
    """The frame as a BGR uint8 image, or a clear error.

    Raises:
        ImageError: not an image (wrong type, shape or dtype).
    """
    if not isinstance(frame, np.ndarray):
        raise ImageError(f"invalid {what}: expected a numpy image, got {type(frame).__name__}")
    if frame.dtype != np.uint8 or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 16:
        raise ImageError(f"invalid {what}: shape {frame.shape!r} dtype {frame.dtype}, "
                         "expected HxWx3 uint8 of at least 16x16")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        raise ImageError(f"invalid {what}: {frame.shape[2]} channels, expected 3")
    return frame


class DiceReader:
    """Reads the dice (and the cube) in camera frames.

    Where the dice are: with a learnt empty board (:meth:`set_background`, the service's
    case) the dice are the blobs that differ from it (OpenCV, :func:`find_dice`); without
    one (``tabula dice`` on any image) a small learned detector finds them. What they show:
    a small learned classifier reads each die's face (or says it is no die), its
    probability being the die's confidence. See :mod:`vision._net` and :mod:`vision.train`.

    Args:
        calibration: the board calibration; the frame is warped to the board view, the
            right-hand-half rule is checked and the cube's side is told. Without it the
            whole frame is read and only cocked dice and confidence give a verdict.
        expected_dice: how many dice a roll has (2 in a game); fewer is a ``reroll``.
            None accepts any number (``tabula dice``).
        min_confidence: below it a die is ``unreadable``.
        max_aspect: a die whose outline is longer than this ratio is leaning (cocked);
            default 1.17 on the board view, no check without calibration.
        model: the learned nets to use: ``"all"`` (the service's), ``"foldK"`` (trained
            without the real photos of fold K, for held-out evaluation), or None for the
            classical reader alone (pip blobs fitted to the six layouts; the reference
            of the benchmark).
        max_blobs: more die-like blobs than this make a cluttered frame, ``unreadable``
            without reading them (each costs a read: a hand, a sleeve, things on the
            board); default three times ``expected_dice``, no bound without it.
    """

    def __init__(
        self,
        calibration: Calibration | None = None,
        *,
        expected_dice: int | None = None,
        min_confidence: float = 0.8,
        max_aspect: float | None = None,
        model: str | None = "all",
        max_blobs: int | None = None,
    ) -> None:
        self.calibration = calibration
        self.model = model
        self._nets: Nets | None = load_nets(model) if model is not None else None
        self.expected_dice = expected_dice
        self.max_blobs = max_blobs if max_blobs is not None else (
            3 * expected_dice if expected_dice is not None else None)
        self.min_confidence = min_confidence
        # Only the board view is seen square: in a raw frame, perspective and the side
        # faces stretch flat dice as much as leaning ones (measured on the real photos).
        self.max_aspect = max_aspect if max_aspect is not None else (
            1.17 if calibration is not None else None)
        self._background: Image | None = None
        self._checkers: list[tuple[float, float, float]] = []

    def set_background(self, board: Image | None) -> None:
        """Learn the empty board (a view without dice, same light) or forget it.

        With it, the dice are told from the board by difference (points and checkers do
        not confuse the reader) and a die lying on a checker is recognised.
        """
        if board is None:
            self._background = None
            self._checkers = []
            return
        board = check_frame(board, "background")
        if self.calibration is not None and board.shape[1::-1] != self.calibration.board_size:
            board = self.calibration.warp(board)
        self._background = board
        self._checkers = _find_checkers(board)

    def view(self, frame: Image) -> Image:
        """The part of the frame the reader works on (the board view when calibrated)."""
        frame = check_frame(frame)
        return self.calibration.warp(frame) if self.calibration is not None else frame

    def read(self, frame: Image) -> RollReading:
        """Read one frame.

        Raises:
            ImageError: the frame is not an image.
        """
        view = self.view(frame)
        background = self._background
        if background is not None and background.shape != view.shape:
            background = None
        # The mask is needed by the classical finder, the cube and the outline of a die
        # (leaning?), all of the board view; a raw image read by the nets needs none.
        mask = None
        if self._nets is None or background is not None or self.calibration is not None:
            mask = foreground(view, background)
            if self.calibration is not None:
                _keep_field(mask, self.calibration.field)
        try:
            if self._nets is None or background is not None:
                assert mask is not None
                candidates = find_dice(view, mask, limit=self.max_blobs)
                if self._nets is not None:
                    candidates = _reread(self._nets, view, candidates)
            else:
                field = self.calibration.field if self.calibration is not None else None
                candidates = _detect(self._nets, view, mask, field=field, limit=self.max_blobs)
        except ClutteredError as error:
            return RollReading((), Verdict.UNREADABLE, str(error))
        # The cube's side only means something on the board view: read it when calibrated.
        cube = None
        if self.calibration is not None and mask is not None:
            cube = self._read_cube(view, mask, candidates)
        if cube is not None:
            candidates = [c for c in candidates if not _inside(c.center, cube.box)]
        dice = tuple(self._die(c, view.shape[1]) for c in candidates)
        verdict, reason = self._verdict(dice)
        return RollReading(dice, verdict, reason, cube)

    def _die(self, c: Candidate, width: int) -> Die:
        flags = []
        if self.max_aspect is not None and c.aspect > self.max_aspect:
            flags.append("cocked")
        if self.calibration is not None and c.box[0] < width / 2:
            flags.append("off-half")
        if any(math.hypot(c.center[0] - x, c.center[1] - y) < r for x, y, r in self._checkers):
            flags.append("on-checker")
        return Die(c.value, c.box, round(c.confidence, 3), tuple(flags))

    def _verdict(self, dice: tuple[Die, ...]) -> tuple[Verdict, str]:
        reasons = [f"die at {list(d.box)} is {', '.join(d.flags)}" for d in dice if d.flags]
        if self.expected_dice is not None and len(dice) < self.expected_dice:
            reasons.append(f"saw {len(dice)} dice, expected {self.expected_dice}")
        if reasons:
            return Verdict.REROLL, "; ".join(reasons)
        if self.expected_dice is not None and len(dice) > self.expected_dice:
            return Verdict.UNREADABLE, f"saw {len(dice)} dice, expected {self.expected_dice}"
        unsure = [d for d in dice if d.confidence < self.min_confidence]
        if unsure:
            where = "; ".join(f"die at {list(d.box)} ({d.confidence:.2f})" for d in unsure)
            return Verdict.UNREADABLE, f"not sure of {where}"
        return Verdict.OK, ""

    def _read_cube(self, view: Image, mask: Image,
                   candidates: list[Candidate]) -> CubeReading | None:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        die_side = float(np.median([c.side for c in candidates])) if candidates else 30.0
        best: CubeReading | None = None
        for contour in contours:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
            side = math.sqrt(rw * rh)
            if not 1.1 * die_side < side < 2.2 * die_side:
                continue
            if max(rw, rh) > 1.25 * min(rw, rh):
                continue
            found = _read_cube_face(view, (cx, cy), side, angle)
            if found is None:
                continue
            value, score = found
            x, y, w, h = cv2.boundingRect(contour)
            cube = CubeReading(value, (x, y, x + w, y + h), self._side(cx, cy, view), score)
            if best is None or cube.confidence > best.confidence:
                best = cube
        return best

    def _side(self, cx: float, cy: float, view: Image) -> str:
        h, w = view.shape[:2]
        if abs(cx - w / 2) < 0.06 * w and abs(cy - h / 2) < 0.15 * h:
            return "centre"
        return "player1" if cy > h / 2 else "player2"


def _no_die(p: npt.NDArray[np.float32]) -> bool:
    """Whether the classifier's likeliest class is "not a die" (argmax over the 7)."""
    return bool(p[0] >= p[1:].max())


def _reread(nets: Nets, view: Image, candidates: list[Candidate]) -> list[Candidate]:
    """Blobs found on the learnt board, read by the classifier and the pip layouts both.

    Two readers that agree are as sure as the surer one; when they disagree, the surer one
    wins with the margin between them as its confidence, so that a disagreement between
    two sure readers is ``unreadable`` rather than a guess.
    """
    centres = [c.center for c in candidates]
    sides = [_box_side(c.box) for c in candidates]
    probs = nets.classify(view, centres, sides, turns=1)
    doubt = [i for i, (c, p) in enumerate(zip(candidates, probs, strict=True))
             if p[c.value] < AGREED_AT_ONCE]
    if doubt:
        probs[doubt] = nets.classify(view, [centres[i] for i in doubt],
                                     [sides[i] for i in doubt])
    out = []
    for c, p in zip(candidates, probs, strict=True):
        if _no_die(p):
            continue
        value = int(np.argmax(p[1:])) + 1
        net = float(p[value])
        if value == c.value:
            out.append(replace(c, confidence=max(net, c.confidence)))
        elif net >= c.confidence:
            out.append(replace(c, value=value, confidence=net - c.confidence))
        else:
            out.append(replace(c, confidence=c.confidence - net))
    return out


def _box_side(box: tuple[int, int, int, int]) -> float:
    return math.sqrt(max(1, box[2] - box[0]) * max(1, box[3] - box[1]))


def _keep_field(mask: Image, field: tuple[int, int, int, int]) -> None:
    """Clear the mask outside the playing field (in place)."""
    x1, y1, x2, y2 = field
    mask[:y1] = 0
    mask[y2:] = 0
    mask[:, :x1] = 0
    mask[:, x2:] = 0


def _detect(nets: Nets, view: Image, mask: Image | None, *,
            field: tuple[int, int, int, int] | None = None,
            limit: int | None = None) -> list[Candidate]:
    """Dice found by the detector (in ``field`` only, when given) and read by the
    classifier.

    Raises:
        ClutteredError: more than ``limit`` dice found.
    """
    h, w = view.shape[:2]
    found = sorted(nets.detect(view), key=lambda d: -d.score)
    if field is not None:
        found = [d for d in found if _inside(d.center, field)]
    kept: list[tuple[tuple[float, float], float]] = []
    for d in found:
        side = math.sqrt(d.size[0] * d.size[1])
        # Two peaks on one die: the weaker goes.
        if all(math.hypot(d.center[0] - c[0], d.center[1] - c[1]) > 0.5 * min(side, s)
               for c, s in kept):
            kept.append((d.center, side))
    if limit is not None and len(kept) > limit:
        raise ClutteredError(len(kept), limit)
    # A single image (``tabula dice``) has no second reader: the doubtful dice are read
    # mirrored too. The service's frames (learnt board) have the pip layouts instead.
    probs = nets.classify(view, [c for c, _s in kept], [s for _c, s in kept],
                          unsure=MIRROR_BELOW)
    out = []
    for (centre, side), p in zip(kept, probs, strict=True):
        if _no_die(p):
            continue
        value = int(np.argmax(p[1:])) + 1
        half = side / 2
        box = (max(0, round(centre[0] - half)), max(0, round(centre[1] - half)),
               min(w, round(centre[0] + half)), min(h, round(centre[1] + half)))
        aspect = _outline_aspect(mask, centre, side) if mask is not None else 1.0
        out.append(Candidate(value, float(p[value]), box, centre, side, aspect, value))
    return out


def _outline_aspect(mask: Image, centre: tuple[float, float], side: float) -> float:
    """Length over width of the foreground outline at a die (1.0 when it is not the die's
    own: merged with a neighbour)."""
    r = round(side)
    x0, y0 = max(0, round(centre[0]) - r), max(0, round(centre[1]) - r)
    sub = mask[y0 : y0 + 2 * r, x0 : x0 + 2 * r]
    contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    at = (float(centre[0] - x0), float(centre[1] - y0))
    for contour in contours:
        if cv2.pointPolygonTest(contour, at, False) >= 0:
            if cv2.contourArea(contour) > 1.6 * side * side:
                return 1.0
            (_cx, _cy), (rw, rh), _a = cv2.minAreaRect(contour)
            return max(rw, rh) / max(1.0, min(rw, rh))
    return 1.0


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _find_checkers(board: Image) -> list[tuple[float, float, float]]:
    """Checkers on the empty board: discs about a twelfth of the board's half-width."""
    grey = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    grey = cv2.medianBlur(grey, 5)
    w = board.shape[1]
    r = w / 30
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1.5, minDist=r * 1.5,
                               param1=80, param2=26, minRadius=round(r * 0.7),
                               maxRadius=round(r * 1.3))
    if circles is None:
        return []
    return [(float(x), float(y), float(rad)) for x, y, rad in circles[0]]


_TEMPLATE_SIZE = 48
_templates: dict[int, Image] = {}


def _cube_template(value: int) -> Image:
    if value not in _templates:
        s = _TEMPLATE_SIZE
        face = np.full((s, s), 255, np.uint8)
        text = str(value)
        scale = s / 28 if len(text) == 1 else s / 40
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        cv2.putText(face, text, ((s - tw) // 2, (s + th) // 2), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, 0, 2, cv2.LINE_AA)
        _templates[value] = face
    return _templates[value]


def _read_cube_face(view: Image, centre: tuple[float, float], side: float,
                    angle: float) -> tuple[int, float] | None:
    """The cube's face by template matching of its digits, at the four right angles."""
    s = _TEMPLATE_SIZE
    scale = s / side
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[0, 2] += s / 2 - centre[0]
    m[1, 2] += s / 2 - centre[1]
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    face = cv2.warpAffine(grey, m, (s, s), flags=cv2.INTER_AREA, borderValue=255)
    face = cv2.normalize(face, None, 0, 255, cv2.NORM_MINMAX)
    best = (0, -1.0)
    for k in range(4):
        rotated = np.rot90(face, k).copy()
        for value in CUBE_VALUES:
            score = float(cv2.matchTemplate(rotated, _cube_template(value),
                                            cv2.TM_CCOEFF_NORMED)[0, 0])
            if score > best[1]:
                best = (value, score)
    if best[1] < 0.5:
        return None
    return best[0], min(1.0, best[1])

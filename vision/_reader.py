"""The dice reader: one frame in, the dice, the cube and a verdict out.

The verdict implements the seed's rule that dice must land flat on the right-hand half of
the board, as the thrower sees it (:class:`~vision._model.Thrower`): a cocked die, a die
off that half or on a checker, or a missing die is a ``reroll``; a die the reader is not
sure of is ``unreadable`` (ask for manual entry), never a guess.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision._calibration import FRAME_WIDTH, MARKER_CENTRES, Calibration
from vision._cover import board_seen_at, hides_board
from vision._cube import find_cube
from vision._detect import LIGHT_KERNEL, Candidate, ClutteredError, find_dice, foreground
from vision._model import Box, Die, RollReading, Thrower, Verdict
from vision._net import Nets, load_nets
from vision._oblique import (
    CameraPose,
    Outline,
    camera_pose,
    footprint,
    longest_outline,
    seen_field,
    top_faces,
)
from vision.errors import ImageError

#: The calibration markers' squares in the board view (with their quiet zone): no cube.
_MARKER_BOXES = tuple((round(x) - 20, round(y) - 20, round(x) + 20, round(y) + 20)
                      for x, y in MARKER_CENTRES.values())
#: No die stands taller than the frame around the field is wide (board-view units: real
#: dice about 20, the rendered ones 26-34): how far beyond the field a top can be seen.
_TALLEST_DIE = float(FRAME_WIDTH)

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
        return narrow(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), np.uint8)
    if frame.shape[2] == 4:
        return narrow(cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR), np.uint8)
    if frame.shape[2] != 3:
        raise ImageError(f"invalid {what}: {frame.shape[2]} channels, expected 3")
    return frame


@dataclass(frozen=True, slots=True, eq=False)
class BoardView:
    """A camera frame warped to the board view once (:meth:`DiceReader.look`).

    Why: a settled frame is asked several questions (is the board covered? which dice?
    is the board seen where they lay?), and warping a real camera's frame costs about
    what reading two dice does. Every method that takes a frame takes this as well.
    """

    image: Image


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
        self._pose = _pose(calibration)
        # Where the dice standing on the playing field are seen: the field itself, or seen
        # at an angle, farther (a die's top is seen away from the camera).
        self._searched: tuple[int, int, int, int] | None = None
        if calibration is not None:
            self._searched = calibration.field if self._pose is None else seen_field(
                calibration.field, self._pose, _TALLEST_DIE, calibration.board_size)
        # The light's model takes a die for an outlier of its window; seen at an angle, a
        # die's outline is longer: the window grows so that it covers the same share.
        self._light_kernel = LIGHT_KERNEL
        if calibration is not None and self._pose is not None:
            stretch = longest_outline(calibration.field, self._pose, _TALLEST_DIE)
            self._light_kernel = 2 * round(LIGHT_KERNEL * math.sqrt(stretch) / 2) + 1

    def set_background(self, board: Image | BoardView | None) -> None:
        """Learn the empty board (a view without dice, same light) or forget it.

        With it, the dice are told from the board by difference (points and checkers do
        not confuse the reader) and a die lying on a checker is recognised.
        """
        if board is None:
            self._background = None
            self._checkers = []
            return
        if isinstance(board, BoardView):
            board = board.image
        else:
            board = check_frame(board, "background")
            # Warped as every frame read against it is (a camera frame of the board
            # view's size is no board view: only the identity leaves it as it is).
            if self.calibration is not None:
                board = self.calibration.warp(board)
        self._background = board
        self._checkers = _find_checkers(board)

    def view(self, frame: Image | BoardView) -> Image:
        """The part of the frame the reader works on (the board view when calibrated)."""
        if isinstance(frame, BoardView):
            return frame.image
        frame = check_frame(frame)
        return self.calibration.warp(frame) if self.calibration is not None else frame

    def look(self, frame: Image) -> BoardView:
        """The frame warped once, for several of the questions below.

        Raises:
            ImageError: the frame is not an image.
        """
        return BoardView(self.view(frame))

    def read(self, frame: Image | BoardView, thrower: Thrower | str = Thrower.NEAR
             ) -> RollReading:  # fmt: skip
        """Read one frame of a throw by ``thrower`` (whose right-hand half the dice must
        land in; it matters only with a calibration).

        Raises:
            ImageError: the frame is not an image.
            ValueError: ``thrower`` is not one of :class:`Thrower`'s.
        """
        thrower = Thrower(thrower)
        view = self.view(frame)
        background = self._background
        if background is not None and background.shape != view.shape:
            background = None
        # The mask is needed by the classical finder, the cube and the outline of a die
        # (leaning?), all of the board view; a raw image read by the nets needs none.
        mask = None
        if self._nets is None or background is not None or self.calibration is not None:
            mask = foreground(view, background, light_kernel=self._light_kernel)
            if self._searched is not None:
                _keep_field(mask, self._searched)
        # Seen at an angle, the dice are read on their top faces (the learnt board's case).
        outlines: list[Outline] | None = None
        try:
            if self._nets is None or background is not None:
                assert mask is not None
                if self._pose is not None:
                    tops, outlines = top_faces(mask, self._pose)
                    candidates = find_dice(view, tops, limit=self.max_blobs)
                else:
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
        if self.calibration is not None:
            die_side = statistics.median(c.side for c in candidates) if candidates else 30.0
            # Seen at an angle, a die's blob (its top and side faces) is cube-sized.
            held = tuple(cv2.boundingRect(o.hull) for o in outlines or () if any(
                cv2.pointPolygonTest(o.hull, c.center, False) >= 0 for c in candidates))
            cube = find_cube(view, die_side, mask=mask, keep_out=_MARKER_BOXES + tuple(
                (x, y, x + w, y + h) for x, y, w, h in held))
        if cube is not None:
            candidates = [c for c in candidates if not _inside(c.center, cube.box)]
        if self._pose is not None and outlines is not None:
            assert self.calibration is not None  # a pose is a calibration's
            field = self.calibration.field
            candidates = [f for f in (footprint(c, self._pose, outlines) for c in candidates)
                          if _inside(f.center, field)]
        halves = _own_halves(candidates, view.shape[1], thrower)
        dice = tuple(self._die(c, own) for c, own in zip(candidates, halves, strict=True))
        verdict, reason = self._verdict(dice)
        return RollReading(dice, verdict, reason, cube)

    def _die(self, c: Candidate, in_own_half: bool) -> Die:
        flags = []
        if self.max_aspect is not None and c.aspect > self.max_aspect:
            flags.append("cocked")
        if self.calibration is not None and not in_own_half:
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


    def is_covered(self, frame: Image | BoardView) -> bool:
        """Whether something far larger than a die hides the learnt board: a hand, a
        sleeve, a player leaning over it (False while no board is learnt).

        Why: then no roll can be read, nor the board learnt (see :mod:`vision._cover`).
        """
        seen = self._against_board(frame)
        return seen is not None and hides_board(*seen)

    def shows_board(self, frame: Image | BoardView, boxes: Sequence[Box]) -> bool:
        """Whether the learnt board is seen at every box of the view: the dice that lay
        there are gone and nothing hides their places (True while no board is learnt)."""
        seen = self._against_board(frame)
        return seen is None or all(board_seen_at(*seen, box) for box in boxes)

    def _against_board(self, frame: Image | BoardView) -> tuple[Image, Image, Image] | None:
        """The view, the learnt board and what differs between them (None: none learnt)."""
        view = self.view(frame)
        board = self._background
        if board is None or board.shape != view.shape:
            return None
        # The light as learnt: the light's model could take a large even arm for a
        # change of light; the board's structure tells the two apart (vision._cover).
        return view, board, foreground(view, board, model_light=False)


def _own_halves(candidates: list[Candidate], width: int, thrower: Thrower) -> list[bool]:
    """Whether each die lies wholly in its thrower's right-hand half of the board view.

    In the opening roll (``BOTH``) each player throws one die into his own half: a die
    wholly in either half is in its place as long as the other die is in the other half;
    two dice in one half are both off (which player erred the picture cannot tell).
    """
    right = [c.box[0] >= width / 2 for c in candidates]
    left = [c.box[2] <= width / 2 for c in candidates]
    if thrower is Thrower.NEAR:
        return right
    if thrower is Thrower.FAR:
        return left
    crowded = sum(right) > 1 or sum(left) > 1
    return [(r or lt) and not crowded for r, lt in zip(right, left, strict=True)]


def _pose(calibration: Calibration | None) -> CameraPose | None:
    """Where the camera is, when the calibration tells it (it keeps the frame's size)."""
    if calibration is None or calibration.frame_size is None:
        return None
    return camera_pose(calibration.matrix, calibration.frame_size)


def _no_die(p: npt.NDArray[np.float32]) -> bool:
    """Whether the classifier's likeliest class is "not a die" (argmax over the 7)."""
    return bool(p[0] >= p[1:].max())


def _reread(nets: Nets, view: Image, candidates: list[Candidate]) -> list[Candidate]:
    """Blobs found on the learnt board, read by the classifier and the pip layouts both.

    Two readers that agree are as sure as the surer one; when they disagree, the surer one
    wins with the margin between them as its confidence, so that a disagreement between
    two sure readers is ``unreadable`` rather than a guess.
    """
    patches = nets.patches(view, [c.center for c in candidates],
                           [_box_side(c.box) for c in candidates])
    first = nets.turns(patches, range(1))
    probs = first[0]
    doubt = [i for i, (c, p) in enumerate(zip(candidates, probs, strict=True))
             if p[c.value] < AGREED_AT_ONCE]
    if doubt:
        # The first turn is read already: only the other three are run.
        probs[doubt] = np.concatenate([first[:, doubt],
                                       nets.turns(patches[doubt], range(1, 4))]).mean(axis=0)
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

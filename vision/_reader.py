"""The dice reader: one frame in, the dice, the cube and a verdict out.

The verdict implements the seed's rule that dice must land flat on the right-hand half of
the board: a cocked die, a die off that half or on a checker, or a missing die is a
``reroll``; a die the reader is not sure of is ``unreadable`` (ask for manual entry),
never a guess.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision._calibration import Calibration
from vision._detect import Candidate, find_dice, foreground
from vision._model import CUBE_VALUES, CubeReading, Die, RollReading, Verdict
from vision.errors import ImageError

Image = npt.NDArray[np.uint8]


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

    Args:
        calibration: the board calibration; the frame is warped to the board view, the
            right-hand-half rule is checked and the cube's side is told. Without it the
            whole frame is read and only cocked dice and confidence give a verdict.
        expected_dice: how many dice a roll has (2 in a game); fewer is a ``reroll``.
            None accepts any number (``tabula dice``).
        min_confidence: below it a die is ``unreadable``.
        max_aspect: a die whose outline is longer than this ratio is leaning (cocked).
    """

    def __init__(
        self,
        calibration: Calibration | None = None,
        *,
        expected_dice: int | None = None,
        min_confidence: float = 0.35,
        max_aspect: float = 1.2,
    ) -> None:
        self.calibration = calibration
        self.expected_dice = expected_dice
        self.min_confidence = min_confidence
        self.max_aspect = max_aspect
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
        mask = foreground(view, background)
        candidates = find_dice(view, mask)
        # The cube's side only means something on the board view: read it when calibrated.
        cube = None
        if self.calibration is not None:
            cube = self._read_cube(view, mask, candidates)
        if cube is not None:
            candidates = [c for c in candidates if not _inside(c.center, cube.box)]
        dice = tuple(self._die(c, view.shape[1]) for c in candidates)
        verdict, reason = self._verdict(dice)
        return RollReading(dice, verdict, reason, cube)

    def _die(self, c: Candidate, width: int) -> Die:
        flags = []
        if c.aspect > self.max_aspect:
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


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _find_checkers(board: Image) -> list[tuple[float, float, float]]:
    """Checkers on the empty board: discs about a twelfth of the board's half-width."""
    grey = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    grey = cv2.medianBlur(grey, 5)
    w = board.shape[1]
    r = w / 30
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1.5, minDist=r * 1.5,
                               param1=80, param2=30, minRadius=round(r * 0.7),
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

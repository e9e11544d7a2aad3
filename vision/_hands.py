"""Rendered hands over the board: an arm crossing the dice, a player leaning over them.

Why: at a real table hands pass over dice that stay put, and a player leans over the board
for seconds at a time (the scene settles with the arm there). The roll watcher must not
take either for a roll, nor for the dice lifted; these frames are its test video, and the
demo's table shows them now and then. Everything random comes from the ``random.Random``
given, so a seed is a video.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision._model import Box

#: Skin tones and sleeve colours (BGR) an arm is drawn in.
_SKINS: tuple[tuple[int, int, int], ...] = (
    (150, 180, 225), (120, 155, 205), (90, 125, 175), (60, 85, 125), (40, 55, 85))
_SLEEVES: tuple[tuple[int, int, int], ...] = (
    (40, 40, 40), (140, 90, 40), (60, 60, 150), (200, 200, 200), (70, 120, 90), (30, 30, 90))


@dataclass(frozen=True, slots=True)
class Arm:
    """An arm over the board view: from ``shoulder`` (outside the view) to the hand at
    ``hand``, ``width`` pixels wide, bare or in a sleeve up to the wrist, and the soft
    shadow it casts ``shadow`` pixels away (light from above, a little to one side)."""

    shoulder: tuple[float, float]
    hand: tuple[float, float]
    width: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    shadow: tuple[float, float]
    #: How dark the shadow is where it is darkest (the share of light it takes away).
    shadow_depth: float

    def moved(self, dx: float, dy: float) -> Arm:
        """The same arm, shoulder and hand moved by ``(dx, dy)``."""
        return Arm((self.shoulder[0] + dx, self.shoulder[1] + dy),
                   (self.hand[0] + dx, self.hand[1] + dy), self.width, self.skin, self.sleeve,
                   self.shadow, self.shadow_depth)


def random_arm(rng: random.Random, size: tuple[int, int], hand: tuple[float, float], *,
               sides: tuple[str, ...] = ("near", "far", "right")) -> Arm:
    """An arm of random look reaching to ``hand`` in a view of ``size`` (width, height)
    from one of ``sides``: the near or far edge (a player's side), or the right-hand edge."""
    w, h = size
    side = rng.choice(sides)
    if side == "near":
        shoulder = (hand[0] + rng.uniform(-0.15, 0.15) * w, h + rng.uniform(0.2, 0.5) * h)
    elif side == "far":
        shoulder = (hand[0] + rng.uniform(-0.15, 0.15) * w, -rng.uniform(0.2, 0.5) * h)
    else:
        shoulder = (w + rng.uniform(0.2, 0.4) * w, hand[1] + rng.uniform(-0.3, 0.3) * h)
    sleeve = rng.choice(_SLEEVES) if rng.random() < 0.6 else None
    shadow = (rng.uniform(-1, 1) * 40, rng.uniform(-1, 1) * 40)
    return Arm(shoulder, hand, rng.uniform(0.11, 0.16) * w, rng.choice(_SKINS), sleeve,
               shadow, rng.uniform(0.3, 0.55))


def _arm_alpha(arm: Arm, size: tuple[int, int]) -> tuple[Image, Image]:
    """Masks (0..255) of the whole arm and of its bare part (hand and wrist), soft-edged."""
    w, h = size
    whole = np.zeros((h, w), np.uint8)
    bare = np.zeros((h, w), np.uint8)
    sx, sy = arm.shoulder
    hx, hy = arm.hand
    length = math.hypot(hx - sx, hy - sy) or 1.0
    ux, uy = (hx - sx) / length, (hy - sy) / length
    half = arm.width / 2
    shift = 4  # cv2's fixed point: quarter-pixel outlines

    def pts(points: list[tuple[float, float]]) -> npt.NDArray[np.int32]:
        return np.array([[round(x * 16), round(y * 16)] for x, y in points], np.int32)

    def quad(a: tuple[float, float], b: tuple[float, float], ra: float, rb: float
             ) -> list[tuple[float, float]]:
        return [(a[0] - uy * ra, a[1] + ux * ra), (b[0] - uy * rb, b[1] + ux * rb),
                (b[0] + uy * rb, b[1] - ux * rb), (a[0] + uy * ra, a[1] - ux * ra)]

    wrist = (hx - ux * arm.width * 0.55, hy - uy * arm.width * 0.55)
    forearm = quad(arm.shoulder, wrist, half * 1.15, half * 0.8)
    palm = (round(hx * 16), round(hy * 16))
    axes = (round(half * 1.05 * 16), round(arm.width * 0.75 * 16))
    angle = math.degrees(math.atan2(uy, ux)) - 90
    cv2.fillPoly(whole, [pts(forearm)], 255, cv2.LINE_AA, shift)
    cv2.ellipse(whole, palm, axes, angle, 0, 360, 255, cv2.FILLED, cv2.LINE_AA, shift)
    if arm.sleeve is None:
        bare[:] = whole
    else:
        cuff = (wrist[0] - ux * arm.width * 0.3, wrist[1] - uy * arm.width * 0.3)
        cv2.fillPoly(bare, [pts(quad(cuff, wrist, half * 0.8, half * 0.8))], 255,
                     cv2.LINE_AA, shift)
        cv2.ellipse(bare, palm, axes, angle, 0, 360, 255, cv2.FILLED, cv2.LINE_AA, shift)
    # Fingers: four short rounded strokes beyond the palm.
    for k in range(4):
        offset = (k - 1.5) * arm.width * 0.22
        base = (hx - uy * offset + ux * arm.width * 0.4, hy + ux * offset + uy * arm.width * 0.4)
        tip = (base[0] + ux * arm.width * 0.55, base[1] + uy * arm.width * 0.55)
        thick = max(2, round(arm.width * 0.16))
        for mask in (whole, bare):
            cv2.line(mask, (round(base[0] * 16), round(base[1] * 16)),
                     (round(tip[0] * 16), round(tip[1] * 16)), 255, thick, cv2.LINE_AA, shift)
    soft = max(1.0, arm.width / 40)  # an arm is out of focus, a little: soft edges
    return (narrow(cv2.GaussianBlur(whole, (0, 0), soft), np.uint8),
            narrow(cv2.GaussianBlur(bare, (0, 0), soft), np.uint8))


def draw_arm(image: Image, arm: Arm) -> Image:
    """``image`` with ``arm`` over it: its shadow on the board first, then the arm, shaded
    round. Only the part of the view the arm and its shadow reach is worked (speed)."""
    h, w = image.shape[:2]
    whole, bare = _arm_alpha(arm, (w, h))
    x, y, bw, bh = cv2.boundingRect(whole)
    if bw == 0 or bh == 0:
        return image.copy()
    reach = round(arm.width + max(abs(arm.shadow[0]), abs(arm.shadow[1])))
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(w, x + bw + reach), min(h, y + bh + reach)
    whole, bare = whole[y0:y1, x0:x1], bare[y0:y1, x0:x1]
    part = image[y0:y1, x0:x1].astype(np.float32)
    # The shadow: the arm's outline, shifted and blurred wide (the arm is far above).
    shade = _blurred(whole, arm.width / 4, arm.shadow)
    part *= (1 - arm.shadow_depth * shade)[:, :, None]
    # The arm: skin where bare, sleeve elsewhere, shaded across its width (it is round).
    b = bare.astype(np.float32)[:, :, None] / 255
    sleeve = np.array(arm.sleeve if arm.sleeve is not None else arm.skin, np.float32)
    colour = sleeve * (1 - b) + np.array(arm.skin, np.float32) * b
    colour *= (0.65 + 0.4 * _blurred(whole, arm.width / 5))[:, :, None]
    a = whole.astype(np.float32)[:, :, None] / 255
    out = image.copy()
    out[y0:y1, x0:x1] = np.clip(part * (1 - a) + colour * a, 0, 255).astype(np.uint8)
    return out


def _blurred(mask: Image, sigma: float, shift: tuple[float, float] = (0.0, 0.0)
             ) -> npt.NDArray[np.float32]:
    """``mask`` (0..255) shifted and blurred wide, as 0..1: worked at a quarter of the size
    (a wide blur is smooth; the demo draws arms on a slow Pi)."""
    h, w = mask.shape
    size = (max(1, w // 4), max(1, h // 4))
    small = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
    m = np.array([[1, 0, shift[0] / 4], [0, 1, shift[1] / 4]], np.float32)
    small = cv2.GaussianBlur(cv2.warpAffine(small, m, size), (0, 0), sigma / 4)
    return narrow(cv2.resize(small.astype(np.float32) / 255, (w, h),
                             interpolation=cv2.INTER_LINEAR), np.float32)


def _centre(boxes: list[Box]) -> tuple[float, float]:
    return (sum(b[0] + b[2] for b in boxes) / (2 * len(boxes)),
            sum(b[1] + b[3] for b in boxes) / (2 * len(boxes)))


def hand_crossing(image: Image, dice: list[Box], rng: random.Random, *,
                  frames: int = 8, sigma: float = 2.0) -> list[Image]:
    """Frames of a hand passing over the dice (boxes ``dice``; none: the middle of the
    right-hand half, where dice land) of ``image``, the roll left as it was: the arm comes
    in on one side of the dice, sweeps across them and goes out on the other side. The last
    frame is the roll alone again. Each frame has fresh sensor noise of ``sigma``."""
    h, w = image.shape[:2]
    cx, cy = _centre(dice) if dice else (w * 0.75, h / 2)
    arm = random_arm(rng, (w, h), (cx, cy))
    # Sweep across the arm's own direction, from well clear of the dice to well past them.
    sx, sy = arm.shoulder
    length = math.hypot(cx - sx, cy - sy) or 1.0
    across = (-(cy - sy) / length, (cx - sx) / length)
    reach = arm.width * 1.8
    out = []
    for k in range(frames - 1):
        t = -1 + 2 * k / max(1, frames - 2)
        moved = arm.moved(across[0] * reach * t, across[1] * reach * t)
        out.append(with_noise(draw_arm(image, moved), rng, sigma))
    out.append(with_noise(image, rng, sigma))
    return out


def leaning_over(image: Image, dice: list[Box], rng: random.Random, *, cover: str = "both",
                 frames: int = 12, sigma: float = 2.0) -> list[Image]:
    """Frames of a player leaning over the board and staying there: the arm comes in,
    then rests still for the remaining frames (only sensor noise changes) over both dice
    (``cover="both"``), over one of them (``"one"``) or over the board beside them
    (``"board"``), with a large soft shadow of the player's body. Each frame has fresh
    sensor noise of ``sigma``."""
    if cover not in ("both", "one", "board"):
        raise ValueError(f"invalid cover {cover!r}: expected 'both', 'one' or 'board'")
    h, w = image.shape[:2]
    if cover == "both" or not dice:
        target = _centre(dice) if dice else (w * 0.75, h / 2)
    elif cover == "one":
        target = _centre([rng.choice(dice)])
    else:  # the left-hand half, the arm from a player's side: clear of the dice
        target = (rng.uniform(0.1, 0.35) * w, rng.uniform(0.3, 0.7) * h)
    arm = random_arm(rng, (w, h), target,
                     sides=("near", "far") if cover == "board" else ("near", "far", "right"))
    body = _body_shadow(arm, (w, h), rng)
    lit = (image.astype(np.float32) * body[:, :, None]).astype(np.uint8)
    coming = arm.moved(0.5 * (arm.shoulder[0] - arm.hand[0]), 0.5 * (arm.shoulder[1] - arm.hand[1]))
    leaning = draw_arm(lit, arm)
    return [with_noise(draw_arm(image, coming), rng, sigma)] + [
        with_noise(leaning, rng, sigma) for _ in range(frames - 1)]


def _body_shadow(arm: Arm, size: tuple[int, int], rng: random.Random
                 ) -> npt.NDArray[np.float32]:
    """The light left by a player's body leaning in from the arm's side: a wide soft
    shadow over that side of the board (1: full light)."""
    w, h = size
    # Smooth: worked out on a grid of 8 pixels, then interpolated.
    yy, xx = np.mgrid[0 : h // 8, 0 : w // 8].astype(np.float32) * 8
    sx, sy = arm.shoulder
    # It reaches past the hand: the body is higher than the arm, and wider.
    radius = math.hypot(arm.hand[0] - sx, arm.hand[1] - sy) * rng.uniform(1.4, 1.9)
    d = np.sqrt((xx - sx) ** 2 + (yy - sy) ** 2)
    depth = rng.uniform(0.15, 0.35)
    light = (1 - depth * np.clip(1 - d / radius, 0, 1) ** 0.7).astype(np.float32)
    return narrow(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def with_noise(image: Image | npt.NDArray[np.float32], rng: random.Random,
               sigma: float = 2.0) -> Image:
    """``image`` with fresh sensor noise: one more frame of a still scene (none for a
    ``sigma`` of 0: a simulated camera's frames are exact)."""
    if sigma <= 0:
        return np.clip(image, 0, 255).astype(np.uint8)
    noise = np.empty(image.shape, np.float32)
    cv2.setRNGSeed(rng.getrandbits(31))
    # Per channel: a scalar would draw the first channel only.
    cv2.randn(noise, np.zeros(3), np.full(3, sigma))
    noisy: npt.NDArray[np.float32] = image.astype(np.float32) + noise
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _die_area(image: Image, box: Box) -> tuple[int, int, int, int]:
    """The part of the view a die at ``box`` takes, with its shadow (a few pixels aside)."""
    h, w = image.shape[:2]
    pad = 6
    return max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)


def without_die(image: Image, background: Image, box: Box) -> Image:
    """``image`` with the die at ``box`` picked up: the board of ``background`` seen there."""
    x0, y0, x1, y1 = _die_area(image, box)
    out = image.copy()
    out[y0:y1, x0:x1] = background[y0:y1, x0:x1]
    return out


def nudged(image: Image, background: Image, box: Box, offset: tuple[int, int]) -> Image:
    """``image`` with the die at ``box`` slid by ``offset`` pixels (its picture and shadow
    carried along, the board of ``background`` seen where it lay): a die pushed by a hand.

    Raises:
        ValueError: the die would leave the view.
    """
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _die_area(image, box)
    dx, dy = offset
    if min(x0 + dx, y0 + dy) < 0 or x1 + dx > w or y1 + dy > h:
        raise ValueError(f"invalid offset {offset!r}: the die at {box!r} would leave the view")
    out = without_die(image, background, box)
    out[y0 + dy : y1 + dy, x0 + dx : x1 + dx] = image[y0:y1, x0:x1]
    return out

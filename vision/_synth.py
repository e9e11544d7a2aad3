"""A synthetic camera: rendered top-down views of a board with dice and the cube, labelled.

The tests and the demo need rolls whose truth is known, including the irregular ones a
referee must catch (cocked die, die off the right-hand half, die on a checker, die
missing). Everything random comes from the ``random.Random`` given, so a seed is a roll.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision._calibration import BOARD_SIZE, MARKER_CENTRES, marker_image
from vision._cube import FONTS, CubeLook, draw_face
from vision._layout import LAYOUTS
from vision._model import Box

#: (face colour, pip colour) of the dice the renderer draws, BGR.
DIE_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((235, 235, 235), (25, 25, 25)),
    ((200, 225, 235), (30, 30, 30)),
    ((40, 40, 200), (240, 240, 240)),
    ((30, 30, 30), (235, 235, 235)),
    ((60, 150, 40), (245, 245, 245)),
    ((150, 60, 30), (240, 240, 240)),
    ((40, 200, 230), (20, 20, 20)),
)
#: Pip colours of the varied looks (BGR): white, black, red, gold.
_PIP_COLOURS: tuple[tuple[int, int, int], ...] = (
    (240, 240, 240), (25, 25, 25), (40, 40, 190), (60, 180, 220))
_MARGIN = 48
_BAR = 34
_SS = 4  # supersampling factor of the die patches


@dataclass(frozen=True, slots=True)
class SyntheticDie:
    """The truth about one rendered die (``kind``: ``flat`` or ``cocked``)."""

    value: int
    box: Box
    kind: str
    off_half: bool = False
    on_checker: bool = False

    @property
    def irregular(self) -> bool:
        """Whether the seed's rule makes this die a reroll."""
        return self.kind == "cocked" or self.off_half or self.on_checker


@dataclass(frozen=True, slots=True)
class SyntheticRoll:
    """A rendered roll: the image, the empty board under the same light, and the truth."""

    image: Image
    background: Image
    dice: tuple[SyntheticDie, ...]
    expected_dice: int
    cube: tuple[int, str] | None = None
    #: How the room's light over the roll differs from the empty board's (None: the same).
    light: LightChange | None = None
    #: The roll under the empty board's light, when ``light`` changed it.
    unlit: Image | None = None

    @property
    def irregular(self) -> bool:
        """Whether the roll must be read as ``reroll``."""
        return len(self.dice) < self.expected_dice or any(d.irregular for d in self.dice)


def _board(rng: random.Random, markers: bool) -> tuple[Image, tuple[int, int, int]]:
    """The empty board, and the colour of its playing field (BGR)."""
    w, h = BOARD_SIZE
    wood = np.array([rng.randint(40, 70), rng.randint(80, 110), rng.randint(120, 160)], np.uint8)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = wood
    felt = (rng.randint(40, 90), rng.randint(90, 140), rng.randint(30, 70))
    light = (rng.randint(150, 190), rng.randint(190, 220), rng.randint(210, 240))
    dark = (rng.randint(30, 60), rng.randint(30, 60), rng.randint(110, 160))
    half_w = (w - 2 * _MARGIN - _BAR) // 2
    for half in (0, 1):
        x0 = _MARGIN + half * (half_w + _BAR)
        cv2.rectangle(img, (x0, _MARGIN), (x0 + half_w, h - _MARGIN), felt, cv2.FILLED)
        pw = half_w / 6
        for i in range(6):
            for top in (True, False):
                colour = light if (i + top) % 2 else dark
                xa, xb = x0 + i * pw, x0 + (i + 1) * pw
                base = _MARGIN if top else h - _MARGIN
                tip = base + (1 if top else -1) * 0.38 * (h - 2 * _MARGIN)
                pts = np.array([[xa, base], [xb, base], [(xa + xb) / 2, tip]], np.int32)
                cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    # Fine texture of felt and wood grain, so that the background is not flat.
    texture = np.empty((h, w), np.float32)
    cv2.setRNGSeed(rng.getrandbits(31))
    cv2.randn(texture, np.zeros(1), np.full(1, 3.0))
    img = narrow(cv2.convertScaleAbs(img.astype(np.float32) + cv2.merge([texture] * 3)),
                 np.uint8)
    if markers:
        for marker_id, (mx, my) in MARKER_CENTRES.items():
            _draw_marker(img, marker_id, mx, my)
    return img, felt


def _draw_marker(img: Image, marker_id: int, cx: float, cy: float) -> None:
    size = 24
    marker = marker_image(marker_id, size)
    x, y = round(cx - size / 2), round(cy - size / 2)
    # A white quiet zone around the marker, as a printed sticker has.
    cv2.rectangle(img, (x - 5, y - 5), (x + size + 4, y + size + 4), (255, 255, 255), cv2.FILLED)
    img[y : y + size, x : x + size] = marker[:, :, None]


def _checker_spots(rng: random.Random) -> list[tuple[float, float, float]]:
    spots = []
    for point in range(6):
        for top in (True, False):
            spots += _checker_stack(point, rng.choice((0, 0, 1, 2, 3)), top=top)
    return spots


def _checker_stack(point: int, count: int, *, top: bool = True, right: bool = True
                   ) -> list[tuple[float, float, float]]:
    """The spots (centre, radius) of ``count`` checkers stacked on ``point`` (0 to 5 from
    the left) of the board's right half (or left), far row (or near), as drawn."""
    w, h = BOARD_SIZE
    half_w = (w - 2 * _MARGIN - _BAR) // 2
    pw = half_w / 6
    r = pw * 0.46
    cx = _MARGIN + (half_w + _BAR if right else 0) + (point + 0.5) * pw
    return [(cx, _MARGIN + r + 2 * r * k if top else h - _MARGIN - r - 2 * r * k, r)
            for k in range(count)]


def _draw_checkers(img: Image, spots: list[tuple[float, float, float]], rng: random.Random) -> None:
    colours = ((225, 235, 240), (40, 40, 120))
    for i, (cx, cy, r) in enumerate(spots):
        colour = colours[(i * 7 + rng.randint(0, 1)) % 2]
        c = (round(cx * 4), round(cy * 4))
        rim = tuple(int(v * 0.7) for v in colour)
        cv2.circle(img, c, round(r * 4), rim, cv2.FILLED, cv2.LINE_AA, shift=2)
        cv2.circle(img, c, round(r * 3.2), colour, cv2.FILLED, cv2.LINE_AA, shift=2)


@dataclass(frozen=True, slots=True)
class DieLook:
    """What a die is made of: the plain colours of :data:`DIE_COLOURS`, or (the varied
    looks, :func:`varied_look`) marbled, translucent and glossy dice as real sets are."""

    face: tuple[int, int, int]
    pip: tuple[int, int, int]
    #: Marbled: veins of this colour swirl through the body.
    vein: tuple[int, int, int] | None = None
    #: Translucent: the share of the board seen through the body (the pips are opaque).
    clear: float = 0.0
    #: Gloss: the strength (0 to 1) of a highlight on the top face.
    glare: float = 0.0


def varied_look(rng: random.Random) -> DieLook:
    """A random die of any colour with pips of any colour, plain, marbled or translucent,
    some glossy: the training set's dice (the plain colours alone are too easy)."""
    def colour(value: tuple[float, float]) -> tuple[int, int, int]:
        hsv = np.array([[[rng.randrange(180), rng.randint(60, 255),
                          round(255 * rng.uniform(*value))]]], np.uint8)
        b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
        return b, g, r
    face = colour((0.12, 0.95)) if rng.random() < 0.8 else (rng.choice((30, 235)),) * 3
    bright = sum(face) / 3
    # Pips stand out by colour if not by brightness (red pips on a dark red die).
    pips = [p for p in _PIP_COLOURS if max(abs(a - b) for a, b in zip(p, face, strict=True)) > 90]
    pip = rng.choice(pips or [(240, 240, 240) if bright < 128 else (25, 25, 25)])
    kind = rng.random()
    vein = colour((0.3, 1.0)) if kind < 0.4 else None
    clear = rng.uniform(0.2, 0.5) if 0.4 <= kind < 0.65 else 0.0
    glare = rng.uniform(0.2, 0.8) if rng.random() < 0.4 else 0.0
    return DieLook(face, pip, vein, clear, glare)


def _marble(side: int, look: DieLook, rng: random.Random) -> Image:
    """A face's body: flat, or marbled with thin veins along a smooth random field."""
    body = np.empty((side, side, 3), np.uint8)
    body[:] = look.face
    if look.vein is None:
        return body
    cells = rng.randint(3, 6)
    field = np.random.default_rng(rng.getrandbits(32)).random((cells, cells), np.float32)
    field = narrow(cv2.resize(field, (side, side), interpolation=cv2.INTER_CUBIC), np.float32)
    bands = np.abs(np.sin(field * rng.uniform(6, 14)))
    weight = narrow(np.clip(1 - bands / rng.uniform(0.15, 0.4), 0, 1)[:, :, None], np.float32)
    return (body * (1 - weight) + np.array(look.vein, np.float32) * weight).astype(np.uint8)


def _face(value: int, side: int, body: Image, pip: tuple[int, int, int],
          pip_ratio: float) -> tuple[Image, Image]:
    """A die face (side x side pixels) on ``body``, pips of its value drawn at the
    canonical places, and the mask of the pips."""
    img = body.copy()
    pips = np.zeros((side, side), np.uint8)
    r = side * pip_ratio / 2
    for px, py in LAYOUTS[value]:
        c = (round((side / 2 + px * side / 2) * 4), round((side / 2 + py * side / 2) * 4))
        cv2.circle(img, c, round(r * 4), pip, cv2.FILLED, cv2.LINE_AA, shift=2)
        cv2.circle(pips, c, round(r * 4), 255, cv2.FILLED, cv2.LINE_AA, shift=2)
    return img, pips


def _gloss(top: Image, strength: float, rng: random.Random) -> Image:
    """A soft highlight where the light is reflected by the top face."""
    s = top.shape[0]
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    cx, cy, sigma = rng.uniform(0.2, 0.8) * s, rng.uniform(0.2, 0.8) * s, rng.uniform(0.1, 0.3) * s
    g = narrow(strength * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))[:, :, None],
               np.float32)
    return (top + (255 - top.astype(np.float32)) * g).astype(np.uint8)


_ADJACENT = {1: (2, 3, 4, 5), 2: (1, 3, 4, 6), 3: (1, 2, 5, 6), 4: (1, 2, 5, 6),
             5: (1, 3, 4, 6), 6: (2, 3, 4, 5)}


def _die_patch(value: int, side: float, angle: float, tilt: float, *, rng: random.Random,
               look: DieLook) -> tuple[Image, npt.NDArray[np.float32]]:
    """A rendered die (colour image and alpha), top face seen from above.

    ``tilt`` (radians) leans the die over one edge: the top face is foreshortened and a
    side face, with its own pips, comes into view.
    """
    s = round(side * _SS)
    pip_ratio = rng.uniform(0.15, 0.19)
    top, pips = _face(value, s, _marble(s, look, rng), look.pip, pip_ratio)
    # Light falls from one side: a gentle gradient on the face.
    grad = np.linspace(rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.1), s, dtype=np.float32)
    top = np.clip(top * grad[None, :, None], 0, 255).astype(np.uint8)
    if look.glare:
        top = _gloss(top, look.glare, rng)
    if tilt > 0:
        th = max(4, round(s * math.cos(tilt)))
        sh = max(4, round(s * math.sin(tilt)))
        top = narrow(cv2.resize(top, (s, th), interpolation=cv2.INTER_AREA), np.uint8)
        pips = narrow(cv2.resize(pips, (s, th), interpolation=cv2.INTER_AREA), np.uint8)
        side_face, side_pips = _face(rng.choice(_ADJACENT[value]), s, _marble(s, look, rng),
                                     look.pip, pip_ratio)
        shaded = cv2.resize(side_face, (s, sh), interpolation=cv2.INTER_AREA) * 0.7
        body = np.vstack([top, shaded.astype(np.uint8)])
        pips = np.vstack([pips, cv2.resize(side_pips, (s, sh), interpolation=cv2.INTER_AREA)])
    else:
        body = top
    bh, bw = body.shape[:2]
    alpha = np.zeros((bh, bw), np.uint8)
    rad = max(2, s // 9)
    cv2.rectangle(alpha, (rad, 0), (bw - 1 - rad, bh - 1), 255, cv2.FILLED)
    cv2.rectangle(alpha, (0, rad), (bw - 1, bh - 1 - rad), 255, cv2.FILLED)
    corners = ((rad, rad), (bw - 1 - rad, rad), (rad, bh - 1 - rad), (bw - 1 - rad, bh - 1 - rad))
    for cx, cy in corners:
        cv2.circle(alpha, (cx, cy), rad, 255, cv2.FILLED, cv2.LINE_AA)
    # Darker rim: the rounded edges of a real die catch less light.
    rim = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, s // 30))
    body = np.where((alpha > 0)[:, :, None] & (rim == 0)[:, :, None],
                    (body * 0.75).astype(np.uint8), body)
    if look.clear:  # the board shows through the body, not through the pips
        see = look.clear * (1 - pips.astype(np.float32) / 255)
        alpha = (alpha * (1 - see)).astype(np.uint8)
    size = round(math.hypot(bh, bw)) + 8
    canvas = np.zeros((size, size, 3), np.uint8)
    acanvas = np.zeros((size, size), np.uint8)
    oy, ox = (size - bh) // 2, (size - bw) // 2
    canvas[oy : oy + bh, ox : ox + bw] = body
    acanvas[oy : oy + bh, ox : ox + bw] = alpha
    m = cv2.getRotationMatrix2D((size / 2, size / 2), math.degrees(angle), 1.0)
    canvas = narrow(cv2.warpAffine(canvas, m, (size, size), flags=cv2.INTER_LINEAR), np.uint8)
    acanvas = narrow(cv2.warpAffine(acanvas, m, (size, size), flags=cv2.INTER_LINEAR),
                     np.uint8)
    return _shrunk(canvas, acanvas, size // _SS)


def _cube_patch(value: int, side: float, angle: float, look: CubeLook
                ) -> tuple[Image, npt.NDArray[np.float32]]:  # fmt: skip
    s = round(side * _SS)
    face = draw_face(value, s, look)
    # The rounded edges of the cube catch less light.
    rim = max(2, s // 14)
    face[:rim], face[-rim:] = face[:rim] * 0.75, face[-rim:] * 0.75
    face[:, :rim], face[:, -rim:] = face[:, :rim] * 0.75, face[:, -rim:] * 0.75
    size = round(s * 1.5)
    canvas = np.zeros((size, size, 3), np.uint8)
    acanvas = np.zeros((size, size), np.uint8)
    o = (size - s) // 2
    canvas[o : o + s, o : o + s] = face
    acanvas[o : o + s, o : o + s] = 255
    m = cv2.getRotationMatrix2D((size / 2, size / 2), math.degrees(angle), 1.0)
    canvas = narrow(cv2.warpAffine(canvas, m, (size, size)), np.uint8)
    acanvas = narrow(cv2.warpAffine(acanvas, m, (size, size)), np.uint8)
    return _shrunk(canvas, acanvas, size // _SS)


def _shrunk(canvas: Image, alpha: Image, size: int) -> tuple[Image, npt.NDArray[np.float32]]:
    """A supersampled patch and its alpha (0..255) at ``size`` pixels, the alpha as 0..1."""
    patch = narrow(cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA), np.uint8)
    small = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA)
    return patch, narrow(small.astype(np.float32) / 255, np.float32)


def cube_look(rng: random.Random) -> CubeLook:
    """A random cube: any of :data:`~vision._cube.FONTS`, stroke and italics, light digits
    on a dark face or dark on light, in colours."""
    font = rng.choice(FONTS)
    dark, light = rng.randint(10, 70), rng.randint(190, 250)
    tint = [rng.randint(-40, 40) for _ in range(3)]
    def shade(level: int) -> tuple[int, int, int]:
        b, g, r = (max(0, min(255, level + t)) for t in tint)
        return b, g, r
    face, ink = (shade(light), shade(dark)) if rng.random() < 0.7 else (shade(dark), shade(light))
    return CubeLook(font, rng.uniform(0.6, 1.6), rng.random() < 0.3, face, ink)


def _paste(img: npt.NDArray[np.float32], patch: Image, alpha: npt.NDArray[np.float32],
           centre: tuple[float, float], shadow: tuple[float, float]) -> Box:
    cx, cy = centre
    ph, pw = alpha.shape
    x, y = round(cx - pw / 2), round(cy - ph / 2)
    h, w = img.shape[:2]
    # The shadow first: a blurred, shifted copy of the die's outline darkens the board.
    sx, sy = x + round(shadow[0]), y + round(shadow[1])
    blur = cv2.GaussianBlur(alpha, (0, 0), max(1.0, pw / 12))
    _blend(img, np.zeros_like(patch), blur * 0.45, sx, sy)
    _blend(img, patch, alpha, x, y)
    ys, xs = np.nonzero(alpha > 0.5)
    box = (x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1)
    return (max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3]))


def _blend(img: npt.NDArray[np.float32], patch: Image, alpha: npt.NDArray[np.float32],
           x: int, y: int) -> None:
    h, w = img.shape[:2]
    ph, pw = alpha.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + pw), min(h, y + ph)
    if x0 >= x1 or y0 >= y1:
        return
    a = alpha[y0 - y : y1 - y, x0 - x : x1 - x, None]
    p = patch[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + p * a


def _field_right() -> tuple[float, float, float, float]:
    w, h = BOARD_SIZE
    half_w = (w - 2 * _MARGIN - _BAR) // 2
    return (_MARGIN + half_w + _BAR, _MARGIN, w - _MARGIN, h - _MARGIN)


def _field_left() -> tuple[float, float, float, float]:
    w, h = BOARD_SIZE
    half_w = (w - 2 * _MARGIN - _BAR) // 2
    return (_MARGIN, _MARGIN, _MARGIN + half_w, h - _MARGIN)


def render_roll(
    rng: random.Random,
    *,
    dice: int = 2,
    cocked: int = 0,
    off_half: int = 0,
    on_checker: int = 0,
    missing: int = 0,
    cube: tuple[int, str] | None = None,
    markers: bool = False,
    board_seed: int | None = None,
    varied: bool = False,
    thrower: str = "near",
    cube_look: CubeLook | None = None,
    cube_still: bool = False,
    light_change: float = 0.0,
    cast_shadow: bool = False,
) -> SyntheticRoll:
    """Render one roll of ``dice`` dice on a board view of :data:`BOARD_SIZE`.

    Args:
        rng: all the chance of the picture (pose, colours, light, blur, noise).
        dice: how many dice the roll has.
        cocked: how many of them lean on something (a side face is seen).
        off_half: how many landed on the wrong half of the board (the other half than
            their thrower's right-hand one).
        on_checker: how many lie on a checker.
        missing: how many fell off the board (are not drawn).
        cube: ``(value, side)`` to draw the doubling cube (side ``near``, ``far`` or
            ``centre``), or None.
        markers: print the four ArUco calibration markers in the board's corners.
        board_seed: draw the board and its checkers from this seed (the same board for
            a series of rolls), else from ``rng``.
        varied: each die of a look of its own (:func:`varied_look`: any colours, marbled,
            translucent, glossy), as in a box of odd dice; else one set of plain dice
            that stands out from the playing field, as a referee's set is.
        thrower: who throws (``vision.Thrower``'s values): the near player's dice land in
            the view's right half, the far player's in its left half, and in the opening
            roll (``both``) one die each in its thrower's half. Checkers stand in the
            view's right half only.
        cube_look: the cube's font and colours (:func:`cube_look` draws one at random);
            by default black digits on a white face.
        cube_still: the cube stands where it stood on the empty board too (it has not
            moved since the board was learnt).
        light_change: light the roll differently from its empty board, by up to this
            share (0.3: a gain of 0.7 to 1.3, smooth over the board): lamps and
            daylight change between the empty board and the roll (:class:`LightChange`).
        cast_shadow: a soft shadow band (a player's arm or body, a lamp's) lies across
            the roll, somewhere over the board (:func:`shadow_video` moves it).
    """
    board_rng = random.Random(board_seed) if board_seed is not None else rng
    board, felt = _board(board_rng, markers)
    spots = _checker_spots(board_rng)
    if on_checker and not spots:
        spots = [(_field_right()[0] + 30.0, _MARGIN + 30.0, 25.0)]
    _draw_checkers(board, spots, board_rng)
    img = board.astype(np.float32)
    side = rng.uniform(26, 34)
    shadow = (rng.uniform(-4, 4), rng.uniform(1, 5))
    kinds = ["cocked"] * cocked + ["flat"] * (dice - cocked)
    own = _throw_halves(thrower, dice)
    other = {"left": "right", "right": "left"}
    places = [other[half] for half in own[:off_half]] + ["checker"] * on_checker
    places += own[len(places):]
    rng.shuffle(places)
    wrong = _wrong_halves(thrower, places)
    placed: list[tuple[float, float]] = []
    truth = []
    # Dice are chosen to stand out from the playing field, as a referee's set is: a
    # green die on green felt shows only its pips.
    look = DieLook(*rng.choice([c for c in DIE_COLOURS
                                if max(abs(a - b) for a, b in zip(c[0], felt, strict=True)) > 70]))
    for i in range(dice - missing):
        value = rng.randint(1, 6)
        tilt = math.radians(rng.uniform(22, 38)) if kinds[i] == "cocked" else 0.0
        patch, alpha = _die_patch(value, side, rng.uniform(0, 2 * math.pi), tilt, rng=rng,
                                  look=varied_look(rng) if varied else look)
        cx, cy = _free_spot(rng, places[i], spots, placed, side)
        placed.append((cx, cy))
        box = _paste(img, patch, alpha, (cx, cy), shadow)
        truth.append(SyntheticDie(value, box, kinds[i], off_half=wrong[i],
                                  on_checker=places[i] == "checker"))
    under = board.astype(np.float32)
    if cube is not None:
        patch, alpha = _cube_patch(cube[0], side * 1.3, rng.uniform(-0.4, 0.4),
                                   cube_look or CubeLook())
        _paste(img, patch, alpha, _cube_spot(cube[1]), shadow)
        if cube_still:
            _paste(under, patch, alpha, _cube_spot(cube[1]), shadow)
    light = _random_light(rng)
    image = _camera(img, light, rng)
    background = _camera(under, light, rng)
    roll = SyntheticRoll(image, background, tuple(truth), dice, cube)
    if not light_change and not cast_shadow:
        return roll
    # Drawn last: the same seed renders the same roll, relit or not.
    change = LightChange.random(rng, amount=light_change, shadow=cast_shadow)
    return replace(roll, image=change.apply(image), light=change, unlit=image)


def _cube_spot(side: str) -> tuple[float, float]:
    """Where the cube stands: in the middle of the bar, or on the board's frame by its
    owner's side (``near`` or ``far``), clear of the dice."""
    w, h = BOARD_SIZE
    cy = {"far": h * 0.3, "near": h * 0.7, "centre": h / 2}[side]
    return (w / 2 if side == "centre" else _MARGIN / 2), cy


def place_cube(image: Image, value: int, side: str, rng: random.Random, *,
               look: CubeLook | None = None, size: float = 39.0) -> Image:
    """``image`` (a board view) with the cube showing ``value`` put at ``side`` (``near``,
    ``far`` or ``centre``): the simulated players turning and moving the cube."""
    img = image.astype(np.float32)
    patch, alpha = _cube_patch(value, size, rng.uniform(-0.4, 0.4), look or CubeLook())
    _paste(img, patch, alpha, _cube_spot(side), (rng.uniform(-4, 4), rng.uniform(1, 5)))
    return narrow(cv2.convertScaleAbs(img), np.uint8)


def _throw_halves(thrower: str, dice: int) -> list[str]:
    """The half of the board view each die of a throw belongs in (see :func:`render_roll`)."""
    if thrower == "near":
        return ["right"] * dice
    if thrower == "far":
        return ["left"] * dice
    if thrower == "both":
        return [("right", "left")[i % 2] for i in range(dice)]
    raise ValueError(f"invalid thrower {thrower!r}: expected near, far or both")


def _wrong_halves(thrower: str, places: list[str]) -> list[bool]:
    """Whether each die's place breaks the right-hand-half rule for ``thrower``."""
    if thrower == "both":
        crowded = places.count("right") > 1 or places.count("left") > 1
        return [crowded and place != "checker" for place in places]
    own = _throw_halves(thrower, 1)[0]
    return [place not in (own, "checker") for place in places]


def _free_spot(rng: random.Random, place: str, spots: list[tuple[float, float, float]],
               placed: list[tuple[float, float]], side: float) -> tuple[float, float]:
    if place == "checker":
        cx, cy, _r = rng.choice(spots)
        return cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)
    x1, y1, x2, y2 = _field_right() if place == "right" else _field_left()
    pad = side * 0.9
    for _ in range(200):
        cx, cy = rng.uniform(x1 + pad, x2 - pad), rng.uniform(y1 + pad, y2 - pad)
        clear_dice = all(math.hypot(cx - px, cy - py) > side * 1.9 for px, py in placed)
        clear_checkers = all(math.hypot(cx - sx, cy - sy) > r + side for sx, sy, r in spots)
        if clear_dice and (clear_checkers or place == "left"):
            return cx, cy
    return cx, cy


@dataclass(frozen=True, slots=True)
class _Light:
    gain: float
    slope: float
    glare_x: float
    glare_y: float
    blur: float


def _random_light(rng: random.Random) -> _Light:
    w, h = BOARD_SIZE
    return _Light(rng.uniform(0.75, 1.15), rng.uniform(-0.2, 0.2), rng.uniform(0, w),
                  rng.uniform(0, h), rng.uniform(0, 0.7))


def _camera(img: npt.NDArray[np.float32], light: _Light, rng: random.Random) -> Image:
    """Light, glare, blur and sensor noise of a camera, applied to a float image."""
    h, w = img.shape[:2]
    # The light field is smooth: computed coarse, then interpolated (rendering speed).
    sh, sw = h // 8, w // 8
    xs = np.linspace(-0.5, 0.5, sw, dtype=np.float32)
    gain = light.gain * (1 + light.slope * xs)[None, :] * np.ones((sh, 1), np.float32)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8
    d2 = (xx - light.glare_x) ** 2 + (yy - light.glare_y) ** 2
    glare = (40 * np.exp(-d2 / (2 * 60.0**2))).astype(np.float32)
    gain_full = cv2.resize(gain, (w, h))
    glare_full = cv2.resize(glare, (w, h))
    out = img * cv2.merge([gain_full] * 3) + cv2.merge([glare_full] * 3)
    if light.blur > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    noise = np.empty(out.shape, np.float32)
    cv2.setRNGSeed(rng.getrandbits(31))
    # On the first channel only, as OpenCV draws for a scalar (the rolls as rendered).
    cv2.randn(noise, np.zeros(3), np.array([3.0, 0.0, 0.0]))
    return narrow(cv2.convertScaleAbs(out + noise), np.uint8)


@dataclass(frozen=True, slots=True)
class LightChange:
    """How the room's light over a roll differs from the empty board's the reader learnt.

    Lamps, daylight and a player's shadow change between the empty board and every roll:
    a gain smooth over the board (its factor at the four corners, bilinear in between)
    and a soft shadow band (an arm, a body, a lamp's) that may lie across it.
    """

    corners: tuple[float, float, float, float]
    """The gain at the top-left, top-right, bottom-right and bottom-left corners."""
    shadow: float = 0.0
    """The share of the light the shadow band takes (0: no band)."""
    angle: float = 0.0
    """The direction of the band across the board (radians, 0: vertical)."""
    width: float = 120.0
    """The band's width (pixels of the board view)."""
    softness: float = 12.0
    """The scale of its edges (pixels): a shadow cast from afar is soft."""
    at: float = 0.5
    """Where the band is: from 0 (just off the board on one side) to 1 (off the other)."""

    @classmethod
    def random(cls, rng: random.Random, *, amount: float = 0.3,
               shadow: bool = True) -> LightChange:
        """A change of up to ``amount`` (0.3: gains 0.7 to 1.3), with a shadow band or not."""
        corners = (rng.uniform(1 - amount, 1 + amount), rng.uniform(1 - amount, 1 + amount),
                   rng.uniform(1 - amount, 1 + amount), rng.uniform(1 - amount, 1 + amount))
        if not shadow:
            return cls(corners)
        return cls(corners, shadow=rng.uniform(0.25, 0.5), angle=rng.uniform(-0.6, 0.6),
                   width=rng.uniform(60, 200), softness=rng.uniform(6, 24),
                   at=rng.uniform(0.3, 0.7))

    def moved(self, at: float) -> LightChange:
        """The same light with the shadow band elsewhere (``at`` as :attr:`at`)."""
        return replace(self, at=at)

    def field(self, size: tuple[int, int]) -> npt.NDArray[np.float32]:
        """The factor on the light at each pixel of an image of ``size`` (width, height)."""
        w, h = size
        tl, tr, br, bl = self.corners
        u = np.linspace(0, 1, w, dtype=np.float32)[None, :]
        v = np.linspace(0, 1, h, dtype=np.float32)[:, None]
        gain = (tl * (1 - u) + tr * u) * (1 - v) + (bl * (1 - u) + br * u) * v
        if not self.shadow:
            return gain.astype(np.float32)
        # Signed distance of each pixel from the band's centre line.
        reach = math.hypot(w, h) / 2 + self.width / 2 + 6 * self.softness
        offset = (2 * self.at - 1) * reach
        xs = np.arange(w, dtype=np.float32)[None, :] - w / 2
        ys = np.arange(h, dtype=np.float32)[:, None] - h / 2
        d = narrow(xs * math.cos(self.angle) + ys * math.sin(self.angle) - offset, np.float32)
        half = self.width / 2
        band = (_sigmoid((d + half) / self.softness) - _sigmoid((d - half) / self.softness))
        return (gain * (1 - self.shadow * band)).astype(np.float32)

    def apply(self, image: Image) -> Image:
        """``image`` (taken under the empty board's light) under this light."""
        h, w = image.shape[:2]
        lit = image.astype(np.float32) * self.field((w, h))[:, :, None]
        return narrow(cv2.convertScaleAbs(lit), np.uint8)


def _sigmoid(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(1 / (1 + np.exp(-np.clip(x, -30, 30))), np.float32)


def shadow_video(roll: SyntheticRoll, frames: int, *, start: float = 0.0, end: float = 1.0,
                 empty: bool = False) -> list[Image]:
    """The roll under its changed light with the shadow band moving from ``start`` to
    ``end`` (as :attr:`LightChange.at`: 0 and 1 just off the board either side) in even
    steps over ``frames`` frames; ``empty``: the board after the dice were lifted.

    Raises:
        ValueError: the roll was rendered without a light change, or ``frames`` < 1.
    """
    if roll.light is None or roll.unlit is None:
        raise ValueError("the roll has no light change: render it with light_change or "
                         "cast_shadow")
    if frames < 1:
        raise ValueError(f"invalid frames {frames!r}: expected at least 1")
    scene = roll.background if empty else roll.unlit
    steps = [start + (end - start) * k / max(1, frames - 1) for k in range(frames)]
    return [roll.light.moved(at).apply(scene) for at in steps]


def with_clutter(roll: SyntheticRoll, rng: random.Random, count: int, *,
                 on_frame: bool = False) -> SyntheticRoll:
    """The roll with ``count`` things put down since the board was learnt, about a die's
    size (coins, chips, scraps of paper, spare dice): on the playing field, or on the
    board's frame around it (``on_frame``).
    """
    image = roll.image.astype(np.float32)
    w, h = BOARD_SIZE
    for _ in range(count):
        side = rng.uniform(20, 34)
        if on_frame:
            edge = rng.choice(("top", "bottom", "left", "right"))
            cx = rng.uniform(side, w - side) if edge in ("top", "bottom") else (
                _MARGIN / 2 if edge == "left" else w - _MARGIN / 2)
            cy = rng.uniform(side, h - side) if edge in ("left", "right") else (
                _MARGIN / 2 if edge == "top" else h - _MARGIN / 2)
        else:
            cx = rng.uniform(_MARGIN + side, w - _MARGIN - side)
            cy = rng.uniform(_MARGIN + side, h - _MARGIN - side)
        kind = rng.random()
        if kind < 0.4:  # a spare die
            patch, alpha = _die_patch(rng.randint(1, 6), side, rng.uniform(0, 2 * math.pi),
                                      0.0, rng=rng, look=varied_look(rng))
            _paste(image, patch, alpha, (cx, cy), (2.0, 2.0))
            continue
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        if kind < 0.7:
            cv2.circle(image, (round(cx), round(cy)), round(side / 2), colour, cv2.FILLED,
                       cv2.LINE_AA)
        else:
            corners = cv2.boxPoints(((cx, cy), (side, side * rng.uniform(0.6, 1.0)),
                                     rng.uniform(0, 90)))
            cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), colour, cv2.LINE_AA)
    return replace(roll, image=narrow(cv2.convertScaleAbs(image), np.uint8))

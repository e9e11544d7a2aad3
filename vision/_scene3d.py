"""A synthetic oblique camera: dice as real cubes on the board, seen by a pinhole camera.

:func:`vision.render_roll` draws the board view itself, as a camera straight over the
board would see it. Many users put a webcam on a stand at the table's edge instead: then
the dice are cubes whose side faces show, and things on the table beyond the board's edge
are in the frame. This renderer builds that scene in 3-D and projects it with perspective,
so the reader's geometry is tested against a camera it does not know.

World coordinates are board-view pixels: X and Y as in the board view (:data:`BOARD_SIZE`),
Z pointing *into* the board (right-handed), so heights above it are negative Z. The board
view's texture (with its ArUco markers) lies on Z = 0.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision._arrays import Image, narrow
from vision._calibration import BOARD_SIZE, Calibration
from vision._synth import (
    _ADJACENT,
    DIE_COLOURS,
    SyntheticDie,
    _board,
    _camera,
    _checker_spots,
    _draw_checkers,
    _face,
    _free_spot,
    _random_light,
)

Floats = npt.NDArray[np.float64]

#: The camera frame's size (width, height): an HD webcam (at 640 x 480, the markers of
#: a board seen at 45-60 degrees are too few pixels to decode).
FRAME_SIZE: tuple[int, int] = (1280, 720)
_TEXTURE = 64  # pixels of a die face's texture
_WALL = (70, 80, 90)  # what is seen beyond the table (BGR)


@dataclass(frozen=True, slots=True)
class PinholeCamera:
    """A camera's pose and lens: ``x_cam = rotation @ X + translation``, then ``focal``
    pixels per unit of depth about the frame's centre (square pixels)."""

    rotation: tuple[tuple[float, float, float], ...]
    translation: tuple[float, float, float]
    focal: float
    frame_size: tuple[int, int] = FRAME_SIZE
    #: Degrees from vertical.
    tilt: float = 0.0

    @property
    def intrinsics(self) -> Floats:
        """The 3 x 3 camera matrix (principal point at the frame's centre)."""
        w, h = self.frame_size
        return np.array([[self.focal, 0, w / 2], [0, self.focal, h / 2], [0, 0, 1]])

    @property
    def centre(self) -> Floats:
        """Where the camera is, in world coordinates."""
        r = np.array(self.rotation)
        return np.asarray(-r.T @ np.array(self.translation), dtype=np.float64)

    def project(self, points: Floats) -> Floats:
        """N x 3 world points to N x 2 frame pixels."""
        cam = points @ np.array(self.rotation).T + np.array(self.translation)
        pix = cam @ self.intrinsics.T
        return np.asarray(pix[:, :2] / pix[:, 2:3], dtype=np.float64)

    def board_to_frame(self) -> Floats:
        """The homography from the board plane (Z = 0) to the frame."""
        r = np.array(self.rotation)
        return np.asarray(self.intrinsics @ np.column_stack([r[:, 0], r[:, 1],
                                                              self.translation]))

    def calibration(self) -> Calibration:
        """The calibration this camera's own homography gives: what :func:`calibrate` on
        its empty board measures, exactly (the training's board views; the true tops)."""
        to_board = np.linalg.inv(self.board_to_frame())
        rows = tuple((float(a), float(b), float(c)) for a, b, c in to_board)
        return Calibration(rows, BOARD_SIZE, self.frame_size)


def look_at_board(tilt: float, azimuth: float, distance: float, *,
                  target: tuple[float, float] | None = None,
                  frame_size: tuple[int, int] = FRAME_SIZE, fill: float = 0.9) -> PinholeCamera:
    """A camera ``distance`` from ``target`` (default the board's centre), ``tilt`` degrees
    from vertical, on the side of the board given by ``azimuth`` (degrees: 90 is player
    1's edge, the board view's bottom), its focal length chosen so that the board fills
    ``fill`` of the frame.
    """
    w, h = BOARD_SIZE
    tx, ty = target if target is not None else (w / 2, h / 2)
    theta, phi = math.radians(tilt), math.radians(azimuth)
    away = np.array([math.cos(phi), math.sin(phi), 0.0])  # from the board to the camera
    centre = np.array([tx, ty, 0.0]) + distance * np.array(
        [math.sin(theta) * away[0], math.sin(theta) * away[1], -math.cos(theta)])
    forward = np.array([tx, ty, 0.0]) - centre
    forward /= np.linalg.norm(forward)
    # The image's "down" is toward the camera's own edge of the board (far side on top).
    down = away - (away @ forward) * forward
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    rotation = np.stack([right, down, forward])
    translation = -rotation @ centre
    corners = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], np.float64)
    cam = corners @ rotation.T + translation
    spread = np.abs(cam[:, :2] / cam[:, 2:3])  # at a focal length of 1
    fw, fh = frame_size
    focal = fill * min(fw / 2 / spread[:, 0].max(), fh / 2 / spread[:, 1].max())
    rows = tuple((float(r[0]), float(r[1]), float(r[2])) for r in rotation)
    return PinholeCamera(rows,
                         (float(translation[0]), float(translation[1]), float(translation[2])),
                         float(focal), frame_size, tilt)


@dataclass(frozen=True, slots=True)
class _Solid:
    """A convex solid: its faces (world polygons) and each face's look."""

    faces: tuple[Floats, ...]
    textures: tuple[Image, ...]


@dataclass(frozen=True, slots=True)
class ObliqueRoll:
    """A rendered roll seen at an angle: the camera frame, the empty board under the same
    camera and light, the truth (each die's box is where it stands in the board view),
    and the camera."""

    image: Image
    background: Image
    dice: tuple[SyntheticDie, ...]
    expected_dice: int
    camera: PinholeCamera
    #: Each die's top face (the value's face, tilted with a leaning die): its four world
    #: corners, 4 x 3. What the reader reads, wherever the camera sees it.
    tops: tuple[Floats, ...] = ()

    def tops_in_view(self) -> list[Floats]:
        """Each die's top face as the board view shows it (4 x 2 pixels): its corners
        seen by the camera, taken back to the board plane by the board's homography."""
        to_board = self.camera.calibration().matrix
        out = []
        for top in self.tops:
            seen = cv2.perspectiveTransform(self.camera.project(top)[None], to_board)
            out.append(np.asarray(seen[0], dtype=np.float64))
        return out


def _die_faces(value: int, rng: random.Random) -> list[int]:
    """The values of a die's faces in the order top, +X, +Y, bottom, -X, -Y: opposite
    faces sum to 7, the four sides around the top in a real die's cyclic order."""
    east = rng.choice(_ADJACENT[value])
    south = next(v for v in range(1, 7) if v not in (value, 7 - value, east, 7 - east))
    return [value, east, south, 7 - value, 7 - east, 7 - south]


def _cube(centre: tuple[float, float], side: float, yaw: float, lean: float,
          ) -> list[Floats]:
    """The six faces of a cube standing on the board (top, +X, +Y, bottom, -X, -Y in the
    die's frame), turned by ``yaw`` and leant by ``lean`` radians over its +X bottom edge."""
    h = side / 2
    # Unit-cube corners in the die's frame, Z into the board: the top is at Z = -side.
    corner = {(sx, sy, sz): np.array([sx * h, sy * h, -h + sz * h])
              for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)}
    quads = [
        [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1)],  # top (Z = -side)
        [(1, -1, -1), (1, -1, 1), (1, 1, 1), (1, 1, -1)],  # +X
        [(1, 1, -1), (1, 1, 1), (-1, 1, 1), (-1, 1, -1)],  # +Y
        [(-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)],  # bottom
        [(-1, 1, -1), (-1, 1, 1), (-1, -1, 1), (-1, -1, -1)],  # -X
        [(-1, -1, -1), (-1, -1, 1), (1, -1, 1), (1, -1, -1)],  # -Y
    ]
    c, s = math.cos(lean), math.sin(lean)
    # Leaning over the +X bottom edge (x = h, z = h): a turn about that edge's line.
    tip = np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]])
    pivot = np.array([h, 0, h])
    cy, sy = math.cos(yaw), math.sin(yaw)
    turn = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    shift = np.array([centre[0], centre[1], 0.0])
    out = []
    for quad in quads:
        pts = np.array([corner[k] for k in quad])
        pts = (pts - pivot) @ tip.T + pivot
        out.append(pts @ turn.T + shift)
    return out


def _outward(face: Floats, inside: Floats) -> Floats:
    """The unit normal of a face pointing away from a point inside its solid."""
    n = np.cross(face[1] - face[0], face[2] - face[0])
    n /= np.linalg.norm(n)
    return np.asarray(n if n @ (face.mean(axis=0) - inside) > 0 else -n, dtype=np.float64)


def _die_textures(values: list[int], look: tuple[tuple[int, int, int], tuple[int, int, int]],
                  rng: random.Random) -> list[Image]:
    face_colour, pip = look
    pip_ratio = rng.uniform(0.15, 0.19)
    out = []
    for value in values:
        body = np.empty((_TEXTURE, _TEXTURE, 3), np.uint8)
        body[:] = face_colour
        tex, _pips = _face(value, _TEXTURE, body, pip, pip_ratio)
        # The rounded edges of a real die catch less light.
        edge = np.ones((_TEXTURE, _TEXTURE), np.float32)
        e = _TEXTURE // 14
        edge[:e, :] = edge[-e:, :] = edge[:, :e] = edge[:, -e:] = 0.8
        out.append(np.rot90(tex * edge[:, :, None], rng.randrange(4)).astype(np.uint8).copy())
    return out


def _flat(colour: tuple[int, int, int]) -> Image:
    tex = np.empty((4, 4, 3), np.uint8)
    tex[:] = colour
    return tex


def _prism(base: Floats, height: float, top: tuple[int, int, int],
           sides: tuple[int, int, int]) -> _Solid:
    """A vertical prism on the table over a convex polygon ``base`` (N x 2, clockwise in
    the board view's axes), ``height`` tall: a phone, a mug, a book."""
    n = len(base)
    low = np.column_stack([base, np.zeros(n)])
    high = np.column_stack([base, np.full(n, -height)])
    faces = [high[::-1].copy()]
    textures = [_flat(top)]
    for i in range(n):
        j = (i + 1) % n
        faces.append(np.array([high[j], high[i], low[i], low[j]]))
        textures.append(_flat(sides))
    return _Solid(tuple(faces), tuple(textures))


def _clutter(rng: random.Random, camera: PinholeCamera) -> list[_Solid]:
    """A mug, a phone and a book on the table beyond the board's edges, on the far side
    of the board from the camera (nearer, they would hide the board)."""
    w, h = BOARD_SIZE
    foot = camera.centre[:2] - (w / 2, h / 2)
    spots = [(-100.0, y) for y in (60.0, h / 2, h - 60.0)] + [
        (w + 100.0, y) for y in (60.0, h / 2, h - 60.0)] + [
        (x, y) for x in (120.0, w / 2, w - 120.0) for y in (-110.0, h + 110.0)]
    far = [p for p in spots if (p[0] - w / 2) * foot[0] + (p[1] - h / 2) * foot[1] < 0]
    rng.shuffle(far)
    (mx, my), (px, py), (bx, by) = far[:3]
    angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
    ring = np.column_stack([mx + 45 * np.cos(angles), my - 45 * np.sin(angles)])
    out = [_prism(ring, rng.uniform(90, 130), (30, 40, 50), (200, 200, 210))]
    for (x, y), half, height, top, sides in (
            ((px, py), (35, 75), 9, (15, 15, 15), (90, 90, 90)),  # a phone
            ((bx, by), (80, 55), 30, (40, 60, 150), (220, 230, 235))):  # a book
        turn = rng.uniform(-0.5, 0.5)
        c, s = math.cos(turn), math.sin(turn)
        rect = np.array([[-half[0], -half[1]], [-half[0], half[1]], [half[0], half[1]],
                         [half[0], -half[1]]], np.float64)
        out.append(_prism(rect @ np.array([[c, s], [-s, c]]) + [x, y], height, top, sides))
    return out


def _warp_into(img: npt.NDArray[np.float32], texture: Image, quad: Floats,
               shade: float) -> None:
    """Draw a texture onto a convex quadrilateral of the frame (its corners in the
    texture's order: top-left, top-right, bottom-right, bottom-left)."""
    fh, fw = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(fw, x1), min(fh, y1)
    if x0 >= x1 or y0 >= y1:
        return
    th, tw = texture.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    size = (x1 - x0, y1 - y0)
    colour = cv2.warpPerspective(texture.astype(np.float32) * shade, m, size,
                                 flags=cv2.INTER_LINEAR)
    # The coverage is warped at four times the resolution: anti-aliased edges.
    ones = np.ones((th * 4, tw * 4), np.float32)
    m4 = cv2.getPerspectiveTransform(src * 4, dst)
    alpha = cv2.warpPerspective(ones, m4, size, flags=cv2.INTER_AREA)[:, :, None]
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - alpha) + colour * alpha


def _fill(img: npt.NDArray[np.float32], polygon: Floats, colour: tuple[int, int, int],
          shade: float) -> None:
    """A flat convex polygon of the frame, anti-aliased."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(polygon * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    alpha = (mask.astype(np.float32) / 255)[:, :, None]
    img[:] = img * (1 - alpha) + np.array(colour, np.float32) * shade * alpha


def _draw(img: npt.NDArray[np.float32], solid: _Solid, camera: PinholeCamera,
          light: Floats) -> None:
    """A convex solid: only the faces turned to the camera (back-face culling)."""
    eye = camera.centre
    inside = np.vstack(solid.faces).mean(axis=0)
    for face, texture in zip(solid.faces, solid.textures, strict=True):
        normal = _outward(face, inside)
        if normal @ (eye - face.mean(axis=0)) <= 0:
            continue
        shade = 0.45 + 0.6 * max(0.0, float(normal @ light))
        quad = camera.project(face)
        if len(face) == 4:
            _warp_into(img, texture, quad, shade)
        else:
            b, g, r = (int(v) for v in texture[0, 0])
            _fill(img, quad, (b, g, r), shade)


def _shadow(img: npt.NDArray[np.float32], solid: _Solid, camera: PinholeCamera,
            light: Floats) -> None:
    """The solid's shadow on the board plane, softened (drawn before the solids)."""
    points = np.vstack(solid.faces)
    on_plane = points - (points[:, 2:3] / light[2]) * light
    hull = cv2.convexHull(camera.project(on_plane).astype(np.float32))
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    mask = narrow(cv2.GaussianBlur(mask, (0, 0), 2.0), np.float32)
    img *= (1 - 0.4 * mask)[:, :, None]


def _table(rng: random.Random, to_frame: Floats, frame_size: tuple[int, int]) -> Image:
    """The table top around the board (a wood plane twice the board's size each way),
    and the wall beyond it."""
    w, h = BOARD_SIZE
    grain = np.array([rng.randint(60, 110), rng.randint(90, 140), rng.randint(120, 170)],
                     np.float32)
    rows = np.random.default_rng(rng.getrandbits(32)).normal(0, 8, (3 * h, 1)).astype(np.float32)
    # The grain runs along the table.
    rows = narrow(cv2.GaussianBlur(rows, (1, 0), 2), np.float32)
    texture = np.clip(grain[None, None, :] + rows[:, :, None], 0, 255).astype(np.uint8)
    texture = np.ascontiguousarray(np.broadcast_to(texture, (3 * h, 3 * w, 3)))
    shift = np.array([[1, 0, -w], [0, 1, -h], [0, 0, 1]], np.float64)
    return narrow(cv2.warpPerspective(texture, to_frame @ shift, frame_size,
                                      flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                      borderValue=_WALL), np.uint8)


def render_oblique(
    rng: random.Random,
    *,
    tilt: float,
    dice: int = 2,
    cocked: int = 0,
    clutter: bool = False,
    azimuth: float | None = None,
    frame_size: tuple[int, int] = FRAME_SIZE,
) -> ObliqueRoll:
    """Render a roll of ``dice`` dice on the board's right-hand half, seen by a camera
    ``tilt`` degrees from vertical at the table's edge.

    Args:
        rng: all the chance of the picture (camera, board, dice, light, noise).
        tilt: the camera's angle from vertical, degrees (0 is straight over the board).
        dice: how many dice the roll has.
        cocked: how many of them lean (22 to 38 degrees, over one bottom edge).
        clutter: put a mug, a phone and a book on the table beyond the board's edges in
            the roll's frame (not in the empty board's: they came after it was learnt).
        azimuth: the camera's side of the board (degrees, 90 = player 1's edge); default
            anywhere within 50 degrees of either player's edge.
        frame_size: the camera frame's size.
    """
    if azimuth is None:
        azimuth = rng.choice((90.0, 270.0)) + rng.uniform(-50, 50)
    w, h = BOARD_SIZE
    camera = look_at_board(tilt, azimuth, rng.uniform(900, 1300),
                           target=(w / 2 + rng.uniform(-40, 40), h / 2 + rng.uniform(-30, 30)),
                           frame_size=frame_size, fill=rng.uniform(0.8, 0.95))
    to_frame = camera.board_to_frame()
    board, felt = _board(rng, True)
    spots = _checker_spots(rng)
    _draw_checkers(board, spots, rng)
    table = _table(rng, to_frame, frame_size)
    empty = cv2.warpPerspective(board, to_frame, frame_size, dst=table.copy(),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    light = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), -1.0])
    light /= np.linalg.norm(light)
    look = rng.choice([c for c in DIE_COLOURS
                       if max(abs(a - b) for a, b in zip(c[0], felt, strict=True)) > 70])
    side = rng.uniform(26, 34)
    solids: list[_Solid] = []
    truth = []
    tops: list[Floats] = []
    placed: list[tuple[float, float]] = []
    for i in range(dice):
        value = rng.randint(1, 6)
        cx, cy = _free_spot(rng, "right", spots, placed, side * 1.2)
        placed.append((cx, cy))
        lean = math.radians(rng.uniform(22, 38)) if i < cocked else 0.0
        faces = _cube((cx, cy), side, rng.uniform(0, math.pi / 2), lean)
        values = _die_faces(value, rng)
        solids.append(_Solid(tuple(faces), tuple(_die_textures(values, look, rng))))
        foot = np.vstack(faces)[:, :2]
        box = (math.floor(foot[:, 0].min()), math.floor(foot[:, 1].min()),
               math.ceil(foot[:, 0].max()), math.ceil(foot[:, 1].max()))
        truth.append(SyntheticDie(value, box, "cocked" if lean else "flat"))
        tops.append(faces[0])
    img = empty.astype(np.float32)
    if clutter:
        solids += _clutter(rng, camera)
    for solid in solids:
        _shadow(img, solid, camera, light)
    eye = camera.centre
    # Painter's order: the farthest solid first.
    for solid in sorted(solids, key=lambda s: -float(np.linalg.norm(
            np.vstack(s.faces).mean(axis=0) - eye))):
        _draw(img, solid, camera, light)
    frame_light = _random_light(rng)
    image = _camera(img, frame_light, rng)
    background = _camera(empty.astype(np.float32), frame_light, rng)
    return ObliqueRoll(image, background, tuple(truth), dice, camera, tuple(tops))

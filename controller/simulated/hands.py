"""The simulated players' hands before the camera: rolls shown, the cube placed, a hand
passing over the dice, a player leaning over the board; and what they did, counted.

Why apart from the players' decisions (:mod:`controller.simulated.table`): what the
camera is shown, and when the watcher has taken it in, is the same whatever the game
(backgammon or Jacquet); the players' turns are not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.simulated.camera import TableCamera

if TYPE_CHECKING:
    from vision import Image

__all__ = ["DriverCounts", "TableHands"]

CUBE_IMAGES_KEPT = 2
"""How many images with the cube placed a :class:`TableHands` keeps."""


@dataclass(slots=True)
class DriverCounts:
    """What the simulated players did."""

    games: int = 0
    turns: int = 0
    illegal: int = 0
    accepted: int = 0
    demanded: int = 0
    cocked: int = 0
    misread: int = 0
    """Flat rolls the camera called irregular (rolled again, as the referee asks). The
    pool's rolls were read right by the same reader: none is expected."""
    doubles: int = 0
    drops: int = 0
    cube_left: int = 0
    """Takes after which the taker left the cube where it was (the camera must say so)."""
    cube_pointed_out: int = 0
    """Cubes left where they were that the service pointed out (within 3 rolls; a game
    may end first)."""
    hits: int = 0
    bar_entries: int = 0
    bear_offs: int = 0
    hands: int = 0
    """Hands passed over dice that stayed put."""
    leans: int = 0
    """Players leaning over the board mid-play, held still for a few frames."""


class TableHands:
    """The players' hands in front of ``camera`` (the base of the table's drivers).

    Args:
        camera: the camera the players roll in front of.
        hands: the hands' own chance (what the players decide stays as their ``rng``
            makes it).
        hand_rate: the share of rolls read after which a hand passes over the dice, and
            of plays during which the player leans over the board.
        echo: prints a line about each turn (the demo), or None.
        stall_s: how long a wait for the watcher goes on while it reads nothing.
    """

    def __init__(
        self,
        camera: TableCamera,
        *,
        hands: random.Random,
        hand_rate: float,
        echo: Callable[[str], None] | None,
        stall_s: float,
    ) -> None:
        self.camera = camera
        #: The cube on the table (its face and side) as the camera sees it, or None.
        self.cube_at: tuple[int, str] | None = None
        #: The last images shown with the cube placed, each with the image it was drawn
        #: on: the least recently shown first.
        self._with_cube: list[tuple[Image, Image]] = []
        self.hand_rate = hand_rate
        self._hands = hands
        self.echo = echo
        self.stall_s = stall_s
        self.counts = DriverCounts()

    async def show(self, image: Image, frames: int = 4) -> None:
        """Show ``image`` (and the cube where it stands) to the camera and wait until the
        watcher has taken it in."""
        self.camera.show(self._cube_on(image))
        await self.camera.taken_in(frames, stall_s=self.stall_s)

    def _cube_on(self, image: Image) -> Image:
        """``image`` with the cube where the players put it: the same each time until the
        cube is moved.

        Only the last :data:`CUBE_IMAGES_KEPT` are kept (the empty board and the roll on
        it): one for each of the pool's rolls held 28 MB, a fifth of a board's memory, to
        save a 3 ms drawing on half the rolls.
        """
        if self.cube_at is None:
            return image
        drawn = next((kept for shown, kept in self._with_cube if shown is image), None)
        if drawn is None:
            from vision._synth import place_cube

            value, side = self.cube_at
            drawn = place_cube(image, value, side, random.Random(value * 7 + len(side)))
        others = [pair for pair in self._with_cube if pair[0] is not image]
        self._with_cube = [*others[len(others) + 1 - CUBE_IMAGES_KEPT :], (image, drawn)]
        return drawn

    async def _move_cube(self, cube: tuple[int, str] | None) -> None:
        """Put the cube at ``cube`` (its face and side); the camera sees it moved before
        anything else changes, as at a real table."""
        if cube != self.cube_at:
            self.cube_at = cube
            self._with_cube.clear()
            await self.show(self.camera.empty)

    async def _pass_over(self, frames: Sequence[Image]) -> None:
        """Pass ``frames`` before the camera, and wait until the watcher has seen the
        picture settle again after them."""
        self.camera.pass_over(frames)
        await self.camera.taken_in(len(frames) + 3, stall_s=self.stall_s)

    async def _now_and_then_a_hand(self) -> None:
        """Now and then a hand passes over the dice, which stay put: no roll, no lift."""
        if self._hands.random() >= self.hand_rate:
            return
        from vision import hand_crossing

        # Exact frames, as the table's camera gives; drawn on the slow Pi too: few of them.
        frames = hand_crossing(self.camera.picture, [], self._hands, frames=5, sigma=0)
        await self._pass_over(frames)
        self.counts.hands += 1
        self._say("    a hand passes over the dice")

    async def _now_and_then_leaning(self) -> None:
        """Now and then the player leans over the board mid-play, still for a few frames."""
        if self._hands.random() >= self.hand_rate:
            return
        from vision import leaning_over

        cover = self._hands.choice(("both", "board"))
        frames = leaning_over(self.camera.picture, [], self._hands, cover=cover, frames=4, sigma=0)
        await self._pass_over(frames)
        self.counts.leans += 1
        self._say(f"    the player leans over the {'dice' if cover == 'both' else 'board'}")

    def _say(self, line: str) -> None:
        if self.echo is not None:
            self.echo(line)

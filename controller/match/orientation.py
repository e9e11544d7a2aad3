"""The board's orientation: which side (and colour) is player 0, as a pure mapping.

Why: the sensor board numbers its locations and colours physically (colour A's magnets
north up, point 1 at its right-hand corner); the referee numbers them from player 0's
side. When player 0 sits at the far side with colour B, every point is mirrored
(location ``i`` <-> ``23 - i``), the bars and trays swap and so do the colours. The
mapping is its own inverse.

An :class:`Orientation` keeps the two facts apart: the side player 0 sits at (``far``)
and the colour player 0 plays (``colour_b``). The starting position looks the same from
both sides once the colours are swapped too, so the set-up tells only which colour the
near player plays (:func:`propose`); which of the two players is player 0 is the
players' to confirm (Done) or swap (Undo) before the opening roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.referee import Cell, Cells
from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = ["ORIENTATIONS", "Orientation", "logical_cells", "mirror", "physical_scene", "propose"]


def mirror(location: int) -> int:
    """The location seen from the other side of the board.

    >>> mirror(0), mirror(23), mirror(24), mirror(27)
    (23, 0, 25, 26)
    """
    if location < 24:
        return 23 - location
    return location ^ 1 if location >= 24 else location


def _swap(cell: Cell) -> Cell:
    return None if cell is None else (cell[1], cell[0])


def logical_cells(cells: Cells, flipped: bool) -> Cells:
    """The referee's cells of the physical ``cells`` (unchanged unless ``flipped``)."""
    if not flipped:
        return tuple(cells)
    return tuple(_swap(cells[mirror(location)]) for location in range(len(cells)))


def physical_scene(scene: Scene, flipped: bool) -> Scene:
    """The physical LEDs of the referee's ``scene`` (unchanged unless ``flipped``)."""
    if not flipped:
        return scene
    lamps = tuple(scene.lamps[mirror(location)] for location in range(len(scene.lamps)))
    return Scene(lamps, scene.status)


@dataclass(frozen=True, slots=True)
class Orientation:
    """Where player 0 sits (``far``: the far side, the locations mirrored) and which colour
    player 0 plays (``colour_b``: colour B, magnets south up)."""

    far: bool = False
    colour_b: bool = False

    @classmethod
    def of_flipped(cls, flipped: bool) -> Orientation:
        """The configuration's orientation (``[board] flipped``: far side and colour B)."""
        return cls(flipped, flipped)

    def swapped(self) -> Orientation:
        """The other player as player 0: the same checkers, seen from the other side."""
        return Orientation(not self.far, not self.colour_b)

    def logical(self, cells: Cells) -> Cells:
        """The referee's cells of the physical ``cells``."""
        placed = tuple(cells[mirror(i)] for i in range(len(cells))) if self.far else tuple(cells)
        return tuple(_swap(cell) for cell in placed) if self.colour_b else placed

    def physical(self, scene: Scene) -> Scene:
        """The physical LEDs of the referee's ``scene`` (LEDs have no colour of checker)."""
        return physical_scene(scene, self.far)

    def side_of(self, player: int) -> str:
        """Where ``player`` sits: ``near`` (the bottom edge of the camera's board view) or
        ``far``."""
        return "far" if (player == 0) == self.far else "near"

    def player_at(self, side: str) -> int:
        """Who sits at ``side`` (``near`` or ``far``)."""
        return 0 if (side == "far") == self.far else 1

    def near_die_first(self, near: int, far: int) -> tuple[int, int]:
        """(player 0's die, player 1's die) of an opening roll read by side."""
        return (far, near) if self.far else (near, far)

    def describe(self, names: tuple[str, str]) -> str:
        """Who sits where with which colour, for people.

        >>> Orientation(far=True).describe(("Ann", "Bob"))
        'Ann far side, colour A; Bob near side, colour B'
        """
        sides = ("far", "near") if self.far else ("near", "far")
        colours = ("B", "A") if self.colour_b else ("A", "B")
        return "; ".join(f"{names[p]} {sides[p]} side, colour {colours[p]}" for p in (0, 1))

    def scene(self, cells: Cells | None) -> Scene:
        """The LEDs that show who is who: player 0's checkers green, player 1's red, the
        status amber flashing (waiting for the players' confirmation)."""
        lamps = {}
        for location, cell in enumerate(self.logical(cells) if cells is not None else ()):
            if cell is None:
                continue
            if cell[0]:
                lamps[location] = Lamp(Colour.GREEN, Pattern.STEADY)
            elif cell[1]:
                lamps[location] = Lamp(Colour.RED, Pattern.STEADY)
        return Scene.of(lamps, Lamp(Colour.AMBER, Pattern.FLASH))


ORIENTATIONS = tuple(Orientation(far, colour) for far in (False, True) for colour in (False, True))
"""Every orientation: player 0 near or far, with colour A or B."""


def propose(cells: Cells, start: Cells, default: Orientation) -> Orientation | None:
    """The orientation in which the physical ``cells`` show the ``start`` set-up, or None.

    The set-up tells the colours apart, not the players: of the two orientations that fit
    (one the other :meth:`~Orientation.swapped`), the one with ``default``'s side is chosen.

    >>> from controller.referee import cells_from_board
    >>> from controller.rules import START
    >>> start = cells_from_board(START)
    >>> propose(Orientation(colour_b=True).logical(start), start, Orientation(far=True))
    Orientation(far=True, colour_b=False)
    """
    fits = [o for o in ORIENTATIONS if o.logical(cells) == tuple(start)]
    if not fits:
        return None
    return next((o for o in fits if o.far == default.far), fits[0])

"""The board's orientation: which side (and colour) is player 0, as a pure mapping.

Why: the sensor board numbers its locations and colours physically (colour A's magnets
north up, point 1 at its right-hand corner); the referee numbers them from player 0's
side. When player 0 sits at the far side with colour B, every point is mirrored
(location ``i`` <-> ``23 - i``), the bars and trays swap and so do the colours. The
mapping is its own inverse.
"""

from __future__ import annotations

from controller.referee import Cell, Cells
from controller.scene import Scene

__all__ = ["logical_cells", "mirror", "physical_scene"]


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

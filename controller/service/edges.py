"""What the service needs of its edges, typed: the sensor board's link, the dice source and
the buttons.

Why protocols: the service takes the real edges (``firmware_bridge.BoardLink``,
``vision.RollWatcher``, ``controller.devices.Buttons``) and the tests' own, and no ``Any``
crosses between them. The
types are named for the type checker only, so that importing the service loads no OpenCV.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Protocol

from controller.referee import Cell

if TYPE_CHECKING:
    from controller.devices import ButtonPress
    from firmware_bridge import LinkState
    from vision import RollEvent, Thrower, WatchState

__all__ = ["BoardFeed", "ButtonFeed", "DiceSource", "SeenCells"]


class SeenCells(Protocol):
    """A stable observation of the sensor board (``firmware_bridge.Observation``)."""

    @property
    def cells(self) -> Sequence[Cell]:
        """The 28 cells as the board numbers them (None: unknown)."""


class BoardFeed(Protocol):
    """What the service needs of the sensor board: ``firmware_bridge.BoardLink``."""

    @property
    def problem(self) -> str | None:
        """What is wrong with the link or the board now, if anything."""

    def updates(self) -> AsyncIterator[LinkState | SeenCells]:
        """Every state of the link and every stable observation, in order."""


class DiceSource(Protocol):
    """What the service needs of the camera: ``vision.RollWatcher``, stepped in a thread."""

    @property
    def state(self) -> WatchState:
        """What the camera sees (``covered`` is shown as the camera's link)."""

    @property
    def error(self) -> str:
        """Why the camera gives no frame now ("" when it does)."""

    def step(self, thrower: Thrower) -> RollEvent | None:
        """Take one frame of a throw by ``thrower`` (blocking); the event it completes."""


class ButtonFeed(Protocol):
    """What the service needs of the board's buttons: ``controller.devices.Buttons``."""

    def __aiter__(self) -> AsyncIterator[ButtonPress]:
        """Every press, in order, in the service's loop."""

"""What the service's one queue holds: the match's inputs, and the few items that are not.

Why a vocabulary of its own: the loop (:mod:`~controller.service.service`) takes every
item from one queue in order, so a refresh, the board's raw cells, an engine's answer, an
action on the match and a set-up test wait their turn beside the match's inputs.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from controller.match.errors import RefusedError
from controller.referee import Button, ButtonPressed, Cells, Input
from controller.service.actions import MatchAction
from controller.service.bench import BenchChange
from controller.service.teacher import Aid

__all__ = ["REFRESH", "Control", "Item", "Physical", "Queued", "Refresh", "check_web_press"]


@dataclass(frozen=True, slots=True)
class Refresh:
    """Show the flow again (it changed outside the match: the mode, a link's state)."""


REFRESH = Refresh()


@dataclass(frozen=True, slots=True)
class Physical:
    """The sensors' cells as the board numbers them (before the orientation is applied)."""

    cells: Cells


@dataclass(frozen=True, slots=True)
class Control:
    """An action on the match itself, in the queue's order."""

    action: MatchAction


Item = Input | Refresh | Aid | Physical | Control | BenchChange


@dataclass(slots=True)
class Queued:
    """One item, and the future of the web action that waits for it (None: nobody waits)."""

    item: Item
    done: asyncio.Future[None] | None = None


def check_web_press(item: Item, phase: str) -> None:
    """The web view's Accept or Demand with no illegal play flagged is refused (409), where
    the button pressed then only shows a notice: a page is answered, a board is looked at."""
    pressed = item.button if isinstance(item, ButtonPressed) else None
    if pressed in (Button.ACCEPT, Button.DEMAND) and phase != "flagged":
        raise RefusedError("no illegal play to accept or demand: none is flagged")

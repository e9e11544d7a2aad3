"""The camera's side of the service: who throws, what the camera sees, its events as inputs.

Why apart from the loop: it is the one module of the service that imports :mod:`vision`
(OpenCV), so a board run without a camera never loads it; the service imports it only
when it is given a camera.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

from controller.match.cube_seen import CubeSeen
from controller.match.orientation import Orientation
from controller.referee import (
    DiceCocked,
    DiceLifted,
    DiceRolled,
    DiceUnreadable,
    Input,
)
from controller.service.edges import DiceSource
from vision import RollEvent, Thrower, Verdict, WatchState

if TYPE_CHECKING:
    from controller.service.service import Service

__all__ = ["camera_input", "camera_link", "read_rolls", "thrower"]


async def read_rolls(service: Service, source: DiceSource) -> None:
    """The service's camera task: step the roll watcher in a thread, telling it who throws
    (each player throws into his own right-hand half), and feed the match what it reads."""
    service.links.set("camera", "live")
    while True:
        player = service.flow.thrower  # who throws the dice the camera is about to see
        side = None if player is None else service.orientation.side_of(player)
        event = await asyncio.to_thread(source.step, thrower(side))
        if service.links.set("camera", camera_link(source)):
            service.refresh()
        if event is None:
            continue
        if event.reading is not None:
            service.cube_seen = CubeSeen.of(event.reading.cube, service.flow.cube)
        item = camera_input(event, service.orientation)
        if item is not None:
            service.feed(item)


def thrower(side: str | None) -> Thrower:
    """Who throws the dice the camera is about to see: the player at ``side`` (``near`` or
    ``far``), or both (None: the opening roll)."""
    return Thrower.BOTH if side is None else Thrower(side)


def camera_link(source: DiceSource) -> Literal["searching", "covered", "live"]:
    """The camera's link as the status shows it: a camera lost (or never found) or a hand,
    a sleeve or a player over the board says why no roll is read."""
    if source.state is WatchState.SEARCHING and source.error:
        return "searching"
    return "covered" if source.state is WatchState.COVERED else "live"


def camera_input(event: RollEvent, orientation: Orientation) -> Input | None:
    """The flow's input for a camera event (None for nothing to say)."""
    if event.kind == "lifted":
        return DiceLifted()
    reading = event.reading
    if reading is None:
        return None
    if reading.verdict is Verdict.REROLL:
        return DiceCocked(reading.reason or "irregular roll")
    if reading.verdict is Verdict.UNREADABLE or len(reading.dice) != 2:
        return DiceUnreadable()
    # Whose die is whose (the opening roll): each player throws into the right-hand half
    # as he sees it, so the die on the view's right is the near player's (player 0 unless
    # the board is flipped); the reader called a roll with both dice in one half a reroll.
    near, far = sorted(reading.dice, key=lambda die: -die.center[0])
    return DiceRolled(orientation.near_die_first(near.value, far.value))

"""What the set-up page asks of one running board: its links in words, the lamp and button
tests, the camera, the sensors.

Why a class of its own: the page (:mod:`controller.web.setup`) knows the board only through
its ``SetupDesk`` protocol and JSON; this is the service's side of it, joining the service
(its queue, its LEDs, its links) and the parts only the page uses (the camera bench).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from controller.match.errors import RefusedError
from controller.service.bench import BETWEEN_GAMES, ButtonTest, LampTest, link_words
from controller.service.service import Service
from hardware.board.json_types import JsonObject
from hardware.board.scene import Colour

if TYPE_CHECKING:
    from controller.service.camera_bench import CameraBench

__all__ = ["BoardSetup"]


class BoardSetup:
    """The set-up page's view of ``service`` (implements ``controller.web.setup.SetupDesk``).

    Args:
        service: the running board service (its LEDs, buttons and links).
        camera: the camera bench, or None for a board without a camera.
    """

    def __init__(self, service: Service, *, camera: CameraBench | None = None) -> None:
        self.service = service
        self.camera = camera

    def state(self) -> JsonObject:
        """The links in words, whether a game is being played, the tests, the orientation."""
        status = self.service.status()
        links: list[JsonObject] = [
            {
                "link": link,
                "state": state,
                "words": link_words(
                    link, state, self.service.board_problem if link == "board" else None
                ),
            }
            for link, state in status.links.items()
        ]
        return {
            "board_id": status.board_id,
            "links": links,
            "phase": status.phase,
            "between_games": self.service.flow.phase in BETWEEN_GAMES,
            "has_leds": self.service.leds is not None,
            "has_camera": self.camera is not None,
            "orientation": status.orientation,
            "orientation_pending": status.orientation_pending,
            **self.service.bench.to_json(),
        }

    async def light(self, location: int | None, colour: str) -> None:
        """Light ``location`` (0..27, 28 the status LED) in ``colour``; None: end the test.

        Raises:
            ActionError: mid-game, or on a board without LEDs.
        """
        await self.service.set_up(LampTest(location, Colour[colour.upper()]))

    async def test_buttons(self, on: bool) -> None:
        """Start or end the button test.

        Raises:
            ActionError: started mid-game.
        """
        await self.service.set_up(ButtonTest(on))

    async def look(self) -> JsonObject:
        """The camera's frame, board view and figures (:meth:`CameraBench.look`)."""
        return await asyncio.to_thread(self._camera().look)

    async def calibrate(self) -> JsonObject:
        """Calibrate and store it as ``tabula calibrate`` does (:meth:`CameraBench.calibrate`)."""
        return await asyncio.to_thread(self._camera().calibrate)

    def _camera(self) -> CameraBench:
        if self.camera is None:
            raise RefusedError("this board has no camera configured ([camera] enabled = false)")
        return self.camera

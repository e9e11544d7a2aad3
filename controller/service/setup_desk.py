"""What the set-up page asks of one running board: its links in words, the lamp and button
tests, the camera, the sensors.

Why a class of its own: the page (:mod:`controller.web.setup`) knows the board only through
its ``SetupDesk`` protocol and JSON; this is the service's side of it, joining the service
(its queue, its LEDs, its links) and the parts only the page uses (the camera bench).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from controller.links import link_words
from controller.match.errors import RefusedError
from controller.referee import Cells, cells_from_board
from controller.service.bench import BETWEEN_GAMES, ButtonTest, LampTest
from controller.service.service import Service
from firmware_bridge import (
    DiagnosticsUnsupportedError,
    LinkClosedError,
    RawSet,
    RawSetError,
    classify_slots,
)
from firmware_bridge.slot_health import NOISE_SETS
from hardware.board.json_types import JsonObject
from hardware.board.scene import Colour

if TYPE_CHECKING:
    from controller.service.camera_bench import CameraBench

__all__ = ["BoardSetup", "RawReadings"]

class RawReadings(Protocol):
    """What the page needs of the sensor board's link (``firmware_bridge.BoardLink``)."""

    async def read_raw_sets(self, count: int, timeout: float = 10.0) -> tuple[RawSet, ...]:
        """``count`` raw sets of every slot, each of another scan."""


class BoardSetup:
    """The set-up page's view of ``service`` (implements ``controller.web.setup.SetupDesk``).

    Args:
        service: the running board service (its LEDs, buttons and links).
        camera: the camera bench, or None for a board without a camera.
        sensors: the sensor board's link, or None for a board without one.
        sensor_wait_s: how long a reading waits for the board (to come live, to answer)
            before the page is told why it cannot read it.
    """

    def __init__(
        self,
        service: Service,
        *,
        camera: CameraBench | None = None,
        sensors: RawReadings | None = None,
        sensor_wait_s: float = 10.0,
    ) -> None:
        self.service = service
        self.camera = camera
        self.sensors = sensors
        self.sensor_wait_s = sensor_wait_s

    def state(self) -> JsonObject:
        """The links in words, whether a game is being played, the tests, the orientation."""
        status = self.service.status()
        links: list[JsonObject] = [
            {
                "link": link,
                "state": state,
                "words": link_words(
                    link, state, self.service.links.board_problem if link == "board" else None
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
            "has_sensors": self.sensors is not None,
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

    async def read_sensors(self, set_out: bool) -> JsonObject:
        """Every slot's raw reading, class and health (``firmware_bridge.classify_slots``).

        Reading changes nothing on the board: the page may read during a game. Only with
        ``set_out`` (the checkers stand as a game starts) is a slot judged stuck, against
        that position: what the board reports comes from the same sensors, a stuck one
        included, and would agree with it.

        Raises:
            ActionError: no link, a board whose firmware sends no diagnostics, a set not
                whole in time (each said in one line).
        """
        if self.sensors is None:
            raise RefusedError("this board has no sensor board ([board] serial_device)")
        try:
            sets = await self.sensors.read_raw_sets(NOISE_SETS, self.sensor_wait_s)
        except (DiagnosticsUnsupportedError, RawSetError, TimeoutError, LinkClosedError) as error:
            raise RefusedError(f"cannot read the sensors: {error}") from None
        expected: Cells | None = None
        if set_out:
            # The orientation maps the board's numbering to the referee's and back.
            start = cells_from_board(self.service.flow.variant.start)
            expected = self.service.orientation.logical(start)
        last = sets[-1]
        hall = last.hall
        return {
            "sets": len(sets),
            "layout": list(last.layout),
            "hall": {"mid": hall.mid, "fault_low": hall.fault_low, "fault_high": hall.fault_high},
            "slots": [
                {
                    "location": verdict.location,
                    "slot": verdict.slot,
                    "label": verdict.label,
                    "reading": reading.reading,
                    "class": reading.cls.name.lower(),
                    "health": verdict.health.value,
                    "low": verdict.low,
                    "high": verdict.high,
                    "reason": verdict.reason,
                }
                for verdict, reading in zip(
                    classify_slots(sets, expected), last.slot_readings(), strict=True
                )
            ],
        }

    def _camera(self) -> CameraBench:
        if self.camera is None:
            raise RefusedError("this board has no camera configured ([camera] enabled = false)")
        return self.camera

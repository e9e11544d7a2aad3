"""The set-up page: bringing up a board from a phone beside it.

Routes (every ``/api/setup/`` one behind the board's token, as the referee's actions:
without it 401, a wrong one or none configured 403, and nothing changes):

* ``GET /setup`` — the page (``static/setup.html``, drawn by ``static/setup.js``); it says
  when the token is missing and then refuses every action;
* ``GET /api/setup/state`` — the links in words, whether a game is being played, the lamp
  lit, the button test and the last presses, the orientation;
* ``POST /api/setup/lamp`` — ``{"location": 0..28 or null, "colour": "green"|"red"|"amber"}``
  lights one location (28: the status LED), null ends the test;
* ``POST /api/setup/buttons`` — ``{"on": true|false}`` starts or ends the button test;
* ``GET /api/setup/sensors`` — every slot's raw reading, class and health (``?start=1``:
  judged against a game's starting position, where the checkers stand);
* ``GET /api/setup/camera`` — the frame with the markers found, the board view, the focus
  and exposure figures, the dice read on it;
* ``POST /api/setup/calibrate`` — find the markers and store the calibration, as
  ``tabula calibrate`` does.

The lamp and button tests hold only between games: mid-game they are refused with 409 and
the match goes on untouched. A body that is not what a route takes gets 400; what the
board cannot do now (no camera, no LEDs, markers missing) 409, with the reason.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final, Protocol

from aiohttp import web

from controller.status import ActionError
from controller.web.app import json_error, refusal, static_page
from controller.web.body import read_json
from controller.web.errors import BadRequestError
from hardware.board.errors import clipped_repr
from hardware.board.geometry import LOCATIONS
from hardware.board.json_types import JsonObject, is_integer

__all__ = ["SetupDesk", "add_setup_routes"]

_COLOURS: Final = ("green", "red", "amber")


class SetupDesk(Protocol):
    """What the set-up page needs of a board (``controller.service.setup_desk.BoardSetup``).

    Each coroutine raises :class:`~controller.status.ActionError` for what the board cannot
    do now (a game being played, a part missing), and then changes nothing.
    """

    def state(self) -> JsonObject:
        """The links in words, the tests, the orientation, as JSON."""
        ...

    async def light(self, location: int | None, colour: str) -> None:
        """Light ``location`` (0..27, :data:`LOCATIONS` the status LED); None ends the test."""
        ...

    async def test_buttons(self, on: bool) -> None:
        """Start or end the button test."""
        ...

    async def read_sensors(self, set_out: bool) -> JsonObject:
        """Every slot's raw reading, class and health (``set_out``: the checkers stand as a
        game starts)."""
        ...

    async def look(self) -> JsonObject:
        """The camera's frame, board view and figures."""
        ...

    async def calibrate(self) -> JsonObject:
        """Calibrate the camera and store it."""
        ...


_DESK: Final = web.AppKey("setup", SetupDesk)


async def _page(request: web.Request) -> web.StreamResponse:
    return static_page("setup.html")


def _lamp(body: JsonObject) -> tuple[int | None, str]:
    """The lamp test's location and colour in a request's body.

    Raises:
        BadRequestError: anything else (400).
    """
    location, colour = body.get("location"), body.get("colour", "green")
    if location is not None and (
        not is_integer(location) or not 0 <= location <= LOCATIONS
    ):  # fmt: skip
        raise BadRequestError(
            400, f"location {clipped_repr(location)}: expected 0..{LOCATIONS} or null"
        )
    if colour not in _COLOURS:
        raise BadRequestError(400, f"colour {clipped_repr(colour)}: expected green, red or amber")
    return location, str(colour)


def _on(body: JsonObject) -> bool:
    """The button test's ``on`` in a request's body.

    Raises:
        BadRequestError: it is not true or false (400).
    """
    on = body.get("on")
    if not isinstance(on, bool):
        raise BadRequestError(400, f"on {clipped_repr(on)}: expected true or false")
    return on


Answer = Callable[[SetupDesk, web.Request], Awaitable[JsonObject]]


def _guarded(answer: Answer) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A handler answering ``answer``'s JSON behind the token: 400 for a bad body, 409 for
    what the board refuses now."""

    async def handler(request: web.Request) -> web.StreamResponse:
        refused = refusal(request)
        if refused is not None:
            return refused
        try:
            return web.json_response(await answer(request.app[_DESK], request))
        except BadRequestError as error:
            return json_error(error.status, str(error))
        except ActionError as error:
            return json_error(409, str(error))

    return handler


async def _state(desk: SetupDesk, request: web.Request) -> JsonObject:
    return desk.state()


async def _object(request: web.Request) -> JsonObject:
    """The request's body, a JSON object.

    Raises:
        BadRequestError: it is not (400), or beyond the limits of :mod:`~controller.web.body`.
    """
    body = await read_json(request)
    if not isinstance(body, dict):
        raise BadRequestError(400, f"expected a JSON object, got {clipped_repr(body)}")
    return body


async def _light(desk: SetupDesk, request: web.Request) -> JsonObject:
    await desk.light(*_lamp(await _object(request)))
    return desk.state()


async def _buttons(desk: SetupDesk, request: web.Request) -> JsonObject:
    await desk.test_buttons(_on(await _object(request)))
    return desk.state()


async def _sensors(desk: SetupDesk, request: web.Request) -> JsonObject:
    start = request.query.get("start", "0")
    if start not in ("0", "1"):
        raise BadRequestError(400, f"start {clipped_repr(start)}: expected 0 or 1")
    return await desk.read_sensors(start == "1")


async def _camera(desk: SetupDesk, request: web.Request) -> JsonObject:
    return await desk.look()


async def _calibrate(desk: SetupDesk, request: web.Request) -> JsonObject:
    return await desk.calibrate()


def add_setup_routes(app: web.Application, desk: SetupDesk) -> None:
    """Serve the set-up page of ``desk`` on ``app`` (made by ``create_app``, whose token
    guards it)."""
    app[_DESK] = desk
    app.router.add_get("/setup", _page)
    app.router.add_get("/api/setup/state", _guarded(_state))
    app.router.add_post("/api/setup/lamp", _guarded(_light))
    app.router.add_post("/api/setup/buttons", _guarded(_buttons))
    app.router.add_get("/api/setup/sensors", _guarded(_sensors))
    app.router.add_get("/api/setup/camera", _guarded(_camera))
    app.router.add_post("/api/setup/calibrate", _guarded(_calibrate))

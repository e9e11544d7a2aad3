"""The set-up page's API over real HTTP on the real service: the token, the lamp and button
tests between games only, the camera looked at and calibrated as ``tabula calibrate`` does.

The LEDs are the real shift-register chain on recording mock pins (what a 74HC595 chain
latches is read back from the pins); the board plays itself (the real service).
"""

from __future__ import annotations

import asyncio
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.devices import Colour, Lamp, Scene, ShiftRegisterLeds
from controller.links import link_words
from controller.referee import Button
from controller.service.bench import BUTTON_TEST_S, Bench, ButtonTest, LampTest
from controller.service.camera_bench import CameraBench, FrameTap
from controller.service.setup_desk import BoardSetup
from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebServer, add_setup_routes, create_app
from firmware_bridge.slot_health import NOISE_SETS
from hardware.simulator import BoardSimulator
from tests.devices.conftest import RecordingFactory
from tests.firmware_bridge.conftest import FAST, PATIENCE_S, fast_link
from tests.web.setup_rig import CLOCK, DATA, LATCH, TOKEN, api, camera_frame, latched_frame, shown
from vision import (
    MAX_EDGE_BLUR,
    DiceReader,
    FolderSource,
    Image,
    RollWatcher,
    calibrate,
    load_calibration,
)

ROUTES = [
    ("api/setup/state", None),
    ("api/setup/lamp", {"location": 3}),
    ("api/setup/buttons", {"on": True}),
    ("api/setup/camera", None),
    ("api/setup/calibrate", {}),
]


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


class Rig:
    """A self-playing board with a shift chain on recording pins, a camera and the page."""

    def __init__(self, board: SelfPlayBoard, factory: RecordingFactory, url: str, config: Path):
        self.board, self.factory, self.url, self.config = board, factory, url, config

    @property
    def leds(self) -> ShiftRegisterLeds:
        leds = self.board.service.leds
        assert isinstance(leds, ShiftRegisterLeds)
        return leds


def run(
    body: Callable[[Rig], Awaitable[None]],
    tmp_path: Path,
    *,
    token: str | None = TOKEN,
    frame: Image | None = None,
    timer: Clock | None = None,
) -> None:
    async def go() -> None:
        factory = RecordingFactory()
        board = SelfPlayBoard("bench-1", seed=5, match_length=3, timer=timer or Clock())
        board.service.leds = ShiftRegisterLeds(DATA, CLOCK, LATCH, pin_factory=factory)
        config = tmp_path / "tabula.toml"
        seen = camera_frame() if frame is None else frame
        desk = BoardSetup(board.service, camera=CameraBench(lambda: seen, config))
        await board.start()
        app = create_app(board, token=token)
        add_setup_routes(app, desk)
        try:
            async with WebServer(app, port=0) as server:
                await body(Rig(board, factory, server.url, config))
        finally:
            board.close()
            board.service.leds.close()
            factory.reset()

    asyncio.run(go())


def test_without_the_token_every_set_up_route_is_refused_and_nothing_changes(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> None:
        scene = rig.leds.scene
        for path, request in ROUTES:
            assert await api(rig.url, path, request, token=None) == (
                401,
                {"error": "this action needs the board's token "
                          "(header Authorization: Bearer <token>)"},
            )  # fmt: skip
            status, answer = await api(rig.url, path, request, token="not-the-token")
            assert (status, answer) == (403, {"error": "wrong token"})
        assert rig.leds.scene == scene
        assert rig.board.service.bench.to_json()["testing_buttons"] is False
        assert not rig.config.exists()

    run(body, tmp_path)


def test_a_board_without_a_token_refuses_the_set_up_with_403(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        for path, request in ROUTES:
            status, answer = await api(rig.url, path, request)
            assert status == 403
            assert answer["error"] == "this board has no web token configured: it is read-only"

    run(body, tmp_path, token=None)


def test_the_page_is_served_with_its_script(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as session:
            async with session.get(rig.url + "setup") as response:
                assert response.status == 200
                assert "/static/setup.js" in await response.text()
            async with session.get(rig.url + "static/setup.js") as response:
                assert "/api/setup/state" in await response.text()

    run(body, tmp_path)


def test_the_lamp_test_lights_one_location_through_the_chain_then_the_game_again(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> None:
        game_scene = rig.leds.scene
        since = len(rig.factory.log)
        status, state = await api(rig.url, "api/setup/lamp", {"location": 12, "colour": "red"})
        assert status == 200
        assert state["lamp"] == {"location": 12, "name": "point 13", "colour": "red"}
        assert latched_frame(rig.factory, since) == shown(Scene.of({12: Lamp(Colour.RED)}))
        status, state = await api(rig.url, "api/setup/lamp", {"location": 26})
        assert latched_frame(rig.factory) == shown(Scene.of({26: Lamp(Colour.GREEN)}))
        status, state = await api(rig.url, "api/setup/lamp", {"location": None})
        assert (status, state["lamp"]) == (200, None)
        assert rig.leds.scene == game_scene

    run(body, tmp_path)


@pytest.mark.parametrize(
    ("path", "request_body", "error"),
    [
        ("api/setup/lamp", {"location": 29}, "location 29: expected 0..28 or null"),
        ("api/setup/lamp", {"location": True}, "location True: expected 0..28 or null"),
        ("api/setup/lamp", {"location": 1, "colour": "blue"},
         "colour 'blue': expected green, red or amber"),
        ("api/setup/lamp", [1], "expected a JSON object, got [1]"),
        ("api/setup/buttons", {"on": "yes"}, "on 'yes': expected true or false"),
    ],
)  # fmt: skip
def test_a_malformed_set_up_request_gets_400_and_changes_nothing(
    tmp_path: Path, path: str, request_body: object, error: str
) -> None:
    async def body(rig: Rig) -> None:
        scene = rig.leds.scene
        assert await api(rig.url, path, request_body) == (400, {"error": error})
        assert rig.leds.scene == scene
        assert rig.board.service.bench.to_json()["testing_buttons"] is False

    run(body, tmp_path)


def test_mid_game_the_tests_are_refused_with_409_and_the_match_goes_on(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        while rig.board.status().phase == "opening":  # the opening roll (again on a tie)
            await rig.board.step()
        status = rig.board.status()
        assert status.phase not in ("opening", "match-over")
        scene = rig.leds.scene
        for path, request in ROUTES[1:3]:
            code, answer = await api(rig.url, path, request)
            assert code == 409
            assert answer["error"].startswith("a game is being played (")
            assert answer["error"].endswith("the set-up tests wait until it is over")
        assert rig.board.status() == status
        assert rig.leds.scene == scene
        state = (await api(rig.url, "api/setup/state"))[1]
        assert (state["between_games"], state["lamp"], state["testing_buttons"]) == (
            False, None, False,
        )  # fmt: skip
        for _ in range(4):  # the match goes on as before
            await rig.board.step()
        assert rig.board.seq > status.seq

    run(body, tmp_path)


def test_a_game_starting_ends_the_tests_and_shows_the_game_again(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        assert (await api(rig.url, "api/setup/lamp", {"location": 5}))[0] == 200
        assert (await api(rig.url, "api/setup/buttons", {"on": True}))[0] == 200
        while rig.board.status().phase == "opening":  # the players roll anyway
            await rig.board.step()
        assert rig.board.service.bench.to_json()["lamp"] is None
        assert not rig.board.service.bench.testing_buttons
        lights = rig.board.status().lights  # the game's lamps, the page's lamp gone
        assert [lamp.colour.name.lower() for lamp in rig.leds.scene.lamps] == [
            light.colour for light in lights[:28]
        ]
        assert rig.leds.scene != Scene.of({5: Lamp(Colour.GREEN)})

    run(body, tmp_path)


def test_a_press_during_the_button_test_is_named_and_kept_from_the_match(tmp_path: Path) -> None:
    timer = Clock()

    async def body(rig: Rig) -> None:
        service = rig.board.service
        assert (await api(rig.url, "api/setup/buttons", {"on": True}))[0] == 200
        inputs = service.counters.inputs
        service.press(Button.DONE)
        service.press(Button.MODE)
        state = (await api(rig.url, "api/setup/state"))[1]
        assert [p["button"] for p in state["presses"]] == ["done", "mode"]
        assert state["testing_buttons"] is True
        assert service.counters.inputs == inputs and service.status().mode == "learner"
        timer.now += BUTTON_TEST_S + 1  # the phone was left aside: the buttons play again
        service.press(Button.MODE)
        state = (await api(rig.url, "api/setup/state"))[1]
        assert state["testing_buttons"] is False
        assert [p["button"] for p in state["presses"]][-1] == "mode"
        assert service.flow.mode.value == "recorder"

    run(body, tmp_path, timer=timer)


def test_the_camera_is_looked_at_and_calibrated_as_tabula_calibrate_does(
    tmp_path: Path,
) -> None:
    frame = camera_frame()

    async def body(rig: Rig) -> None:
        status, look = await api(rig.url, "api/setup/camera")
        assert status == 200
        assert look["markers"] == [0, 1, 2, 3]
        assert look["calibration"] == "found now, not stored"
        assert look["size"] == [960, 720]
        assert look["focus"]["sharp"] and 0 < look["focus"]["blur_px"] <= MAX_EDGE_BLUR
        assert 0 < look["exposure"]["mean"] < 255
        assert look["frame"].startswith("data:image/jpeg;base64,")
        assert look["board"].startswith("data:image/jpeg;base64,")
        rig.config.write_text('[game]\nvariant = "backgammon"\n')
        status, done = await api(rig.url, "api/setup/calibrate", {})
        assert status == 200
        assert (done["stored"], done["markers"], done["calibration"]) == (
            str(rig.config), [0, 1, 2, 3], "stored",
        )  # fmt: skip
        stored = load_calibration(rig.config)
        assert stored == calibrate(frame)[0]
        assert tomllib.loads(rig.config.read_text())["game"] == {"variant": "backgammon"}
        # The command stores the very same calibration from the same frame.
        image, other = tmp_path / "frame.png", tmp_path / "other.toml"
        cv2.imwrite(str(image), frame)
        annotated = str(tmp_path / "a.png")
        command = ["calibrate", "--config", str(other), "--source", str(image)]
        assert main([*command, "--annotated", annotated]) == 0
        assert load_calibration(other) == stored

    run(body, tmp_path, frame=frame)


def test_a_calibration_that_cannot_be_stored_is_refused_and_loses_nothing(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> None:
        broken = "[camera\nenabled = true\n"
        rig.config.write_text(broken)  # a configuration damaged by hand
        status, answer = await api(rig.url, "api/setup/calibrate", {})
        assert status == 409
        assert answer["error"].startswith(f"not calibrated: config {str(rig.config)!r} is not")
        assert rig.config.read_text() == broken
        # The file the configuration names lies in a folder that is not there.
        named = '[camera]\ncalibration = "gone/camera.toml"\n'
        rig.config.write_text(named)
        status, answer = await api(rig.url, "api/setup/calibrate", {})
        assert status == 409
        target = rig.config.parent / "gone" / "camera.toml"
        assert answer["error"].startswith(f"cannot store the calibration in {target}: ")
        assert rig.config.read_text() == named
        assert not (rig.config.parent / "gone").exists()

    run(body, tmp_path, frame=camera_frame())


def test_without_markers_calibrating_is_refused_and_the_config_is_left_as_it_was(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> None:
        rig.config.write_text("[camera]\nenabled = true\n")
        status, answer = await api(rig.url, "api/setup/calibrate", {})
        assert status == 409
        assert answer["error"].startswith("not calibrated: found markers [], need at least 4")
        assert rig.config.read_text() == "[camera]\nenabled = true\n"
        status, look = await api(rig.url, "api/setup/camera")
        assert (status, look["markers"], look["calibration"], look["board"]) == (
            200, [], "none", None,
        )  # fmt: skip

    run(body, tmp_path, frame=camera_frame(markers=False))


def test_a_board_without_camera_or_leds_says_so(tmp_path: Path) -> None:
    async def go() -> None:
        board = SelfPlayBoard("bare", seed=1)
        await board.start()
        app = create_app(board, token=TOKEN)
        add_setup_routes(app, BoardSetup(board.service))
        async with WebServer(app, port=0) as server:
            assert await api(server.url, "api/setup/camera") == (
                409, {"error": "this board has no camera configured ([camera] enabled = false)"},
            )  # fmt: skip
            assert await api(server.url, "api/setup/lamp", {"location": 1}) == (
                409, {"error": "this board has no LEDs to test ([gpio] leds = 'none')"},
            )  # fmt: skip
            state = (await api(server.url, "api/setup/state"))[1]
            assert (state["has_camera"], state["has_leds"]) == (False, False)
            assert state["links"] == [
                {"link": "board", "state": "off", "words": link_words("board", "off")},
                {"link": "camera", "state": "off", "words": link_words("camera", "off")},
            ]
        board.close()

    asyncio.run(go())


def test_the_bench_refuses_a_test_mid_game_but_always_ends_one() -> None:
    bench = Bench(Clock())
    bench.change(LampTest(3), "opening")
    with pytest.raises(ValueError, match=r"a game is being played \(moving\)"):
        bench.change(LampTest(4), "moving")
    with pytest.raises(ValueError, match=r"a game is being played \(roll\)"):
        bench.change(ButtonTest(True), "roll")
    assert bench.scene() == Scene.of({3: Lamp(Colour.GREEN)})
    bench.change(LampTest(None), "moving")
    bench.change(ButtonTest(False), "moving")
    assert bench.scene() is None
    bench.change(LampTest(28, Colour.AMBER), "match-over")
    assert bench.scene() == Scene.of({}, status=Lamp(Colour.AMBER))


def test_the_button_test_lasts_its_time_whatever_the_wall_clock_does() -> None:
    """A Pi sets its wall clock from the network after boot: a jump of days either way
    neither ends the button test nor keeps it on. The presses keep the wall's time (the
    page shows it)."""
    wall, timer = Clock(), Clock()
    bench = Bench(wall, timer)
    bench.change(ButtonTest(True), "opening")
    wall.now += 86_400.0  # set forward a day
    assert bench.takes(Button.DONE)
    wall.now -= 2 * 86_400.0  # and back two
    timer.now += BUTTON_TEST_S - 1
    assert bench.takes(Button.UNDO)  # a press keeps the test on
    timer.now += BUTTON_TEST_S + 1
    assert not bench.testing_buttons
    assert not bench.takes(Button.MODE)
    presses = bench.to_json()["presses"]
    assert [(p["button"], p["at"]) for p in presses] == [  # type: ignore[index]
        ("done", 87_400.0),
        ("undo", -85_400.0),
        ("mode", -85_400.0),
    ]


def test_the_page_looks_at_the_frame_the_dice_reader_took_last(tmp_path: Path) -> None:
    """The camera is opened once, by the dice reader; the page sees through its tap."""
    folder = tmp_path / "frames"
    folder.mkdir()
    frames = [camera_frame(markers=False), camera_frame()]
    for index, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{index}.png"), frame)
    tap = FrameTap(lambda: FolderSource(folder))
    watcher = RollWatcher(tap.open, DiceReader(expected_dice=2))
    bench = CameraBench(tap.latest, tmp_path / "tabula.toml")
    with pytest.raises(ValueError, match="the camera gives no frame: is it plugged in"):
        bench.look()
    watcher.step()
    assert np.array_equal(tap.latest(), frames[0])
    assert bench.look()["markers"] == []
    watcher.step()
    assert np.array_equal(tap.latest(), frames[1])
    assert bench.look()["markers"] == [0, 1, 2, 3]
    watcher.close()
    watcher.close()
    assert np.array_equal(tap.latest(), frames[1])


def run_sensors(
    body: Callable[[str, BoardSimulator], Awaitable[None]],
    tmp_path: Path,
    protocol: tuple[int, int] = (1, 1),
    wait_s: float = PATIENCE_S,
) -> None:
    """``body`` given the page's URL, its board's sensors a simulated board on a real pty."""

    async def go() -> None:
        with BoardSimulator(link=tmp_path / "board", settings=FAST, protocol=protocol) as sim:
            async with fast_link(str(sim.path)) as link:
                board = SelfPlayBoard("sensors", seed=2)
                await board.start()
                app = create_app(board, token=TOKEN)
                add_setup_routes(app, BoardSetup(board.service, sensors=link, sensor_wait_s=wait_s))
                async with WebServer(app, port=0) as server:
                    await body(server.url, sim)
                board.close()

    asyncio.run(go())


async def until_faults(url: str, query: str, faults: dict[str, str]) -> dict[str, Any]:
    """Read the sensors until the faulty slots are ``faults`` (label -> health): a fault
    set a moment ago shows in the scans after it, and noise in the spread of readings."""
    found: dict[str, str] = {}
    try:
        async with asyncio.timeout(PATIENCE_S):
            while True:
                status, seen = await api(url, "api/setup/sensors" + query)
                assert status == 200, seen
                found = {s["label"]: s["health"] for s in seen["slots"] if s["health"] != "ok"}
                if found == faults:
                    return seen
    except TimeoutError:
        raise AssertionError(f"faulty slots {found}, expected {faults}") from None


def test_the_sensors_name_a_dead_a_noisy_and_a_stuck_slot(tmp_path: Path) -> None:
    async def body(url: str, sim: BoardSimulator) -> None:
        status, seen = await api(url, "api/setup/sensors")
        assert status == 200 and seen["sets"] == NOISE_SETS
        assert [s["health"] for s in seen["slots"]] == ["ok"] * sum(seen["layout"])
        sim.fault(12, 1, "dead")
        sim.fault(2, 0, "noisy")
        sim.fault(0, 4, "stuck")  # point 1 holds two checkers: its fifth slot is empty
        faults = {"13/2": "dead", "3/1": "noisy", "1/5": "stuck"}
        seen = await until_faults(url, "?start=1", faults)
        slots = {s["label"]: s for s in seen["slots"]}
        assert (slots["13/2"]["reading"], slots["13/2"]["class"]) == (0, "fault")
        assert slots["13/2"]["reason"] == (
            "slot 13/2 (point 13, second sensor) reads 0 counts: no signal, check its wire "
            "and 3V3"
        )
        assert slots["1/5"]["reason"].startswith("slot 1/5 (point 1, fifth sensor) reads")
        # Where the checkers stand is not known unless the page says: no slot called stuck.
        await until_faults(url, "", {"13/2": "dead", "3/1": "noisy"})
        assert (await api(url, "api/setup/sensors?start=yes"))[0] == 400

    run_sensors(body, tmp_path)


def test_a_board_sending_no_diagnostics_is_told_to_update_its_firmware(tmp_path: Path) -> None:
    async def body(url: str, sim: BoardSimulator) -> None:
        assert await api(url, "api/setup/sensors") == (
            409,
            {"error": "cannot read the sensors: this board's firmware ('tabula-fw 1.0') does "
                      "not send diagnostics (protocol 1.0): update it"},
        )  # fmt: skip

    run_sensors(body, tmp_path, protocol=(1, 0))


def test_an_unplugged_sensor_board_is_said_in_one_line_and_read_again_once_back(
    tmp_path: Path,
) -> None:
    async def body(url: str, sim: BoardSimulator) -> None:
        assert (await api(url, "api/setup/sensors"))[0] == 200
        sim.disconnect()
        status, answer = await api(url, "api/setup/sensors")
        assert status == 409
        assert answer["error"].startswith(f"cannot read the sensors: 0 of {NOISE_SETS} raw sets")
        sim.reconnect()
        async with asyncio.timeout(PATIENCE_S):  # read again once the board is back
            while (await api(url, "api/setup/sensors"))[0] != 200:
                pass

    run_sensors(body, tmp_path, wait_s=1.0)


def test_a_frame_that_is_no_colour_picture_is_refused_in_one_line(tmp_path: Path) -> None:
    grey = np.zeros((48, 64), np.uint8)
    bench = CameraBench(lambda: grey, tmp_path / "tabula.toml")
    for act in (bench.look, bench.calibrate):
        with pytest.raises(ValueError, match=r"the camera's frame is no colour picture: uint8"):
            act()
    assert not (tmp_path / "tabula.toml").exists()


def test_garbled_set_up_requests_get_a_4xx_never_a_5xx(tmp_path: Path) -> None:
    """Methods, bodies and queries a route does not take: each refused in one JSON line
    (aiohttp's router answers an unknown path or method itself, in plain text)."""
    import aiohttp

    bodies = [b"", b"{", b"null", b'"x"', b"[]", b'{"location": 1e999}', b"\xff\xfe",
              b'{"location": -1}', b'{"location": 3, "colour": null}', b'{"on": 1}',
              b'{"a": ' * 40 + b"1" + b"}" * 40]  # fmt: skip

    async def body(rig: Rig) -> None:
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        async with aiohttp.ClientSession() as session:
            for path in ("lamp", "buttons", "calibrate", "state", "camera", "sensors", "x"):
                for method in ("GET", "POST", "PUT", "DELETE"):
                    for data in bodies if method == "POST" else [b""]:
                        url = rig.url + f"api/setup/{path}?start=2&location=%ff"
                        async with session.request(
                            method, url, data=data, headers=headers
                        ) as response:
                            where = f"{method} {path} {data[:20]!r}"
                            assert response.status < 500, where
                            if response.status >= 400 and response.status not in (404, 405):
                                assert "error" in await response.json(), where
        assert rig.board.service.bench.to_json()["lamp"] is None

    run(body, tmp_path)

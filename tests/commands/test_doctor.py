"""``tabula doctor``: each part broken on the simulators is named, with what to do.

The board is the simulator's firmware behind a real pty (pyserial), the camera a picture
file opened through OpenCV as the service opens its source, the pins gpiozero's
MockFactory, the broker Debian's mosquitto and the engine Debian's gnubg.
"""

from __future__ import annotations

import argparse
import grp
import os
import pickle
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.commands.doctor import add_arguments
from controller.doctor import (
    CHECKERS,
    WARM_UP_FRAMES,
    Finding,
    Status,
    check_device,
    check_journal,
)
from controller.mqtt.mosquitto import Mosquitto, free_port
from controller.simulated.demo import FAST_FIRMWARE
from hardware.simulator import BoardSimulator
from vision import MAX_EDGE_BLUR, Image, calibrate, edge_blur, render_roll, save_calibration


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Frames of the board as the camera gives them: sharp, out of focus, without markers;
    and the calibration of the sharp one."""
    folder = tmp_path_factory.mktemp("camera")
    board = render_roll(random.Random(4), markers=True).image
    frames = {
        "sharp": board,
        "blurred": cv2.GaussianBlur(board, (0, 0), 3),
        "no-markers": render_roll(random.Random(4)).image,
    }
    paths = {name: folder / f"{name}.png" for name in frames}
    for name, frame in frames.items():
        cv2.imwrite(str(paths[name]), frame)
    paths["calibration"] = folder / "camera.toml"
    save_calibration(paths["calibration"], calibrate(board)[0])
    return paths


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A simulated sensor board on a real pty, behind a stable symlink like udev's."""
    link = tmp_path_factory.mktemp("board") / "tabula-board"
    with BoardSimulator(link=link, settings=FAST_FIRMWARE) as simulator:
        yield simulator.path


def _config(folder: Path, device: str, pictures: dict[str, Path], **sections: str) -> Path:
    """A configuration whose every part works, but for the ``sections`` given (TOML bodies)."""
    parts = {
        "board": f'serial_device = "{device}"',
        "camera": f'source = "{pictures["sharp"]}"\ncalibration = "{pictures["calibration"]}"',
        "gpio": 'pin_factory = "mock"',
        "engine": 'kind = "none"',
        **sections,
    }
    text = f'journal = "{folder / "state" / "journal.sqlite3"}"\n' + "".join(
        f"[{name}]\n{body}\n" for name, body in parts.items()
    )
    path = folder / "tabula.toml"
    path.write_text(text)
    return path


#: ``doctor(device, *options, **sections)``: ``tabula doctor``'s status and lines on a
#: configuration of :func:`_config`.
Doctor = Callable[..., tuple[int, list[str]]]


@pytest.fixture
def doctor(tmp_path: Path, pictures: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> Doctor:
    """Run ``tabula doctor`` on a configuration that works but for the sections given."""

    def run(device: str, *options: str, **sections: str) -> tuple[int, list[str]]:
        config = _config(tmp_path, device, pictures, **sections)
        # Time enough for a busy machine: an answer ends the wait as soon as it comes.
        status = main(["doctor", "--config", str(config), "--timeout", "120", *options])
        return status, capsys.readouterr().out.splitlines()

    return run


def _simulator(folder: Path, **options: Any) -> BoardSimulator:
    """A simulated board on a real pty behind a symlink in ``folder``."""
    return BoardSimulator(link=folder / "board", settings=FAST_FIRMWARE, **options)


def _failed(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("FAIL")]


def test_all_green_on_the_simulated_board(tmp_path: Path, doctor: Doctor) -> None:
    link = tmp_path / "tabula-board"
    simulator = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim-board", "--link", str(link)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert simulator.stdout is not None
        assert simulator.stdout.readline().strip() == str(link)  # serving
        with Mosquitto(tmp_path / "broker") as broker:
            mqtt = f'broker = "{broker.url}"\nboard_id = "table-7"'
            engine = 'kind = "cli"\nbudget = 120.0'  # time enough for a busy machine
            status, lines = doctor(str(link), engine=engine, mqtt=mqtt)
    finally:
        simulator.terminate()
        simulator.wait(timeout=20)
    assert status == 0, "\n".join(lines)
    checks = [line.split(":")[0].split(maxsplit=1) for line in lines[:-1]]
    assert checks == [
        ["ok", name]
        for name in (
            "configuration", "serial device", "serial name", "serial access", "board",
            "protocol", "sensors", "camera", "camera resolution", "camera focus",
            "camera markers", "gpio", "gpio pins", "engine", "journal", "mqtt",
        )
    ]  # fmt: skip
    assert "ok    board: 'tabula-fw 1.1' answers HELLO (158 sensor slots)" in lines
    assert "ok    protocol: the board and this host speak protocol 1.1" in lines
    assert "ok    sensors: 158 slots read right over 8 scans (the checkers as they start)" in lines
    assert "ok    camera resolution: 640x480, calibrated" in lines
    assert (
        "ok    camera markers: markers 0, 1, 2, 3 found where the calibration puts them "
        "(within 0.0 px)"
    ) in lines
    assert any(
        line.startswith("ok    engine: gnubg-cli answers: 31 from the start,") for line in lines
    )
    assert f"ok    mqtt: broker '{broker.url}' accepts the board as anonymous" in lines
    assert lines[-1] == "# every check passed"


def test_no_serial_device(doctor: Doctor) -> None:
    status, lines = doctor("/dev/tabula-board-unplugged")
    assert status == 1
    assert _failed(lines) == [
        "FAIL  serial device: no such device '/dev/tabula-board-unplugged'; to fix: plug the "
        "sensor board's USB cable in (ls /dev/ttyACM* lists the serial ports), and check "
        "[board] serial_device; for /dev/tabula-board, install the udev rule "
        'hardware/99-tabula-board.rules (hardware/README.md, "The udev rule")'
    ]
    # What needs the device is left out; the other parts are still checked.
    assert not [line for line in lines if line.split(":")[0].endswith(("board", "protocol"))]
    assert any(line.startswith("ok    camera focus:") for line in lines)
    assert lines[-1] == "# 1 check failed"


def test_a_board_of_another_protocol_version(tmp_path: Path, doctor: Doctor) -> None:
    with _simulator(tmp_path, protocol=(2, 0)) as sim:
        status, lines = doctor(sim.path)
    assert status == 1
    assert "ok    board: 'tabula-fw 2.0' answers HELLO (158 sensor slots)" in lines
    assert _failed(lines) == [
        "FAIL  protocol: board 'tabula-fw 2.0' speaks protocol 2.0; this host speaks 1.1: "
        "update the firmware or the host so that the major versions match; to fix: flash the "
        "firmware of this Tabula version on the board (make firmware; hardware/README.md)"
    ]


_MEND = (
    "; to fix: mend the slot as the line says (the wiring is in hardware/README.md), then run "
    "tabula doctor again"
)


@pytest.mark.parametrize(
    ("location", "slot", "fault", "expected"),
    [
        (12, 1, "dead", "FAIL  sensor 13/2: slot 13/2 (point 13, second sensor) reads 0 counts: "
         "no signal, check its wire and 3V3"),
        (5, 0, "noisy", "FAIL  sensor 6/1: slot 6/1 (point 6, first sensor) reads "),
        (2, 0, "stuck", "FAIL  sensor 3/1: slot 3/1 (point 3, first sensor) reads "),
        (18, 4, "open", "FAIL  sensor 19/5: slot 19/5 (point 19, fifth sensor) reads "),
    ],
)  # fmt: skip
def test_a_broken_sensor_slot(
    location: int,
    slot: int,
    fault: str,
    expected: str,
    *,
    tmp_path: Path,
    doctor: Doctor,
) -> None:
    with _simulator(tmp_path) as sim:
        sim.fault(location, slot, fault)
        status, lines = doctor(sim.path)
    assert status == 1
    [failed] = _failed(lines)
    assert failed.startswith(expected)
    assert failed.endswith(_MEND)
    why = {
        "dead": ": no signal, check its wire and 3V3",
        "noisy": "check its ground wire and decoupling capacitor",
        "stuck": ": a checker, but point 3 holds none: stuck, check the sensor",
        "open": ": floating (it jumps across the whole range), check the wire from the "
        "sensor's output to the multiplexer",
    }[fault]
    assert failed.removesuffix(_MEND).endswith(why)


def test_what_lies_on_the_board(tmp_path: Path, doctor: Doctor) -> None:
    """A stuck slot shows only against the checkers that lie there."""
    with _simulator(tmp_path, board=(0,) * 26) as sim:
        empty = doctor(sim.path, "--checkers", "none")
        sim.fault(2, 0, "stuck")
        unknown = doctor(sim.path, "--checkers", "any")
        stuck = doctor(sim.path, "--checkers", "none")
    assert empty[0] == unknown[0] == 0
    assert "ok    sensors: 158 slots read right over 8 scans (no checker on the board)" in empty[1]
    assert (
        "ok    sensors: 158 slots read right over 8 scans (the checkers unknown: stuck slots "
        "not sought)"
    ) in unknown[1]
    assert stuck[0] == 1
    [failed] = _failed(stuck[1])
    assert failed.startswith("FAIL  sensor 3/1: slot 3/1 (point 3, first sensor) reads ")


def test_the_checkers_the_command_offers_are_the_checks() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    [option] = [action for action in parser._actions if action.dest == "checkers"]
    assert option.choices == tuple(CHECKERS)


def test_a_board_of_protocol_1_0_has_no_diagnostics(tmp_path: Path, doctor: Doctor) -> None:
    with _simulator(tmp_path, protocol=(1, 0)) as sim:
        status, lines = doctor(sim.path)
    assert status == 1
    assert (
        "ok    protocol: the board speaks 1.0, this host 1.1: compatible (the board's firmware "
        "lacks the newer messages)"
    ) in lines
    assert _failed(lines) == [
        "FAIL  sensors: this board's firmware ('tabula-fw 1.0') does not send diagnostics "
        "(protocol 1.0): update it; to fix: flash the firmware of this Tabula version on the "
        "board (make firmware; hardware/README.md)"
    ]


def test_a_port_that_does_not_answer(tmp_path: Path, doctor: Doctor) -> None:
    with _simulator(tmp_path) as sim:
        sim.mute()
        status, lines = doctor(sim.path, "--timeout", "1")
    assert status == 1
    [failed] = _failed(lines)
    assert failed.startswith("FAIL  board: ")
    assert "no answer to HELLO within" in failed
    assert "is another program holding the port (tabula run: sudo systemctl stop tabula)?" in failed


def test_a_bare_kernel_name_is_a_warning_naming_the_stable_one(tmp_path: Path) -> None:
    with BoardSimulator(settings=FAST_FIRMWARE) as sim:  # its path: the pty itself
        by_id = tmp_path / "by-id"
        by_id.mkdir()
        stable = by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
        stable.symlink_to(sim.path)
        device, name, access = check_device(sim.path, by_id=by_id)
        assert device.status is Status.OK and access.status is Status.OK
        assert name.status is Status.WARN
        assert name.detail == (
            f"{sim.path!r} is the kernel's name of the port: it may change at the next boot or "
            "replug (another USB serial device may take it)"
        )
        assert name.fix.startswith(f'set [board] serial_device = "{stable}", or install the udev')
        assert check_device(str(stable), by_id=by_id)[1] == Finding(
            "serial name", Status.OK, f"{str(stable)!r} is udev's by-id name: it survives a "
            "reboot or a replug",
        )  # fmt: skip


@pytest.mark.parametrize(
    ("camera", "expected"),
    [
        (
            'source = "7"',
            "FAIL  camera: camera 7 cannot be opened (is it plugged in?); to fix: plug the camera "
            'in (ls /dev/video* lists USB cameras; the Pi camera is source = "picamera"), check '
            "[camera] source, and that the user is in group 'video'",
        ),
        (
            'source = "{blurred}"\ncalibration = "{calibration}"',
            "FAIL  camera focus: edges blur over {blur:.1f} px (at most 1.4 when sharp); to fix: "
            "turn the lens until the board's edges and the markers are crisp, clean it, and "
            "check the camera is not closer to the board than its focus range\n"
            # Blurred, the markers are lost too: the line before says why.
            "FAIL  camera markers: found markers [], need at least 4 of [0, 1, 2, 3] (ArUco "
            "DICT_4X4_50) to calibrate; to fix: put the board's 4 ArUco markers (tabula "
            "calibration-sheet prints them) in the camera's view, lit and uncovered",
        ),
        (
            'source = "{no-markers}"\ncalibration = "{calibration}"',
            "FAIL  camera markers: found markers [], need at least 4 of [0, 1, 2, 3] (ArUco "
            "DICT_4X4_50) to calibrate; to fix: put the board's 4 ArUco markers (tabula "
            "calibration-sheet prints them) in the camera's view, lit and uncovered",
        ),
    ],
    ids=["does-not-open", "out-of-focus", "no-markers"],
)
def test_a_broken_camera(
    camera: str,
    expected: str,
    *,
    board: str,
    pictures: dict[str, Path],
    doctor: Doctor,
) -> None:
    names = {name: str(path) for name, path in pictures.items()}
    blur = edge_blur(cv2.imread(names["blurred"]))
    status, lines = doctor(board, camera=camera.format(**names))
    assert status == 1
    assert _failed(lines) == expected.format(blur=blur).splitlines()


def test_a_camera_is_judged_once_its_exposure_settled(
    tmp_path: Path, board: str, pictures: dict[str, Path], doctor: Doctor
) -> None:
    """A camera's first frames are dark while its exposure settles: a later one is judged."""
    sharp = cv2.imread(str(pictures["sharp"]))
    video = tmp_path / "camera.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"FFV1"), 30, (640, 480))
    for frame in [sharp * 0] * (WARM_UP_FRAMES - 1) + [sharp] * 3:
        writer.write(frame)
    writer.release()
    status, lines = doctor(board, camera=f'source = "{video}"\ncalibration = '
                           f'"{pictures["calibration"]}"')  # fmt: skip
    assert status == 0, "\n".join(lines)
    assert (
        "ok    camera markers: markers 0, 1, 2, 3 found where the calibration puts them "
        "(within 0.0 px)"
    ) in lines


def test_a_camera_moved_since_its_calibration(
    tmp_path: Path, board: str, pictures: dict[str, Path], doctor: Doctor
) -> None:
    sharp = cv2.imread(str(pictures["sharp"]))

    def seen_at(left: int) -> Image:
        """The camera's picture of the board whose left edge is ``left`` pixels in."""
        picture = np.full((560, 720, 3), 90, dtype=np.uint8)
        picture[40:520, left : left + 640] = sharp
        return picture

    calibration, moved = tmp_path / "camera.toml", tmp_path / "moved.png"
    save_calibration(calibration, calibrate(seen_at(40))[0])
    cv2.imwrite(str(moved), seen_at(60))  # the board 20 pixels further right
    camera = f'source = "{moved}"\ncalibration = "{calibration}"'
    status, lines = doctor(board, camera=camera)
    assert status == 1
    assert _failed(lines) == [
        "FAIL  camera markers: markers 0, 1, 2, 3 found 20 px (of the board view) from where "
        "the calibration puts them: the camera or the board moved; to fix: fix the camera's "
        'mount, then calibrate again: set [camera] calibration = "/etc/tabula/camera.toml" '
        "in the configuration, then tabula calibrate --config CONFIG (it writes that file)"
    ]
    # Not calibrated yet: the markers are found, the calibration is asked for.
    status, lines = doctor(board, camera=f'source = "{moved}"')
    assert status == 0
    assert "ok    camera markers: markers 0, 1, 2, 3 found: the board view can be calibrated" in (
        lines
    )
    assert (
        "warn  camera resolution: 720x560; not calibrated: the whole frame is searched for dice; "
        'to fix: set [camera] calibration = "/etc/tabula/camera.toml" in the configuration, '
        "then tabula calibrate --config CONFIG (it writes that file)"
    ) in lines


def test_a_broker_that_refuses(tmp_path: Path, board: str, doctor: Doctor) -> None:
    with Mosquitto(tmp_path / "broker", users={"hub": "hub-secret"}) as broker:
        status, lines = doctor(board, mqtt=f'broker = "{broker.url}"\nboard_id = "table-7"')
    assert status == 1
    assert _failed(lines) == [
        f"FAIL  mqtt: broker '{broker.url}' refused the connection: [code:135] Not authorized; "
        "to fix: check [mqtt] username and password against the broker's users (mosquitto's "
        "password_file) and its ACL"
    ]


def test_a_broker_that_is_not_there(board: str, doctor: Doctor) -> None:
    url = f"mqtt://127.0.0.1:{free_port()}"
    status, lines = doctor(board, mqtt=f'broker = "{url}"\nboard_id = "table-7"')
    assert status == 1
    [failed] = _failed(lines)
    assert failed.startswith(f"FAIL  mqtt: cannot reach broker '{url}': ")
    assert failed.endswith("to fix: check [mqtt] broker (scheme, host, port), that the broker "
                           "runs, and the network; for mqtts://, [mqtt] ca_file")  # fmt: skip


def test_a_pin_factory_that_cannot_start(board: str, doctor: Doctor) -> None:
    status, lines = doctor(board, gpio='pin_factory = "lgpio"')
    assert status == 1
    [failed] = _failed(lines)
    assert failed.startswith("FAIL  gpio: pin factory 'lgpio' cannot start: ")
    assert failed.endswith(
        "to fix: on a Raspberry Pi: install lgpio (the pi extra, or Debian's python3-lgpio) and "
        "add the user to group 'gpio'; elsewhere: [gpio] pin_factory = \"mock\""
    )
    assert not [line for line in lines if line.startswith("ok    gpio pins")]


def test_a_pin_this_pi_does_not_have(
    board: str, doctor: Doctor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_MOCK_REVISION", "0002")  # a first Pi: a 26-pin header
    status, lines = doctor(board)
    assert status == 1
    assert _failed(lines) == [
        "FAIL  gpio pins: PinInvalidPin: 5 is not a valid pin name; to fix: check the pins of "
        "[gpio.pins] and the pin map against the wiring (hardware/pinmap.toml), and that no "
        "other program uses them"
    ]


def test_an_engine_that_is_not_there(board: str, doctor: Doctor) -> None:
    status, lines = doctor(board, engine='kind = "cli"\nprogram = "/bin/false"')
    assert status == 1
    [failed] = _failed(lines)
    assert failed.startswith("FAIL  engine: ")
    assert failed.endswith("to fix: check that the gnubg program runs: gnubg --tty")


def test_a_bad_configuration_stops_there(tmp_path: Path, doctor: Doctor) -> None:
    status, lines = doctor("/dev/null", game="match_lenght = 3\ncrawford = 1")
    config = tmp_path / "tabula.toml"
    assert status == 1
    assert lines == [
        f"FAIL  configuration: 2 problems: {config}:12: game.match_lenght: unknown key (did you "
        f"mean 'match_length'?) | {config}:13: game.crawford: expected true or false, got 1; to "
        "fix: fix the keys named (hardware/tabula.example.toml documents each); tabula "
        f"check-config --config {config} checks the file alone",
        "# 1 check failed",
    ]


def test_the_journal_needs_room(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "journal.sqlite3"
    assert check_journal(journal).status is Status.OK
    tight = check_journal(journal, free_fail=1 << 62, free_warn=1 << 62)
    assert tight.status is Status.FAIL
    assert tight.detail.startswith(f"'{journal.parent}' (to be made) is writable, ")
    assert tight.fix == f"free some space on the disk of '{tmp_path}' (df -h {tmp_path})"
    assert check_journal(journal, free_fail=0, free_warn=1 << 62).status is Status.WARN


_NOBODY = 65534


def _as_nobody(check: Callable[[], list[Finding]]) -> list[Finding]:
    """What ``check`` finds run by the user nobody (in a forked child that drops root)."""
    if os.geteuid() != 0:
        pytest.skip("becoming another user needs root")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        try:
            os.close(read)
            os.setgroups([])
            os.setresgid(_NOBODY, _NOBODY, _NOBODY)
            os.setresuid(_NOBODY, _NOBODY, _NOBODY)
            os.write(write, pickle.dumps(check()))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        found: list[Finding] = pickle.loads(answer.read())
    os.waitpid(child, 0)
    return found


def test_a_port_the_user_may_not_open(board: str) -> None:
    pty = os.path.realpath(board)
    os.chown(pty, -1, grp.getgrnam("dialout").gr_gid)  # as the udev rule leaves the port
    os.chmod(pty, 0o660)
    device, name, access = _as_nobody(lambda: check_device(pty))
    assert (device.status, name.status) == (Status.OK, Status.WARN)
    assert access == Finding(
        "serial access", Status.FAIL, f"nobody may not open {pty!r} (group 'dialout', mode "
        "660)", "add nobody to group 'dialout': sudo usermod -aG dialout nobody, then log in "
        "again (the service's user, tabula, is in it: hardware/SERVICE.md)",
    )  # fmt: skip
    # The board's link lies in pytest's directory, which only root may enter.
    assert _as_nobody(lambda: check_device(board)) == [
        Finding(
            "serial device", Status.FAIL, f"nobody cannot reach {board!r}: Permission denied",
            "name the port where the user may reach it ([board] serial_device), or run as the "
            "service's user (sudo -u tabula tabula doctor)",
        )
    ]  # fmt: skip


def test_a_journal_the_user_may_not_write() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)  # nobody may look, not write
        journal = folder / "state" / "journal.sqlite3"
        [finding] = _as_nobody(lambda: [check_journal(journal)])
    assert finding == Finding(
        "journal", Status.FAIL, f"nobody may not write '{folder}'", "run as the service's "
        "user (sudo -u tabula tabula doctor), whose directory systemd makes "
        f"(StateDirectory=tabula), or: sudo install -d -o nobody {journal.parent}",
    )  # fmt: skip


def _rendered(seed: int, blur: float) -> Image:
    image = render_roll(random.Random(seed), markers=True).image
    return image if blur == 0 else cv2.GaussianBlur(image, (0, 0), blur)


@pytest.mark.parametrize("seed", range(4))
def test_edge_blur_tells_focus_from_content(seed: int) -> None:
    """Sharp boards of any content pass, at any resolution; a blur that loses markers fails."""
    sharp = _rendered(seed, 0)
    assert edge_blur(sharp) < MAX_EDGE_BLUR
    larger = cv2.resize(sharp, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    assert edge_blur(larger) < MAX_EDGE_BLUR
    assert edge_blur(_rendered(seed, 2)) > MAX_EDGE_BLUR
    assert edge_blur(sharp[:, :, 0] * 0) == float("inf")  # the lens cap on


def test_a_problem_comes_with_its_fix_and_only_a_problem() -> None:
    with pytest.raises(ValueError, match="a fix goes with a problem, and only then"):
        Finding("camera", Status.FAIL, "no frame")
    with pytest.raises(ValueError, match="a fix goes with a problem, and only then"):
        Finding("camera", Status.OK, "frames", "nothing to do")
    assert Finding("camera", Status.WARN, "small", "a larger mode").line() == (
        "warn  camera: small; to fix: a larger mode"
    )

"""``tabula run``: the service from a configuration file, on the simulated board and pins.

It journals a new match, tells systemd it is ready and pings the watchdog, sees the
board through the real pty, and stops cleanly on SIGTERM; restarted, it resumes.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.mqtt.mosquitto import free_port
from controller.record import JournalDamagedError, MatchStarted
from controller.record.journal import Journal
from controller.rules import Rules
from controller.simulated.demo import DEMO_PINMAP, FAST_FIRMWARE
from hardware.simulator import BoardSimulator
from tests.commands.test_plays import tabula
from tests.firmware_bridge.conftest import PATIENCE_S
from tests.record.damage import contents, damage_log, power_cut_image, rows_sqlite_keeps
from tests.record.matches import selfplay_events
from tests.web.raw_http import refusal


def _config(tmp_path: Path, device: str, extra: str = "[web]\nenabled = false\n") -> Path:
    path = tmp_path / "tabula.toml"
    path.write_text(
        f"""
mode = "learner"
journal = "{tmp_path / "journal.sqlite3"}"
[board]
serial_device = "{device}"
settle_s = 0.02
flipped = true
[camera]
enabled = false
[gpio]
pin_factory = "mock"
leds = "shift-register"
[game]
match_length = 3
[players]
player_0 = "Ann"
player_1 = "Bob"
{extra}"""
    )
    return path


def _notify_socket(tmp_path: Path) -> tuple[str, socket.socket]:
    """A socket standing for systemd's notify socket, and its path."""
    notify = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(notify)
    sock.settimeout(0.5)
    return notify, sock


def _start(config: Path, notify: str) -> subprocess.Popen[str]:
    env = dict(os.environ, NOTIFY_SOCKET=notify, WATCHDOG_USEC="200000")
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )


def _messages(sock: socket.socket, until: bytes, timeout: float = PATIENCE_S) -> list[bytes]:
    seen: list[bytes] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen.append(sock.recv(4096))
        except TimeoutError:
            continue
        if any(until in message for message in seen):
            return seen
    raise AssertionError(f"no {until!r} from the service; got {seen!r}")


def test_run_journals_notifies_systemd_and_resumes_after_sigterm(tmp_path: Path) -> None:
    notify, sock = _notify_socket(tmp_path)
    with BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim:
        config = _config(tmp_path, sim.path)
        service = _start(config, notify)
        try:
            messages = _messages(sock, b"WATCHDOG=1")
            assert any(m.startswith(b"READY=1") for m in messages)
            assert any(b"new match" in m for m in messages)
        finally:
            service.send_signal(signal.SIGTERM)
            _, stderr = service.communicate(timeout=PATIENCE_S)
        assert service.returncode == 0, stderr
        assert "player 0 (Ann) sits at the far side, colour B" in stderr
        frozen = re.search(r"start-up done: (\d+) objects kept out of the collector", stderr)
        assert frozen is not None and int(frozen[1]) > 10_000, stderr
        with Journal(tmp_path / "journal.sqlite3", readonly=True) as journal:
            assert journal.state is not None
            assert journal.state.names == ("Ann", "Bob")
        again = _start(config, notify)
        try:
            messages = _messages(sock, b"READY=1")
            assert any(b"resumed after 1 events" in m for m in messages)
        finally:
            again.send_signal(signal.SIGTERM)
            _, stderr = again.communicate(timeout=PATIENCE_S)
        assert again.returncode == 0, stderr
    sock.close()


def test_run_referees_the_variant_of_the_configuration(tmp_path: Path) -> None:
    notify, sock = _notify_socket(tmp_path)
    with BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim:
        config = _config(tmp_path, sim.path)
        jacquet = 'match_length = 3\nvariant = "jacquet-versailles"'
        config.write_text(config.read_text().replace("match_length = 3", jacquet))
        service = _start(config, notify)
        try:
            assert any(m.startswith(b"READY=1") for m in _messages(sock, b"READY=1"))
        finally:
            service.send_signal(signal.SIGTERM)
            _, stderr = service.communicate(timeout=PATIENCE_S)
        assert service.returncode == 0, stderr
    sock.close()
    with Journal(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert journal.events()[0] == MatchStarted(("Ann", "Bob"), Rules(3), "jacquet-versailles")


def _status_until(port: int, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The web status once ``wanted`` holds for it (polled; bounded by the suite's patience)."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status") as answer:
            status: dict[str, Any] = json.load(answer)
        if wanted(status):
            return status
        assert time.monotonic() < deadline, f"still waiting, the status is {status}"
        time.sleep(0.05)


def _web(port: int) -> str:
    return f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n'


def _refusals(port: int, count: int) -> list[bytes]:
    """What the page sends at once on ``count`` connections held open together, sending
    nothing: the answers of those it refuses (a connection taken waits for its request)."""
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    try:
        answered, _, _ = select.select(held, [], [], PATIENCE_S)
        return [connection.recv(65536) for connection in answered]
    finally:
        for connection in held:
            connection.close()


def test_run_says_what_it_waits_for_when_the_board_is_missing(tmp_path: Path) -> None:
    """...and holds the page's connections to ``[web]``'s limits."""
    notify, sock = _notify_socket(tmp_path)
    port = free_port()
    missing = tmp_path / "tabula-board"
    limits = "max_connections = 8\nper_client = 2\n"
    service = _start(_config(tmp_path, str(missing), _web(port) + limits), notify)
    try:
        _messages(sock, b"READY=1")
        status = _status_until(port, lambda s: any("sensor board" in a for a in s["alerts"]))
        # A third connection from this address is refused, naming the configured limit (a
        # connection of the polling above not closed yet may have one refused sooner).
        refusals = _refusals(port, 3)
    finally:
        service.send_signal(signal.SIGINT)
        _, stderr = service.communicate(timeout=PATIENCE_S)
    sock.close()
    alerts = status["alerts"]
    assert status["links"]["board"] == "searching"
    assert status["lights"][-1] == {"colour": "red", "blink": "flash"}  # the status LED
    assert status["link_text"].startswith("sensor board: not found: looking for it")
    assert f"sensor board: cannot open {str(missing)!r}: " in " ".join(alerts)
    assert f"WARNING firmware_bridge.link: board on {str(missing)!r}: cannot open" in stderr
    assert service.returncode == 0, stderr
    assert refusals, "no connection refused"
    assert all("at most 2)" in refusal(answer) for answer in refusals), refusals


def test_the_status_led_and_the_page_follow_a_silent_and_an_unplugged_board(
    tmp_path: Path,
) -> None:
    notify, sock = _notify_socket(tmp_path)
    port = free_port()
    with BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim:
        service = _start(_config(tmp_path, sim.path, _web(port)), notify)
        try:
            _messages(sock, b"READY=1")
            live = _status_until(port, lambda s: s["links"]["board"] == "live")
            assert live["link_text"].startswith("sensor board: connected")
            # The set-up page is served, its actions behind the token (none configured).
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/setup") as page:
                assert b"<title>" in page.read()
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup/state")
            assert refused.value.code in (401, 403)
            match_lamp = live["lights"][-1]
            sim.mute()
            stale = _status_until(port, lambda s: s["links"]["board"] == "stale")
            assert stale["lights"][-1] == {"colour": "red", "blink": "steady"}
            assert stale["link_text"].startswith("sensor board: silent: it stopped answering")
            sim.mute(False)
            again = _status_until(port, lambda s: s["links"]["board"] == "live")
            assert again["lights"][-1] == match_lamp
            sim.disconnect()
            gone = _status_until(port, lambda s: s["links"]["board"] == "searching")
            assert gone["lights"][-1] == {"colour": "red", "blink": "flash"}
            sim.reconnect()
            back = _status_until(port, lambda s: s["links"]["board"] == "live")
            assert back["lights"][-1] == match_lamp
        finally:
            service.send_signal(signal.SIGINT)
            _, stderr = service.communicate(timeout=PATIENCE_S)
        assert service.returncode == 0, stderr
    sock.close()


def test_the_set_up_page_sees_the_camera_the_dice_reader_opened(tmp_path: Path) -> None:
    import random

    import cv2

    from vision import render_roll

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render_roll(random.Random(2), markers=True).image)
    notify, sock = _notify_socket(tmp_path)
    port = free_port()
    extra = _web(port) + 'token = "secret-token-0123456789"\n'
    with BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim:
        config = _config(tmp_path, sim.path, extra)
        camera = f'[camera]\nenabled = true\nsource = "{frames}"\n'
        config.write_text(config.read_text().replace("[camera]\nenabled = false\n", camera))
        service = _start(config, notify)
        try:
            _messages(sock, b"READY=1")
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/setup/camera",
                headers={"Authorization": "Bearer secret-token-0123456789"},
            )
            deadline = time.monotonic() + PATIENCE_S
            while True:  # until the dice reader has taken its first frame
                try:
                    with urllib.request.urlopen(request) as answer:
                        look = json.load(answer)
                    break
                except urllib.error.HTTPError as error:
                    assert error.code == 409 and time.monotonic() < deadline, error.read()
                    time.sleep(0.1)
        finally:
            service.send_signal(signal.SIGINT)
            _, stderr = service.communicate(timeout=PATIENCE_S)
        assert service.returncode == 0, stderr
    sock.close()
    assert look["markers"] == [0, 1, 2, 3]
    assert look["calibration"] == "found now, not stored"


def test_a_sigint_stop_darkens_the_board_leds_without_an_error(tmp_path: Path) -> None:
    notify, sock = _notify_socket(tmp_path)
    with BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim:
        config = _config(tmp_path, sim.path)
        config.write_text(config.read_text().replace('"shift-register"', '"board"'))
        service = _start(config, notify)
        try:
            _messages(sock, b"WATCHDOG=1")
            deadline = time.monotonic() + PATIENCE_S
            while all(pixel == (0, 0, 0) for pixel in sim.leds.pixels):
                assert time.monotonic() < deadline, "the service never lit the board"
                time.sleep(0.02)
        finally:
            service.send_signal(signal.SIGINT)
            _, stderr = service.communicate(timeout=PATIENCE_S)
        deadline = time.monotonic() + PATIENCE_S
        while any(pixel != (0, 0, 0) for pixel in sim.leds.pixels):
            assert time.monotonic() < deadline, "the board's LEDs stayed lit after the stop"
            time.sleep(0.02)
    sock.close()
    assert service.returncode == 0, stderr
    assert "never retrieved" not in stderr and "Traceback" not in stderr, stderr


def test_run_refuses_a_journal_that_lost_committed_events_in_one_line(tmp_path: Path) -> None:
    """It resumed the shorter match without a word, checkpointing the loss into the file."""
    live, path = tmp_path / "live.sqlite3", tmp_path / "journal.sqlite3"
    with Journal(live) as journal:
        for event in selfplay_events(3, 3)[:30]:
            journal.append(event)
        power_cut_image(live, path)  # the power went with the match in the log
    damage_log(path)
    assert rows_sqlite_keeps(path, tmp_path / "scratch.sqlite3") < 30
    with pytest.raises(JournalDamagedError) as refusal:
        Journal(path, readonly=True)
    before = contents(path)
    run = tabula("run", "--config", str(_config(tmp_path, "/dev/no-board")), timeout=PATIENCE_S)
    assert (run.returncode, run.stderr) == (2, f"tabula run: {refusal.value}\n")
    assert "events" in str(refusal.value) and "missing" in str(refusal.value)
    assert contents(path) == before

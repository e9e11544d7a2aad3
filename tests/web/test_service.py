"""``tabula run`` with ``[web]`` and ``[mqtt]``: the real service's page and its hall presence.

The service runs on the pty board simulator (as ``tests/commands/test_run.py``); a private
Mosquitto and an in-process hub receive what it publishes.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from controller.config import MqttConfig
from controller.hub import Hub
from controller.mqtt.mosquitto import Mosquitto, free_port
from controller.simulated.demo import DEMO_PINMAP, FAST_FIRMWARE
from hardware.simulator import BoardSimulator
from tests._browser import ARTIFACTS, CHROMIUM, chromium_page
from tests.commands.test_run import _config

TOKEN = "referee-token-0123456789"
ROOT = Path(__file__).resolve().parents[2]

if shutil.which("mosquitto") is None and shutil.which("mosquitto", path="/usr/sbin") is None:
    pytest.skip("Debian's mosquitto is missing: make system-deps", allow_module_level=True)


async def _until_json(session: aiohttp.ClientSession, url: str, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            async with session.get(url) as response:
                data: dict = await response.json()
                return data
        except aiohttp.ClientError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


def test_the_service_serves_its_page_and_publishes_to_the_hub(tmp_path: Path) -> None:
    port = free_port()
    with (
        Mosquitto(tmp_path / "broker") as broker,
        BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as sim,
    ):
        extra = (
            f'[web]\nport = {port}\ntoken = "{TOKEN}"\n'
            f'[mqtt]\nbroker = "{broker.url}"\nboard_id = "pi-1"\n'
        )
        config = _config(tmp_path, sim.path, extra)
        hub = Hub(MqttConfig(broker.url, "hub"), tmp_path / "archive", port=0)
        url = f"http://127.0.0.1:{port}/"

        async def main() -> None:
            following = asyncio.create_task(hub.run())
            service = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "controller.cli", "run", "--config", str(config),
                cwd=ROOT, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            try:
                async with aiohttp.ClientSession() as session:
                    status = await _until_json(session, url + "api/status")
                    assert (status["board_id"], status["players"]) == ("pi-1", ["Ann", "Bob"])
                    async with session.post(url + "api/action", json={"action": "accept"}) as r:
                        assert r.status == 401
                    headers = {"Authorization": f"Bearer {TOKEN}"}
                    await _refused_new_matches(session, url + "api/action", headers)
                    assert status["orientation_pending"] and status["phase"] == "orientation"
                    await _page_shows(url, "Ann")
                    body = {"action": "new-match", "length": 5, "names": ["Cy", "Di"]}
                    async with session.post(url + "api/action", json=body, headers=headers) as r:
                        assert r.status == 200, await r.text()
                        assert (await r.json())["status"]["players"] == ["Cy", "Di"]
                for _ in range(200):
                    view = hub.state.boards.get("pi-1")
                    status_now = view.status if view is not None and view.online else None
                    if status_now is not None and status_now.players == ("Cy", "Di"):
                        break
                    await asyncio.sleep(0.05)
                assert view is not None and view.online and view.status is not None
                assert view.status.players == ("Cy", "Di")
                # One sequence per board: the new journal numbers on from the old one.
                assert (view.first_seq, view.last_seq, view.missing) == (1, 3, 0)
                assert (view.journals, view.duplicates) == (0, 0)
                archived = sorted(tmp_path.glob("journal-*-seq1-2.sqlite3"))  # its orientation
                assert len(archived) == 1, list(tmp_path.iterdir())
            finally:
                service.send_signal(signal.SIGTERM)
                _, stderr = await service.communicate()
                assert service.returncode == 0, stderr.decode()
                for _ in range(100):
                    if hub.state.boards["pi-1"].online is False:
                        break
                    await asyncio.sleep(0.05)
                following.cancel()
                await asyncio.gather(following, return_exceptions=True)
            assert hub.state.boards["pi-1"].online is False  # said offline when stopped
            assert f"web view on {url}" in stderr.decode()

        asyncio.run(main())


async def _refused_new_matches(
    session: aiohttp.ClientSession, url: str, headers: dict[str, str]
) -> None:
    """Bad new-match and new-game requests get a 4xx naming the problem; nothing changes."""
    for body, code, message in (
        ({"action": "new-match", "length": -1}, 400, "from 0 (money play) to 64, got -1"),
        ({"action": "new-match", "names": ["Cy"]}, 400, "two strings, got ['Cy']"),
        ({"action": "new-match", "colour": "red"}, 400, "unknown fields ['colour']"),
        ({"action": "new-match", "length": 5, "jacoby": True}, 409, "money play only"),
        ({"action": "new-match", "names": ["Cy", "Cy:2"]}, 409, "without ':'"),
        ({"action": "new-game"}, 409, "no game in progress"),
        ({"action": "new-game", "reason": ""}, 400, "reason: 1 to 200 characters"),
    ):
        async with session.post(url, json=body, headers=headers) as response:
            assert response.status == code, (body, await response.text())
            assert message in (await response.json())["error"], body
    async with session.get(url.replace("action", "status")) as response:
        status = await response.json()
    assert (status["players"], status["seq"]) == (["Ann", "Bob"], 1)


async def _page_shows(url: str, name: str) -> None:
    """The page, in chromium, shows the service's players; a screenshot."""
    if shutil.which(CHROMIUM) is None:
        return  # the browser tests say why they skip
    async with chromium_page(viewport={"width": 1100, "height": 800}) as page:
        await page.goto(url)
        await page.wait_for_function("window.tabulaStatus !== undefined")
        assert await page.text_content("#player0") == name
        status = json.loads(await page.evaluate("JSON.stringify(window.tabulaStatus)"))
        assert status["board_id"] == "pi-1"
        # The sides to confirm before the opening roll: confirmed from the page.
        assert "(to confirm)" in (await page.text_content("#sides") or "")
        await page.click("#referee summary")
        await page.fill("#token", TOKEN)
        await page.click("#confirm-orientation")
        await page.wait_for_function("!window.tabulaStatus.orientation_pending")
        # The answer to the click can come after the status it caused: wait for it.
        await page.wait_for_function(
            "document.querySelector('#action-result').textContent"
            ".includes('orientation: done')", timeout=60000)
        assert await page.is_hidden("#orientation-row")
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "service-board.png"), full_page=True)


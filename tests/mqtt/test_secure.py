"""Broker authentication and TLS from the configuration, against a real Mosquitto.

The certificates are made by ``openssl`` for the test: a certificate authority, and the
broker's certificate for ``localhost`` signed by it (the boards and the hub trust it through
``mqtt.ca_file``).
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.config import MqttConfig
from controller.hub import Hub
from controller.mqtt import MqttPublisher
from controller.mqtt.mosquitto import Mosquitto
from controller.simulated.board_service import SelfPlayBoard

if shutil.which("openssl") is None or (
    shutil.which("mosquitto") is None and shutil.which("mosquitto", path="/usr/sbin") is None
):
    pytest.skip("openssl or mosquitto is missing: make system-deps", allow_module_level=True)


def certificates(directory: Path) -> tuple[Path, Path, Path]:
    """The CA's certificate, and the broker's certificate and key."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "1", "-subj", "/CN=Tabula test CA")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key",
            "-out", "broker.csr", "-subj", "/CN=localhost")  # fmt: skip
    (directory / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "broker.pem", "-days", "1",
            "-extfile", "san.ext")  # fmt: skip
    return directory / "ca.pem", directory / "broker.pem", directory / "broker.key"


def test_boards_and_hub_over_tls_with_passwords(tmp_path: Path) -> None:
    ca, cert, key = certificates(tmp_path)
    users = {"board": "board-secret", "hub": "hub-secret"}
    with Mosquitto(tmp_path / "broker", users=users, tls=(cert, key)) as broker:
        assert broker.url.startswith("mqtts://localhost:")

        def config(user: str, password: str) -> MqttConfig:
            return MqttConfig(broker.url, "s1", username=user, password=password, ca_file=ca)

        async def main() -> None:
            hub = Hub(config("hub", "hub-secret"), tmp_path / "archive", port=0)
            following = asyncio.create_task(hub.run())
            for _ in range(250):  # its session on the broker begins with its first connection
                if hub.connected:
                    break
                await asyncio.sleep(0.02)
            assert hub.connected
            intruder_board = SelfPlayBoard("s2")
            intruder = MqttPublisher(intruder_board, config("board", "wrong"), backoff=(0.1, 0.2))
            refused = asyncio.create_task(intruder.run())
            board = SelfPlayBoard("s1", seed=2, match_length=1)
            publisher = MqttPublisher(board, config("board", "board-secret"), backlog=board.backlog)
            try:
                running = asyncio.create_task(publisher.run())
                await board.play(0.001)
                board.close()
                await running
                for _ in range(200):
                    if hub.state.summary()["archived"] == 1:
                        break
                    await asyncio.sleep(0.02)
                view = hub.state.boards["s1"]
                assert (view.events, view.missing, view.archived) == (board.seq, 0, 1)
                assert intruder.connections == 0 and "s2" not in hub.state.boards
            finally:
                for task in (following, refused):
                    task.cancel()
                await asyncio.gather(following, refused, return_exceptions=True)

        asyncio.run(main())

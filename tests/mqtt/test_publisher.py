"""The board's MQTT publisher stops when cancelled, whatever its client's publish does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.config import MqttConfig
from controller.mqtt import MqttPublisher
from controller.mqtt.mosquitto import Mosquitto
from controller.simulated.board_service import SelfPlayBoard

try:
    _probe = Mosquitto(Path("/nonexistent"))
except Exception:
    pytest.skip("Debian's mosquitto is missing: make system-deps", allow_module_level=True)


class _AnswerMeetsCancel(aiomqtt.Client):
    """A client whose heartbeat's answer comes just as the task is cancelled.

    aiomqtt waits for the broker through ``asyncio.wait_for``, and Python 3.11's returns
    the answer then, dropping the cancellation (python/cpython#86296): seen at random with
    200 boards. Here that moment is made certain: the publish returns over it.
    """

    async def publish(self, topic: Any, *args: Any, **kwargs: Any) -> None:
        if not str(topic).endswith("/heartbeat"):
            await super().publish(topic, *args, **kwargs)
            return
        self.heartbeats_waiting = True
        try:
            await asyncio.Event().wait()  # the broker's answer is on its way...
        except asyncio.CancelledError:
            return  # ...and arrives with the cancellation, as wait_for returns it


def test_a_cancelled_publisher_stops_even_when_its_publish_returns_over_it(
    tmp_path: Path,
) -> None:
    board = SelfPlayBoard("stopping", seed=1, match_length=1)
    clients: list[_AnswerMeetsCancel] = []

    def factory(**options: Any) -> _AnswerMeetsCancel:
        clients.append(_AnswerMeetsCancel(**options))
        return clients[-1]

    async def main(broker: Mosquitto) -> bool:
        publisher = MqttPublisher(
            board, MqttConfig(broker.url, "stopping"), client_factory=factory, keepalive=2
        )
        task = asyncio.create_task(publisher.run())
        async with asyncio.timeout(60):
            while not (clients and getattr(clients[-1], "heartbeats_waiting", False)):
                await asyncio.sleep(0.01)
        task.cancel()
        # A stop that works ends in the loop's next turns; one that lost the cancellation
        # never ends, so the bound only tells the two apart.
        done, _ = await asyncio.wait({task}, timeout=60)
        return task in done

    with Mosquitto(tmp_path / "broker") as broker:
        loop = asyncio.new_event_loop()  # not asyncio.run: a lost stop must fail, not hang
        try:
            assert loop.run_until_complete(main(broker)), "the publisher did not stop"
        finally:
            loop.close()
    board.close()

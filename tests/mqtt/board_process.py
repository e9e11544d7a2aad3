"""One simulated board in its own process, publishing through MqttPublisher until killed.

``python -m tests.mqtt.board_process BROKER BOARD_ID KEEPALIVE``: the tests kill or freeze
it to play a board that dies without a clean disconnect.
"""

from __future__ import annotations

import asyncio
import sys

from controller.config import MqttConfig
from controller.mqtt import MqttPublisher
from controller.simulated.board_service import SelfPlayBoard


async def main(broker: str, board_id: str, keepalive: int) -> None:
    board = SelfPlayBoard(board_id, seed=7, match_length=0, games=1000)
    publisher = MqttPublisher(
        board, MqttConfig(broker, board_id), keepalive=keepalive, backlog=board.backlog
    )
    task = asyncio.create_task(publisher.run())
    await board.play(delay=0.05)
    await task


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))

"""The tournament hub: every board of a hall live on one page, and their matches archived.

* :mod:`~controller.hub.state` — the pure fold of the boards' MQTT messages (:class:`HubState`).
* :mod:`~controller.hub.server` — the asyncio shell: subscriber, page, archive (:class:`Hub`).
"""

from controller.hub.server import Hub, write_archive
from controller.hub.state import Archive, BoardView, HubState

__all__ = ["Archive", "BoardView", "Hub", "HubState", "write_archive"]

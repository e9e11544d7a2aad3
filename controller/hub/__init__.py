"""The tournament hub: every board of a hall live on one page, and their matches archived.

* :mod:`~controller.hub.state` — the pure fold of the boards' MQTT messages (:class:`HubState`).
* :mod:`~controller.hub.server` — the asyncio shell: subscriber, page, archive (:class:`Hub`).
* :mod:`~controller.hub.process` — ``tabula hub`` as a child process (tests, benchmark).
"""

from controller.hub.errors import HubError
from controller.hub.process import hub_process
from controller.hub.server import Hub, write_archive
from controller.hub.state import Archive, BoardView, HubState

__all__ = ["Archive", "BoardView", "Hub", "HubError", "HubState", "hub_process", "write_archive"]

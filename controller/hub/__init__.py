"""The tournament hub: every board of a hall live on one page, and their matches archived.

* :mod:`~controller.hub.state` — the pure fold of the boards' MQTT messages (:class:`HubState`).
* :mod:`~controller.hub.server` — the asyncio shell: subscriber, page, archive (:class:`Hub`).
* :mod:`~controller.hub.process` — ``tabula hub`` as a child process (tests, benchmark).

One hub takes a hall of 500 boards: its CPU per event does not grow with the boards
(``python -m tests.soak hub``). Where one is not enough, ``tabula hub --shard 1/2`` and
``--shard 2/2`` (each with its own ``--client-id``) share the boards by a hash of their
ids, each board whole to one hub (:class:`Shard` says why not a shared subscription).
"""

from controller.hub.errors import HubError, ShardError
from controller.hub.process import hub_process
from controller.hub.server import Hub, write_archive
from controller.hub.state import Archive, BoardView, HubState, Shard

__all__ = [
    "Archive",
    "BoardView",
    "Hub",
    "HubError",
    "HubState",
    "Shard",
    "ShardError",
    "hub_process",
    "write_archive",
]

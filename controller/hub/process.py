"""``tabula hub`` as a child process: its page's address once it serves, and its pid.

Why: the tests of the command and the MQTT benchmark (which reads the hub's own CPU and
memory from /proc) both need the real command in a process of its own.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.hub.errors import HubError
from controller.hub.state import WHOLE, Shard

__all__ = ["hub_process"]


@contextmanager
def hub_process(
    broker: str, archive: Path, shard: Shard = WHOLE
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run ``tabula hub --broker BROKER --archive ARCHIVE --port 0``; yield it and its URL.

    A hub of a ``shard`` of several gets ``--shard`` and a client id of its own.

    Raises:
        HubError: if the hub exits before it serves its page.
    """
    command = [sys.executable, "-m", "controller.cli", "hub", "--broker", broker]
    command += ["--archive", str(archive), "--port", "0"]
    if shard.count > 1:
        command += [
            "--shard",
            shard.text(),
            "--client-id",
            f"tabula-hub-{shard.number}-of-{shard.count}",
        ]
    # Its log goes to a file: a pipe nobody reads would stop a chatty hub once full.
    with tempfile.TemporaryFile("w+") as log:
        hub = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            assert hub.stdout is not None
            line = hub.stdout.readline()
            if not line.startswith("tabula hub: http://"):
                hub.kill()
                hub.wait()
                log.seek(0)
                raise HubError(f"tabula hub did not start: {line!r} {log.read()!r}")
            yield hub, line.split()[2]
        finally:
            hub.terminate()
            hub.wait(5)

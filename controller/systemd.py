"""Telling systemd how the service is doing (``sd_notify``), with a plain unix socket.

Why no libsystemd binding: the protocol is one datagram of ``KEY=value`` lines to the
socket named by ``$NOTIFY_SOCKET``, which is a dozen lines of Python, and a binding would
be one more compiled dependency on the Pi. The unit (``hardware/tabula.service``) is
``Type=notify`` with a watchdog: the service says ``READY=1`` once the board, camera and
pins are up, then :func:`watchdog_loop` sends ``WATCHDOG=1`` at half the interval systemd
gives in ``$WATCHDOG_USEC`` for as long as the service's own health check passes, so a
hung event loop gets the service restarted (``Restart=on-failure``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Mapping

from controller.closing import Closing
from hardware.board.errors import TabulaError

__all__ = ["NotifyError", "SystemdNotifier", "watchdog_loop"]

_log = logging.getLogger(__name__)


class NotifyError(TabulaError, ValueError):
    """A notification that is not ``KEY=value`` lines."""


class SystemdNotifier(Closing):
    """The service's side of systemd's notify socket; does nothing when not under systemd.

    Example::

        with SystemdNotifier() as systemd:
            systemd.ready("watching the board")
            await watchdog_loop(systemd)

    Args:
        environ: the environment to read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and
            ``WATCHDOG_PID`` from; default ``os.environ``.
        pid: this process's id, compared with ``WATCHDOG_PID``; default ``os.getpid()``.
    """

    def __init__(self, environ: Mapping[str, str] | None = None, *, pid: int | None = None) -> None:
        env = os.environ if environ is None else environ
        self._address: str | bytes | None = None
        path = env.get("NOTIFY_SOCKET", "")
        if path.startswith("@"):
            # An abstract socket: its name starts with a NUL byte, not with "@".
            self._address = b"\0" + path[1:].encode()
        elif path.startswith("/"):
            self._address = path
        elif path:
            _log.warning("NOTIFY_SOCKET %r is neither a path nor an abstract name: ignored", path)
        self._watchdog_s = _watchdog_interval(env, os.getpid() if pid is None else pid)
        self._socket: socket.socket | None = None
        self._failed = False

    @property
    def enabled(self) -> bool:
        """Whether systemd listens (the service was started with ``Type=notify``)."""
        return self._address is not None

    @property
    def watchdog_s(self) -> float | None:
        """systemd's watchdog timeout in seconds, None if there is no watchdog for us."""
        return self._watchdog_s if self.enabled else None

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; whether systemd got them.

        A failure is logged once and never raised: the game must not stop because the
        init system is away. Nor is one waited for: with systemd too busy to read (its
        queue of a few datagrams full), a blocking send held the service's one loop.

        Raises:
            NotifyError: if an assignment is not one ``KEY=value`` line.
        """
        if self._address is None:
            return False
        for line in assignments:
            if "=" not in line or "\n" in line:
                raise NotifyError(f"notify assignment {line!r}: expected one KEY=value line")
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.setblocking(False)  # a full queue: BlockingIOError, said once
            self._socket.sendto("\n".join(assignments).encode(), self._address)
        except OSError as error:
            if not self._failed:
                _log.warning("cannot notify systemd at %r: %s", self._address, error)
            self._failed = True
            return False
        self._failed = False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Tell systemd start-up is over (``READY=1``), with an optional status line."""
        return self.notify("READY=1", *_status(status))

    def status(self, text: str) -> bool:
        """Set the status line ``systemctl status`` shows."""
        return self.notify(*_status(text))

    def stopping(self, status: str | None = None) -> bool:
        """Tell systemd the service is shutting down (``STOPPING=1``)."""
        return self.notify("STOPPING=1", *_status(status))

    def watchdog(self) -> bool:
        """Tell systemd the service is alive (``WATCHDOG=1``)."""
        return self.notify("WATCHDOG=1")

    def close(self) -> None:
        """Close the socket; idempotent."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _status(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    return ("STATUS=" + " ".join(text.split()),)


def _watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
    usec = env.get("WATCHDOG_USEC", "")
    owner = env.get("WATCHDOG_PID", "")
    if not usec:
        return None
    if owner and owner != str(pid):
        return None  # the watchdog is another process's (we were forked from it)
    try:
        value = int(usec)
    except ValueError:
        _log.warning("WATCHDOG_USEC %r is not a number: no watchdog", usec)
        return None
    return value / 1_000_000 if value > 0 else None


async def watchdog_loop(
    notifier: SystemdNotifier,
    *,
    healthy: Callable[[], bool] = lambda: True,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Ping systemd's watchdog at half its interval while ``healthy()``; no watchdog, no loop.

    Why a health check: a loop that still runs while the board link is dead for good is
    not well; skipping the ping lets systemd restart the service.
    """
    interval = notifier.watchdog_s
    if interval is None:
        return
    while True:
        if healthy():
            notifier.watchdog()
        else:
            _log.warning("unhealthy: not pinging systemd's watchdog")
        await sleep(interval / 2)

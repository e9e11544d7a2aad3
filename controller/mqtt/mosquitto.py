"""A private Mosquitto broker on a loopback port: for the tests, the benchmark and a demo hall.

Why its own: the system's broker (if any) is shared and configured by someone else; the
tests must be able to stop and restart theirs mid-game. The configuration keeps the
hub's persistent session across a restart (``persistence``) and queues enough QoS 1
messages for a hall of boards (``max_queued_messages``).
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from controller.mqtt.errors import MqttError

__all__ = ["Mosquitto", "free_port"]

# ``user``: run as root, mosquitto would drop to the ``mosquitto`` user, which cannot
# write in the caller's directory; as anyone else the option is ignored.
_CONFIG = """\
user {user}
listener {port} 127.0.0.1
persistence true
persistence_location {directory}/
max_queued_messages 1000000
max_inflight_messages 100
set_tcp_nodelay true
log_dest file {directory}/mosquitto.log
log_type error
log_type warning
log_type notice
"""


_PASSWD = shutil.which("mosquitto_passwd") or "mosquitto_passwd"


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Mosquitto:
    """Debian's ``mosquitto`` on ``127.0.0.1:port`` with its files in ``directory``.

    Args:
        directory: where its configuration, persistence and log go.
        port: the port (default: a free one, kept across :meth:`restart`).
        program: the broker's executable.
        users: user name to password; then anonymous clients are refused.
        tls: the server's certificate and key files (PEM); then the URL is
            ``mqtts://localhost:<port>``.

    Raises:
        MqttError: if the program is missing (``make system-deps`` installs it).
    """

    def __init__(
        self,
        directory: Path,
        port: int | None = None,
        program: str = "mosquitto",
        *,
        users: dict[str, str] | None = None,
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        found = shutil.which(program) or shutil.which(program, path="/usr/sbin")
        if found is None:
            raise MqttError(f"{program!r} not found: install Debian's mosquitto (make system-deps)")
        self.program = found
        self.directory = directory
        self.port = port or free_port()
        self.users = users
        self.tls = tls
        self.url = f"mqtts://localhost:{self.port}" if tls else f"mqtt://127.0.0.1:{self.port}"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> str:
        """The broker's log so far."""
        path = self.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, timeout: float = 5.0) -> None:
        """Start the broker and wait until it accepts connections.

        Raises:
            MqttError: if it exits or does not listen within ``timeout`` seconds.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        config = self.directory / "mosquitto.conf"
        text = _CONFIG.format(port=self.port, directory=self.directory, user=getpass.getuser())
        if self.users:
            passwords = self.directory / "passwd"
            passwords.write_text("")
            for name, password in self.users.items():
                subprocess.run(
                    [_PASSWD, "-b", str(passwords), name, password],
                    check=True,
                    capture_output=True,
                )
            text += f"allow_anonymous false\npassword_file {passwords}\n"
        else:
            text += "allow_anonymous true\n"
        if self.tls:
            text += f"certfile {self.tls[0]}\nkeyfile {self.tls[1]}\n"
        config.write_text(text)
        self._process = subprocess.Popen(
            [self.program, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                errors = self._process.stderr.read().decode() if self._process.stderr else ""
                raise MqttError(
                    f"mosquitto exited ({self._process.returncode}): {errors}{self.log}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise MqttError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self) -> None:
        """Stop the broker cleanly (it saves its persistence file); idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()

    def restart(self) -> None:
        """Stop then start again on the same port, with the same persistence."""
        self.stop()
        self.start()

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

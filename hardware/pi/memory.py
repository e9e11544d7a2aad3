"""The resident memory of ``tabula run``, idle and after games, with no simulator in its process.

Why: a Pi Zero 2 W has 512 MB for everything; the figure that matters is the service's own
process, so the simulated sensor board runs here, in this driver process, on a real pty
(as ``tabula sim-board`` does) and ``tabula run`` reads it through its configuration like
a real board. The camera is off and the pins are gpiozero's MockFactory (no GPIO here).

A game is made from outside the service as a referee at the board would: the opening
dice entered in the web view (``enter-dice``), the mover's checkers moved on the board
(the service judges the play from the sensors), then a resignation offered and accepted
(``resign``, ``accept-resignation``): the game ends and is journalled. (Committing a play
needs the Done button or the camera, which only exist in the service's process here.)

Prints ``memory: ...`` lines (VmRSS and VmHWM of /proc/PID/status); exits 1 if the journal
is not what was done, or the service did not stop cleanly. Under qemu-user (``make
pi-check``) the process is the emulator running the service: its figures include qemu's
code cache and are an upper bound of the Pi's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

TOKEN = "pi-check-memory-token"
#: Seconds without the awaited state before giving up (qemu-user is 5-20 times slower).
PATIENCE_S = 600.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _config(folder: Path, device: Path, port: int) -> Path:
    path = folder / "tabula.toml"
    path.write_text(f"""mode = "referee"
journal = "{folder / "journal.sqlite3"}"
log_level = "warning"
[board]
serial_device = "{device}"
settle_s = 0.05
confirm_orientation = false
[camera]
enabled = false
[gpio]
pin_factory = "mock"
leds = "board"
[engine]
kind = "none"
[players]
player_0 = "Ann"
player_1 = "Bob"
[web]
port = {port}
token = "{TOKEN}"
""")
    return path


def vm_figures(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (kB) of process ``pid``, from /proc."""
    figures = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            figures[key] = int(value.split()[0])
    return figures


def bare_interpreter() -> dict[str, int]:
    """VmRSS and VmHWM (kB) of this Python doing nothing: the share of the figures that is
    the interpreter (and, under qemu-user, the emulator) rather than Tabula."""
    probe = ("import json, re; print(json.dumps({k: int(v) for k, v in re.findall("
             "r'(VmRSS|VmHWM):\\s+(\\d+)', open('/proc/self/status').read())}))")
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout
    figures: dict[str, int] = json.loads(output)
    return figures


class _Web:
    """The service's web API, as a referee's phone uses it."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/api/"

    def status(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "status", timeout=PATIENCE_S) as answer:
            status: dict[str, Any] = json.load(answer)
            return status

    def act(self, body: dict[str, Any]) -> None:
        request = urllib.request.Request(
            self.url + "action", data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=PATIENCE_S):
            pass

    def until(self, what: str, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                status = self.status()
                if predicate(status):
                    return status
            except OSError:
                status = {}  # the page is not up yet
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {PATIENCE_S:.0f} s for {what}; status {status}")
            time.sleep(0.1)


def _game(web: _Web, board: Any, rng: random.Random) -> list[str]:
    """One game: the opening dice, the mover's play on the board, a resignation accepted.

    Returns the journal's event types it should add.
    """
    from controller.rules import BACKGAMMON, legal_plays
    from hardware.board.geometry import cells_from_board

    start = BACKGAMMON.start
    board.set_board(start)
    web.until("the start position", lambda s: s["cells"] == _cells(cells_from_board(start)))
    dice = rng.sample(range(1, 7), 2)
    web.act({"action": "enter-dice", "dice": dice})
    status = web.until("the opening roll", lambda s: s["phase"] == "moving")
    mover, rolled = status["turn"], tuple(status["dice"])
    play = rng.choice(legal_plays(tuple(status["position"]), mover, rolled))
    board.set_board(play.result)
    web.until("the play judged", lambda s: s["verdict"] == "complete")
    web.act({"action": "resign", "player": 1 - mover, "kind": "single"})
    web.act({"action": "accept-resignation"})
    web.until("the next game", lambda s: s["phase"] == "opening")
    return ["opening_rolled", "resigned", "resign_accepted", "game_ended"]


def _cells(cells: Any) -> list[Any]:
    """Cells as the status's JSON has them."""
    return json.loads(json.dumps(cells))  # type: ignore[no-any-return]


def measure(games: int, folder: Path, *, seed: int = 1) -> list[str]:
    """Start ``tabula run`` on a simulated board of this process, play ``games`` games.

    Returns the ``memory: ...`` lines; raises RuntimeError if the journal is not what was
    done or the service did not stop cleanly.
    """
    from controller.record.journal import Journal
    from hardware.simulator import BoardSimulator

    rng = random.Random(seed)
    port = _free_port()
    lines = []
    with BoardSimulator(link=folder / "tabula-board", seed=seed) as sim:
        config = _config(folder, folder / "tabula-board", port)
        started = time.monotonic()
        service = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
            stderr=subprocess.PIPE, text=True)
        try:
            web = _Web(port)
            web.until("the board link", lambda s: s["links"]["board"] == "live")
            idle = vm_figures(service.pid)
            lines.append(f"idle after start ({time.monotonic() - started:.0f} s): "
                         f"VmRSS {idle['VmRSS'] / 1024:.1f} MiB, "
                         f"VmHWM {idle['VmHWM'] / 1024:.1f} MiB")
            expected = ["match_started"]
            for _ in range(games):
                expected += _game(web, sim.board, rng)
            after = vm_figures(service.pid)
            lines.append(f"after {games} game(s): VmRSS {after['VmRSS'] / 1024:.1f} MiB, "
                         f"VmHWM {after['VmHWM'] / 1024:.1f} MiB")
            bare = bare_interpreter()
            lines.append(f"the bare interpreter: VmRSS {bare['VmRSS'] / 1024:.1f} MiB")
        finally:
            service.send_signal(signal.SIGTERM)
            _, stderr = service.communicate(timeout=PATIENCE_S)
    if service.returncode != 0:
        raise RuntimeError(f"tabula run exited {service.returncode}: {stderr.strip()[-400:]}")
    with Journal(folder / "journal.sqlite3", readonly=True) as journal:
        kinds = [_kind(event) for event in journal.events()]
    # The board's observations are journalled too, as many as the sensors' changes.
    done = [kind for kind in kinds if kind != "observed"]
    if done != expected:
        raise RuntimeError(f"the journal holds {done} (and observations), expected {expected}")
    lines.append(f"{len(kinds)} events journalled, as played; stopped cleanly")
    return lines


def _kind(event: object) -> str:
    from controller.record import event_kind

    return event_kind(event)  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="memory.py", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games played (1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tabula-memory-"))
    try:
        lines = measure(args.games, folder, seed=args.seed)
    except (RuntimeError, TimeoutError) as error:
        print(f"memory: FAILED {error}")
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    machine = os.uname().machine
    for line in lines:
        print(f"memory: {machine} {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``make systemd-check``: boot a Debian 12 with systemd-nspawn and start hardware/tabula.service.

Why: ``systemd-analyze verify`` only reads the unit. Here systemd itself runs it, as on the
Pi: a bookworm root (amd64 by default, native and fast; ``--arch arm64`` runs systemd
itself under qemu-user) is booted with ``systemd-nspawn --boot``; Tabula is installed and
the unit enabled with the lines of ``hardware/SERVICE.md``; the simulated sensor board
runs as another unit on a pty. The check asserts that ``systemctl start tabula`` reaches
``active (running)`` through READY=1, that a SIGSTOPped service is killed by the watchdog
and restarted, and that ``journalctl -u tabula`` holds the service's own lines.

Runs as root on a Debian host (installs mmdebstrap and systemd-container when missing).
Exit status: 0 when every check passed, 1 when one failed (named), 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from hardware.pi.pi_check import (
    CHECKOUT,
    SERVICE_MD,
    CheckError,
    ensure_host,
    ensure_programs,
    ensure_root,
    in_root,
    install,
    marked_block,
    mounted,
)

CACHE = Path.home() / ".cache" / "tabula"
#: A bookworm that boots: systemd as init, and D-Bus for systemctl.
BOOT_PACKAGES = ("python3", "ca-certificates", "systemd", "systemd-sysv", "dbus")
MACHINE = "tabula-check"
#: The configuration of the simulated board: its pty's link, no camera, mock pins (no GPIO).
CONFIG = """mode = "referee"
journal = "/var/lib/tabula/journal.sqlite3"
[board]
serial_device = "/run/tabula-board/board"
[camera]
enabled = false
[gpio]
pin_factory = "mock"
[engine]
kind = "none"
"""
#: Seconds the booted system is waited for (WatchdogSec=30, then RestartSec=2).
PATIENCE_S = 120.0


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m hardware.pi.systemd_check",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--arch", choices=("amd64", "arm64"), default="amd64",
                        help="the root's architecture (arm64: systemd itself under qemu-user)")
    parser.add_argument("--root", type=Path,
                        help=f"the cached root (default {CACHE}/systemd-root-ARCH)")
    parser.add_argument("--fresh", action="store_true", help="build the root again")
    args = parser.parse_args(argv)
    if args.root is None:
        args.root = CACHE / f"systemd-root-{args.arch}"
    return args


@contextmanager
def booted(root: Path) -> Iterator[int]:
    """``root`` booted by systemd-nspawn; yields the PID of its systemd (PID 1 inside)."""
    log = (root.parent / f"{MACHINE}.console").open("w")
    nspawn = subprocess.Popen(
        ["systemd-nspawn", "--boot", f"--directory={root}", f"--machine={MACHINE}",
         # No bus to register with, nor a scope to create: PID 1 here is no systemd.
         "--register=no", "--keep-unit", "--console=pipe", "--resolv-conf=copy-host"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    leader = None
    try:
        deadline = time.monotonic() + PATIENCE_S
        while leader is None:
            if nspawn.poll() is not None or time.monotonic() > deadline:
                console = (root.parent / f"{MACHINE}.console").read_text()[-2000:]
                raise CheckError(f"systemd-nspawn --boot did not boot: {console}")
            children = Path(f"/proc/{nspawn.pid}/task/{nspawn.pid}/children")
            pids = children.read_text().split() if children.exists() else []
            leader = int(pids[0]) if pids else None
            time.sleep(0.2)
        yield leader
    finally:
        nspawn.terminate()  # SIGTERM: nspawn asks the container's systemd to power off
        try:
            nspawn.wait(timeout=60)
        except subprocess.TimeoutExpired:
            # No power-off in a minute (systemd under qemu-user can hang in it): a SIGKILL
            # of the container's PID 1 ends every process of its PID namespace; nspawn's
            # own death would leave them running.
            if leader is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(leader, signal.SIGKILL)
            nspawn.kill()
            nspawn.wait()
        log.close()


def inside(leader: int, command: str, *, check: bool = True) -> str:
    """Run the shell ``command`` in the booted container (its namespaces); its output."""
    done = subprocess.run(
        ["nsenter", f"--target={leader}", "--mount", "--uts", "--ipc", "--net", "--pid",
         "--", "/bin/sh", "-c", command],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_PAGER": "", "LANG": "C.UTF-8"})
    print(f"+ [{MACHINE}] {command}\n{done.stdout}", end="", flush=True)
    if check and done.returncode != 0:
        raise CheckError(f"{command!r} in the container: exit status {done.returncode}: "
                         f"{done.stdout.strip()[-300:]}")
    return done.stdout


def _until(leader: int, what: str, command: str, *expected: str) -> str:
    """The output of ``command`` once it holds one of ``expected``."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        output = inside(leader, command, check=False)
        if any(text in output for text in expected):
            return output
        if time.monotonic() > deadline:
            raise CheckError(f"waited {PATIENCE_S:.0f} s for {what}: {output.strip()[-300:]}")
        time.sleep(1)


def _show(leader: int, *properties: str) -> dict[str, str]:
    output = inside(leader, f"systemctl show tabula -p {','.join(properties)}")
    return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)


def check(leader: int) -> list[str]:
    """The three proofs in the booted container; a line each."""
    lines = []
    # Booted: running, or degraded (a unit of the system failed, as some do under qemu-user).
    if "degraded" in _until(leader, "the boot", "systemctl is-system-running", "running",
                            "degraded"):
        failed = inside(leader, "systemctl --failed --plain --no-legend | cut -d' ' -f1")
        lines.append(f"booted degraded, failed: {', '.join(failed.split())}")
    # As the tabula user, as udev gives the real board's port to dialout: the pty is theirs.
    inside(leader, "systemd-run --unit=tabula-sim-board --property=User=tabula "
           "--property=RuntimeDirectory=tabula-board "
           "/opt/tabula/bin/tabula sim-board --link /run/tabula-board/board")
    _until(leader, "the simulated board", "ls -l /run/tabula-board/board", "/dev/pts/")
    started = time.monotonic()
    unit = marked_block(SERVICE_MD.read_text(), "unit")
    inside(leader, f"set -e; cd /root/tabula-checkout; {unit}")
    state = _show(leader, "ActiveState", "SubState", "MainPID", "NRestarts", "StatusText")
    if (state["ActiveState"], state["SubState"]) != ("active", "running"):
        raise CheckError(f"systemctl start tabula: {state}")
    lines.append(f"started: active (running) through READY=1 in "
                 f"{time.monotonic() - started:.1f} s (status {state['StatusText']!r})")
    stopped = time.monotonic()
    inside(leader, f"kill -STOP {state['MainPID']}")
    deadline = time.monotonic() + PATIENCE_S
    while True:
        after = _show(leader, "ActiveState", "SubState", "MainPID", "NRestarts")
        if int(after["NRestarts"]) > int(state["NRestarts"]) and after["SubState"] == "running":
            break
        if time.monotonic() > deadline:
            raise CheckError(f"the SIGSTOPped service was not restarted: {after}")
        time.sleep(1)
    journal = inside(leader, "journalctl -b -u tabula --no-pager -o cat")
    if "Watchdog timeout" not in journal:
        raise CheckError("journalctl -u tabula does not show the watchdog's kill")
    lines.append(f"SIGSTOP: killed by the watchdog and restarted in "
                 f"{time.monotonic() - stopped:.0f} s (PID {state['MainPID']} -> "
                 f"{after['MainPID']}, NRestarts {after['NRestarts']})")
    own = [line for line in journal.splitlines() if "tabula" in line and "sits at" in line]
    if not own:
        raise CheckError("journalctl -u tabula holds none of the service's own lines")
    lines.append(f"journalctl -u tabula: {len(journal.splitlines())} lines, e.g. {own[-1]!r}")
    return lines


def prepare(root: Path) -> None:
    """Tabula installed in ``root`` as SERVICE.md says, the unit and the config in place."""
    with mounted(root):
        install(root)
    (root / "root" / "tabula-checkout" / "hardware").mkdir(parents=True, exist_ok=True)
    shutil.copy(CHECKOUT / "hardware" / "tabula.service",
                root / "root" / "tabula-checkout" / "hardware" / "tabula.service")
    (root / "etc" / "tabula").mkdir(exist_ok=True)
    (root / "etc" / "tabula" / "tabula.toml").write_text(CONFIG)
    with mounted(root):
        # As a Pi that never had the unit: an enabled unit of a previous run would start at
        # boot, before the lines of SERVICE.md are run.
        in_root(root, "chgrp tabula /etc/tabula/tabula.toml && chmod 0640 /etc/tabula/tabula.toml"
                " && rm -f /var/lib/tabula/journal.sqlite3* /etc/systemd/system/tabula.service"
                " /etc/systemd/system/multi-user.target.wants/tabula.service",
                what="the configuration")


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    start = time.monotonic()
    try:
        ensure_programs({"mmdebstrap": "mmdebstrap", "systemd-nspawn": "systemd-container",
                         "nsenter": "util-linux"})
        if args.arch == "arm64":
            ensure_host()
        ensure_root(args.root, fresh=args.fresh, arch=args.arch, packages=BOOT_PACKAGES)
        prepare(args.root)
        with booted(args.root) as leader:
            lines = check(leader)
    except CheckError as error:
        print(f"systemd-check: FAILED {error}")
        return 1
    for line in lines:
        print(f"systemd-check: {line}")
    print(f"systemd-check: passed in {time.monotonic() - start:.0f} s "
          f"(Debian 12 {args.arch} booted by systemd-nspawn)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

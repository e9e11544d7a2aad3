"""``make pi-check``: install and run Tabula in an emulated arm64 Debian 12, as a Pi user would.

Why: the service runs on a Raspberry Pi (Raspberry Pi OS is an arm64 Debian 12 with Python
3.11) and everything else runs on x86-64. This builds an arm64 bookworm root with Debian's
``mmdebstrap``, runs it through ``qemu-user-static`` (binfmt_misc), installs Tabula from its
wheel with the lines ``hardware/SERVICE.md`` gives a user (read from that file, between
its ``<!-- pi-check: NAME -->`` markers), then runs ``tabula check-config``, ``plays``,
``hint`` (Debian's gnubg program), ``dice`` on a photo, ``demo --headless --games 1`` and
the memory measurement of ``tabula run`` (``hardware/pi/memory.py``). The root is kept
between runs (``--root``); each step's time and the memory figures end the output.

Runs as root on a Debian host (it installs mmdebstrap, arch-test and qemu-user-static when
missing).
Exit status: 0 when every step passed, 1 when one failed (named), 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
SERVICE_MD = CHECKOUT / "hardware" / "SERVICE.md"
DEFAULT_ROOT = Path.home() / ".cache" / "tabula" / "pi-root-arm64"
MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm"
#: What Raspberry Pi OS Lite has before the user's own steps: Python 3 and apt.
BASE_PACKAGES = ("python3", "ca-certificates")
#: binfmt_misc's entry for arm64 programs, as Debian's qemu-user-static ships it.
BINFMT_CONF = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")
BINFMT_DIR = Path("/proc/sys/fs/binfmt_misc")
#: Where the host's trusted certificates are copied in the root.
HOST_CERTIFICATES = Path("/etc/ssl/host-certificates.crt")
#: A photo of the test data with one die, and its value (tests/data/dice-photos).
PHOTO = ("IMG_20191208_112600.jpg", 3)
DEMO_SEED = 1
STEPS = ("install", "config", "plays", "hint", "dice", "demo", "memory")


class CheckError(Exception):
    """A step failed: its message names the step and what it printed."""


@dataclass
class Report:
    """What passed, each step's time, and the memory lines."""

    steps: list[tuple[str, float, str]] = field(default_factory=list)
    memory: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The summary that ends the output."""
        total = sum(seconds for _, seconds, _ in self.steps)
        lines = [f"pi-check: {name:8} {seconds:7.1f} s  {result}" for name, seconds, result in
                 self.steps]
        lines += [f"pi-check: memory   {line}" for line in self.memory]
        lines.append(f"pi-check: total    {total:7.1f} s")
        return lines


def marked_block(text: str, name: str) -> str:
    """The shell lines of the ```sh block after ``<!-- pi-check: name -->`` in ``text``.

    Raises:
        CheckError: no such marker, or no ```sh block right after it.
    """
    match = re.search(rf"<!-- pi-check: {re.escape(name)} -->\s*```sh\n(.*?)```", text, re.S)
    if match is None:
        raise CheckError(f"{SERVICE_MD.name}: no ```sh block after <!-- pi-check: {name} -->")
    return match.group(1)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options; ``--steps`` is checked against :data:`STEPS`."""
    parser = argparse.ArgumentParser(prog="python3 -m hardware.pi.pi_check",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT,
                        help=f"the cached arm64 root (default {DEFAULT_ROOT})")
    parser.add_argument("--steps", default=",".join(STEPS),
                        help=f"comma-separated steps to run (default all: {','.join(STEPS)})")
    parser.add_argument("--games", type=int, default=1,
                        help="games of the memory measurement (default 1)")
    parser.add_argument("--fresh", action="store_true",
                        help="build the root again (a cold run: downloads everything)")
    args = parser.parse_args(argv)
    steps = [step for step in args.steps.split(",") if step]
    unknown = [step for step in steps if step not in STEPS]
    if unknown or not steps:
        parser.error(f"--steps {args.steps!r}: expected some of {', '.join(STEPS)}")
    if args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1")
    args.steps = steps
    return args


def _run(command: Sequence[str], *, what: str, **options: object) -> str:
    """Run ``command``, echoing its output; its output, or CheckError naming ``what``."""
    print(f"+ {shlex.join(command)}", flush=True)
    lines = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          **options) as process:  # type: ignore[call-overload]
        for line in process.stdout:  # echoed as it comes: emulated steps take minutes
            print(line, end="", flush=True)
            lines.append(line)
    if process.returncode != 0:
        last = "".join(lines).strip().splitlines()[-1:] or ["(no output)"]
        raise CheckError(f"{what}: exit status {process.returncode}: {last[0]}")
    return "".join(lines)


def ensure_programs(programs: dict[str, str]) -> None:
    """The host's Debian packages (program -> package) installed when a program is missing."""
    missing = [package for program, package in programs.items() if shutil.which(program) is None]
    if missing:
        _run(["apt-get", "update"], what="apt-get update")
        _run(["apt-get", "install", "-y", "--no-install-recommends", *missing],
             what="installing " + " ".join(missing))


def ensure_host() -> None:
    """mmdebstrap and qemu-user-static installed, binfmt_misc mounted, arm64 registered.

    ``arch-test`` too: mmdebstrap builds a foreign root only with it ("E: install
    arch-test for foreign architecture support"), and only recommends it.
    """
    ensure_programs({"mmdebstrap": "mmdebstrap", "qemu-aarch64-static": "qemu-user-static",
                     "arch-test": "arch-test"})
    if not (BINFMT_DIR / "register").exists():
        _run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT_DIR)],
             what="mounting binfmt_misc")
    if not (BINFMT_DIR / "qemu-aarch64").exists():
        (BINFMT_DIR / "register").write_text(BINFMT_CONF.read_text().strip())


def ensure_root(root: Path, *, fresh: bool, arch: str = "arm64",
                packages: Sequence[str] = BASE_PACKAGES) -> None:
    """A bookworm root of ``arch`` at ``root``, built once (into a temporary name, then
    moved there: an interrupted build is never taken for a root)."""
    if fresh and root.exists():
        shutil.rmtree(root)
    if root.exists():
        return
    partial = root.with_name(root.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    _run(["mmdebstrap", f"--arch={arch}", "--variant=minbase",
          "--include=" + ",".join(packages), SUITE, str(partial), MIRROR],
         what="mmdebstrap")
    partial.rename(root)


@contextmanager
def mounted(root: Path) -> Iterator[None]:
    """/proc, /sys and /dev (ptys included) of the host inside ``root``, and its network's
    set-up: DNS, and the certificates it trusts (a proxy's own CA, as here) for pip."""
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    shutil.copy(os.environ.get("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt"),
                root / HOST_CERTIFICATES.relative_to("/"))
    mounts: list[Path] = []
    try:
        for source, target, kind in (("proc", "proc", "proc"), ("/sys", "sys", "rbind"),
                                     ("/dev", "dev", "rbind")):
            point = root / target
            if kind == "proc":
                _run(["mount", "-t", "proc", "proc", str(point)], what="mounting /proc")
            else:
                _run(["mount", "--rbind", source, str(point)], what=f"mounting {source}")
                _run(["mount", "--make-rslave", str(point)], what=f"mounting {source}")
            mounts.append(point)
        yield
    finally:
        for point in reversed(mounts):
            subprocess.run(["umount", "-R", "-l", str(point)], check=False)


def in_root(root: Path, script: str, *, what: str, cwd: str = "/") -> str:
    """Run the shell ``script`` as root inside ``root`` (emulated), from ``cwd``."""
    command = f"set -e; cd {shlex.quote(cwd)}; {script}"
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games",
           "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive",
           "PIP_CERT": str(HOST_CERTIFICATES), "SSL_CERT_FILE": str(HOST_CERTIFICATES),
           "PYTHONUNBUFFERED": "1"}  # each line as it comes: emulated steps are slow
    return _run(["nice", "-n", "10", "chroot", str(root), "/bin/sh", "-c", command],
                what=what, env=env)


def build_wheel(out: Path) -> Path:
    """Tabula's wheel, built from this checkout with the lines of SERVICE.md."""
    shutil.rmtree(out, ignore_errors=True)
    script = marked_block(SERVICE_MD.read_text(), "wheel")
    script = script.replace("-w dist", f"-w {shlex.quote(str(out))}")
    _run(["sh", "-c", f"set -e; {script}"], what="building the wheel", cwd=CHECKOUT)
    wheels = sorted(out.glob("tabula-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise CheckError(f"building the wheel: expected one pure-Python wheel, got {wheels}")
    return wheels[0]


def install(root: Path) -> str:
    """Tabula's wheel copied into ``root`` and installed with the lines of SERVICE.md; its
    name."""
    wheel = build_wheel(CHECKOUT / "build" / "pi-wheel")
    for old in (root / "tmp").glob("tabula-*.whl"):
        old.unlink()
    shutil.copy(wheel, root / "tmp" / wheel.name)
    # A new venv each run, as a new user's: pip keeps an installed 0.1.0 over a new wheel.
    shutil.rmtree(root / "opt" / "tabula", ignore_errors=True)
    in_root(root, marked_block(SERVICE_MD.read_text(), "install"),
            what="the install of SERVICE.md")
    return wheel.name


def _check_output(output: str, expected: str, what: str) -> str:
    if expected not in output:
        raise CheckError(f"{what}: {expected!r} not in its output")
    return expected


def run_step(step: str, root: Path, args: argparse.Namespace, report: Report) -> str:
    """Run one step inside ``root``; the result line, or CheckError."""
    tabula = "/opt/tabula/bin/tabula"
    service = SERVICE_MD.read_text()
    if step == "install":
        wheel = install(root)
        # lgpio's C extension loads (opening a pin needs the Pi's /dev/gpiochip0).
        version = in_root(root, "/opt/tabula/bin/python -c 'import platform, sys, lgpio; "
                          "print(platform.machine(), sys.version.split()[0])'", what="python")
        return f"{wheel} installed with lgpio, python {version.strip()}"
    if step == "config":
        source = root / "tmp" / "tabula-checkout" / "hardware"
        source.mkdir(parents=True, exist_ok=True)
        shutil.copy(CHECKOUT / "hardware" / "tabula.example.toml", source)
        in_root(root, marked_block(service, "config"), what="the config of SERVICE.md",
                cwd="/tmp/tabula-checkout")
        output = in_root(root, f"runuser -u tabula -- {tabula} check-config --config "
                         "/etc/tabula/tabula.toml", what="tabula check-config")
        return _check_output(output, "pin_factory", "tabula check-config") + " ... ok"
    if step == "plays":
        output = in_root(root, f"{tabula} plays 4HPwATDgc/ABMA 52", what="tabula plays")
        return "plays 52: " + _check_output(output, "13/11 13/8", "tabula plays")
    if step == "hint":
        output = in_root(root, f"{tabula} hint --engine cli --budget 600 4HPwATDgc/ABMA 52",
                         what="tabula hint")
        return "gnubg's best 52: " + output.strip().splitlines()[0]
    if step == "dice":
        name, value = PHOTO
        shutil.copy(CHECKOUT / "tests" / "data" / "dice-photos" / "images" / name,
                    root / "tmp" / name)
        output = in_root(root, f"{tabula} dice --json /tmp/{name}", what="tabula dice")
        _check_output(output, f'"value": {value}', "tabula dice")
        return f"{name}: a {value} read"
    if step == "demo":
        # The same game every run (a seed), so that the runs' times compare.
        output = in_root(root, f"rm -rf /tmp/demo && {tabula} demo --headless --games 1 "
                         f"--seed {DEMO_SEED} --out /tmp/demo", what="tabula demo")
        return output.strip().splitlines()[-1]
    shutil.copy(Path(__file__).with_name("memory.py"), root / "tmp" / "memory.py")
    output = in_root(root, f"/opt/tabula/bin/python /tmp/memory.py --games {args.games}",
                     what="the memory of tabula run")
    report.memory = [line.removeprefix("memory: ") for line in output.splitlines()
                     if line.startswith("memory: ")]
    return f"tabula run: {args.games} game(s) journalled, nothing lost"


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    report = Report()
    failed = None
    try:
        start = began = time.monotonic()
        ensure_host()
        ensure_root(args.root, fresh=args.fresh)
        report.steps.append(("root", time.monotonic() - start, str(args.root)))
        with mounted(args.root):
            for number, step in enumerate(args.steps, 1):
                start = time.monotonic()
                elapsed = start - began
                print(f"=== pi-check: step {number}/{len(args.steps)}, {step} "
                      f"({elapsed:.0f} s so far)", flush=True)  # fmt: skip
                result = run_step(step, args.root, args, report)
                report.steps.append((step, time.monotonic() - start, result))
    except CheckError as error:
        failed = str(error)
    for line in report.lines():
        print(line)
    if failed is not None:
        print(f"pi-check: FAILED {failed}")
        return 1
    print(f"pi-check: passed ({', '.join(args.steps)}) on {SUITE} arm64 under qemu-user")
    return 0


if __name__ == "__main__":
    os.umask(0o022)
    sys.exit(main(sys.argv[1:]))

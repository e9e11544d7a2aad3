"""Where the simulated board's firmware runs: in this process, or on real MicroPython.

Why two: CPython in-process is fast and is the default; MicroPython (its WebAssembly
build, ``@micropython/micropython-webassembly-pyscript`` under Debian's ``node``) is the
interpreter a Pico runs, so what the firmware uses and MicroPython lacks shows up here.
Both drive the same :mod:`hardware.firmware.lockstep` code one step at a time, so for the
same requests they give the same bytes. The npm package is pinned in
``hardware/micropython/package-lock.json`` and installed by ``make micropython``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from firmware_bridge.errors import BridgeError
from hardware.firmware import lockstep

if TYPE_CHECKING:
    from hardware.firmware.lockstep import StepAnswer, StepRequest

__all__ = [
    "RUNTIMES",
    "CPythonRuntime",
    "FirmwareRuntime",
    "FirmwareRuntimeError",
    "MicroPythonRuntime",
    "open_runtime",
]

#: The runtimes, the default first.
RUNTIMES = ("cpython", "micropython")
_NODE_DIR = Path(__file__).with_name("micropython")
_RUNNER = _NODE_DIR / "run.mjs"
_PACKAGE = _NODE_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
_FIRMWARE_DIR = Path(lockstep.__file__).parent


class FirmwareRuntimeError(BridgeError, RuntimeError):
    """The firmware's runtime cannot start, or stopped."""


class FirmwareRuntime(Protocol):
    """One firmware under a runtime, stepped by the simulator (see :mod:`lockstep`)."""

    name: str

    def step(self, request: StepRequest) -> StepAnswer:
        """Run one step of the board."""

    def time_scans(self, scans: int) -> int:
        """Microseconds the firmware takes for ``scans`` scans, timed inside the runtime."""

    def time_diagnostics(self, answers: int) -> int:
        """Microseconds for ``answers`` answers to DIAGNOSTIC_REQUEST, timed inside it."""

    def time_additions(self, count: int) -> int:
        """Microseconds for ``count`` turns of :func:`lockstep.time_additions`'s loop."""

    def close(self) -> None:
        """Stop the runtime; idempotent."""


class CPythonRuntime:
    """The firmware in this process."""

    name = "cpython"

    def __init__(self, pinmap_text: str, seed: int) -> None:
        self._driver = lockstep.Lockstep(pinmap_text, seed)

    def step(self, request: StepRequest) -> StepAnswer:
        """Run one step of the board."""
        return self._driver.step(request)

    def time_scans(self, scans: int) -> int:
        """Microseconds for ``scans`` scans."""
        return self._driver.time_scans(scans)

    def time_diagnostics(self, answers: int) -> int:
        """Microseconds for ``answers`` diagnostic answers."""
        return self._driver.time_diagnostics(answers)

    def time_additions(self, count: int) -> int:
        """Microseconds for ``count`` turns of the reference loop."""
        return lockstep.time_additions(count)

    def close(self) -> None:
        """Nothing to stop."""


class MicroPythonRuntime:
    """The firmware on MicroPython in a ``node`` child, one JSON line per step each way.

    Raises:
        FirmwareRuntimeError: if node or the npm package is missing, or MicroPython fails.
    """

    name = "micropython"

    def __init__(self, pinmap_text: str, seed: int, *, node: str = "node") -> None:
        program = shutil.which(node)
        if program is None:
            raise FirmwareRuntimeError(
                f"no {node!r} program for the MicroPython runtime: apt-get install nodejs"
            )
        if not _PACKAGE.is_dir():
            raise FirmwareRuntimeError(
                f"MicroPython is not installed in {str(_NODE_DIR)!r}: run `make micropython`"
            )
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the child)
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            [program, str(_RUNNER), str(_FIRMWARE_DIR)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
        )
        self._ask({"pinmap": pinmap_text, "seed": seed})

    def _ask(self, request: Mapping[str, object]) -> Any:
        """The child's answer to ``request``, as JSON gives it."""
        process = self._process
        if process is None:
            raise FirmwareRuntimeError("the MicroPython runtime is closed")
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except (BrokenPipeError, ValueError):
            line = b""
        if not line.endswith(b"\n"):  # nothing, or half an answer: the child died
            raise FirmwareRuntimeError(f"MicroPython stopped: {self._last_error()}")
        try:
            return json.loads(line)
        except ValueError:
            raise FirmwareRuntimeError(f"MicroPython answered {line[:80]!r}: not JSON") from None

    def _last_error(self) -> str:
        if self._process is not None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                return "no answer"
        self._errors.seek(0)
        lines = self._errors.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "no message"

    def step(self, request: StepRequest) -> StepAnswer:
        """Run one step of the board in MicroPython."""
        answer: StepAnswer = self._ask(request)
        return answer

    def time_scans(self, scans: int) -> int:
        """Microseconds for ``scans`` scans, timed by MicroPython's ``ticks_us``."""
        us: int = self._ask({"time_scans": scans})["us"]
        return us

    def time_diagnostics(self, answers: int) -> int:
        """Microseconds for ``answers`` diagnostic answers, timed by ``ticks_us``."""
        us: int = self._ask({"time_diagnostics": answers})["us"]
        return us

    def time_additions(self, count: int) -> int:
        """Microseconds for ``count`` turns of the reference loop, in MicroPython."""
        us: int = self._ask({"time_additions": count})["us"]
        return us

    def heap(self, steps: int) -> tuple[int, int]:
        """The bytes MicroPython's heap holds after a collection, and those the board's
        loop allocates a second, from ``steps`` steps a ms apart (``Lockstep.heap``)."""
        answer = self._ask({"heap": steps})
        return int(answer["live"]), int(answer["per_second"])

    def close(self) -> None:
        """End the child (closing its stdin ends its loop); idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None and process.stdout is not None
        # The child may be gone with a step it refused still buffered: nowhere to send it.
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
        self._errors.close()


def open_runtime(name: str, pinmap_text: str, seed: int) -> FirmwareRuntime:
    """The runtime called ``name`` (one of :data:`RUNTIMES`) with a fresh firmware driver.

    ``pinmap_text`` is the pin map file's text (the firmware reads it with its own reader).

    Raises:
        FirmwareRuntimeError: for an unknown name, or a runtime that cannot start.
    """
    if name == "cpython":
        return CPythonRuntime(pinmap_text, seed)
    if name == "micropython":
        return MicroPythonRuntime(pinmap_text, seed)
    raise FirmwareRuntimeError(f"firmware runtime {name!r}: expected one of {', '.join(RUNTIMES)}")

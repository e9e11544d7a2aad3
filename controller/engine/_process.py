"""A long-lived child process spoken to in lines, with a time budget on every exchange.

Both engine adapters run GNU Backgammon in a child process: its text interface, or the
PyPI bindings, which crash when called off the main thread and cannot be interrupted
inside their C code. A child process keeps the event loop free, and a late answer is
handled by killing the child: the next exchange starts a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from controller.engine.errors import EngineTimeoutError, EngineUnavailableError

_TAIL = 400
"""Characters of a dead child's last output quoted in the error."""


class LineProcess:
    """One child process: ``exchange`` writes lines and reads until a line says it is done.

    ``start_lines`` are written after every start, and their answer read up to the line
    ``ready`` accepts, so that a restarted child is configured like the first one.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str,
        start_lines: Sequence[str] = (),
        ready: Callable[[str], bool],
        start_timeout: float = 30.0,
    ) -> None:
        self.argv = tuple(argv)
        self.name = name
        self.start_lines = tuple(start_lines)
        self.ready = ready
        self.start_timeout = start_timeout
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    @property
    def running(self) -> bool:
        """Whether a child is alive now (it starts on the first exchange)."""
        return self._process is not None and self._process.returncode is None

    async def _start(self) -> asyncio.subprocess.Process:
        try:
            process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,  # one stream keeps errors in order
                start_new_session=True,  # a terminal's Ctrl-C reaches us, not the engine
            )
        except OSError as error:
            raise EngineUnavailableError(
                f"cannot start {self.name} ({self.argv[0]!r}): {error}"
            ) from None
        self._process = process
        await self._talk(process, self.start_lines, self.ready, self.start_timeout, "starting")
        return process

    async def exchange(
        self, lines: Sequence[str], done: Callable[[str], bool], timeout: float, what: str
    ) -> list[str]:
        """Write ``lines``, return the lines read up to and including the one ``done`` accepts.

        Raises:
            EngineTimeoutError: if ``done`` sees no line within ``timeout`` seconds (the
                child is killed; the next exchange starts a new one).
            EngineUnavailableError: if the child cannot start or dies.
        """
        async with self._lock:
            process = self._process
            if process is None or process.returncode is not None:
                process = await self._start()
            return await self._talk(process, lines, done, timeout, what)

    async def _talk(
        self,
        process: asyncio.subprocess.Process,
        lines: Sequence[str],
        done: Callable[[str], bool],
        timeout: float,
        what: str,
    ) -> list[str]:
        assert process.stdin is not None and process.stdout is not None
        read: list[str] = []

        async def talk() -> None:
            assert process.stdin is not None and process.stdout is not None
            if lines:
                process.stdin.write("".join(line + "\n" for line in lines).encode())
                await process.stdin.drain()
            while True:
                raw = await process.stdout.readline()
                if not raw:
                    raise EOFError
                line = raw.decode(errors="replace").rstrip("\r\n")
                read.append(line)
                if done(line):
                    return

        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for returns over a cancellation
            # that meets the engine's answer, and the service's stop would not stop it.
            async with asyncio.timeout(timeout):
                await talk()
        except TimeoutError:
            await self.close()
            raise EngineTimeoutError(
                f"{self.name} gave no answer within {timeout:g} s {what}; it was stopped "
                "and restarts on the next request"
            ) from None
        except (EOFError, ConnectionError):
            status = await process.wait()
            self._process = None
            tail = "\n".join(read)[-_TAIL:]
            raise EngineUnavailableError(
                f"{self.name} ({self.argv[0]!r}) exited with status {status} {what}: {tail!r}"
            ) from None
        return read

    async def close(self) -> None:
        """Stop the child if it runs; idempotent."""
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

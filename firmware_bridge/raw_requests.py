"""The link's requests for raw readings: one at a time, each answer joined from its frames.

Why apart from :mod:`firmware_bridge.link`: the link moves bytes and keeps the board's
state; asking for a set, waiting for its frames and failing with the reason (short,
corrupt or mixed set, a board that does not send diagnostics) is this module's, on the
pure :class:`~firmware_bridge.diagnostics.RawSetAssembler`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from firmware_bridge.diagnostics import RawSet, RawSetAssembler
from firmware_bridge.errors import DiagnosticsUnsupportedError, MessageError, RawSetError
from firmware_bridge.messages import (
    Diagnostic,
    DiagnosticRequest,
    ErrorCode,
    ErrorReport,
    Hello,
    Message,
    MessageType,
)

__all__ = ["RawRequests"]


def _unsupported(hello: Hello, why: str = "") -> DiagnosticsUnsupportedError:
    return DiagnosticsUnsupportedError(
        f"this board's firmware ({hello.name!r}) does not send diagnostics{why} "
        f"(protocol {hello.major}.{hello.minor}): update it"
    )


class RawRequests:
    """The raw-reading request in flight on one link, if any."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._hello: Hello | None = None
        self._pending: tuple[RawSetAssembler, asyncio.Future[RawSet]] | None = None

    async def read(self, hello: Hello, send: Callable[[Message], None], timeout: float) -> RawSet:
        """Ask the board of ``hello`` for one set with ``send``; wait for it whole.

        Raises:
            DiagnosticsUnsupportedError: at once if ``hello`` has no diagnostics, or when
                the board refuses the request as an unknown type.
            RawSetError: on a short, corrupt or mixed set, or none whole within ``timeout``.
        """
        if not hello.has("diagnostics"):
            raise _unsupported(hello)
        async with self._lock:
            assembler = RawSetAssembler(hello.slots)
            waiter: asyncio.Future[RawSet] = asyncio.get_running_loop().create_future()
            self._hello, self._pending = hello, (assembler, waiter)
            send(DiagnosticRequest())
            try:
                async with asyncio.timeout(timeout):
                    return await waiter
            except TimeoutError:
                raise RawSetError(
                    f"no whole raw set within {timeout} s: {assembler.progress} arrived"
                ) from None
            finally:
                self._pending = None

    def receive(self, message: Message) -> bool:
        """Take a message from the board; True if it was a DIAGNOSTIC (the link's no more).

        A DIAGNOSTIC nobody waits for is dropped; an ERROR refusing DIAGNOSTIC_REQUEST as
        an unknown type fails the request in flight.
        """
        if isinstance(message, Diagnostic):
            if self._pending is not None and not self._pending[1].done():
                assembler, waiter = self._pending
                try:
                    raw = assembler.feed(message)
                except RawSetError as error:
                    waiter.set_exception(error)
                else:
                    if raw is not None:
                        waiter.set_result(raw)
            return True
        if (
            isinstance(message, ErrorReport)
            and message.code == ErrorCode.UNKNOWN_TYPE
            and message.value == MessageType.DIAGNOSTIC_REQUEST
            and self._hello is not None
        ):
            self._fail(_unsupported(self._hello, " (it refused the request)"))
        return False

    def refuse(self, kind: int, error: MessageError) -> None:
        """A frame of type ``kind`` whose payload could not be read: a corrupt set."""
        if kind == MessageType.DIAGNOSTIC:
            self._fail(RawSetError(f"corrupt raw set: {error}"))

    def _fail(self, error: Exception) -> None:
        if self._pending is not None and not self._pending[1].done():
            self._pending[1].set_exception(error)

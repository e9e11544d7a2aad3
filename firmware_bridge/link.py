"""The asyncio shell of the link: a serial port, reconnection, state, counters, settling.

Why a thin shell: framing (:mod:`~firmware_bridge.frames`), messages
(:mod:`~firmware_bridge.messages`), the conversation (:mod:`~firmware_bridge.sync`) and
settling (:mod:`~firmware_bridge.settle`) are pure; this module only moves bytes between
them and a pyserial port on one asyncio loop: reads through ``loop.add_reader`` on the
port's file descriptor, blocking opens, writes and closes through ``asyncio.to_thread``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import termios
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Protocol, TypeAlias

from firmware_bridge.diagnostics import RawSet
from firmware_bridge.errors import (
    IncompatibleProtocolError,
    LinkClosedError,
    MessageError,
)
from firmware_bridge.frames import BadChunk, Frame, FrameDecoder, encode_frame
from firmware_bridge.layout import Observation
from firmware_bridge.messages import LedFrame, Message, MessageType, pack, unpack
from firmware_bridge.raw_requests import RawRequests
from firmware_bridge.settle import Settler
from firmware_bridge.sync import BoardSync

__all__ = ["BoardLink", "Counters", "LinkState", "LinkUpdate", "SerialPort"]

_log = logging.getLogger(__name__)


class LinkState(StrEnum):
    """What the link is doing, for the status page ("searching for board" ...)."""

    SEARCHING = "searching"
    SYNCING = "syncing"
    LIVE = "live"
    STALE = "stale"


LinkUpdate: TypeAlias = LinkState | Observation


class SerialPort(Protocol):
    """The part of :class:`serial.Serial` the link uses (a POSIX port with a descriptor)."""

    @property
    def in_waiting(self) -> int: ...

    def fileno(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Counters:
    """Everything the link counts since it was created, for the service's status page."""

    bytes_received: int = 0
    frames_ok: int = 0
    frames_sent: int = 0
    bad_crc: int = 0
    bad_cobs: int = 0
    bad_length: int = 0
    oversize: int = 0
    bad_payload: int = 0
    unknown_types: int = 0
    resyncs: int = 0
    frames_lost: int = 0
    frames_repeated: int = 0
    open_failures: int = 0
    connects: int = 0
    reconnects: int = 0
    handshake_timeouts: int = 0
    heartbeat_timeouts: int = 0
    disconnects: int = 0
    stale_periods: int = 0
    retries: int = 0
    ignored_before_hello: int = 0
    snapshots: int = 0
    snapshot_mismatches: int = 0
    changes_applied: int = 0
    change_mismatches: int = 0
    replays: int = 0
    events_replayed: int = 0
    replay_unavailable: int = 0
    gaps: int = 0
    duplicates_ignored: int = 0
    board_reboots: int = 0
    board_errors: int = 0
    acks: int = 0
    unexpected_messages: int = 0
    leds_sent: int = 0
    observations: int = 0
    inconsistent_observations: int = 0


_COUNTER_NAMES = frozenset(field.name for field in dataclasses.fields(Counters))
_KNOWN_TYPES = frozenset(int(kind) for kind in MessageType)


class _LostError(Exception):
    """The session ended: the port failed, or the board stopped answering."""


#: What a port that vanishes can raise: pyserial's ``SerialException`` is an ``OSError``,
#: but its ``tcflush``/``tcgetattr`` calls raise ``termios.error``, which is not (a USB
#: cable pulled between the open and the first flush); ``ValueError`` is a bad URL.
_PORT_ERRORS = (OSError, termios.error, ValueError)


def _open_pyserial(path: str, baudrate: int) -> SerialPort:
    import serial

    # exclusive: a second reader (another tabula, a terminal) would steal frames.
    port: SerialPort = serial.serial_for_url(
        path, baudrate=baudrate, timeout=0, write_timeout=2, exclusive=True
    )
    return port


class BoardLink:
    """A live, self-healing link to the sensor board, yielding stable observations.

    Opens ``path`` (``/dev/tabula-board``, ``/dev/ttyACM0``, a pseudo-terminal), shakes
    hands, takes a snapshot, then follows the board's changes; it reconnects forever with
    jittered exponential backoff when the device disappears or falls silent, replaying
    what it missed. Only a board speaking another protocol major version stops it
    (:class:`~firmware_bridge.errors.IncompatibleProtocolError`, raised by
    :meth:`updates` and :meth:`wait_for`).

    Example::

        async with BoardLink("/dev/tabula-board", settle_s=0.3) as link:
            async for update in link.updates():
                print(update)

    Args:
        path: the device path or pyserial URL.
        settle_s: how long the board must not change before a state is observed.
        baudrate: the UART speed (ignored by USB CDC).
        open_serial: ``open_serial(path, baudrate)`` returns an open port; the default is
            pyserial's ``serial_for_url`` (non-blocking reads).
        clock: seconds, monotonic; settling and silence are measured with it.
        rng: jitter of the backoff.
        hello_retry_s: how long to wait for an answer before asking again.
        handshake_timeout_s: how long the board may take to answer before reconnecting.
        stale_after_s: silence after which the link is ``stale`` (default: two heartbeats).
        silence_timeout_s: silence after which the port is closed and reopened.
        backoff_initial_s: first wait between connection attempts; doubles up to
            ``backoff_max_s``, jittered between half and the full value.
        on_frame: diagnostic tap, called with every valid frame received.
    """

    def __init__(
        self,
        path: str,
        *,
        settle_s: float = 0.3,
        baudrate: int = 115200,
        open_serial: Callable[[str, int], SerialPort] = _open_pyserial,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        hello_retry_s: float = 0.5,
        handshake_timeout_s: float = 3.0,
        stale_after_s: float | None = None,
        silence_timeout_s: float = 3.0,
        backoff_initial_s: float = 0.1,
        backoff_max_s: float = 5.0,
        on_frame: Callable[[Frame], None] | None = None,
    ) -> None:
        self._path = path
        self._baudrate = baudrate
        self._open_serial = open_serial
        self._clock = clock
        self._rng = rng or random.Random()
        self._handshake_timeout_s = handshake_timeout_s
        self._stale_after_s = stale_after_s
        self._silence_timeout_s = silence_timeout_s
        self._backoff = (backoff_initial_s, backoff_max_s)
        self._on_frame = on_frame
        self._counts: Counter[str] = Counter()
        self._sync = BoardSync(self._counts, retry_s=hello_retry_s)
        self._settler = Settler(settle_s)
        self._decoder = FrameDecoder()
        self._state = LinkState.SEARCHING
        self._updates: asyncio.Queue[LinkUpdate | BaseException] = asyncio.Queue()
        self._state_changed = asyncio.Event()
        self._settle_wake = asyncio.Event()
        self._outbox: asyncio.Queue[Message] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._failure: BaseException | None = None
        self._closed = False
        self._observation: Observation | None = None
        self._leds: LedFrame | None = None
        self._lost: asyncio.Future[None] | None = None
        self._problem: str | None = None
        self._announced: str | None = None
        self._last_rx = 0.0
        self._rx_seq: int | None = None
        self._tx_seq = 0
        self._started = 0.0
        self._was_live = False
        self._raw = RawRequests()

    # Public surface.

    @property
    def state(self) -> LinkState:
        """The link's current state."""
        return self._state

    @property
    def counters(self) -> Counters:
        """A copy of every counter."""
        return Counters(**{name: self._counts[name] for name in _COUNTER_NAMES})

    @property
    def observation(self) -> Observation | None:
        """The last stable observation, None before the first."""
        return self._observation

    @property
    def problem(self) -> str | None:
        """Why the link is not live, in words (``cannot open '/dev/tabula-board': ...``).

        None while live, and before the first attempt has failed; a change of it is
        announced by repeating the current state in :meth:`updates`.
        """
        return self._problem

    async def __aenter__(self) -> BoardLink:
        self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def start(self) -> None:
        """Start connecting (done by ``async with``).

        Raises:
            LinkClosedError: if the link was closed.
        """
        if self._closed:
            raise LinkClosedError(f"link to {self._path!r} is closed")
        if self._task is None:
            self._task = asyncio.create_task(self._supervise(), name=f"board-link {self._path}")

    async def close(self) -> None:
        """Write the frames still queued (a last LED frame), stop and close the port.

        Idempotent; the frames are given the silence timeout to leave, no more.
        """
        if self._closed:
            return
        self._closed = True
        if self._state in (LinkState.LIVE, LinkState.STALE):
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._silence_timeout_s):
                    await self._outbox.join()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            # Not ``await task`` under suppress(CancelledError): that would also swallow a
            # cancellation of the caller (one Ctrl-C), which then carried on.
            await asyncio.wait([task])
            if not task.cancelled():
                task.result()

    async def updates(self) -> AsyncIterator[LinkUpdate]:
        """Every state change and stable observation, in order, as they happen.

        Raises:
            IncompatibleProtocolError: when the board speaks another major version.
        """
        while True:
            item = await self._updates.get()
            if isinstance(item, BaseException):
                raise item
            yield item

    async def wait_for(self, state: LinkState, timeout: float | None = None) -> None:
        """Wait until the link is in ``state``.

        Raises:
            TimeoutError: if it is not within ``timeout`` seconds.
            IncompatibleProtocolError: when the board speaks another major version.
        """
        async with asyncio.timeout(timeout):
            while self._state != state:
                if self._failure is not None:
                    raise self._failure
                self._state_changed.clear()
                await self._state_changed.wait()
        if self._failure is not None:
            raise self._failure

    def send_leds(self, frame: LedFrame) -> None:
        """Show ``frame`` on the board's LED chain, now and again after every reconnect.

        It only queues the frame, so it may be called from a closing device: the link
        writes what is queued before :meth:`close` closes the port.

        Raises:
            LinkClosedError: if the link was closed.
        """
        if self._closed:
            raise LinkClosedError(f"link to {self._path!r} is closed")
        self._leds = frame
        if self._state in (LinkState.LIVE, LinkState.STALE):
            self._outbox.put_nowait(frame)

    async def read_raw(self, timeout: float = 5.0) -> RawSet:
        """One set of every slot's raw reading and class, asked of the board now.

        Waits for the link to be live, then asks DIAGNOSTIC_REQUEST (protocol 1.1).

        Raises:
            DiagnosticsUnsupportedError: at once, if the board's firmware does not send
                diagnostics (protocol 1.0).
            RawSetError: if the set came short, corrupt or mixed, or not whole in time.
            TimeoutError: if the link is not live within ``timeout`` seconds.
            LinkClosedError: if the link was closed.
        """
        if self._closed:
            raise LinkClosedError(f"link to {self._path!r} is closed")
        try:
            await self.wait_for(LinkState.LIVE, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"no raw readings: the board on {self._path!r} is not live within {timeout} s "
                f"({self._problem or self._state})"
            ) from None
        assert self._sync.hello is not None  # live implies a HELLO
        return await self._raw.read(self._sync.hello, self._outbox.put_nowait, timeout)

    async def read_raw_sets(self, count: int, timeout: float = 10.0) -> tuple[RawSet, ...]:
        """``count`` raw sets, each of another scan (:func:`classify_slots` judges them).

        Why other scans: two sets of one scan hold the same readings; noise shows between.

        Raises:
            TimeoutError: if the sets take over ``timeout`` seconds; else as :meth:`read_raw`.
        """
        sets: list[RawSet] = []
        try:
            async with asyncio.timeout(timeout):
                while len(sets) < count:
                    raw = await self.read_raw(timeout)
                    if not sets or raw.scan != sets[-1].scan:
                        sets.append(raw)
        except TimeoutError as error:
            detail = f": {error}" if str(error) else ""
            raise TimeoutError(
                f"{len(sets)} of {count} raw sets within {timeout} s{detail}"
            ) from None
        return tuple(sets)

    # Supervision: connect, run a session, back off, forever.

    def _set_state(self, state: LinkState) -> None:
        """Enter ``state``; announce it if it, or the problem behind it, changed."""
        if state is LinkState.LIVE and self._problem is not None:
            _log.warning("board on %r is live", self._path)
            self._problem = None
        if state != self._state or self._problem != self._announced:
            self._state = state
            self._announced = self._problem
            self._state_changed.set()
            self._updates.put_nowait(state)

    def _report(self, problem: str, *, announce: bool = True) -> None:
        """Say why the link is not live: a warning, and an update, when the reason changes."""
        if problem != self._problem:
            _log.warning("board on %r: %s", self._path, problem)
            self._problem = problem
            if announce:
                self._set_state(self._state)

    def _delay(self, attempt: int) -> float:
        initial, ceiling = self._backoff
        top = min(ceiling, initial * 2 ** min(attempt, 20))
        return self._rng.uniform(top / 2, top)

    async def _supervise(self) -> None:
        """Connect, run a session, back off, forever: nothing but close() ends it.

        Only cancellation (close), or a board of another major version, stops the loop;
        any other failure is logged and retried, so a fault the code did not foresee costs
        a reconnect, never the link.
        """
        self._updates.put_nowait(self._state)
        attempt = 0
        try:
            while not self._closed:
                self._set_state(LinkState.SEARCHING)
                try:
                    port = await self._open()
                except _PORT_ERRORS as error:
                    self._counts["open_failures"] += 1
                    self._report(f"cannot open {self._path!r}: {error}")
                else:
                    try:
                        attempt = 0 if await self._run_session(port) else attempt
                    except Exception:  # a bug must cost a reconnect, not the board
                        _log.exception("board session on %r failed", self._path)
                        self._report("the link failed (see the log); reconnecting")
                    if self._failure is not None:
                        self._updates.put_nowait(self._failure)
                        self._state_changed.set()
                        return
                await asyncio.sleep(self._delay(attempt))
                attempt += 1
        finally:
            self._settler.interrupt()

    async def _open(self) -> SerialPort:
        """Open the port in a thread; a port opened after a cancellation is closed."""
        opening = asyncio.ensure_future(
            asyncio.to_thread(self._open_serial, self._path, self._baudrate)
        )
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:
            opening.add_done_callback(_close_opened)
            raise

    async def _run_session(self, port: SerialPort) -> bool:
        """Run one connection until it is lost; True if it reached ``live``.

        The session's loops are plain tasks awaited with :func:`asyncio.wait`, not a
        ``TaskGroup``: on Python 3.11 a group that is aborting for a child's error drops
        a cancellation that arrives meanwhile, and close() then never ends the link.
        """
        self._counts["reconnects" if self._counts["connects"] else "connects"] += 1
        loop = asyncio.get_running_loop()
        self._lost = loop.create_future()
        tasks: list[asyncio.Task[None]] = []
        fd: int | None = None
        try:
            await asyncio.to_thread(port.reset_input_buffer)
            self._decoder.reset()
            self._rx_seq = None
            self._outbox = asyncio.Queue()
            self._set_state(LinkState.SYNCING)
            now = self._clock()
            self._last_rx = now
            self._started = now
            self._post(self._sync.start(now))
            fd = port.fileno()
            loop.add_reader(fd, self._on_readable, port)
            tasks = [
                loop.create_task(self._write_loop(port), name="board-writer"),
                loop.create_task(self._watch(), name="board-watchdog"),
                loop.create_task(self._settle_loop(), name="board-settle"),
                loop.create_task(self._wait_lost(), name="board-reader"),
            ]
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # each loop runs until it fails: raise why
        except (_LostError, *_PORT_ERRORS) as error:
            if self._failure is None:  # an incompatible board is raised, not retried
                # Announced with the next state (searching), not as a second "live".
                self._report(f"link lost: {error}", announce=False)
        finally:
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.wait(tasks)
            for task in tasks:
                if not task.cancelled():
                    task.exception()  # retrieved: the first one was raised above
            reached_live, self._was_live = self._was_live, False
            if fd is not None:
                loop.remove_reader(fd)
            self._settler.interrupt()
            self._sync.synced = False
            with contextlib.suppress(*_PORT_ERRORS):
                await asyncio.to_thread(port.close)
        return reached_live

    async def _wait_lost(self) -> None:
        assert self._lost is not None
        await self._lost

    def _post(self, messages: list[Message]) -> None:
        for message in messages:
            self._outbox.put_nowait(message)

    async def _write_loop(self, port: SerialPort) -> None:
        while True:
            message = await self._outbox.get()
            data = encode_frame(pack(message, self._tx_seq))
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF
            await asyncio.to_thread(port.write, data)
            self._outbox.task_done()
            self._counts["frames_sent"] += 1
            if isinstance(message, LedFrame):
                self._counts["leds_sent"] += 1

    # Receiving: bytes -> frames -> messages -> state.

    def _on_readable(self, port: SerialPort) -> None:
        try:
            data = port.read(max(1, port.in_waiting))
        except _PORT_ERRORS as error:
            self._counts["disconnects"] += 1
            if self._lost is not None and not self._lost.done():
                self._lost.set_exception(_LostError(f"read failed: {error}"))
            asyncio.get_running_loop().remove_reader(port.fileno())
            return
        self._receive(data)

    def _receive(self, data: bytes) -> None:
        self._counts["bytes_received"] += len(data)
        now = self._clock()
        for item in self._decoder.feed(data):
            if isinstance(item, BadChunk):
                self._counts[f"bad_{item.reason}" if item.reason != "oversize" else "oversize"] += 1
                self._counts["resyncs"] += 1
                _log.debug("dropped %r: %s", item.data[:32], item.detail)
                continue
            self._on_valid_frame(item, now)

    def _on_valid_frame(self, frame: Frame, now: float) -> None:
        try:
            message = unpack(frame)
        except MessageError as error:
            key = "bad_payload" if frame.type in _KNOWN_TYPES else "unknown_types"
            self._counts[key] += 1
            _log.debug("dropped %r: %s", frame, error)
            self._raw.refuse(frame.type, error)
            return
        self._counts["frames_ok"] += 1
        skipped = 0 if self._rx_seq is None else (frame.seq - self._rx_seq - 1) & 0xFFFF
        if skipped >= 0x8000:
            # At or behind the last seq: an old frame again (replayed garbage, a looped line).
            self._counts["frames_repeated"] += 1
        else:
            self._counts["frames_lost"] += skipped
            self._rx_seq = frame.seq
        self._last_rx = now
        if self._on_frame is not None:
            self._on_frame(frame)
        if self._raw.receive(message):
            return
        before = self._sync.cells, self._sync.synced
        try:
            replies = self._sync.receive(message, now)
        except IncompatibleProtocolError as error:
            self._failure = error
            if self._lost is not None and not self._lost.done():
                self._lost.set_exception(_LostError(str(error)))
            return
        self._post(replies)
        if self._sync.synced:
            if not before[1]:
                self._was_live = True
                if self._leds is not None:
                    self._post([self._leds])
            self._set_state(LinkState.LIVE)
            if self._sync.cells is not None and self._sync.event is not None:
                self._settler.update(self._sync.cells, self._sync.event, now)
                self._settle_wake.set()
        elif before[1]:
            self._set_state(LinkState.SYNCING)

    # Timers: handshake retries, silence, settling.

    async def _watch(self) -> None:
        tick = min(0.05, self._silence_timeout_s / 4)
        while True:
            await asyncio.sleep(tick)
            now = self._clock()
            self._post(self._sync.due(now))
            silence = now - self._last_rx
            if not self._sync.synced:
                if now - self._started > self._handshake_timeout_s:
                    self._counts["handshake_timeouts"] += 1
                    raise _LostError(
                        f"no answer to HELLO within {self._handshake_timeout_s} s "
                        "(is it a Tabula sensor board, running its firmware?)"
                    )
                continue
            if silence > self._silence_timeout_s:
                self._counts["heartbeat_timeouts"] += 1
                raise _LostError(f"silent for {silence:.2f} s")
            if silence > self._stale_limit() and self._state == LinkState.LIVE:
                self._counts["stale_periods"] += 1
                self._set_state(LinkState.STALE)

    def _stale_limit(self) -> float:
        if self._stale_after_s is not None:
            return self._stale_after_s
        hello = self._sync.hello
        return 2 * (hello.heartbeat_ms / 1000 if hello is not None else 1.0)

    async def _settle_loop(self) -> None:
        while True:
            self._settle_wake.clear()
            due = self._settler.deadline()
            if due is None:
                await self._settle_wake.wait()
                continue
            delay = due - self._clock()
            if delay > 0:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
                # cancellation that comes with the wake (a frame), and close() never ended.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._settle_wake.wait()
                continue
            observation = self._settler.poll(self._clock())
            if observation is not None:
                self._emit(observation)

    def _emit(self, observation: Observation) -> None:
        self._observation = observation
        self._counts["observations"] += 1
        if observation.inconsistent:
            self._counts["inconsistent_observations"] += 1
        self._updates.put_nowait(observation)


def _close_opened(opening: asyncio.Future[SerialPort]) -> None:
    if not opening.cancelled() and opening.exception() is None:
        with contextlib.suppress(*_PORT_ERRORS):
            opening.result().close()

"""The board simulator: the real firmware, behind a real pseudo-terminal.

Why: every other part of Tabula is developed and tested against this board. The firmware
code of ``hardware/firmware`` runs unchanged, stepped from a thread through
:mod:`hardware.firmware.lockstep`, on CPython in this process (the default) or on real
MicroPython in a child process (:mod:`hardware.runtimes`). Its virtual sensor matrix is
fed by a :class:`VirtualBoard` of checkers (place, lift, slide, hit, stack); its serial
bytes go through the master side of a pty; the host opens the slave side with pyserial
exactly as it opens ``/dev/ttyACM0``. Faults can be injected on the sensors
(noise, a stuck slot, and a slot broken as real ones break: dead, noisy, stuck or open,
:meth:`BoardSimulator.fault`) and on the link (dropped, corrupted or injected bytes, silence,
unplug and replug behind a stable symlink, power cycles).

Example::

    with BoardSimulator(link=tmp_path / "board") as sim:
        print(sim.path)            # what the bridge opens
        sim.board.move(23, 19)     # lift from point 24, place on point 20
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import tty
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from firmware_bridge.slot_health import SLOT_FAULTS, Health
from hardware.board.errors import LayoutError
from hardware.board.geometry import LOCATIONS, Cell, cells_from_board
from hardware.firmware import app, hal
from hardware.pinmap import PINMAP_PATH, load_pinmap, slots_per_location
from hardware.runtimes import FirmwareRuntime, FirmwareRuntimeError, open_runtime

if TYPE_CHECKING:
    from hardware.firmware.lockstep import StepRequest

__all__ = ["FIELD", "NOISY_COUNTS", "START", "BoardSimulator", "VirtualBoard"]

#: The backgammon starting position in the 26-integer layout.
START: tuple[int, ...] = (
    0,
    -2,
    0,
    0,
    0,
    0,
    5,
    0,
    3,
    0,
    0,
    0,
    -5,
    5,
    0,
    0,
    0,
    -3,
    0,
    -5,
    0,
    0,
    0,
    0,
    2,
    0,
)
#: Field of one checker's magnet at its slot's sensor, in ADC counts.
FIELD = 9000
#: Each checker higher in a stack adds this fraction of the one below it.
_STACK_DECAY = 0.6
#: A noisy slot's noise, +- ADC counts: over the hysteresis band, under a checker's field.
NOISY_COUNTS = 4000
#: An open slot's noise: past both rails, so a floating input reads anything, often a rail.
_FLOATING_COUNTS = 65535


class VirtualBoard:
    """Checkers on the 28 locations, and what the Hall sensors read from them.

    A location's checkers fill its slots from the edge in the order placed; checkers
    beyond the last slot stack on it. Player 0's magnets (colour A) face north up,
    player 1's south up. Every change is pushed at once to the sensor matrix.

    Args:
        slots: slots per location.
        mid: the sensors' quiescent reading.
        publish: called with the new readings after every change.
        sleep: how to wait between the steps of a gesture; settable as :attr:`sleep`
            (a command passes an event's ``wait`` so that a signal cuts the pause short).
    """

    def __init__(
        self,
        slots: Sequence[int],
        mid: int,
        publish: Callable[[list[int]], None],
        *,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self._slots = list(slots)
        self._mid = mid
        self._publish = publish
        self.sleep = sleep
        self._lock = threading.Lock()
        self._stacks: list[list[int]] = [[] for _ in range(LOCATIONS)]
        self.hand: list[int] = []

    def readings(self) -> list[int]:
        """What every sensor slot reads now, in slot order."""
        out: list[int] = []
        for stack, slots in zip(self._stacks, self._slots, strict=True):
            fields = [0.0] * slots
            depth = [0] * slots
            for index, player in enumerate(stack):
                slot = min(index, slots - 1)
                sign = 1 if player == 0 else -1
                fields[slot] += sign * FIELD * _STACK_DECAY ** depth[slot]
                depth[slot] += 1
            out += [min(65535, max(0, round(self._mid + f))) for f in fields]
        return out

    def cells(self) -> tuple[Cell, ...]:
        """The true content of every location."""
        return tuple((stack.count(0), stack.count(1)) for stack in self._stacks)

    def _changed(self) -> None:
        self._publish(self.readings())

    def _check(self, location: int) -> None:
        if not 0 <= location < LOCATIONS:
            raise LayoutError(f"location {location!r}: expected 0..27")

    def place(self, location: int, player: int) -> None:
        """Put a checker of ``player`` (0 or 1) on ``location``, from the hand if it holds one."""
        self._check(location)
        with self._lock:
            if player in self.hand:
                self.hand.remove(player)
            self._stacks[location].append(player)
            self._changed()

    def lift(self, location: int, player: int | None = None) -> int:
        """Lift the top checker (of ``player`` if given) of ``location`` into the hand.

        Raises:
            LayoutError: if there is no such checker there.
        """
        self._check(location)
        with self._lock:
            stack = self._stacks[location]
            candidates = [i for i, p in enumerate(stack) if player is None or p == player]
            if not candidates:
                raise LayoutError(f"no checker of player {player!r} on location {location}")
            taken = stack.pop(candidates[-1])
            self.hand.append(taken)
            self._changed()
            return taken

    def move(self, source: int, destination: int, hold_s: float = 0.0) -> None:
        """Lift the top checker of ``source`` and place it on ``destination``."""
        player = self.lift(source)
        self.sleep(hold_s)
        self.place(destination, player)

    def slide(self, source: int, destination: int, step_s: float = 0.02) -> None:
        """Slide a checker over every point between, resting ``step_s`` on each."""
        player = self.lift(source)
        step = 1 if destination > source else -1
        for location in range(source + step, destination, step):
            if location >= 24:
                break
            self.sleep(step_s)
            self.place(location, player)
            self.sleep(step_s)
            self.lift(location, player)
        self.sleep(step_s)
        self.place(destination, player)

    def hit(self, source: int, destination: int, hold_s: float = 0.0) -> None:
        """Move onto a blot, then put the blot on its owner's bar half.

        Raises:
            LayoutError: if ``destination`` does not hold exactly one opposing checker.
        """
        player = self._stacks[source][-1] if self._stacks[source] else None
        target = self._stacks[destination]
        if player is None or len(target) != 1 or target[0] == player:
            raise LayoutError(f"no blot to hit on location {destination} from {source}")
        self.move(source, destination, hold_s)
        self.sleep(hold_s)
        blot = self.lift(destination, 1 - player)
        self.sleep(hold_s)
        self.place(24 + blot, blot)

    def stack(self, location: int, player: int, count: int) -> None:
        """Put ``count`` checkers of ``player`` on ``location`` at once (from outside)."""
        self._check(location)
        with self._lock:
            self._stacks[location] += [player] * count
            self._changed()

    def set_cells(self, cells: Sequence[Cell]) -> None:
        """Set every location at once (no gesture), e.g. the starting position."""
        with self._lock:
            self._stacks = [[0] * c[0] + [1] * c[1] if c else [] for c in cells]
            self.hand = []
            self._changed()

    def set_board(self, board: Sequence[int], hold_s: float = 0.0) -> int:
        """Reach a 26-integer position by lifting and placing one checker at a time.

        Borne-off checkers go to the trays. Returns the number of checkers moved.

        Raises:
            LayoutError: if ``board`` is not a position.
        """
        target = cells_from_board(board)
        moved = 0
        for player in (0, 1):
            while True:
                have = [c[player] if c else 0 for c in self.cells()]
                want = [c[player] if c else 0 for c in target]
                surplus = [i for i in range(LOCATIONS) if have[i] > want[i]]
                deficit = [i for i in range(LOCATIONS) if have[i] < want[i]]
                if not surplus and not deficit:
                    break
                if surplus:
                    self.lift(surplus[0], player)
                    self.sleep(hold_s)
                if deficit:
                    self.place(deficit[0], player)
                    self.sleep(hold_s)
                moved += 1
        return moved


class BoardSimulator:
    """The sensor board on a pseudo-terminal, with its checkers and faults under control.

    Args:
        link: a path the simulator keeps as a symlink to its current pty, like the udev
            rule's ``/dev/tabula-board``; without it, :attr:`path` is the pty itself and
            changes on :meth:`reconnect`.
        board: the initial position (26 integers), the starting position by default.
        settings: overrides of pinmap.toml's ``[firmware]`` table (scan period ...).
        protocol: the (major, minor) version the board announces.
        seed: seeds the random faults and the boot ids.
        period_s: how long the firmware loop sleeps between steps.
        record: keep every frame the firmware sends in :attr:`sent` (tests).
        pinmap: the pin map file, the reference one by default.
        runtime: where the firmware runs, ``"cpython"`` or ``"micropython"``
            (:data:`hardware.runtimes.RUNTIMES`).
        on_failure: called (from the stepping thread) when the runtime stops under the
            board, e.g. its MicroPython process killed; the error stays in :attr:`failure`.

    Raises:
        FirmwareRuntimeError: on :meth:`start`, if the runtime cannot start.
    """

    def __init__(
        self,
        *,
        link: str | os.PathLike[str] | None = None,
        board: Sequence[int] = START,
        settings: dict[str, int] | None = None,
        protocol: tuple[int, int] = app.PROTOCOL,
        seed: int | None = None,
        period_s: float = 0.001,
        record: bool = False,
        pinmap: Path | None = None,
        runtime: str = "cpython",
        on_failure: Callable[[FirmwareRuntimeError], object] | None = None,
    ) -> None:
        self._pins = load_pinmap(pinmap)
        self._pinmap_text = (pinmap or PINMAP_PATH).read_text()
        self._slots = slots_per_location(self._pins)
        self._settings = settings
        self._protocol = protocol
        self._rng = random.Random(seed)
        self._period_s = period_s
        self._link = Path(link) if link is not None else None
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drop = 0
        self._corrupt = 0
        self._pending: list[bytes] = []
        self.muted = False
        self.record = record
        self.sent: list[bytes] = []
        self.bytes_dropped = 0
        self.runtime_name = runtime
        self._runtime: FirmwareRuntime | None = None
        self._on_failure = on_failure
        #: Why the firmware stopped stepping, if its runtime failed (None while it runs).
        self.failure: FirmwareRuntimeError | None = None
        self._noise_seed = self._rng.getrandbits(32)
        #: What the LED chain shows, as the firmware last drove it.
        self.leds = hal.VirtualLedChain(app.LED_COUNT)
        #: The last LED_FRAME the running firmware received ([red, green, blue, pattern]).
        self.led_frame: list[tuple[int, ...]] = []
        self._noise: dict[int, int] = {}
        self._stuck: dict[int, int] = {}
        self._changes: StepRequest = {}
        self.board = VirtualBoard(self._slots, self._pins["hall"]["mid"], self._set_readings)
        self.board.set_cells(cells_from_board(board))
        self._boot()
        self._started_ns = time.monotonic_ns()

    # Life cycle.

    def _boot(self) -> None:
        """Power the firmware up (again) at the next step."""
        self._changes["boot"] = (self._rng.getrandbits(32), *self._protocol, self._settings)
        self.led_frame = []

    def _set_readings(self, readings: list[int]) -> None:
        with self._lock:
            self._changes["readings"] = readings

    def _faults_changed(self) -> None:
        self._changes["noise"] = sorted(self._noise.items())
        self._changes["stuck"] = sorted(self._stuck.items())

    @property
    def path(self) -> str:
        """The device path to open: the stable link if any, else the current pty."""
        return str(self._link) if self._link is not None else self._slave_name

    def start(self) -> BoardSimulator:
        """Start the firmware's runtime, open the pty and start the stepping thread."""
        if self._thread is None:
            if self._runtime is None:
                self._runtime = open_runtime(self.runtime_name, self._pinmap_text, self._noise_seed)
            self._open_pty()
            self._thread = threading.Thread(target=self._run, name="board-simulator", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the firmware and close the pty; idempotent."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._close_pty()
        if self._runtime is not None:
            self._runtime.close()

    def __enter__(self) -> BoardSimulator:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                for data in self._pending:
                    self._write(data, frame=False)
                self._pending.clear()
                try:
                    self._step()
                except FirmwareRuntimeError as error:
                    # The board is dead, as a crashed Pico is: stop stepping and say why,
                    # rather than end the thread with a traceback and a silent board.
                    self.failure = error
                    if self._on_failure is not None:
                        self._on_failure(error)
                    return
            time.sleep(self._period_s)

    def _step(self) -> None:
        """One step of the firmware: the host's bytes and the board's changes in, its out."""
        assert self._runtime is not None
        request = self._changes
        self._changes = {}
        request["now"] = (time.monotonic_ns() - self._started_ns) // 1_000_000
        received = self._read()
        if received:
            request["rx"] = list(received)
        answer = self._runtime.step(request)
        for data in answer["tx"]:
            self._write(bytes(data), frame=True)
        if "leds" in answer:
            self.leds.show([(red, green, blue) for red, green, blue in answer["leds"]])
        if "frame" in answer:
            self.led_frame = [tuple(led) for led in answer["frame"]]

    def _read(self) -> bytes:
        """The bytes the host wrote to the pty since the last step."""
        if self._master is None:
            return b""
        try:
            return os.read(self._master, 4096)
        except OSError:  # nothing waiting (EAGAIN), or no slave open (EIO)
            return b""

    def _open_pty(self) -> None:
        with self._lock:
            master, slave = os.openpty()
            # Raw before anyone opens it: no echo of the board's bytes back to the board.
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._slave_name = os.ttyname(slave)
            if self._link is not None:
                temporary = self._link.with_name(self._link.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    temporary.unlink()
                temporary.symlink_to(self._slave_name)
                temporary.replace(self._link)

    def _close_pty(self) -> None:
        with self._lock:
            if self._link is not None:
                with contextlib.suppress(FileNotFoundError):
                    self._link.unlink()
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None

    # The link and its faults.

    def _write(self, data: bytes, *, frame: bool) -> None:
        if frame and self.record:
            self.sent.append(data)
        if self.muted or self._master is None:
            self.bytes_dropped += len(data)
            return
        if self._drop:
            cut = min(self._drop, len(data))
            self._drop -= cut
            self.bytes_dropped += cut
            data = data[cut:]
        if self._corrupt and data:
            buffer = bytearray(data)
            for index in range(min(self._corrupt, len(buffer))):
                buffer[index] ^= 1 << self._rng.randrange(8)
            self._corrupt -= min(self._corrupt, len(buffer))
            data = bytes(buffer)
        try:
            written = os.write(self._master, data)
        except OSError:  # the pty is full: nobody reads, as with an unread USB port
            written = 0
        self.bytes_dropped += len(data) - written

    def drop(self, count: int) -> None:
        """Lose the next ``count`` bytes the board sends."""
        with self._lock:
            self._drop += count

    def corrupt(self, count: int) -> None:
        """Flip one random bit in each of the next ``count`` bytes the board sends."""
        with self._lock:
            self._corrupt += count

    def inject(self, data: bytes) -> None:
        """Send raw ``data`` to the host between two of the board's frames."""
        with self._lock:
            self._pending.append(bytes(data))

    def mute(self, muted: bool = True) -> None:
        """Make the board stop talking (a hung board) or talk again."""
        with self._lock:
            self.muted = muted

    def disconnect(self) -> None:
        """Unplug: the pty disappears (and the link with it); the board keeps sensing."""
        self._close_pty()

    def reconnect(self, *, power_cycle: bool = False) -> None:
        """Plug back in on a new pty; with ``power_cycle`` the firmware restarts too."""
        with self._lock:
            self._close_pty()
            if power_cycle:
                self._boot()
            self._open_pty()

    # Sensor faults.

    def _slot(self, location: int, slot: int) -> int:
        if not 0 <= slot < self._slots[location]:
            raise LayoutError(
                f"slot {slot!r} of location {location}: expected 0..{self._slots[location] - 1}"
            )
        return sum(self._slots[:location]) + slot

    def noise(self, location: int, slot: int, amplitude: int) -> None:
        """Add uniform noise of +-``amplitude`` ADC counts to one slot's readings."""
        with self._lock:
            self._noise[self._slot(location, slot)] = amplitude
            self._faults_changed()

    def stick(self, location: int, slot: int, value: int) -> None:
        """Make one slot read ``value`` whatever lies on it (0 or 65535: a broken sensor)."""
        with self._lock:
            self._stuck[self._slot(location, slot)] = value
            self._faults_changed()

    def fault(self, location: int, slot: int, kind: str) -> None:
        """Break one slot as real ones break (one fault a slot; :meth:`clear_faults` mends).

        ``kind`` is one of :data:`SLOT_FAULTS`: ``dead`` reads 0 (no signal); ``noisy``
        jumps by up to :data:`NOISY_COUNTS`; ``stuck`` reads a checker of player 0
        whatever lies on it; ``open`` floats over the whole range.

        Raises:
            LayoutError: if there is no such slot or fault.
        """
        if kind not in SLOT_FAULTS:
            raise LayoutError(f"slot fault {kind!r}: expected one of {', '.join(SLOT_FAULTS)}")
        index = self._slot(location, slot)
        with self._lock:
            self._noise.pop(index, None)
            self._stuck.pop(index, None)
            if kind == Health.DEAD:
                self._stuck[index] = 0
            elif kind == Health.STUCK:
                self._stuck[index] = min(65535, self._pins["hall"]["mid"] + FIELD)
            else:
                self._noise[index] = NOISY_COUNTS if kind == Health.NOISY else _FLOATING_COUNTS
            self._faults_changed()

    def clear_faults(self) -> None:
        """Remove every sensor fault."""
        with self._lock:
            self._noise.clear()
            self._stuck.clear()
            self._faults_changed()

    def play(
        self, steps: Iterable[tuple[Sequence[int], float]], *, hold_scale: float = 1.0
    ) -> None:
        """Reach each (board, hold_ms) in turn one checker at a time, holding it hold_ms."""
        for board, hold_ms in steps:
            self.board.set_board(board)
            time.sleep(hold_ms / 1000 * hold_scale)

    def truth(self) -> tuple[Cell, ...]:
        """The cells the board physically holds (checkers in the hand are in none)."""
        return self.board.cells()

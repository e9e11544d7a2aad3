"""The simulated table: players who roll rendered dice, move checkers on the board
simulator, press the (MockFactory) buttons, and log what they did.

Why here: ``tabula demo`` and the end-to-end tests run the real service against these
simulators, and compare the journal with the players' own log (:attr:`TableDriver.expected`).

* :class:`TableCamera` — a frame source over the table: the empty board, or a roll.
* :class:`RollPool` — rendered rolls (``vision.render_roll``) composited on one board under
  one light, each checked once by the real reader: the camera then shows only rolls whose
  truth is known, flat ones read right and cocked ones read as rerolls. Now and then the
  room's light has changed since the empty board (up to 30%, some with a shadow across).
* :class:`TableDriver` — the two simulated players (the strength of
  :mod:`controller.simulated.players`), making a share of illegal plays and cocked rolls,
  and now and then passing a hand over the dice or leaning over the board
  (``vision.hand_crossing``, ``vision.leaning_over``, drawn over the camera's picture):
  neither is a roll.
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import record
from controller.match.cube_seen import cube_shown
from controller.match.orientation import Orientation, mirror
from controller.match.turn_record import canonical_notation
from controller.referee import cells_from_board, explaining_dice, location_of
from controller.rules import (
    Board,
    CubeState,
    MatchState,
    Player,
    legal_plays,
    outcome,
)
from controller.service.service import Service
from controller.simulated.players import SimulatedPlayer

__all__ = [
    "STALL_S",
    "PoolRoll",
    "RollPool",
    "TableCamera",
    "TableDriver",
    "service_progress",
    "until_progress",
]

#: Flat rolls in a row the camera may call irregular before the simulated players give up:
#: a camera that disagrees with them on every roll would never let the game go on.
MISREADS_IN_A_ROW = 10

#: How long a wait goes on while nothing it watches advances: the only bound on the
#: simulated players' waits. Generous on purpose: the slowest step (a journal commit or a
#: dice read on a throttled Pi Zero 2 W) takes well under a second, so 60 s of no progress
#: at all means the thing waited on is stuck, never that the machine is slow.
STALL_S = 60.0


async def until_progress(
    what: str,
    done: Callable[[], bool],
    progress: Callable[[], object],
    *,
    stall_s: float = STALL_S,
) -> None:
    """Wait until ``done()``, for as long as ``progress()`` keeps changing.

    Why: a slow CPU makes every step slower but not stuck; a wall-clock deadline misjudges
    it. ``progress`` is what the waited-on part advances as it works (frames read, inputs
    handled, events journalled).

    Raises:
        TimeoutError: ``progress()`` stayed the same for ``stall_s`` seconds.
    """
    last = progress()
    moved = time.monotonic()
    while not done():
        await asyncio.sleep(0.002)
        now = progress()
        if now != last:
            last, moved = now, time.monotonic()
        elif time.monotonic() - moved > stall_s:
            raise TimeoutError(f"waited for {what}: nothing advanced for {stall_s:g} s")


def service_progress(service: Service) -> Callable[[], object]:
    """What ``service`` advances as it works: inputs handled, rolls read, events journalled,
    the engine's hints and verdicts (the progress to wait on, see :func:`until_progress`)."""
    counters = service.counters
    return lambda: (
        counters.inputs,
        counters.rolls,
        counters.journalled,
        counters.hints,
        counters.hints_dropped,
        counters.judged,
    )


class TableCamera:
    """A camera over the table (``vision.FrameSource``): shows what the players put there.

    :meth:`read` returns the current picture at most every ``period_s`` (a camera's frame
    rate), at once after a change.
    """

    def __init__(self, empty: Any, *, period_s: float = 0.02) -> None:
        self.empty = empty
        self._frame = empty
        self._period_s = period_s
        self._version = 0
        self._seen = 0
        self._reads_since = 0
        self._closed = False
        self._passing: collections.deque[Any] = collections.deque()
        self._condition = threading.Condition()

    @property
    def picture(self) -> Any:
        """What stands in front of the camera (a hand passing aside)."""
        with self._condition:
            return self._frame

    def show(self, image: Any) -> None:
        """Put ``image`` in front of the camera (a roll, or the empty board).

        A hand passes first (one frame with a dark band along the left edge, clear of the
        dice): the watcher sees movement even when the change itself is as small as two dice.
        """
        hand = image.copy()
        hand[:, : hand.shape[1] // 8] //= 3
        self._change([hand], image)

    def pass_over(self, frames: Sequence[Any]) -> None:
        """Show ``frames`` once each (a hand passing, a player leaning over the board: the
        same frame several times is something held still), then the picture again."""
        self._change(frames)

    def _change(self, passing: Sequence[Any], picture: Any = None) -> None:
        """Show the frames ``passing``, then ``picture`` (None: the picture as it is)."""
        with self._condition:
            if picture is not None:
                self._frame = picture
            self._passing = collections.deque(passing)
            self._version += 1
            self._reads_since = 0
            self._condition.notify_all()

    def read(self) -> Any:
        with self._condition:
            self._condition.wait_for(
                lambda: self._version != self._seen or self._closed, timeout=self._period_s
            )
            self._seen = self._version
            self._reads_since += 1
            self._condition.notify_all()
            if self._closed:
                return None
            return self._passing.popleft() if self._passing else self._frame

    def reads_since_show(self) -> int:
        """Frames read since the last :meth:`show` or :meth:`pass_over`."""
        with self._condition:
            return self._reads_since

    async def taken_in(self, frames: int, *, stall_s: float = STALL_S) -> None:
        """Wait until ``frames`` frames have been read since the last :meth:`show`.

        A slow reader (a throttled service) is waited for as long as it keeps reading.

        Raises:
            TimeoutError: no frame was read for ``stall_s`` seconds.
        """
        await until_progress(
            "the camera to be read",
            lambda: self.reads_since_show() >= frames,
            self.reads_since_show,
            stall_s=stall_s,
        )

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rendered roll whose reading is known.

    ``thrower`` is who threw it (``vision.Thrower``'s values: the dice lie in his
    right-hand half); ``dice`` is (the near player's die, the far player's) for an opening
    throw (``both``), else the two values.
    """

    image: Any
    dice: tuple[int, int]
    cocked: bool
    thrower: str = "near"
    relit: bool = False
    """Lit otherwise than the empty board (lamps, daylight, a player's shadow)."""


#: How many rolls the pool keeps of each (thrower, cocked).
POOL_SIZES: dict[tuple[str, bool], int] = {
    ("near", False): 12,
    ("far", False): 12,
    ("both", False): 8,
    ("near", True): 3,
    ("far", True): 3,
}


class RollPool:
    """Rendered rolls checked once by the real reader (see the module docstring).

    Args:
        seed: the rendering's seed.
        sizes: how many rolls to keep of each (thrower, cocked).
        relit: the share of the rolls lit otherwise than the empty board.
    """

    def __init__(self, seed: int = 0, *, sizes: Mapping[tuple[str, bool], int] = POOL_SIZES,
                 relit: float = 0.3) -> None:  # fmt: skip
        import cv2
        import numpy as np

        from vision import Calibration, DiceReader, LightChange, Verdict, render_roll

        self.empty = render_roll(random.Random(seed), board_seed=seed, dice=0).background
        reader = DiceReader(Calibration.identity(), expected_dice=2)
        reader.set_background(self.empty)
        self.rolls: list[PoolRoll] = []
        attempt = 0
        for (thrower, cocked), wanted in sizes.items():
            kept = 0
            while kept < wanted:
                attempt += 1
                rng = random.Random(seed * 7919 + attempt)
                roll = render_roll(
                    rng, board_seed=seed, cocked=1 if cocked else 0, thrower=thrower
                )
                mask = (cv2.absdiff(roll.image, roll.background).max(axis=2) > 12).astype(np.uint8)
                mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
                image = np.where(mask[..., None] > 0, roll.image, self.empty)
                lit = rng.random() < relit
                if lit:
                    image = LightChange.random(rng, shadow=rng.random() < 0.5).apply(image)
                reading = reader.read(image, thrower)
                if cocked:
                    # Read as cocked, not merely a reroll: dice the reader did not see at
                    # all would be learnt as the empty board.
                    if len(reading.dice) == 2 and any("cocked" in d.flags for d in reading.dice):
                        self.rolls.append(PoolRoll(image, (1, 1), True, thrower, lit))
                        kept += 1
                    continue
                if reading.verdict is not Verdict.OK or len(reading.dice) != 2:
                    continue
                # The die further right is the near player's (the opening throw's order).
                truth = sorted(roll.dice, key=lambda die: -(die.box[0] + die.box[2]))
                seen = sorted(reading.dice, key=lambda die: -die.center[0])
                dice = (truth[0].value, truth[1].value)
                if (seen[0].value, seen[1].value) == dice:
                    self.rolls.append(PoolRoll(image, dice, False, thrower, lit))
                    kept += 1

    def save(self, path: Path) -> None:
        """Keep the pool in a ``.npz`` file (rendering it takes seconds, loading it not).

        The partial file's name is unique: several boards in one process (or several
        demos) may render and save the same pool at once; each rename is atomic.
        """
        import tempfile

        import numpy as np

        rolls = self.rolls
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part.npz")
        os.close(handle)
        partial = Path(name)
        np.savez(
            partial,
            empty=self.empty,
            images=np.stack([roll.image for roll in rolls]),
            dice=np.array([roll.dice for roll in rolls]),
            cocked=np.array([roll.cocked for roll in rolls]),
            thrower=np.array([roll.thrower for roll in rolls]),
            relit=np.array([roll.relit for roll in rolls]),
        )
        partial.replace(path)

    @classmethod
    def cached(cls, seed: int, cache: Path) -> RollPool:
        """The pool of ``seed`` from ``cache`` (a directory), rendered and saved if missing."""
        import numpy as np

        path = cache / f"tabula-rolls-{seed}-{_reader_version()}.npz"
        if path.exists():
            with np.load(path) as data:
                pool = cls.__new__(cls)
                pool.empty = data["empty"]
                pool.rolls = [
                    PoolRoll(image, (int(dice[0]), int(dice[1])), bool(cocked), str(thrower),
                             bool(relit))
                    for image, dice, cocked, thrower, relit in zip(
                        data["images"], data["dice"], data["cocked"], data["thrower"],
                        data["relit"], strict=True,
                    )
                ]
                return pool
        pool = cls(seed)
        pool.save(path)
        return pool

    def pick(self, rng: random.Random, thrower: str, *, cocked: bool = False) -> PoolRoll:
        """A roll thrown by ``thrower`` (``near``, ``far`` or ``both``), cocked or flat."""
        return rng.choice(
            [roll for roll in self.rolls if roll.thrower == thrower and roll.cocked == cocked]
        )


def _reader_version() -> str:
    """A digest of the dice reader's code and the pool's: a cached pool was made and
    checked by this code only."""
    import hashlib

    import vision

    digest = hashlib.sha256()
    for source in [*sorted(Path(vision.__file__).parent.glob("*.py")), Path(__file__)]:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


@dataclass(slots=True)
class DriverCounts:
    """What the simulated players did."""

    games: int = 0
    turns: int = 0
    illegal: int = 0
    accepted: int = 0
    demanded: int = 0
    cocked: int = 0
    misread: int = 0
    """Flat rolls the camera called irregular (rolled again, as the referee asks). The
    pool's rolls were read right by the same reader: none is expected."""
    doubles: int = 0
    drops: int = 0
    cube_left: int = 0
    """Takes after which the taker left the cube where it was (the camera must say so)."""
    cube_pointed_out: int = 0
    """Cubes left where they were that the service pointed out (within 3 rolls; a game
    may end first)."""
    hits: int = 0
    bar_entries: int = 0
    bear_offs: int = 0
    hands: int = 0
    """Hands passed over dice that stayed put."""
    leans: int = 0
    """Players leaning over the board mid-play, held still for a few frames."""


class TableDriver:
    """Two simulated players at the table of a running :class:`Service`.

    Args:
        service: the service under test (its status is what the players look at).
        board: the simulator's :class:`~hardware.simulator.VirtualBoard`.
        camera: the camera the players roll in front of.
        pool: the rolls they can throw.
        press: presses a button by name (``done``, ``double``, ``take``, ``drop``,
            ``accept``, ``undo``): drives the MockFactory pin.
        rng: every choice of the players.
        illegal_rate: the share of turns played illegally.
        cocked_rate: the share of rolls with a cocked die.
        hand_rate: the share of rolls read after which a hand passes over the dice, and
            of plays during which the player leans over the board.
        flipped: the board's orientation (player 0 at the far side with colour B).
        echo: prints a line about each turn (the demo), or None.
        stall_s: how long a wait for the service goes on while the service handles
            nothing (see :data:`STALL_S`); a slow service is waited for.
        misset_rate: the share of takes after which the taker forgets to move the cube
            (the camera shows it where it was; the service must point it out).
    """

    def __init__(
        self,
        service: Service,
        board: Any,
        camera: TableCamera,
        pool: RollPool,
        *,
        press: Callable[[str], Any],
        rng: random.Random,
        illegal_rate: float = 0.08,
        cocked_rate: float = 0.08,
        hand_rate: float = 0.1,
        flipped: bool = False,
        echo: Callable[[str], None] | None = None,
        stall_s: float = STALL_S,
        misset_rate: float = 0.2,
    ) -> None:
        self.service = service
        self.board = board
        self.camera = camera
        self.pool = pool
        self._press = press
        self.rng = rng
        self.players = (
            SimulatedPlayer(random.Random(rng.random())),
            SimulatedPlayer(random.Random(rng.random())),
        )
        self.illegal_rate = illegal_rate
        self.cocked_rate = cocked_rate
        self.misset_rate = misset_rate
        # The cube's own chance, drawn from the state without consuming it: the games
        # of a seed stay the games they were.
        self._cube_rng = random.Random(rng.getstate()[1][0])
        #: The cube on the table (its face and side) as the camera sees it, or None.
        self.cube_at: tuple[int, str] | None = None
        self._misset = False  # the cube was left where it was after a take
        self._to_set_right = False  # the service pointed it out: set it right next turn
        self._misset_unseen = 0  # rolls since the cube was left, not pointed out
        self._with_cube: dict[int, Any] = {}
        self.hand_rate = hand_rate
        #: The hands' own chance: what the players do stays as their ``rng`` makes it.
        self._hands = random.Random(rng.random())
        self.flipped = flipped
        self._orientation = Orientation.of_flipped(flipped)
        self.echo = echo
        self.stall_s = stall_s
        self.expected: list[record.Event] = []
        self.counts = DriverCounts()
        self._misreads_in_a_row = 0
        flow = service.flow
        self.rules = flow.rules
        self.match: MatchState = flow.match
        self.cube: CubeState | None = None

    # Senses and hands.

    async def until(self, what: str, predicate: Callable[[Any], bool]) -> Any:
        """Wait until the service's status satisfies ``predicate``.

        The service is waited for as long as it keeps handling what the players did
        (:func:`service_progress`).
        """
        try:
            await until_progress(
                what,
                lambda: predicate(self.service.status()),
                service_progress(self.service),
                stall_s=self.stall_s,
            )
        except TimeoutError as error:
            raise TimeoutError(f"{error}; status: {self.service.status()!r}") from None
        return self.service.status()

    async def press(self, name: str) -> None:
        await asyncio.to_thread(self._press, name)

    async def show(self, image: Any, frames: int = 4) -> None:
        """Show ``image`` (and the cube where it stands) to the camera and wait until the
        watcher has taken it in."""
        self.camera.show(self._cube_on(image))
        await self.camera.taken_in(frames, stall_s=self.stall_s)

    def _cube_on(self, image: Any) -> Any:
        """``image`` with the cube where the players put it (kept per image: the cube
        lies the same way until it is moved)."""
        if self.cube_at is None:
            return image
        if id(image) not in self._with_cube:
            from vision._synth import place_cube

            value, side = self.cube_at
            self._with_cube[id(image)] = place_cube(image, value, side,
                                                    random.Random(value * 7 + len(side)))
        return self._with_cube[id(image)]

    async def _move_cube(self, cube: tuple[int, str] | None) -> None:
        """Put the cube at ``cube`` (its face and side); the camera sees it moved before
        anything else changes, as at a real table."""
        if cube != self.cube_at:
            self.cube_at = cube
            self._with_cube.clear()
            await self.show(self.camera.empty)

    async def _pass_over(self, frames: Sequence[Any]) -> None:
        """Pass ``frames`` before the camera, and wait until the watcher has seen the
        picture settle again after them."""
        self.camera.pass_over(frames)
        await self.camera.taken_in(len(frames) + 3, stall_s=self.stall_s)

    async def _now_and_then_a_hand(self) -> None:
        """Now and then a hand passes over the dice, which stay put: no roll, no lift."""
        if self._hands.random() >= self.hand_rate:
            return
        from vision import hand_crossing

        # Exact frames, as the table's camera gives; drawn on the slow Pi too: few of them.
        frames = hand_crossing(self.camera.picture, [], self._hands, frames=5, sigma=0)
        await self._pass_over(frames)
        self.counts.hands += 1
        self._say("    a hand passes over the dice")

    async def _now_and_then_leaning(self) -> None:
        """Now and then the player leans over the board mid-play, still for a few frames."""
        if self._hands.random() >= self.hand_rate:
            return
        from vision import leaning_over

        cover = self._hands.choice(("both", "board"))
        frames = leaning_over(self.camera.picture, [], self._hands, cover=cover, frames=4, sigma=0)
        await self._pass_over(frames)
        self.counts.leans += 1
        self._say(f"    the player leans over the {'dice' if cover == 'both' else 'board'}")

    def _physical(self, location: int) -> int:
        return mirror(location) if self.flipped else location

    def _colour(self, player: Player) -> int:
        return player ^ int(self.flipped)

    def _target_cells(self, board: Board) -> tuple[Any, ...]:
        return cells_from_board(board)

    async def _settled(self, board: Board) -> None:
        cells = self._target_cells(board)
        await self.until("the board to settle", lambda status: status.cells == cells)

    async def _set_board(self, board: Board) -> None:
        physical = board if not self.flipped else _flipped_board(board)
        await asyncio.to_thread(self.board.set_board, physical)
        await self._settled(board)

    async def _move(self, player: Player, source: int, destination: int) -> None:
        src = self._physical(location_of(player, source))
        dst = self._physical(location_of(player, destination))
        truth = self.board.cells()
        target = truth[dst]
        opponent = 1 - self._colour(player)
        if destination != 0 and target[opponent] == 1 and target[1 - opponent] == 0:
            self.counts.hits += 1
            await asyncio.to_thread(self.board.hit, src, dst)
        else:
            await asyncio.to_thread(self.board.move, src, dst)
        self.counts.bar_entries += source == 25
        self.counts.bear_offs += destination == 0

    # The match.

    async def play(self, games: int) -> None:
        """Play until ``games`` games have ended (or the match), from wherever it stands.

        The players look at the service to know where it stands (a resumed match too): they
        put the checkers where the position is, then roll, double, answer or move.
        """
        flow = self.service.flow
        start = flow.variant.start  # nackgammon's differs
        await self._set_board(flow.turn.before if flow.turn is not None else start)
        if flow.cube is not None:  # a resumed game: its cube where the referee has it
            await self._set_cube_right()
        while self.counts.games < games:
            status = self.service.status()
            flow = self.service.flow
            self.match, self.cube = flow.match, flow.cube
            if status.phase == "match-over":
                return
            if status.phase == "opening":
                if self.service.status().cells != cells_from_board(start):
                    await self._set_board(start)
                self._misset = self._to_set_right = False
                self._misset_unseen = 0
                await self._move_cube((64, "centre"))
                await self._opening()
            elif status.phase == "cube-offered":
                await self._answer(status)
            elif status.phase == "roll" and status.turn is not None:
                await self._cube_and_roll(status.turn)
            elif status.phase == "moving" and status.turn is not None and status.dice:
                dice = (status.dice[0], status.dice[1])
                await self._play(status.turn, dice, tuple(status.position))
            else:
                raise RuntimeError(f"the simulated players cannot go on from {status!r}")

    def thrower(self, player: Player) -> str:
        """Where ``player`` sits (``near`` or ``far``): he throws into his right-hand half."""
        return self._orientation.side_of(player)

    async def _opening(self) -> None:
        entry = self.pool.pick(self.rng, "both")
        seq = self.service.status().seq
        status = await self._throw(entry.image)
        if status.seq == seq:  # the camera called a flat roll irregular: roll again
            await self._misread(status)
            return
        self._misreads_in_a_row = 0
        near, far = entry.dice
        self.expected.append(record.OpeningRolled((far, near) if self.flipped else (near, far)))
        if status.phase == "opening":
            await self.show(self.camera.empty)  # a tie: pick the dice up, roll again
            return
        self._say(f"opening roll {entry.dice[0]}-{entry.dice[1]}: player {status.turn} starts")
        await self._now_and_then_a_hand()

    async def _misread(self, status: Any) -> None:
        """The camera called a flat roll irregular: pick the dice up to roll again.

        Raises:
            RuntimeError: it did so :data:`MISREADS_IN_A_ROW` times in a row: the camera
                and the players disagree on every roll (the game would never go on).
        """
        self.counts.misread += 1
        self._misreads_in_a_row += 1
        self._say(f"the camera called a flat roll irregular: {status.text}")
        if self._misreads_in_a_row >= MISREADS_IN_A_ROW:
            raise RuntimeError(
                f"the camera called {self._misreads_in_a_row} flat rolls in a row "
                f"irregular, the last: {status.text!r}"
            )
        await self.show(self.camera.empty)

    async def _throw(self, image: Any) -> Any:
        """Roll the dice of ``image`` and return the status once the service has read them."""
        rolls = self.service.counters.rolls
        await self.show(image)
        return await self.until("the roll read", lambda _: self.service.counters.rolls > rolls)

    async def _answer(self, status: Any) -> None:
        cube = self.cube
        assert cube is not None
        taker = cube.to_act
        board = tuple(status.position)
        if self.players[taker].takes(board, taker):
            self.expected.append(record.Taken(taker))
            await self.press("take")
            await self.until("the take", lambda s: s.phase == "roll")
            self._say(f"player {taker} takes")
            if self._cube_rng.random() < self.misset_rate:
                self._misset = True  # the cube stays where it was: the next roll shows it
                self.counts.cube_left += 1
            else:
                await self._set_cube_right()
            return
        result = cube.drop(taker)
        self.expected += [record.Dropped(taker), _ended(result)]
        self.counts.drops += 1
        await self.press("drop")
        self._say(f"player {taker} drops")
        self._game_over(result)
        await self.until("the next game", lambda s: s.phase in ("opening", "match-over"))

    async def _cube_and_roll(self, player: Player) -> None:
        cube = self.cube
        assert cube is not None
        if self._to_set_right:
            self._to_set_right = False
            await self._set_cube_right()
        board = tuple(self.service.status().position)
        if cube.can_double(player) and self.players[player].wants_to_double(board, player):
            value = cube.value * 2
            self.expected.append(record.Doubled(player, value))
            await self.press("double")
            await self.until("the double", lambda s: s.phase == "cube-offered")
            self.counts.doubles += 1
            self._say(f"player {player} doubles to {value}")
            return
        while True:
            cocked = self.rng.random() < self.cocked_rate
            entry = self.pool.pick(self.rng, self.thrower(player), cocked=cocked)
            status = await self._throw(entry.image)
            if cocked:
                self.counts.cocked += 1
                assert status.text.startswith("roll again"), status.text
                await self.show(self.camera.empty)
                continue
            break
        dice = (max(entry.dice), min(entry.dice))
        if status.phase != "moving":  # the camera called a flat roll irregular: roll again
            await self._misread(status)
            return
        self._misreads_in_a_row = 0
        assert status.dice == dice, (status.dice, dice)
        self.expected.append(record.Rolled(player, dice))
        self._check_cube(status)
        await self._now_and_then_a_hand()

    async def _set_cube_right(self) -> None:
        """Put the cube where the referee has it (:func:`cube_shown`)."""
        cube = self.service.flow.cube
        assert cube is not None
        await self._move_cube(cube_shown(cube, self._orientation))

    def _check_cube(self, status: Any) -> None:
        """The service points out a cube left where it was, and only then; the players
        set it right before the next roll."""
        flagged = [alert for alert in status.alerts if alert.startswith("check the cube")]
        if self._misset:
            if not flagged:
                # The camera may not see the cube in a roll's picture (a die beside it, a
                # hand): the next roll's tells. Three rolls without a word is a fault.
                self._misset_unseen += 1
                assert self._misset_unseen < 3, f"a cube left at {self.cube_at} was not " \
                    f"pointed out in 3 rolls: {status!r}"
                return
            self.counts.cube_pointed_out += 1
            self._misset, self._to_set_right, self._misset_unseen = False, True, 0
            self._say(flagged[0])
        else:
            assert not flagged, f"the cube at {self.cube_at} was flagged: {flagged}"

    async def _play(self, player: Player, dice: tuple[int, int], before: Board) -> None:
        """One turn's checkers, from the position before the turn."""
        self.counts.turns += 1
        plays = legal_plays(before, player, dice)
        play = self.players[player].choose_play(plays, player)
        illegal = (
            self._illegal(before, player, dice, play.result)
            if self.rng.random() < (self.illegal_rate)
            else None
        )
        for index, move in enumerate(play.moves):
            if index == 1:
                await self._now_and_then_leaning()
            await self._move(player, move.source, move.destination)
        result = play.result
        if illegal is not None:
            source, destination, result = illegal
            await self._move(player, source, destination)
        await self._settled(result)
        await self._finish(player, lift=self.service.status().dice_source != "given")
        if illegal is not None:
            self.counts.illegal += 1
            await self.until("the flag", lambda s: s.phase == "flagged")
            opponent_accepts = self.rng.random() < 0.5
            if opponent_accepts:
                self.counts.accepted += 1
                self.expected.append(record.IllegalPlayAccepted(player, dice, before, result))
                self._say(f"player {player} {dice[0]}{dice[1]}: illegal play, accepted")
                await self.press("accept")
                await self._after_play(player, result)
                return
            self.counts.demanded += 1
            await self.press("undo")
            await self.until("the demand", lambda s: s.phase == "moving")
            await self._set_board(before)
            for move in play.moves:
                await self._move(player, move.source, move.destination)
            result = play.result
            await self._settled(result)
            await self.press("done")
            self._say(f"player {player} {dice[0]}{dice[1]}: illegal play, legal play demanded")
        notation = canonical_notation(before, player, dice, result)
        self.expected.append(record.Played(player, dice, notation, result))
        self._say(f"player {player} {dice[0]}{dice[1]}: {notation or '(no move)'}")
        await self._after_play(player, result)

    async def _finish(self, player: Player, *, lift: bool = True) -> None:
        """End the turn: pick up the dice (the camera sees it) or press Done.

        Dice given with the turn (the opening roll, a resumed turn) may not be in front of
        the camera: Done then.
        """
        if self.rng.random() < 0.5 and lift:
            await self.show(self.camera.empty)
        else:
            await self.press("done")
            await self.until("the commit", lambda s: s.turn != player or s.phase != "moving")
            await self.show(self.camera.empty)

    async def _after_play(self, player: Player, result: Board) -> None:
        cube = self.cube
        assert cube is not None
        ended = outcome(result)
        if ended is not None:
            game = cube.result(ended)
            self.expected.append(_ended(game))
            self._game_over(game)
            await self.until("the next game", lambda s: s.phase in ("opening", "match-over"))
        else:
            await self.until("the next turn", lambda s: s.turn != player)

    def _game_over(self, result: Any) -> None:
        self.counts.games += 1
        self.match = self.match.after_game(result.points, result.winner)
        score = self.match.score
        self._say(f"player {result.winner} wins {result.points}: score {score[0]}-{score[1]}")

    def _illegal(
        self, before: Board, player: Player, dice: tuple[int, int], legal: Board
    ) -> tuple[int, int, Board] | None:
        """One more checker moved a pip after the legal play: a board no roll explains."""
        results = {play.result for play in legal_plays(before, player, dice)}
        view = legal if player == 0 else _flip(legal)
        candidates = [point for point in range(2, 25) if view[point] > 0 and view[point - 1] >= 0]
        self.rng.shuffle(candidates)
        for point in candidates:
            if view[25] > 0:
                break
            after = list(view)
            after[point] -= 1
            after[point - 1] += 1
            board = tuple(after) if player == 0 else _flip(tuple(after))
            if board in results or outcome(board) is not None:
                continue
            if explaining_dice(before, player, board):
                continue
            return point, point - 1, board
        return None

    def _say(self, line: str) -> None:
        if self.echo is not None:
            self.echo(line)


def _flip(board: Sequence[int]) -> Board:
    return tuple(-n for n in reversed(board))


def _flipped_board(board: Board) -> Board:
    """The physical layout of a logical board seen from the other side (colours swapped)."""
    return _flip(board)


def _ended(result: Any) -> record.GameEnded:
    return record.GameEnded(result.winner, result.points, result.kind, result.dropped)


def button_presser(
    pins: Mapping[str, int], factory: Any, *, gap_s: float = 0.06
) -> Callable[[str], None]:
    """Press a button by name on gpiozero's MockFactory (past the buttons' debounce)."""
    last: dict[str, float] = {}

    def press(name: str) -> None:
        wait = last.get(name, 0.0) + gap_s - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pin = factory.pin(pins[name])
        pin.drive_low()
        pin.drive_high()
        last[name] = time.monotonic()

    return press

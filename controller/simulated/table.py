"""The simulated table: players who roll rendered dice, move checkers on the board
simulator, press the (MockFactory) buttons, and log what they did.

Why here: ``tabula demo`` and the end-to-end tests run the real service against these
simulators, and compare the journal with the players' own log (:attr:`TableDriver.expected`).

:class:`TableDriver` is the two simulated players (the strength of
:mod:`controller.simulated.players`), making a share of illegal plays and cocked rolls,
and now and then passing a hand over the dice or leaning over the board
(:class:`~controller.simulated.hands.TableHands`): neither is a roll. The camera they
roll before and the rendered rolls are :mod:`controller.simulated.camera`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypedDict

from controller import record
from controller.match.cube_seen import cube_shown
from controller.match.orientation import Orientation, mirror
from controller.match.turn_record import canonical_notation
from controller.referee import Cells, cells_from_board, explaining_dice, location_of
from controller.rules import (
    Board,
    CubeState,
    GameResult,
    JacquetResult,
    MatchState,
    Player,
    legal_plays,
    legal_results,
    outcome,
)
from controller.service.service import Service
from controller.simulated.camera import RollPool, TableCamera
from controller.simulated.hands import TableHands
from controller.simulated.players import SimulatedPlayer
from controller.simulated.progress import STALL_S, service_progress, until_progress
from controller.status import BoardStatus

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from hardware.simulator import VirtualBoard
    from vision import Image

__all__ = ["DriverOptions", "TableDriver", "button_presser"]


class DriverOptions(TypedDict, total=False):
    """How the simulated players play (:class:`TableDriver`'s keywords of that name)."""

    illegal_rate: float
    cocked_rate: float
    hand_rate: float
    stall_s: float
    misset_rate: float


#: Flat rolls in a row the camera may call irregular before the simulated players give up:
#: a camera that disagrees with them on every roll would never let the game go on.
MISREADS_IN_A_ROW = 10


class TableDriver(TableHands):
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
        board: VirtualBoard,
        camera: TableCamera,
        pool: RollPool,
        *,
        press: Callable[[str], None],
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
        self._misset = False  # the cube was left where it was after a take
        self._to_set_right = False  # the service pointed it out: set it right next turn
        self._misset_unseen = 0  # rolls since the cube was left, not pointed out
        # The hands' own chance: what the players do stays as their ``rng`` makes it.
        hands = random.Random(rng.random())
        super().__init__(camera, hands=hands, hand_rate=hand_rate, echo=echo, stall_s=stall_s)
        self.flipped = flipped
        self._orientation = Orientation.of_flipped(flipped)
        self.expected: list[record.Event] = []
        self._misreads_in_a_row = 0
        flow = service.flow
        self.rules = flow.rules
        self.match: MatchState = flow.match
        self.cube: CubeState | None = None

    # Senses and hands.

    async def until(self, what: str, predicate: Callable[[BoardStatus], bool]) -> BoardStatus:
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

    def _physical(self, location: int) -> int:
        return mirror(location) if self.flipped else location

    def _colour(self, player: Player) -> int:
        return player ^ int(self.flipped)

    def _target_cells(self, board: Board) -> Cells:
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
        target = self.board.cells()[dst]
        assert target is not None  # the simulator knows every cell
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
        thrown = await self._one_die_each()
        if thrown is None:
            return
        status, dice = thrown
        if status.phase == "opening":
            await self.show(self.camera.empty)  # a tie: pick the dice up, roll again
            return
        self._say(f"opening roll {dice[0]}-{dice[1]}: player {status.turn} starts")
        await self._now_and_then_a_hand()

    async def _one_die_each(self) -> tuple[BoardStatus, tuple[int, int]] | None:
        """Each player throws one die (the opening roll, Jacquet's primauté): the status
        after it and the dice as the record writes them (player 0's first), or None when
        the camera called the throw irregular (the dice are picked up to throw again)."""
        entry = self.pool.pick(self.rng, "both")
        seq = self.service.status().seq
        status = await self._throw(entry.image)
        if status.seq == seq:  # the camera called a flat roll irregular
            await self._misread(status)
            return None
        self._misreads_in_a_row = 0
        near, far = entry.dice
        dice = (far, near) if self.flipped else (near, far)
        self.expected.append(record.OpeningRolled(dice))
        return status, dice

    async def _misread(self, status: BoardStatus) -> None:
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

    async def _throw(self, image: Image) -> BoardStatus:
        """Roll the dice of ``image`` and return the status once the service has read them."""
        rolls = self.service.counters.rolls
        await self.show(image)
        return await self.until("the roll read", lambda _: self.service.counters.rolls > rolls)

    async def _answer(self, status: BoardStatus) -> None:
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

    def _check_cube(self, status: BoardStatus) -> None:
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

    def _game_over(self, result: GameResult | JacquetResult) -> None:
        self.counts.games += 1
        self.match = self.match.after_game(result.points, result.winner)
        score = self.match.score
        self._say(f"player {result.winner} wins {result.points}: score {score[0]}-{score[1]}")

    def _illegal(
        self, before: Board, player: Player, dice: tuple[int, int], legal: Board
    ) -> tuple[int, int, Board] | None:
        """One more checker moved a pip after the legal play: a board no roll explains."""
        results = legal_results(before, player, dice)
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



def _flip(board: Sequence[int]) -> Board:
    return tuple(-n for n in reversed(board))


def _flipped_board(board: Board) -> Board:
    """The physical layout of a logical board seen from the other side (colours swapped)."""
    return _flip(board)


def _ended(result: GameResult) -> record.GameEnded:
    return record.GameEnded(result.winner, result.points, result.kind, result.dropped)


def button_presser(
    pins: Mapping[str, int], factory: MockFactory, *, gap_s: float = 0.06
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

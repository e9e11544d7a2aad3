"""Simulated players of Jacquet de Versailles at the simulated table.

Why a subclass of :class:`~controller.simulated.table.TableDriver`: the table, the
camera, the buttons and the checks are the same; what differs is the match (the primauté
instead of the opening roll, no cube, numbers handed over played by the opponent, rule
11's decline, 1 or 2 points a game), so only the players' side of it is written here.
The players log what they did (:attr:`TableDriver.expected`, the record's events) for the
tests to compare with the journal.

The players decline with the board's Decline button (``button_decline`` of the pin map),
pressed on gpiozero's MockFactory as every other button.
"""

from __future__ import annotations

import asyncio

from controller import record
from controller.referee import explaining_dice, jacquet_turn_of, location_of
from controller.rules import Board, JacquetTurn, Player, WinKind, jacquet_result
from controller.rules.variants import FirstTurn
from controller.simulated.table import TableDriver

__all__ = ["JacquetTableDriver"]


class JacquetTableDriver(TableDriver):
    """Two simulated players of Jacquet (see :class:`TableDriver` for the arguments)."""

    async def play(self, games: int) -> None:
        """Play until ``games`` games have ended (or the match), from wherever it stands."""
        flow = self.service.flow
        variant = flow.variant
        await self._set_board(flow.turn.before if flow.turn is not None else variant.start)
        while self.counts.games < games:
            status = self.service.status()
            if status.phase == "match-over":
                return
            if status.phase == "opening":  # the checkers are set: above, or at the game's end
                if variant.first_turn is FirstTurn.PLAYER_0:  # Ludii's: no primauté
                    await self._roll(0)
                else:
                    await self._primaute()
            elif status.phase == "roll" and status.turn is not None:
                await self._roll(status.turn)
            elif status.phase == "moving" and status.turn is not None and status.dice:
                await self._play_numbers(status.turn, (status.dice[0], status.dice[1]))
            else:
                raise RuntimeError(f"the simulated players cannot go on from {status!r}")

    async def _primaute(self) -> None:
        thrown = await self._one_die_each()
        if thrown is not None:
            status, dice = thrown
            self._say(f"primauté {dice[0]}-{dice[1]}: {status.text}")

    async def _roll(self, player: Player) -> None:
        while True:
            cocked = self.rng.random() < self.cocked_rate
            entry = self.pool.pick(self.rng, self.thrower(player), cocked=cocked)
            status = await self._throw(entry.image)
            if not cocked:
                break
            self.counts.cocked += 1
            assert status.text.startswith("roll again"), status.text
            await self.show(self.camera.empty)
        if status.phase != "moving":  # the camera called a flat roll irregular: again
            await self._misread(status)
            return
        self._misreads_in_a_row = 0
        dice = (max(entry.dice), min(entry.dice))
        assert status.dice == dice, (status.dice, dice)
        self.expected.append(record.Rolled(player, dice))
        await self._now_and_then_a_hand()

    async def _play_numbers(self, player: Player, dice: tuple[int, int]) -> None:
        """One set of numbers: the mover's own throw, a primauté's, or handed over."""
        turn = self.service.flow.turn
        assert turn is not None
        jacquet = jacquet_turn_of(turn.rules)
        assert jacquet is not None
        playing = jacquet if jacquet.numbers else jacquet.throw(dice)
        before = turn.before
        self.counts.turns += 1
        if playing.may_decline() and self.rng.random() < 0.5:
            self.expected.append(record.Declined(player))
            await self.press("decline")
            await self.until("the decline", lambda s: s.turn != player or s.phase != "moving")
            self._say(f"player {player} declines {list(playing.numbers)}: {turn.behalf}")
            return
        plays = playing.plays()
        chosen = self.players[player].choose_play(plays, player)
        play = next(p for p in plays if p.result == chosen.result)  # the record's name
        illegal = None
        if self.rng.random() < self.illegal_rate and jacquet_result(play.result) is None:
            illegal = self._illegal_board(playing, play.result)
        for move in play.moves:
            await self._move_on_track(player, move.source, move.destination, playing)
        result = play.result
        if illegal is not None:
            result = illegal
            await self._set_board(illegal)
        await self._settled(result)
        behalf = f" ({turn.behalf})" if turn.behalf else ""
        if jacquet_result(result) is not None:
            self.expected.append(record.Played(player, dice, play.notation, result))
            self._say(f"player {player} {dice[0]}{dice[1]}: {play.notation}{behalf}")
            await self._game_end(result)
            return
        lift = self.service.status().dice_source != "given"
        await self._commit(player, before, lift=lift)
        if illegal is not None:
            self.counts.illegal += 1
            await self.until("the flag", lambda s: s.phase == "flagged")
            if self.rng.random() < 0.5:
                self.counts.accepted += 1
                self.expected.append(record.IllegalPlayAccepted(player, dice, before, result))
                self._say(f"player {player} {dice[0]}{dice[1]}: illegal play, accepted")
                await self.press("accept")
                await self._next(player, before)
                return
            self.counts.demanded += 1
            await self.press("undo")
            await self.until("the demand", lambda s: s.phase == "moving")
            await self._set_board(play.result)
            result = play.result
            await self.press("done")
            self._say(f"player {player} {dice[0]}{dice[1]}: illegal play, legal play demanded")
        self.expected.append(record.Played(player, dice, play.notation, result))
        self._say(f"player {player} {dice[0]}{dice[1]}: {play.notation or '(no move)'}{behalf}")
        await self._next(player, before)

    async def _next(self, player: Player, before: Board) -> None:
        await self.until(
            "the next numbers",
            lambda s: (
                s.turn != player
                or s.phase not in ("moving", "flagged")
                or tuple(s.position) != before
            ),
        )

    async def _commit(self, player: Player, before: Board, *, lift: bool) -> None:
        """End the play: pick up the dice (the camera sees it) or press Done.

        Numbers given (handed over, the primauté's) are committed with Done.
        """
        if self.rng.random() < 0.5 and lift:
            await self.show(self.camera.empty)
            return
        await self.press("done")
        await self.until("the commit", lambda s: s.phase != "moving" or s.turn != player)
        await self.show(self.camera.empty)

    async def _game_end(self, board: Board) -> None:
        result = jacquet_result(board)
        assert result is not None
        kind = WinKind.GAMMON if result.is_double else WinKind.SINGLE
        self.expected.append(record.GameEnded(result.winner, result.points, kind))
        self._game_over(result)
        await self.until("the next game", lambda s: s.phase in ("opening", "match-over"))
        await self.show(self.camera.empty)
        if self.service.status().phase != "match-over":  # the checkers back for the next
            await self._set_board(self.service.flow.variant.start)

    async def _move_on_track(
        self, player: Player, source: int, destination: int, turn: JacquetTurn
    ) -> None:
        src = self._physical(location_of(player, source, turn.variant))
        dst = self._physical(location_of(player, destination, turn.variant))
        target = self.board.cells()[dst]
        assert target is not None  # the simulator knows every cell
        opponent = 1 - self._colour(player)
        if destination != 0 and target[opponent] == 1 and target[1 - opponent] == 0:
            self.counts.hits += 1
            await self._hit(src, dst)
        else:
            await self._step(src, dst)
        self.counts.bar_entries += source == 25
        self.counts.bear_offs += destination == 0

    async def _hit(self, src: int, dst: int) -> None:
        await asyncio.to_thread(self.board.hit, src, dst)

    async def _step(self, src: int, dst: int) -> None:
        await asyncio.to_thread(self.board.move, src, dst)

    def _illegal_board(self, turn: JacquetTurn, legal: Board) -> Board | None:
        """One more checker moved a pip along its track: a board no throw explains."""
        results = {play.result for play in turn.plays()}
        track = turn.variant.tracks[turn.player]
        sign = 1 if turn.player == 0 else -1
        view = [sign * legal[index] for index in track]
        candidates = [i for i in range(2, 25) if view[i] > 0 and view[i - 1] >= 0]
        self.rng.shuffle(candidates)
        for index in candidates:
            board = list(legal)
            board[track[index]] -= sign
            board[track[index - 1]] += sign
            after = tuple(board)
            if after in results or jacquet_result(after) is not None:
                continue
            if explaining_dice(turn.board, turn.player, after, turn.variant):
                continue
            return after
        return None

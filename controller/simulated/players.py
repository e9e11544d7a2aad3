"""Simulated players and whole matches played on the rules engine alone.

The demo prints such a match move by move; the tests of the later layers (referee,
recorder, service) drive their simulated boards with it. Everything random comes from the
``random.Random`` given, so a seed replays the same match.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass

from controller.match.errors import InvalidEventError
from controller.match.events import (
    Declined,
    Doubled,
    Dropped,
    Event,
    GameEnded,
    MatchStarted,
    OpeningRolled,
    Rolled,
    Taken,
)
from controller.match.events import Played as RecordedPlay
from controller.rules.board import Board, Player, pip_counts
from controller.rules.cube import CubeState, GameResult, Rules, WinKind, outcome
from controller.rules.jacquet import JacquetTurn
from controller.rules.match import MatchState, roll_opening
from controller.rules.plays import Play, legal_plays
from controller.rules.variants import BACKGAMMON, JACQUET, Variant

__all__ = [
    "Doubled",
    "Dropped",
    "GameStarted",
    "GameWon",
    "JacquetDeclined",
    "JacquetPlayed",
    "MatchEvent",
    "Played",
    "SimulatedPlayer",
    "Taken",
    "jacquet_record_events",
    "play_jacquet_game",
    "play_match",
    "record_events",
]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game began: the opening roll decided who plays first, with which numbers."""

    game_number: int
    score: tuple[int, int]
    first_player: Player
    dice: tuple[int, int]
    cube_value: int


@dataclass(frozen=True, slots=True)
class Played:
    """``player`` rolled ``dice`` and played ``play`` (empty notation: no legal move)."""

    player: Player
    dice: tuple[int, int]
    play: Play
    board: Board


@dataclass(frozen=True, slots=True)
class GameWon:
    """A game ended (on the board or by a drop) and the match score after it."""

    result: GameResult
    match: MatchState


MatchEvent = GameStarted | Played | Doubled | Taken | Dropped | GameWon


class SimulatedPlayer:
    """A player of modest strength: prefers hits and safe points, doubles on a pip lead."""

    def __init__(self, rng: random.Random, *, aggression: float = 0.5) -> None:
        self.rng = rng
        self.aggression = aggression

    def choose_play(self, plays: tuple[Play, ...], player: Player) -> Play:
        """A play chosen at random among the best few by a rough static score."""

        def score(play: Play) -> float:
            board = play.result
            sign = 1 if player == 0 else -1
            blots = sum(1 for n in board[1:25] if n * sign == 1)
            hits = abs(board[0 if player == 0 else 25])
            made = sum(1 for n in board[1:25] if n * sign >= 2)
            return 2 * hits + made - blots + self.rng.random()

        ranked = sorted(plays, key=score, reverse=True)
        return ranked[self.rng.randrange(min(3, len(ranked)))]

    def wants_to_double(self, board: Board, player: Player) -> bool:
        mine, theirs = _pips_for(board, player)
        return mine < 0.8 * theirs and self.rng.random() < self.aggression

    def takes(self, board: Board, player: Player) -> bool:
        mine, theirs = _pips_for(board, player)
        return mine < 1.3 * theirs


def _pips_for(board: Board, player: Player) -> tuple[int, int]:
    counts = pip_counts(board)
    return counts[player], counts[1 - player]


def play_match(
    rules: Rules,
    rng: random.Random,
    players: tuple[SimulatedPlayer, SimulatedPlayer],
    *,
    variant: Variant = BACKGAMMON,
) -> Iterator[MatchEvent]:
    """Every event of a match of backgammon or nackgammon (money play: stop when done)."""
    match = MatchState(rules=rules)
    while not match.is_over:
        opening = roll_opening(rng, rules)
        cube = match.start_game(opening)
        first = cube.turn
        assert opening.play_dice is not None
        yield GameStarted(match.game_number, match.score, first, opening.play_dice, cube.value)
        result = yield from _play_game(
            cube, first, opening.play_dice, rng, players, variant=variant
        )
        match = match.after_game(result.points, result.winner)
        yield GameWon(result, match)


def _play_game(
    cube: CubeState,
    player: Player,
    dice: tuple[int, int],
    rng: random.Random,
    players: tuple[SimulatedPlayer, SimulatedPlayer],
    *,
    variant: Variant,
) -> Generator[MatchEvent, None, GameResult]:
    """The turns of one game from the opening roll; returns its result."""
    board = variant.start
    while True:
        play = players[player].choose_play(legal_plays(board, player, dice, variant), player)
        board = play.result
        yield Played(player, dice, play, board)
        ended = outcome(board)
        if ended is not None:
            return cube.result(ended)
        cube = cube.end_turn(player)
        player = 1 - player
        if cube.can_double(player) and players[player].wants_to_double(board, player):
            cube = cube.double(player)
            yield Doubled(player, cube.value * 2)  # the value on offer
            if not players[1 - player].takes(board, 1 - player):
                yield Dropped(1 - player)
                return cube.drop(1 - player)
            cube = cube.take(1 - player)
            yield Taken(1 - player)
        cube = cube.roll(player)
        dice = (rng.randint(1, 6), rng.randint(1, 6))


def record_events(
    events: Iterable[MatchEvent], rules: Rules, names: tuple[str, str] = ("White", "Black")
) -> Iterator[Event]:
    """The journal's events for the events of :func:`play_match` (the cube's are the same).

    Self-play reports the opening roll's result, not its ties: a game whose opening
    doubled the cube automatically cannot be recorded faithfully and is refused.

    Raises:
        InvalidEventError: for a game started with an automatic double.
    """
    yield MatchStarted(names, rules)
    opening = False
    for event in events:
        if isinstance(event, GameStarted):
            if event.cube_value != 1:
                raise InvalidEventError(
                    f"{event!r}: self-play does not report the tied opening rolls"
                )
            high, low = event.dice
            yield OpeningRolled((high, low) if event.first_player == 0 else (low, high))
            opening = True
        elif isinstance(event, Played):
            if not opening:
                yield Rolled(event.player, event.dice)
            opening = False
            yield RecordedPlay(event.player, event.dice, event.play.notation, event.board)
        elif isinstance(event, Doubled | Taken | Dropped):
            yield event
        elif isinstance(event, GameWon):
            result = event.result
            yield GameEnded(result.winner, result.points, result.kind, result.dropped)


@dataclass(frozen=True, slots=True)
class JacquetPlayed:
    """A Jacquet play: who moved, with which numbers, and whose throw they came from."""

    turn: JacquetTurn
    play: Play


@dataclass(frozen=True, slots=True)
class JacquetDeclined:
    """Rule 11: ``turn.player`` declined the numbers handed over; the hand goes back."""

    turn: JacquetTurn


def play_jacquet_game(
    rng: random.Random, variant: Variant = JACQUET, *, max_turns: int = 5_000
) -> Iterator[JacquetPlayed | JacquetDeclined | JacquetTurn]:
    """Every play of one random legal game of Jacquet; the last item is the final turn.

    The simulated players choose uniformly among the legal plays and decline handed
    numbers when rule 11 allows it half of the time.

    Raises:
        RuntimeError: if the game has not ended after ``max_turns`` plays (a bug).
    """
    turn = JacquetTurn.start(variant)
    for _ in range(max_turns):
        if turn.result is not None:
            yield turn
            return
        if turn.primaute and not turn.numbers:
            turn = turn.throw_primaute(rng.randint(1, 6), rng.randint(1, 6))
            continue
        if not turn.numbers:
            turn = turn.throw((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        if turn.may_decline() and rng.random() < 0.5:
            yield JacquetDeclined(turn)
            turn = turn.decline()
            continue
        play = rng.choice(turn.plays())
        yield JacquetPlayed(turn, play)
        turn = turn.play(play)
    raise RuntimeError(f"a game of {variant.name} did not end in {max_turns} plays")


def jacquet_record_events(
    rules: Rules,
    rng: random.Random,
    variant: Variant = JACQUET,
    names: tuple[str, str] = ("White", "Black"),
    *,
    games: int | None = None,
    decline_rate: float = 0.5,
) -> Iterator[Event]:
    """The journal's events of a random legal match of Jacquet (``games`` games at most).

    Why: the record's and the service's tests need whole Jacquet matches with their
    primauté throws, handed-over numbers and declines, as the journal holds them
    (``controller.match.jacquet_replay`` says how). Plays are chosen uniformly; handed numbers
    are declined at ``decline_rate`` when rule 11 allows it.
    """
    yield MatchStarted(names, rules, variant.name)
    match = MatchState(rules)
    played = 0
    while not match.is_over and (games is None or played < games):
        turn = JacquetTurn.start(variant)
        dice = (1, 1)
        while turn.result is None:
            if turn.primaute and not turn.numbers:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                yield OpeningRolled(dice)
                turn = turn.throw_primaute(*dice)
            elif not turn.numbers:
                throw = (rng.randint(1, 6), rng.randint(1, 6))
                dice = (max(throw), min(throw))  # as the service records a throw
                yield Rolled(turn.player, dice)
                turn = turn.throw(dice)
            elif turn.may_decline() and rng.random() < decline_rate:
                yield Declined(turn.player)
                turn = turn.decline()
            else:
                plays = turn.plays()
                chosen = rng.choice(plays)
                # The record names a board by the first legal play reaching it.
                play = next(play for play in plays if play.result == chosen.result)
                yield RecordedPlay(turn.player, dice, play.notation, play.result)
                turn = turn.play(play)
        result = turn.result
        kind = WinKind.GAMMON if result.is_double else WinKind.SINGLE
        yield GameEnded(result.winner, result.points, kind)
        match = match.after_game(result.points, result.winner)
        played += 1

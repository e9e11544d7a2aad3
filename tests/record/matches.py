"""Simulated matches for the records' tests: self-play, and self-play with irregularities.

``selfplay_events`` records :func:`controller.simulated.players.play_match` as it is. The referee
will also record illegal plays accepted by the opponent, boards seen mid-turn and position
corrections: ``irregular_events`` plays matches with the same simulated players and slips
those in at random, always through :class:`~controller.record.Replayer` so that every
match it returns replays.
"""

from __future__ import annotations

import random

from controller.record import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    Phase,
    Played,
    PositionEdited,
    Replayer,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.rules import (
    Board,
    Player,
    Rules,
    WinKind,
    legal_plays,
    legal_results,
    outcome,
)
from controller.simulated.players import SimulatedPlayer, play_match, record_events

NAMES = ("Alice", "Bob")


def players(seed: int) -> tuple[SimulatedPlayer, SimulatedPlayer]:
    return (
        SimulatedPlayer(random.Random(seed * 7 + 1), aggression=0.7),
        SimulatedPlayer(random.Random(seed * 7 + 2), aggression=0.7),
    )


def selfplay_events(seed: int, length: int) -> list[Event]:
    """The record events of one simulated ``length``-point match."""
    rules = Rules(match_length=length)
    rng = random.Random(seed)
    return list(record_events(play_match(rules, rng, players(seed)), rules, NAMES))


def nudge(board: Board, player: Player, rng: random.Random) -> Board | None:
    """``board`` with one of ``player``'s checkers moved one point on, or ``None``."""
    step = -1 if player == 0 else 1
    sign = 1 if player == 0 else -1
    sources = [i for i in range(1, 25) if board[i] * sign > 0 and 1 <= i + step <= 24]
    rng.shuffle(sources)
    for source in sources:
        target = source + step
        if board[target] * sign >= 0:
            cells = list(board)
            cells[source] -= sign
            cells[target] += sign
            return tuple(cells)
    return None


class _Recording:
    """The events of a match being made up, each replayed as it is added: the match replays."""

    def __init__(self, rules: Rules) -> None:
        start = MatchStarted(NAMES, rules)
        self.replayer = Replayer(start)
        self.events: list[Event] = [start]

    def add(self, event: Event) -> None:
        self.replayer.apply(len(self.events), event)
        self.events.append(event)


def irregular_events(
    seed: int, rules: Rules, *, illegal: float = 0.08, edits: float = 0.04, games: int = 50
) -> list[Event]:
    """A simulated match with illegal plays accepted, partial boards and position edits."""
    rng = random.Random(seed)
    sims = players(seed)
    recording = _Recording(rules)
    replayer, events, add = recording.replayer, recording.events, recording.add

    played_games = 0
    while played_games < games:
        state = replayer.snapshot
        phase = state.phase
        if phase is Phase.MATCH_OVER:
            break
        if phase is Phase.OPENING:
            add(OpeningRolled((rng.randint(1, 6), rng.randint(1, 6))))
        elif phase is Phase.GAME_OVER:
            assert state.pending is not None
            result = state.pending
            add(GameEnded(result.winner, result.points, result.kind, result.dropped))
            played_games += 1
        elif phase is Phase.DOUBLED:
            assert state.cube is not None
            taker = state.cube.to_act
            if state.cube.can_beaver(taker) and rng.random() < 0.5:
                add(Beavered(taker, state.cube.value * 4))
                continue
            add(Taken(taker) if sims[taker].takes(state.board, taker) else Dropped(taker))
        elif phase is Phase.BEAVERED:
            assert state.cube is not None
            doubler = state.cube.turn
            add(Taken(doubler) if rng.random() < 0.7 else Dropped(doubler))
        elif phase is Phase.TO_ROLL:
            assert state.cube is not None
            player = state.cube.turn
            if state.cube.can_double(player) and sims[player].wants_to_double(state.board, player):
                add(Doubled(player, state.cube.value * 2))
                continue
            if rng.random() < edits:
                edited = nudge(state.board, rng.randrange(2), rng)
                if edited is not None and outcome(edited) is None:
                    add(PositionEdited(edited, "checker misplaced"))
            add(Rolled(player, (rng.randint(1, 6), rng.randint(1, 6))))
        elif phase is Phase.TO_PLAY:
            assert state.cube is not None and state.dice is not None
            player, dice, board = state.cube.turn, state.dice, state.board
            play = sims[player].choose_play(legal_plays(board, player, dice), player)
            if play.moves and rng.random() < 0.3:
                add(Observed(play.result))
            after = nudge(play.result, player, rng) if rng.random() < illegal else None
            if after is not None and after not in legal_results(board, player, dice):
                add(IllegalPlayAccepted(player, dice, board, after))
            else:
                add(Played(player, dice, play.notation, play.result))
    return events


def resigned_events(seed: int, length: int) -> list[Event]:
    """A self-play match with a resignation refused, then one accepted that ends it early.

    Both are slipped in where a player may resign (before or after a roll, never with a
    double pending), by either player, of a random kind; the match stops after the game
    the accepted one ends (whatever the score then).
    """
    rng = random.Random(seed)
    events = selfplay_events(seed, length)
    replayer = Replayer(events[0])  # type: ignore[arg-type]
    open_at = []  # indices after which a resignation may be offered
    for index, event in enumerate(events[1:], 1):
        replayer.apply(index, event)
        if replayer.snapshot.phase in (Phase.TO_ROLL, Phase.TO_PLAY):
            open_at.append(index)
    refused, accepted = sorted(rng.sample(open_at[: len(open_at) // 2 + 2], 2))
    kinds = list(WinKind)
    first, second = rng.choice((0, 1)), rng.choice((0, 1))
    chosen = [
        *events[: refused + 1],
        Resigned(first, rng.choice(kinds)),
        ResignRefused(1 - first),
        *events[refused + 1 : accepted + 1],
        Resigned(second, rng.choice(kinds)),
        ResignAccepted(1 - second),
    ]
    replayer = Replayer(events[0])  # type: ignore[arg-type]
    for index, event in enumerate(chosen[1:], 1):
        replayer.apply(index, event)
    result = replayer.snapshot.pending
    assert result is not None and result.resigned
    ended = GameEnded(result.winner, result.points, result.kind, resigned=True)
    return [*chosen, ended]


def scripted_cube_events(seed: int, rules: Rules, scripts: list[list[str]]) -> list[Event]:
    """A match whose cube actions and resignations follow ``scripts``, one list a game.

    Each game opens with a random opening roll and the first play. A script's words are
    then done in order by whoever must act: ``play`` (roll and play a turn), ``double``
    (the player on roll), ``take``, ``drop``, ``beaver`` (the doubled player),
    ``resign`` (the player on roll resigns a single game; ``resign-gammon`` a gammon),
    ``accept``, ``refuse``. The plays are the simulated players'; everything goes through
    the :class:`~controller.record.Replayer`, so the match replays.
    """
    rng = random.Random(seed)
    sims = players(seed)
    recording = _Recording(rules)
    replayer, events, add = recording.replayer, recording.events, recording.add

    def play_turn() -> None:
        state = replayer.snapshot
        assert state.cube is not None
        player = state.cube.turn
        if state.phase is Phase.TO_ROLL:
            add(Rolled(player, (rng.randint(1, 6), rng.randint(1, 6))))
        state = replayer.snapshot
        assert state.dice is not None
        play = sims[player].choose_play(legal_plays(state.board, player, state.dice), player)
        add(Played(player, state.dice, play.notation, play.result))

    for script in scripts:
        while replayer.snapshot.phase is Phase.OPENING:
            add(OpeningRolled((rng.randint(1, 6), rng.randint(1, 6))))
        play_turn()
        for word in script:
            state = replayer.snapshot
            assert state.cube is not None
            actor = state.to_act
            assert actor is not None
            if word == "play":
                play_turn()
            elif word == "double":
                add(Doubled(actor, state.cube.value * 2))
            elif word == "beaver":
                add(Beavered(actor, state.cube.value * 4))
            elif word.startswith("resign"):
                add(Resigned(actor, WinKind.GAMMON if word == "resign-gammon" else WinKind.SINGLE))
            else:
                answers = {"take": Taken, "drop": Dropped, "accept": ResignAccepted}
                answers |= {"refuse": ResignRefused}
                add(answers[word](actor))
        result = replayer.snapshot.pending
        assert result is not None, f"game {len(scripts)}'s script {script} does not end it"
        add(GameEnded(result.winner, result.points, result.kind, result.dropped, result.resigned))
    return events

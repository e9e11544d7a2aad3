"""The one fold of a match: the snapshot after an event, ``snapshot' = fold(snapshot, event)``.

Why one: the live :class:`~controller.match.flow.Flow` changes the match (the score, the
cube, the opening roll, the board between turns, a resignation, a game's start and end)
only by folding the events it journals through :func:`fold`, and a restarted service folds
the journal's events through the same function (:class:`~controller.match.replay.Replayer`,
which adds the games' bookkeeping for the exports), so the live match and the resumed one
are one state machine. Every event is checked against the rules where it stands: a play's
board must be reachable by a legal play and its notation the canonical one, a cube action
must be allowed, a game's result must be what the board, the drop or the resignation says.
A variant with turn states of its own (Jacquet) folds its games' events through the
:class:`~controller.match.snapshot.VariantReplay` hooks it registers.
"""

from __future__ import annotations

from typing import Final

from controller.match.errors import RefusedEventError
from controller.match.events import (
    Beavered,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.match.snapshot import MatchSnapshot, Phase, variant_replay
from controller.match.turn_record import ended_event
from controller.rules import (
    BACKGAMMON,
    Board,
    CubePhase,
    CubeState,
    MatchState,
    OpeningRoll,
    Rules,
    Variant,
    outcome,
    play_reaching,
)

__all__ = ["fold", "new_match"]

# The kinds of event the fold tells apart, as tuples: a union written in ``isinstance``
# would be built again at every event of a long journal.
_BETWEEN: Final = (OrientationConfirmed, GameAbandoned)
_RESIGNATION: Final = (Resigned, ResignAccepted, ResignRefused)
_ANSWERS: Final = (ResignAccepted, ResignRefused)
_PLAYS: Final = (Played, IllegalPlayAccepted)


def new_match(
    names: tuple[str, str],
    rules: Rules,
    variant: Variant = BACKGAMMON,
    match: MatchState | None = None,
) -> MatchSnapshot:
    """The snapshot of a match just started (its ``MatchStarted`` folded), its first game
    about to start; ``match`` is the score to start from (a game read on its own)."""
    if match is None:
        match = MatchState(rules)
    return _new_game(MatchSnapshot(names, rules, match, 1, board=variant.start, variant=variant))


def fold(s: MatchSnapshot, event: Event, *, vouched: bool = False) -> MatchSnapshot:
    """The snapshot after ``event``, checked against the rules where ``s`` stands.

    ``vouched``: the event was checked against the rules when it was decided (the live
    flow's own events) or journalled (a journal whose checksums prove it unchanged since),
    so a play's board is taken as recorded instead of being searched for among every legal
    play again (what made resuming a long match slow). Everything else is checked as ever.

    Raises:
        RefusedEventError: for an event that cannot happen where ``s`` stands, saying why
            (the caller names the event).
        RulesError: for a cube action or a throw the rules refuse.
    """
    if isinstance(event, MatchStarted):
        raise RefusedEventError("the match has already started")
    phase = s.phase
    if phase is Phase.MATCH_OVER:
        raise RefusedEventError("the match is over")
    if isinstance(event, _BETWEEN):
        return _between(s, phase, event)
    hooks = variant_replay(s.variant)
    if hooks is not None and not isinstance(event, GameEnded):
        try:
            return _next(hooks.apply(s, event))
        except RefusedEventError as refusal:
            raise RefusedEventError(f"{refusal}: {s.describe()}") from None
    if isinstance(event, OpeningRolled):
        if phase is not Phase.OPENING:
            raise RefusedEventError(f"no opening roll now: {s.describe()}")
        return _opening(s, event)
    if phase is Phase.OPENING:
        raise RefusedEventError(f"the game has not started: {s.describe()}")
    if isinstance(event, GameEnded):
        return _end(s, event)
    if phase is Phase.GAME_OVER:
        raise RefusedEventError(f"the game is over: {s.describe()}")
    cube = s.cube
    assert cube is not None
    if isinstance(event, _RESIGNATION) or s.resignation:
        return _resignation(s, event, cube)
    if isinstance(event, _PLAYS):
        return _play(s, event, cube, vouched)
    return _cube_or_turn(s, event, cube)


def _next(s: MatchSnapshot, **changes: object) -> MatchSnapshot:
    """``s`` with ``changes``, one more event folded."""
    return s.evolve(events=s.events + 1, **changes)


def _opening(s: MatchSnapshot, event: OpeningRolled) -> MatchSnapshot:
    """An opening roll: a tie rolls again, else the game starts with its cube and dice."""
    opening = (s.opening or OpeningRoll(rules=s.rules)).roll(*event.dice)
    if not opening.is_decided:
        return _next(s, opening=opening, game=s.match.game_number)
    return _next(
        s,
        game=s.match.game_number,
        opening=None,
        cube=s.match.start_game(opening),
        board=s.variant.start,
        dice=opening.play_dice,
        partial=None,
        last_score=s.match.score,
    )


def _cube_or_turn(s: MatchSnapshot, event: Event, cube: CubeState) -> MatchSnapshot:
    """A roll, a board seen, a flag, an edit or a cube action of the game in play."""
    if isinstance(event, Rolled):
        return _next(s, cube=cube.roll(event.player), dice=event.dice, partial=None)
    if isinstance(event, Observed):
        return _next(s, partial=event.board)
    if isinstance(event, DiceCorrected):
        if cube.phase is not CubePhase.ROLLED or event.player != cube.turn:
            raise RefusedEventError(f"no dice of player {event.player} to correct")
        return _next(s, dice=event.dice)
    if isinstance(event, PositionEdited):
        if outcome(event.board) is not None:
            raise RefusedEventError("an edit cannot end the game: record the play")
        return _next(s, board=event.board, partial=None)
    if isinstance(event, Doubled):
        if event.value != cube.value * 2:
            raise RefusedEventError(f"the cube is at {cube.value}")
        return _next(s, cube=cube.double(event.player))
    if isinstance(event, Beavered):
        if event.value != cube.value * 4:
            raise RefusedEventError(f"a beaver redoubles to {cube.value * 4}")
        return _next(s, cube=cube.beaver(event.player))
    if isinstance(event, Taken):
        return _next(s, cube=cube.take(event.player))
    if isinstance(event, Dropped):
        return _next(s, pending=cube.drop(event.player))
    assert isinstance(event, Flagged), f"{event!r} is no event of a backgammon game"
    return _next(s)


def _resignation(s: MatchSnapshot, event: Event, cube: CubeState) -> MatchSnapshot:
    """A resignation offered, or answered: nothing else counts while it is pending."""
    offered = s.resignation
    if isinstance(event, Resigned):
        if offered is not None:
            raise RefusedEventError(f"a resignation is pending: {s.describe()}")
        problem = cube.resign_problem(event.player)
        if problem is not None:
            raise RefusedEventError(problem)
        return _next(s, resignation=event)
    if offered is None:
        raise RefusedEventError(f"no resignation to answer: {s.describe()}")
    if not isinstance(event, _ANSWERS):
        raise RefusedEventError(f"answer the resignation first: {s.describe()}")
    if event.player == offered.player:
        raise RefusedEventError(f"player {event.player} offered the resignation")
    if isinstance(event, ResignAccepted):
        result = cube.resign(offered.player, offered.kind)
        return _next(s, resignation=None, dice=None, partial=None, pending=result)
    return _next(s, resignation=None)


def _between(
    s: MatchSnapshot, phase: Phase, event: OrientationConfirmed | GameAbandoned
) -> MatchSnapshot:
    """The events outside a game's play: the orientation, a game abandoned."""
    if isinstance(event, OrientationConfirmed):
        # A game has started once its first throw is recorded (even a tie).
        if phase is not Phase.OPENING or s.game is not None:
            raise RefusedEventError(f"the orientation is set before a game: {s.describe()}")
        return _next(s, orientation=event)
    if phase is Phase.GAME_OVER:
        raise RefusedEventError(f"the game is over, its result to record: {s.describe()}")
    if s.game is None:
        raise RefusedEventError(f"no game in progress: {s.describe()}")
    return _new_game(
        _next(
            s,
            game=None,
            cube=None,
            opening=None,
            dice=None,
            partial=None,
            board=s.variant.start,
            abandoned=s.abandoned + 1,
            resignation=None,
        )
    )


def _play(
    s: MatchSnapshot, event: Played | IllegalPlayAccepted, cube: CubeState, vouched: bool
) -> MatchSnapshot:
    """A play made: its board stands, and the game ends or the turn passes."""
    if cube.phase is not CubePhase.ROLLED or event.player != cube.turn:
        raise RefusedEventError(f"no play by player {event.player} now: {s.describe()}")
    assert s.dice is not None
    if sorted(event.dice) != sorted(s.dice):
        raise RefusedEventError(f"the dice rolled were {s.dice[0]}-{s.dice[1]}")
    if isinstance(event, IllegalPlayAccepted) and event.before != s.board:
        raise RefusedEventError("the board before is not the game's position")
    after = event.board if isinstance(event, Played) else event.after
    if not vouched:
        _check_play(s, event, after)
    ended = outcome(after, checked=True)  # the event checked its board when it was made
    if ended is not None:
        return _next(s, board=after, dice=None, partial=None, pending=cube.result(ended))
    return _next(s, board=after, dice=None, partial=None, cube=cube.end_turn(event.player))


def _check_play(s: MatchSnapshot, event: Played | IllegalPlayAccepted, after: Board) -> None:
    """Refuse a play whose board (``after``) no legal play reaches (or an illegal one that
    one does), or whose notation is not the canonical one."""
    play = play_reaching(s.board, event.player, event.dice, after, s.variant)
    if isinstance(event, Played):
        if play is None:
            raise RefusedEventError("no legal play reaches this board")
        if play.notation != event.notation:
            raise RefusedEventError(f"the canonical notation is {play.notation!r}")
    elif play is not None:
        raise RefusedEventError("a legal play reaches this board: record a Played")


def _end(s: MatchSnapshot, event: GameEnded) -> MatchSnapshot:
    """A game's result recorded: the score moves on, and the next game is about to start."""
    pending = s.pending
    if pending is None:
        raise RefusedEventError(f"the game is not over: {s.describe()}")
    expected = ended_event(pending)
    if event != expected:
        raise RefusedEventError(f"the game's result is {expected!r}")
    match = s.match.after_game(event.points, event.winner)
    following = _next(
        s,
        match=match,
        game=None,
        cube=None,
        dice=None,
        partial=None,
        pending=None,
        board=s.board if match.is_over else s.variant.start,
    )
    return following if match.is_over else _new_game(following)


def _new_game(s: MatchSnapshot) -> MatchSnapshot:
    """A game about to start: its variant's turn model, if it has one."""
    hooks = variant_replay(s.variant)
    return s if hooks is None else hooks.new_game(s)

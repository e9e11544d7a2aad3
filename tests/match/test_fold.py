"""The match's one fold: the live flow's snapshot is the replay of the events it records."""

from __future__ import annotations

import dataclasses

import pytest

from controller.match.errors import InvalidEventError
from controller.match.events import (
    Event,
    GameEnded,
    MatchStarted,
    OpeningRolled,
    Played,
    Resigned,
)
from controller.match.flow import Flow
from controller.match.fold import new_match
from controller.match.replay import Replayer
from controller.referee import BoardSeen, Button, ButtonPressed, DiceRolled, Input, cells_from_board
from controller.rules import START, CubeState, Rules, WinKind, check_board, legal_plays
from controller.rules import cube as cube_module

NAMES = ("Ann", "Bob")
RULES = Rules(match_length=5)


def test_evolve_is_replace_for_every_field() -> None:
    snapshot = new_match(NAMES, RULES)
    changed = {
        "events": 7,
        "game": 2,
        "dice": (6, 5),
        "cube": CubeState(RULES),
        "resignation": Resigned(1, WinKind.GAMMON),
        "abandoned": 3,
    }
    for name, value in changed.items():
        assert snapshot.evolve(**{name: value}) == dataclasses.replace(snapshot, **{name: value})
    assert snapshot.evolve(**changed) == dataclasses.replace(snapshot, **changed)
    assert snapshot.evolve() == snapshot and snapshot.evolve() is not snapshot
    with pytest.raises(AttributeError):
        snapshot.evolve(score=(1, 0))


def test_a_play_folded_is_not_checked_again_for_its_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A play event checked its board when it was made: folding it asks the board's outcome
    without checking the board again (twice a play made resuming slow)."""
    board = next(p.result for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
    events = [OpeningRolled((3, 1)), Played(0, (3, 1), "8/5 6/5", board)]
    checked: list[object] = []

    def counted(checking: object) -> tuple[int, ...]:
        checked.append(checking)
        return check_board(checking)

    monkeypatch.setattr(cube_module, "check_board", counted)
    replayer = Replayer(MatchStarted(NAMES, RULES))
    for index, event in enumerate(events, 1):
        replayer.apply(index, event, vouched=True)
    assert replayer.snapshot.board == board and replayer.snapshot.cube is not None
    assert replayer.snapshot.cube.turn == 1
    assert checked == []


def _recorded(flow: Flow, *inputs: Input) -> tuple[Flow, list[Event]]:
    events: list[Event] = []
    for item in inputs:
        flow, new = flow.on(item)
        events += new
    return flow, events


def test_the_live_snapshot_is_the_replay_of_the_recorded_events() -> None:
    flow = Flow.new(NAMES, RULES)
    board = next(p.result for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
    flow, events = _recorded(
        flow,
        BoardSeen(cells_from_board(START)),
        DiceRolled((3, 1)),
        BoardSeen(cells_from_board(board)),
        ButtonPressed(Button.DONE),
        ButtonPressed(Button.DOUBLE),
        ButtonPressed(Button.DROP),  # Bob doubles, Ann drops
    )
    assert [type(event) for event in events][-1] is GameEnded
    replayer = Replayer(MatchStarted(NAMES, RULES))
    for index, event in enumerate(events, 1):
        replayer.apply(index, event)
    assert flow.snapshot == replayer.snapshot
    assert flow.match.score == (0, 1) and flow.cube is None and flow.turn is None


def test_a_refused_event_changes_nothing() -> None:
    replayer = Replayer(MatchStarted(NAMES, RULES))
    replayer.apply(1, OpeningRolled((3, 1)))
    before = (replayer.snapshot, list(replayer.opening), list(replayer.actions))
    with pytest.raises(InvalidEventError, match=r"event 2 .*the game is not over"):
        replayer.apply(2, GameEnded(1, 1))
    with pytest.raises(InvalidEventError, match=r"event 2 .*no play by player 1 now"):
        replayer.apply(2, Played(1, (3, 1), "8/5 6/5", START))
    assert (replayer.snapshot, replayer.opening, replayer.actions) == before
    assert replayer.snapshot.events == 2  # MatchStarted and the opening roll

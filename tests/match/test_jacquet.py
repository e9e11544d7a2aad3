"""The flow of a Jacquet de Versailles match, pure: primauté, handed-over numbers, rule 11's
decline, no cube, game end and score, the next game, resumption from the journal."""

from __future__ import annotations

import random

import pytest

from controller import record
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceRolled,
    Input,
    Phase,
    PositionCorrected,
    cells_from_board,
    jacquet_turn_of,
)
from controller.rules import JACQUET, JACQUET_LUDII, Rules, Variant
from controller.simulated.players import jacquet_record_events


def inputs_of(event: record.Event, next_event: record.Event | None) -> list[Input]:
    """What the players do at the board for one recorded event."""
    if isinstance(event, record.OpeningRolled | record.Rolled):
        return [DiceRolled(event.dice)]
    if isinstance(event, record.Declined):
        return [ButtonPressed(Button.DECLINE)]
    if isinstance(event, record.Played):
        seen: list[Input] = [BoardSeen(cells_from_board(event.board))]
        if not isinstance(next_event, record.GameEnded):  # the 15th checker off ends it
            seen.append(ButtonPressed(Button.DONE))
        return seen
    return []


def drive(flow: Flow, events: list[record.Event]) -> tuple[Flow, list[record.Event], list[str]]:
    """Feed the inputs of ``events`` to ``flow``; the events it journals and its notices."""
    journalled: list[record.Event] = []
    notices: list[str] = []
    for index, event in enumerate(events):
        following = events[index + 1] if index + 1 < len(events) else None
        for item in inputs_of(event, following):
            flow, out = flow.on(item)
            journalled += out
            notices.append(flow.notice)
    return flow, journalled, notices


def kept(events: list[record.Event]) -> list[record.Event]:
    return [e for e in events if not isinstance(e, record.Observed | record.Flagged)]


def match_events(
    seed: int, variant: Variant = JACQUET, games: int = 2, decline_rate: float = 0.5
) -> list[record.Event]:
    rng = random.Random(seed)
    rules = Rules(match_length=3)
    return list(jacquet_record_events(rules, rng, variant, games=games, decline_rate=decline_rate))


def new_flow(variant: Variant = JACQUET) -> Flow:
    return Flow.new(("Ann", "Bob"), Rules(match_length=3), variant=variant)


def test_a_whole_jacquet_match_through_the_flow_journals_what_was_played() -> None:
    events = match_events(44, decline_rate=1.0)  # a seed with a decline (rule 11)
    flow, journalled, notices = drive(new_flow(), events[1:])
    assert kept(journalled) == events[1:]
    assert any(isinstance(e, record.Declined) for e in events)
    assert any("handed over by player" in text for text in notices)
    assert any("handed back by player" in text or "declines" in text for text in notices)
    replayed = record.replay([events[0], *journalled])
    results = [game.result for game in replayed.games]
    assert all(r is not None and r.points in (1, 2) for r in results)
    assert flow.match.score == replayed.state.match.score
    assert flow.cube is None


def test_a_primaute_doublet_is_played_by_both_players_then_thrown_again() -> None:
    flow = new_flow().on(BoardSeen(cells_from_board(JACQUET.start)))[0]
    assert flow.phase == "opening"
    flow, events = flow.on(DiceRolled((2, 2)))
    assert events == [record.OpeningRolled((2, 2))]
    assert flow.turn is not None and flow.turn.player == 0 and flow.phase == "moving"
    assert flow.notice.startswith("primauté 2-2: player 0 plays 2 moves of 2")
    turn = jacquet_turn_of(flow.turn.rules)
    assert turn is not None
    play = turn.plays()[0]
    flow, _ = flow.on(BoardSeen(cells_from_board(play.result)))
    flow, events = flow.on(ButtonPressed(Button.DONE))
    assert record.Played(0, (2, 2), play.notation, play.result) in events
    assert flow.turn is not None and flow.turn.player == 1 and flow.turn.dice == (2, 2)
    assert flow.turn.behalf == "primauté: player 1 plays 2 moves of 2"
    turn = jacquet_turn_of(flow.turn.rules)
    assert turn is not None
    second = turn.plays()[0]
    flow, _ = flow.on(BoardSeen(cells_from_board(second.result)))
    flow, events = flow.on(ButtonPressed(Button.DONE))
    assert events[-1] == record.Played(1, (2, 2), second.notation, second.result)
    assert flow.phase == "opening" and flow.turn is not None
    assert flow.turn.phase is Phase.PRIMAUTE
    flow, events = flow.on(DiceRolled((1, 5)))
    assert events == [record.OpeningRolled((1, 5))]
    assert flow.turn.player == 1 and flow.turn.dice == (1, 5)


def test_the_cube_buttons_are_refused_with_a_notice() -> None:
    flow = new_flow()
    flow, _ = flow.on(DiceRolled((5, 3)))
    for key in (Button.DOUBLE, Button.TAKE, Button.DROP):
        with pytest.raises(RefusedError, match="played without the doubling cube"):
            flow.on(ButtonPressed(key))


def test_decline_counts_only_for_numbers_handed_over_that_break_a_point() -> None:
    flow = new_flow()
    flow, _ = flow.on(DiceRolled((5, 3)))
    flow, events = flow.on(ButtonPressed(Button.DECLINE))
    assert events == [] and "Decline counts only" in flow.notice


def test_numbers_handed_over_are_played_at_once_by_the_opponent() -> None:
    """Find, in self-play, a throw that hands a number over; the flow shows it and records it."""
    for seed in range(40):
        events = match_events(seed, games=1)
        for index, event in enumerate(events):
            after = events[index + 1] if index + 1 < len(events) else None
            if (
                isinstance(event, record.Played)
                and isinstance(after, record.Played | record.Declined)
                and after.player != event.player
                and not isinstance(events[index - 1], record.OpeningRolled)
            ):
                flow, journalled, _ = drive(new_flow(), events[1 : index + 1])
                assert kept(journalled) == events[1 : index + 1]
                assert flow.turn is not None and flow.turn.player == after.player
                assert flow.turn.dice == event.dice and flow.phase == "moving"
                assert "handed over by player" in flow.turn.behalf
                # The camera's next throw is the mover's own (the numbers came by hand).
                assert flow.thrower == after.player
                return
    pytest.fail("no number handed over in 40 games")


def test_an_illegal_play_is_flagged_then_accepted_and_recorded() -> None:
    flow = new_flow().on(BoardSeen(cells_from_board(JACQUET.start)))[0]
    assert flow.thrower is None  # the primauté: one die each
    flow, _ = flow.on(DiceRolled((6, 1)))  # player 0 won the primauté: plays 6-1
    board = list(JACQUET.start)
    board[24] -= 2
    board[20] += 2  # two checkers out: the courier rule forbids it
    illegal = tuple(board)
    flow, events = flow.on(BoardSeen(cells_from_board(illegal)))
    flow, events = flow.on(ButtonPressed(Button.DONE))
    assert flow.phase == "flagged" and isinstance(events[-1], record.Flagged)
    flow, events = flow.on(ButtonPressed(Button.ACCEPT))
    assert events[0] == record.IllegalPlayAccepted(0, (6, 1), JACQUET.start, illegal)
    assert flow.turn is not None and flow.turn.player == 1 and flow.phase == "roll"
    replayed = record.replay(
        [
            record.MatchStarted(("Ann", "Bob"), Rules(3), JACQUET.name),
            record.OpeningRolled((6, 1)),
            *events,
        ]
    )
    assert replayed.state.board == illegal and replayed.state.to_act == 1


def test_the_position_is_corrected_before_a_throw_only() -> None:
    flow = new_flow().on(BoardSeen(cells_from_board(JACQUET.start)))[0]
    flow, _ = flow.on(DiceRolled((6, 1)))  # player 0 won the primauté: plays 6-1
    with pytest.raises(RefusedError, match="not during a play"):
        flow.on(PositionCorrected(JACQUET.start))
    assert flow.turn is not None
    turn = jacquet_turn_of(flow.turn.rules)
    assert turn is not None
    flow, _ = flow.on(BoardSeen(cells_from_board(turn.plays()[0].result)))
    flow, _ = flow.on(ButtonPressed(Button.DONE))
    assert flow.phase == "roll" and flow.turn is not None and flow.turn.player == 1
    flow, events = flow.on(PositionCorrected(JACQUET.start))  # a knocked board set back
    assert events == [record.PositionEdited(JACQUET.start, "corrected by the referee")]
    assert flow.turn is not None and flow.turn.before == JACQUET.start
    turn = jacquet_turn_of(flow.turn.rules)
    assert turn is not None and (turn.board, turn.player) == (JACQUET.start, 1)
    flow, events = flow.on(DiceRolled((4, 2)))
    assert events == [record.Rolled(1, (4, 2))] and flow.phase == "moving"


@pytest.mark.parametrize("cut", [5, 17, 40, 61])
def test_the_flow_resumes_a_jacquet_match_from_its_journal(cut: int) -> None:
    events = match_events(5, games=1)
    first, journalled, _ = drive(new_flow(), events[1:cut])
    snapshot = record.replay([events[0], *journalled]).state
    resumed, owed = Flow.resume(snapshot)
    assert owed == [] and resumed.phase == first.phase
    assert resumed.notice.startswith("resumed: White - Black, 3-point match")
    if first.turn is not None:
        assert resumed.turn is not None
        assert (resumed.turn.player, resumed.turn.before, resumed.turn.dice) == (
            first.turn.player,
            first.turn.before,
            first.turn.dice,
        )
    _, rest, _ = drive(resumed, events[cut:])
    assert kept([*journalled, *rest]) == events[1:]


def test_ludii_s_ruleset_starts_with_player_0_and_hands_nothing_over() -> None:
    events = match_events(2, JACQUET_LUDII, games=1)
    assert isinstance(events[1], record.Rolled) and events[1].player == 0
    _, journalled, notices = drive(new_flow(JACQUET_LUDII), events[1:])
    assert kept(journalled) == events[1:]
    assert not any("handed over" in text for text in notices)


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda variant: variant.name)
def test_a_match_resumed_before_a_games_first_throw_waits_as_the_live_one(variant: Variant) -> None:
    """Before a game's first throw the live flow has no turn yet (its first input makes it):
    the resumed one must say the same, in Ludii's rules too (not player 0 to roll)."""
    live = new_flow(variant)
    start = record.MatchStarted(live.names, live.rules, variant.name)
    ended = record.replay([start, *match_events(3, variant, games=1)[1:]]).state
    for snapshot in (record.replay([start]).state, ended):
        resumed, owed = Flow.resume(snapshot)
        assert (resumed.phase, resumed.thrower) == (live.phase, live.thrower) == ("opening", None)
        assert owed == [] and resumed.turn is None
        assert resumed.notice.startswith("resumed: ")

"""The referee in Jacquet de Versailles: locations, faults, the turn flow, the display.

Boards are written per player in their own ``pos`` numbering (``jboard``, as in
tests/rules/test_jacquet.py): player 0's ``pos p`` is point ``25 - p``; player 1's
``pos k`` is point ``24 - ((k + 11) mod 24)`` (starts on point 12, runs 12 -> 1, 24 -> 13).
"""

from __future__ import annotations

import random

import pytest

from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceLifted,
    DiceRolled,
    DiceSource,
    DiceUnreadable,
    Fault,
    Judge,
    Kind,
    Mode,
    Phase,
    TurnState,
    cells_from_board,
    jacquet_state,
    jacquet_turn_of,
    location_of,
    point_of,
    render,
)
from controller.rules import (
    BACKGAMMON,
    IllegalActionError,
    InvalidDiceError,
    JacquetTurn,
    PlayTree,
)
from controller.rules.variants import JACQUET, JACQUET_LUDII, Variant
from controller.simulated.players import JacquetPlayed, play_jacquet_game
from hardware.board.scene import Colour, Lamp, Pattern
from tests.referee._support import ends_complete, lift, lift_for, put, random_steps
from tests.rules.test_jacquet import (
    LUDII_4_1_COURIER_ARRIVES,
    LUDII_4_1_SAME_CHECKER_GOES_ON,
    LUDII_4_1_STAYS_BLOCKED,
    jboard,
)

START = JACQUET.start

# Locations follow the variant's tracks.


def test_player_1_runs_12_to_1_then_24_to_13_on_the_board() -> None:
    # pos 1 is view point 24: layout point 12 (location 11); pos 12 is layout point 1.
    assert location_of(1, 24, JACQUET) == 11
    assert location_of(1, 13, JACQUET) == 0
    assert location_of(1, 12, JACQUET) == 23  # pos 13: layout point 24
    assert location_of(1, 1, JACQUET) == 12  # pos 24: layout point 13, where it bears off
    assert location_of(0, 24, JACQUET) == location_of(0, 24) == 23
    assert location_of(1, 24) == 0  # backgammon's player 1 is unchanged


@pytest.mark.parametrize("variant", [BACKGAMMON, JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("player", [0, 1])
def test_point_of_inverts_location_of(variant: Variant, player: int) -> None:
    for point in range(26):
        assert point_of(player, location_of(player, point, variant), variant) == point
    assert point_of(player, (25, 24)[player], variant) is None  # the other's bar


# Faults, in the words of JACQUET.md.


def final(board: tuple[int, ...], player: int, dice: tuple[int, int], after, variant=JACQUET):
    observed = after if isinstance(after[0], tuple) else cells_from_board(after)
    return Judge(board, player, dice, variant=variant).final_verdict(observed)


def test_rule_5_a_second_checker_leaving_before_the_courier_arrives() -> None:
    board = jboard({1: 14, 5: 1}, {1: 15})
    verdict = final(board, 0, (4, 2), jboard({1: 13, 5: 1, 7: 1}, {1: 15}))
    assert verdict.kind is Kind.ILLEGAL and verdict.fault is Fault.COURIER
    assert verdict.text == (
        "the courier must reach the last quadrant first: "
        "no second checker leaves the start point before it arrives"
    )
    assert location_of(0, 24, JACQUET) in verdict.locations  # the start point differs


def test_rule_8_a_third_made_point_in_the_first_quadrant() -> None:
    board = jboard({1: 10, 3: 2, 4: 1, 20: 2}, {1: 15})  # made: pos 1 (start) and pos 3
    after = jboard({1: 9, 3: 2, 4: 2, 20: 1, 21: 1}, {1: 15})  # 24/21 5/4
    verdict = final(board, 0, (3, 1), after)
    assert verdict.fault is Fault.TWO_POINTS
    assert verdict.text.startswith("at most two made points in the first quadrant: ")


def test_rule_9_bearing_off_before_every_checker_is_home() -> None:
    board = jboard({12: 1, 23: 14}, {1: 15})
    verdict = final(board, 0, (6, 5), jboard({17: 1, 23: 13}, {1: 15}))  # 2/off 13/8
    assert verdict.fault is Fault.BEAR_OFF_EARLY
    assert verdict.text == "cannot bear off yet: not every checker is in your home board"


def test_rule_6_a_point_of_two_blocks_player_1_on_its_own_track() -> None:
    board = jboard({1: 13, 20: 2}, {1: 14, 5: 1})  # player 1's pos 8 is point 5: blocked
    observed = cells_from_board(board)
    five = location_of(1, 20, JACQUET)  # player 1's pos 5: point 8 (location 7)
    assert five == 7
    observed = put(lift(observed, five, 1), 4, 1)  # onto point 5, two of player 0's there
    verdict = final(board, 1, (2, 1), observed)
    assert verdict.fault is Fault.BLOCKED
    assert verdict.text == "blocked point: the opponent holds your 17 point"


def test_rule_10_the_higher_die_when_only_one_can_be_played() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    played_5 = jboard({1: 14, 7: 1}, {1: 15})
    verdict = final(board, 0, (6, 5), played_5)
    assert verdict.fault is Fault.HIGHER_DIE and verdict.text.endswith("the 6 can be played")
    # Ludii's ruleset: the 5 first is an order of the player's, the 6 is then lost.
    ludii = final(board, 0, (6, 5), played_5, JACQUET_LUDII)
    assert ludii.kind is Kind.COMPLETE and ludii.play is not None
    assert ludii.play.unused == (6,)


def test_ludii_the_4_alone_is_partial_while_the_1_can_follow() -> None:
    board = LUDII_4_1_SAME_CHECKER_GOES_ON
    played_4 = jboard({1: 14, 6: 1}, {1: 13, 15: 2})
    judge = Judge(board, 0, (4, 1), variant=JACQUET_LUDII)
    partial = judge.verdict(cells_from_board(played_4))
    assert (partial.kind, partial.dice_left) == (Kind.PARTIAL, (1,))
    stopped = judge.final_verdict(cells_from_board(played_4))
    assert stopped.fault is Fault.BOTH_DICE and stopped.text.endswith("both 4-1 can be played")
    both = judge.final_verdict(cells_from_board(jboard({1: 14, 7: 1}, {1: 13, 15: 2})))
    assert both.kind is Kind.COMPLETE and both.play is not None and both.play.unused == ()


def test_ludii_the_1_after_the_4_by_the_checker_the_courier_releases() -> None:
    board = LUDII_4_1_COURIER_ARRIVES
    judge = Judge(board, 0, (4, 1), variant=JACQUET_LUDII)
    courier_home = jboard({1: 14, 19: 1}, {1: 11, 4: 2, 8: 2})
    assert judge.final_verdict(cells_from_board(courier_home)).fault is Fault.BOTH_DICE
    released = jboard({1: 13, 2: 1, 19: 1}, {1: 11, 4: 2, 8: 2})
    verdict = judge.final_verdict(cells_from_board(released))
    assert verdict.kind is Kind.COMPLETE and verdict.play is not None
    assert verdict.play.notation == "24/23 10/6"


def test_ludii_the_1_still_blocked_after_the_4_is_lost_not_flagged() -> None:
    judge = Judge(LUDII_4_1_STAYS_BLOCKED, 0, (4, 1), variant=JACQUET_LUDII)
    played_4 = jboard({1: 14, 6: 1}, {1: 11, 15: 2, 19: 2})
    verdict = judge.final_verdict(cells_from_board(played_4))
    assert verdict.kind is Kind.COMPLETE and verdict.play is not None
    assert verdict.play.unused == (1,)


def test_rule_10_both_dice_when_both_can_be_played() -> None:
    verdict = final(START, 0, (6, 5), jboard({1: 14, 7: 1}, {1: 15}))
    assert verdict.fault is Fault.BOTH_DICE and verdict.text.endswith("both 6-5 can be played")


def test_the_courier_travels_over_several_points_in_hand() -> None:
    """The only play of 6-5 from the start is 24/13: the lifted courier may go to 18/19/13."""
    judge = Judge(START, 0, (6, 5), variant=JACQUET)
    verdict = judge.verdict(lift(cells_from_board(START), 23, 0))
    assert verdict.kind is Kind.IN_HAND
    (lifted,) = verdict.lifted
    assert lifted.destinations == {17, 18, 12}  # points 18, 19 (one die), 13 (both)


def test_numbers_handed_over_must_come_from_the_roll() -> None:
    with pytest.raises(InvalidDiceError, match=r"numbers \[4\] are not part of the roll 6-5"):
        Judge(START, 1, (6, 5), variant=JACQUET, numbers=(4,))


# Property: random legal Jacquet plays made step by step are never flagged.


def _turns(variant: Variant, seed: int) -> list[JacquetTurn]:
    game = play_jacquet_game(random.Random(seed), variant)
    return [item.turn for item in game if isinstance(item, JacquetPlayed)]


def _dice_of(turn: JacquetTurn) -> tuple[tuple[int, int], tuple[int, ...] | None]:
    """A throw the numbers come from, and the numbers if they are only part of it."""
    numbers = turn.numbers
    if len(numbers) == 2 and numbers[0] != numbers[1]:
        return (numbers[0], numbers[1]), None
    if turn.variant.moves_of((numbers[0], numbers[0])) == numbers:
        return (numbers[0], numbers[0]), None
    if len(set(numbers)) == 1:
        return (numbers[0], numbers[0]), numbers  # the rest of a blocked doublet
    raise AssertionError(numbers)


def _judged(variant: Variant, seed: int, stride: int) -> list[tuple[JacquetTurn, Judge]]:
    """Every ``stride``-th play of a random game, with a referee for its numbers."""
    judged = []
    for turn in _turns(variant, seed)[::stride]:
        dice, numbers = _dice_or_part(turn)
        judge = Judge(turn.board, turn.player, dice, variant=variant, numbers=numbers)
        judged.append((turn, judge))
    return judged


def _other(number: int) -> int:
    return 1 if number != 1 else 2


def _dice_or_part(turn: JacquetTurn) -> tuple[tuple[int, int], tuple[int, ...] | None]:
    """:func:`_dice_of`, with a made-up other die for one number handed over."""
    if len(turn.numbers) == 1 and turn.is_handed_over:
        return (turn.numbers[0], _other(turn.numbers[0])), turn.numbers
    return _dice_of(turn)


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(3))
def test_a_legal_jacquet_play_made_step_by_step_is_never_flagged(
    variant: Variant, seed: int
) -> None:
    rng = random.Random(seed)
    for turn, referee in _judged(variant, seed, 2):
        board, player = turn.board, turn.player
        tree = PlayTree.of_numbers(board, player, turn.numbers, variant)
        context = f"from {board} player {player} numbers {turn.numbers}"
        current = board
        for before, move, after in random_steps(tree, board, rng):
            assert before == current
            lift_for(referee, current, move, referee.locate, context)
            verdict = referee.verdict(cells_from_board(after))
            assert verdict.kind in (Kind.PARTIAL, Kind.COMPLETE), f"{verdict} {move} {context}"
            current = after
        ends_complete(referee, tree, current, context)


# The turn flow.


def test_rule_10_the_opponent_plays_the_number_handed_over_before_their_own_throw() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    state = jacquet_state(JacquetTurn(board=board)).on(BoardSeen(cells_from_board(board)))
    assert state.phase is Phase.ROLL and state.notice == "player 0 to throw"
    state = state.on(DiceRolled((6, 5)))
    assert state.phase is Phase.MOVING and state.behalf == ""
    played = jboard({1: 14, 8: 1}, {1: 15})  # 23/17: the 6; the 5 cannot follow
    state = state.on(BoardSeen(cells_from_board(played))).on(DiceLifted())
    assert state.phase is Phase.DONE and state.end is not None
    following = jacquet_turn_of(state.end.following)
    assert following is not None and following.numbers == (5,)
    handed = state.next_turn()
    assert (handed.player, handed.phase, handed.dice) == (1, Phase.MOVING, (6, 5))
    assert handed.dice_source is DiceSource.GIVEN
    assert handed.behalf == "player 1 plays the 5 handed over by player 0"
    shown = render(handed, Mode.REFEREE)
    assert shown.text == "player 1 plays the 5 handed over by player 0: 5 to play"
    assert shown.status == Lamp()
    after = jboard({1: 14, 8: 1}, {1: 14, 6: 1})  # player 1's 24/19: point 12 -> point 7
    handed = handed.on(BoardSeen(cells_from_board(after)))
    assert handed.verdict is not None and handed.verdict.kind is Kind.COMPLETE
    done = handed.on(ButtonPressed(Button.DONE))
    assert done.end is not None and done.end.play is not None
    assert done.end.play.notation == "24/19"
    own = done.next_turn()
    assert (own.player, own.phase, own.notice) == (1, Phase.ROLL, "player 1 to throw")


def test_rule_10_the_movers_own_throw_ends_the_handed_play() -> None:
    board = jboard({1: 14, 8: 1}, {1: 15})
    turn = JacquetTurn(board=board, player=1, numbers=(5,), thrower=0)
    state = jacquet_state(turn, dice=(6, 5))
    after = jboard({1: 14, 8: 1}, {1: 14, 6: 1})
    state = state.on(BoardSeen(cells_from_board(after))).on(DiceRolled((4, 2)))
    assert state.phase is Phase.DONE and state.end is not None
    assert not state.end.void_roll and state.end.play is not None
    nxt = state.next_turn()
    assert (nxt.player, nxt.phase, nxt.dice, nxt.before) == (1, Phase.MOVING, (4, 2), after)


def test_handed_numbers_need_their_throw() -> None:
    turn = JacquetTurn(board=START, player=1, numbers=(5,), thrower=0)
    with pytest.raises(IllegalActionError, match=r"the throw of the numbers \[5\] handed over"):
        jacquet_state(turn)


def rule_11_state() -> TurnState:
    # Every 6 of player 1 breaks one of their points; player 0 cannot play a 6 either.
    player1 = {1: 2, 5: 2, 8: 2, 9: 2, 10: 2, 11: 2, 21: 2, 20: 1}
    board = jboard({1: 14, 3: 1}, player1)
    turn = JacquetTurn(board=board, player=1, numbers=(6,), thrower=0)
    return jacquet_state(turn, dice=(6, 2)).on(BoardSeen(cells_from_board(board)))


def test_rule_11_the_choice_is_shown_and_decline_hands_the_number_back() -> None:
    state = rule_11_state()
    assert state.may_decline
    shown = render(state, Mode.REFEREE)
    assert shown.status == Lamp(Colour.AMBER, Pattern.SLOW)
    assert shown.text == (
        "player 1 plays the 6 handed over by player 0: 6 to play; "
        "or Decline: the hand goes back (rule 11)"
    )
    declined = state.on(ButtonPressed(Button.DECLINE))
    assert declined.phase is Phase.DONE and declined.end is not None and declined.end.declined
    assert declined.notice == "player 1 declines the 6: the hand goes back to player 0"
    back = declined.next_turn()
    assert (back.player, back.phase, back.dice) == (0, Phase.MOVING, (6, 2))
    assert back.behalf == "player 0 plays the 6 handed back by player 1"
    assert not back.may_decline
    # Player 0 cannot play the 6 either: it is void, and player 1 throws.
    assert back.verdict is not None and back.verdict.kind is Kind.COMPLETE
    assert back.verdict.text == "no legal move"
    nxt = back.on(ButtonPressed(Button.DONE)).next_turn()
    assert (nxt.player, nxt.phase) == (1, Phase.ROLL)


def test_rule_11_decline_is_refused_once_checkers_moved_or_without_the_choice() -> None:
    state = rule_11_state()
    moved = lift(state.cells or (), location_of(1, 24 - 10, JACQUET), 1)
    refused = state.on(BoardSeen(moved)).on(ButtonPressed(Button.DECLINE))
    assert refused.phase is Phase.MOVING
    assert refused.notice == "put the checkers back before declining"
    own = jacquet_state(JacquetTurn(board=START)).on(DiceRolled((6, 5)))
    assert not own.may_decline
    assert own.on(ButtonPressed(Button.DECLINE)).notice == (
        "Decline counts only for numbers handed over that would break a point"
    )


def test_rule_2_the_higher_die_of_the_primaute_plays_both_numbers() -> None:
    state = jacquet_state(JacquetTurn.start())
    assert state.phase is Phase.PRIMAUTE
    assert render(state, Mode.REFEREE).text == "primauté: each player throws one die"
    assert state.on(DiceUnreadable()).notice == (
        "primauté: each player throws one die, enter both"
    )
    won = state.on(DiceRolled((2, 5)))
    assert (won.player, won.phase, won.dice) == (1, Phase.MOVING, (2, 5))
    assert won.notice == "player 1 wins the primauté 2-5 and plays it"
    assert won.on(ButtonPressed(Button.UNDO)).phase is Phase.PRIMAUTE


def test_rule_2_a_primaute_doublet_is_played_by_both_then_thrown_again() -> None:
    state = jacquet_state(JacquetTurn.start()).on(BoardSeen(cells_from_board(START)))
    first = state.on(DiceRolled((3, 3)))
    assert (first.player, first.phase, first.dice) == (0, Phase.MOVING, (3, 3))
    assert first.notice == (
        "primauté 3-3: player 0 plays 3 moves of 3, then player 1, then the primauté is "
        "thrown again"
    )
    assert render(first, Mode.REFEREE).text == "primauté: player 0 plays 3 moves of 3: 3-3 to play"
    after_0 = jboard({1: 14, 10: 1}, {1: 15})  # 24/15, the courier's three 3s
    first = first.on(BoardSeen(cells_from_board(after_0))).on(ButtonPressed(Button.DONE))
    second = first.next_turn()
    assert (second.player, second.phase, second.dice) == (1, Phase.MOVING, (3, 3))
    assert second.behalf == "primauté: player 1 plays 3 moves of 3"
    after_1 = jboard({1: 14, 10: 1}, {1: 14, 10: 1})
    second = second.on(BoardSeen(cells_from_board(after_1))).on(ButtonPressed(Button.DONE))
    again = second.next_turn()
    assert again.phase is Phase.PRIMAUTE and again.before == after_1


def test_ludii_has_no_primaute() -> None:
    state = jacquet_state(JacquetTurn.start(JACQUET_LUDII))
    assert (state.player, state.phase) == (0, Phase.ROLL)


def test_rule_12_the_game_ends_the_moment_the_last_checker_is_off() -> None:
    board = jboard({23: 1}, {1: 15})
    state = jacquet_state(JacquetTurn(board=board)).on(DiceRolled((6, 5)))
    state = state.on(BoardSeen(cells_from_board(jboard({}, {1: 15}))))  # 2/off with the 6 or 5
    assert state.phase is Phase.DONE  # no Done, no dice lifted: the game is over
    assert state.notice == "the fifteenth checker is off: the game is over"
    assert state.end is not None and state.end.result is not None
    assert (state.end.result.winner, state.end.result.points) == (0, 2)
    following = jacquet_turn_of(state.end.following)
    assert following is not None and following.numbers == ()
    shown = render(state, Mode.REFEREE)
    assert shown.text == "player 0 wins: 2 points, a double win"
    assert shown.status == Lamp(Colour.GREEN)
    with pytest.raises(IllegalActionError, match="the game is over: player 0 won 2"):
        state.next_turn()


def test_the_courier_travelling_alone_is_named_and_lit_in_learner_mode() -> None:
    board = jboard({1: 14, 5: 1}, {1: 15})
    state = jacquet_state(JacquetTurn(board=board)).on(BoardSeen(cells_from_board(board)))
    state = state.on(DiceRolled((4, 2)))
    shown = render(state, Mode.LEARNER)
    assert shown.lit(Colour.AMBER) == {location_of(0, 20, JACQUET)}  # pos 5: point 20
    assert shown.text == "4-2 to play; the courier on point 20 travels alone (rule 5)"
    assert render(state, Mode.REFEREE).lit(Colour.AMBER) == set()
    assert render(state, Mode.RECORDER).text == "recording"


def test_an_illegal_jacquet_play_accepted_hands_nothing_over() -> None:
    board = jboard({1: 14, 5: 1}, {1: 15})
    state = jacquet_state(JacquetTurn(board=board)).on(DiceRolled((4, 2)))
    after = jboard({1: 13, 5: 1, 7: 1}, {1: 15})
    state = state.on(BoardSeen(cells_from_board(after))).on(DiceLifted())
    assert state.phase is Phase.FLAGGED and state.flagged is not None
    assert state.flagged.fault is Fault.COURIER
    state = state.on(ButtonPressed(Button.ACCEPT))
    assert state.end is not None and state.end.accepted
    nxt = state.next_turn()
    assert (nxt.player, nxt.phase, nxt.before) == (1, Phase.ROLL, after)


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(4))
def test_a_hit_in_jacquet_has_its_moment_and_the_blot_goes_to_its_bar(
    variant: Variant, seed: int
) -> None:
    hits = 0
    for turn in _turns(variant, 10 + seed):
        player = turn.player
        bar = 0 if player == 0 else 25  # the opponent's bar
        tree = PlayTree.of_numbers(turn.board, player, turn.numbers, variant)
        for move, child in tree.next_steps(turn.board).items():
            if abs(child[bar]) <= abs(turn.board[bar]):
                continue
            hits += 1
            dice, numbers = _dice_or_part(turn)
            referee = Judge(turn.board, player, dice, variant=variant, numbers=numbers)
            source = location_of(player, move.source, variant)
            target = location_of(player, move.destination, variant)
            moment = put(lift(cells_from_board(turn.board), source, player), target, player)
            verdict = referee.verdict(moment)
            assert verdict.kind is Kind.PARTIAL and verdict.pending_hits == {target}
            blot_lifted = referee.verdict(lift(moment, target, 1 - player))
            assert blot_lifted.kind is Kind.IN_HAND
            assert {checker.player for checker in blot_lifted.lifted} == {1 - player}
            assert blot_lifted.lifted[0].destinations == {(24, 25)[1 - player]}
            assert referee.verdict(cells_from_board(child)).kind in (Kind.PARTIAL, Kind.COMPLETE)
            break
    assert hits, "no hit in these games: choose other seeds"


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(3))
def test_a_board_no_legal_jacquet_play_reaches_is_never_complete(
    variant: Variant, seed: int
) -> None:
    rng = random.Random(seed)
    for turn, referee in _judged(variant, 20 + seed, 3):
        board, player = turn.board, turn.player
        results = {play.result for play in turn.plays()}
        changed = list(rng.choice(sorted(results)))
        sign = 1 if player == 0 else -1
        mine = [index for index in range(26) if changed[index] * sign > 0]
        free = [index for index in range(1, 25) if changed[index] * sign >= 0]
        if not mine:
            continue
        source, target = rng.choice(mine), rng.choice(free)
        changed[source] -= sign
        changed[target] += sign
        after = tuple(changed)
        if source == target or after in results:
            continue
        context = f"{after} from {board} player {player} numbers {turn.numbers}"
        verdict = referee.verdict(cells_from_board(after))
        assert verdict.kind not in (Kind.COMPLETE, Kind.INCONSISTENT), f"{verdict} {context}"
        flagged = referee.final_verdict(cells_from_board(after))
        assert flagged.kind is Kind.ILLEGAL, f"{flagged} for {context}"
        assert flagged.fault is not None and flagged.text.startswith(flagged.fault.value)
        assert flagged.locations, f"no differing location in {flagged} for {context}"

"""How the referee says dice, numbers and checkers, as players at the board say them.

Why apart: the verdicts (:mod:`.judge`), the turn's notices (:mod:`.turn`) and a variant's
turn (:mod:`.jacquet_turn`) speak of the same dice and numbers; saying them one way, in
one place, keeps the texts the players read consistent.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.referee.verdict import Lifted
from controller.rules import Player
from hardware.board.geometry import location_name

_COUNTS = ("", "", "two", "three", "four", "five")


def describe_dice(dice: Sequence[int]) -> str:
    """Dice as players say them, highest first: ``6-5``.

    >>> describe_dice((3, 5))
    '5-3'
    """
    return "-".join(str(die) for die in sorted(dice, reverse=True))


def say_numbers(numbers: tuple[int, ...]) -> str:
    """Numbers to play as players say them: ``the 5``, ``the 6-5``, ``3 moves of 3``.

    >>> say_numbers((3, 3, 3))
    '3 moves of 3'
    """
    if len(numbers) == 1:
        return f"the {numbers[0]}"
    if len(numbers) == 2 and numbers[0] != numbers[1]:
        return f"the {max(numbers)}-{min(numbers)}"
    return f"{len(numbers)} moves of {numbers[0]}"


def to_play(left: tuple[int, ...], roll: tuple[int, int] | None, total: int) -> str:
    """What is left to play, as players say it: ``6-5``, ``5``, ``3-3``, ``two more 3s``.

    ``roll`` is given when the ``total`` numbers to play are a whole roll, None when they
    were handed over.
    """
    if roll is not None and len(left) == total > 1:
        return f"{describe_dice(roll)} to play"
    if not left:
        return "nothing left to play"
    if len(left) == 1:
        return f"{left[0]} to play"
    return f"{_COUNTS[len(left)]} more {left[0]}s to play"


def in_hand_text(lifted: tuple[Lifted, ...], player: Player) -> str:
    """What the checkers in hand are: one, several, or one with nowhere to go."""
    own = [checker for checker in lifted if checker.player == player]
    if not own:
        return "hit: put the hit checker on the bar"
    if len(own) == 1 and not own[0].destinations:
        return f"no legal move for the checker from {location_name(own[0].source)}"
    return "checker in hand" if len(own) == 1 else f"{len(own)} checkers in hand"


def disagree(how: str, dice: tuple[int, int], alternatives: Sequence[tuple[int, int]]) -> str:
    """The dice read (or entered) and the checkers moved tell different rolls."""
    others = " or ".join(describe_dice(roll) for roll in alternatives)
    return f"the dice {how} {describe_dice(dice)} but the checkers moved {others}: confirm the dice"

"""Why a board is illegal: the observed change replayed against the rules, one die at a time.

The referee must name the rule broken, not guess it. So the change from the position
before the turn to the board shown is replayed with *relaxed* steps: a die moves a checker
that many points whatever stands there (a checker may land on a blocked point, leave
another on the bar, bear off early); each step notes which rule it breaks. The replay
that reaches the board shown with the fewest broken rules explains it:

* none reaches it: the opponent's checkers moved, a checker went backwards, or the
  numbers moved are not the dice;
* the best one breaks a rule: that rule (blocked point, bar first, bearing off; in
  Jacquet de Versailles also the courier and the two-point limit, checked after each step);
* the best one breaks none: it used fewer dice than the rules demand (both dice, all
  four numbers, the higher die).

Views are the mover's (see :mod:`.judge`): the mover's counts by point (0 = off, 25 = bar)
and the opponent's by the mover's points (0 = the opponent's bar, 25 = borne off).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from controller.referee.verdict import Fault
from controller.rules import BACKGAMMON, Play, Variant
from controller.rules.variants import BearOff

View: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]
"""The mover's counts and the opponent's counts, each by the mover's points 0..25."""


class Diagnosis(Protocol):
    """How a variant names the rule an illegal board breaks (backgammon's: :func:`diagnose`)."""

    def __call__(
        self,
        before: View,
        after: View,
        dice: tuple[int, int],
        *,
        max_used: int,
        plays: Sequence[Play],
    ) -> tuple[Fault, str]: ...


_Broken = tuple[tuple[Fault, str], ...]
_Found = tuple[_Broken, int, int]
"""Broken rules in playing order, dice used, the last die used (for the higher-die rule)."""

_BAR = 25
_START = 24
"""Jacquet's start point (``pos`` 1) in the mover's view."""


@dataclass(frozen=True, slots=True)
class _Rules:
    """What of a variant the relaxed replay checks (its movement rules)."""

    must_enter_first: bool = True
    any_higher: bool = False
    courier: bool = False
    home_limit: int | None = None

    @classmethod
    def of(cls, variant: Variant) -> _Rules:
        return cls(
            variant.must_enter_first,
            variant.bear_off is BearOff.ANY_HIGHER,
            variant.courier,
            variant.home_point_limit,
        )


_BACKGAMMON_RULES = _Rules()


def _point(point: int) -> str:
    return "the bar" if point == _BAR else "off" if point == 0 else f"your {point} point"


def _courier_waits(mover: Sequence[int]) -> bool:
    """Rule 5: one checker is out, 14 wait on the start point, none is home nor on the bar."""
    out = any(mover[point] for point in range(1, _START))
    return out and not mover[_BAR] and mover[_START] >= 14 and not any(mover[1:7])


def _step(
    view: View, source: int, die: int, rules: _Rules = _BACKGAMMON_RULES
) -> tuple[View, tuple[Fault, str] | None]:
    """One relaxed step of ``die`` from ``source``, and the first rule it breaks."""
    mover, opponent = list(view[0]), list(view[1])
    broken: tuple[Fault, str] | None = None
    if rules.must_enter_first and mover[_BAR] and source != _BAR:
        broken = Fault.BAR_FIRST, f"a checker moved from {_point(source)}"
    if rules.courier and source == _START and _courier_waits(mover):
        broken = broken or (
            Fault.COURIER,
            "no second checker leaves the start point before it arrives",
        )
    target = max(source - die, 0)
    mover[source] -= 1
    mover[target] += 1
    if target:
        if opponent[target] >= 2:
            broken = broken or (Fault.BLOCKED, f"the opponent holds {_point(target)}")
        elif opponent[target] == 1:
            opponent[target] = 0
            opponent[0] += 1
    elif any(mover[7:]):
        broken = broken or (Fault.BEAR_OFF_EARLY, "not every checker is in your home board")
    elif not rules.any_higher and source < die and any(mover[source + 1 : 7]):
        broken = broken or (
            Fault.HIGHER_FIRST,
            f"a {die} bears off from {_point(source)} only when no checker stands higher",
        )
    limit = rules.home_limit
    if limit is not None and sum(n >= 2 for n in mover[19:25]) > limit:
        broken = broken or (Fault.TWO_POINTS, f"{_point(target)} would make a third")
    return (tuple(mover), tuple(opponent)), broken


def _may_reach(mover: Sequence[int], target: Sequence[int], pips: int) -> bool:
    """Whether ``pips`` more pips of forward steps could turn ``mover`` into ``target``.

    Checkers only move forward (down the points), so at and behind every point at least
    as many stand now as in ``target``; each step moves at most its number of pips. This
    prunes the replay of long Jacquet doublets (six moves of 6) to the useful steps.
    """
    behind = 0
    for point in range(25, 0, -1):
        behind += mover[point] - target[point]
        if behind < 0:
            return False
    pairs = enumerate(zip(mover, target, strict=True))
    distance = sum(point * (now - then) for point, (now, then) in pairs)
    return distance <= pips


def _replay(
    view: View,
    target: View,
    left: tuple[int, ...],
    *,
    mover_only: bool,
    memo: dict[object, _Found | None],
    rules: _Rules = _BACKGAMMON_RULES,
) -> _Found | None:
    """The best relaxed replay from ``view`` to ``target`` with dice ``left``, or None."""
    key = (view, left)
    if key in memo:
        return memo[key]
    best: _Found | None = None
    if view[0] == target[0] and (mover_only or view[1] == target[1]):
        best = ((), 0, 0)
    if not _may_reach(view[0], target[0], sum(left)):
        memo[key] = best
        return best
    for index, die in enumerate(left):
        if die in left[:index]:
            continue
        rest = left[:index] + left[index + 1 :]
        for source in range(1, 26):
            if not view[0][source]:
                continue
            after, broken = _step(view, source, die, rules)
            found = _replay(after, target, rest, mover_only=mover_only, memo=memo, rules=rules)
            if found is None:
                continue
            candidate = ((broken, *found[0]) if broken else found[0]), found[1] + 1, found[2] or die
            if best is None or (len(candidate[0]), -candidate[1]) < (len(best[0]), -best[1]):
                best = candidate
    memo[key] = best
    return best


def diagnose(
    before: View,
    after: View,
    dice: tuple[int, int],
    *,
    max_used: int,
    plays: Sequence[Play],
    variant: Variant = BACKGAMMON,
    numbers: tuple[int, ...] | None = None,
) -> tuple[Fault, str]:
    """The rule that the change from ``before`` to ``after`` breaks, and a detail sentence.

    Args:
        before: the position before the turn.
        after: the board shown, every checker on it (the ones in hand put back).
        dice: the roll.
        max_used: the number of dice every legal play uses.
        plays: the legal plays (to tell which die a single-die play must use).
        variant: the game, for its movement rules (the mover's view follows its track).
        numbers: the numbers to play, when not the whole roll (numbers handed over).
    """
    (mover_before, opponent_before), (mover_after, opponent_after) = before, after
    left = variant.moves_of(dice) if numbers is None else numbers
    roll = "-".join(map(str, sorted(dice if numbers is None else numbers, reverse=True)))
    rules = _BACKGAMMON_RULES if variant.is_backgammon_movement else _Rules.of(variant)
    moved_opponent = [
        point
        for point in range(1, 25)
        if opponent_after[point] > opponent_before[point]
        or (opponent_after[point] < opponent_before[point] and opponent_before[point] != 1)
    ]
    gone = sum(opponent_before[p] == 1 and opponent_after[p] == 0 for p in range(1, 25))
    if (
        moved_opponent
        or opponent_after[0] - opponent_before[0] != gone
        or opponent_after[25] != opponent_before[25]
    ):
        where = ", ".join(_point(point) for point in moved_opponent) or "the bar"
        return Fault.OPPONENT, f"it moved on {where}"
    sources = sorted(
        (p for p in range(26) for _ in range(mover_before[p] - mover_after[p])), reverse=True
    )
    targets = sorted(
        (p for p in range(26) for _ in range(mover_after[p] - mover_before[p])), reverse=True
    )
    for source, target in zip(sources, targets, strict=True):
        if target > source:
            return Fault.BACKWARDS, f"a checker went back to {_point(target)}"
    found = _replay(before, after, left, mover_only=False, memo={}, rules=rules)
    if found is None:
        if _replay(before, after, left, mover_only=True, memo={}, rules=rules) is not None:
            return Fault.OPPONENT, "a checker went to the bar without being hit"
        return Fault.WRONG_NUMBERS, f"the checkers moved are not {roll}"
    broken, used, die = found
    if broken:
        return broken[0]
    if used < max_used:
        if len(set(left)) == 2:
            return Fault.BOTH_DICE, f"both {roll} can be played"
        if max_used == 4 == len(left):
            return Fault.ALL_FOUR, f"all four {left[0]}s can be played"
        return Fault.AS_MANY, f"{max_used} of the {left[0]}s can be played"
    high = max(left)
    if used == 1 < len(left) and die != high and any(_uses(play, high) for play in plays):
        return Fault.HIGHER_DIE, f"the {high} can be played"
    return Fault.WRONG_NUMBERS, f"no legal play of {roll} leaves this board"


def _uses(play: Play, die: int) -> bool:
    """Whether a one-move play is made with ``die`` (exactly, or bearing off from lower)."""
    move = play.moves[0]
    return move.source - move.destination == die or (move.destination == 0 and move.source < die)


def variant_diagnosis(variant: Variant, numbers: tuple[int, ...] | None = None) -> Diagnosis:
    """:func:`diagnose` for ``variant`` and, if given, the numbers to play (handed over)."""
    return functools.partial(diagnose, variant=variant, numbers=numbers)

"""Variants as descriptions: one move generator, several games on the same board.

A :class:`Variant` says what differs between backgammon, nackgammon and Jacquet de
Versailles: the starting position, each player's track over the 24 physical points, how
doubles are played, how checkers enter and bear off, extra constraints (the courier, the
two-point limit), what happens to a number that cannot be played, how the first turn is
decided and how a game is scored. :mod:`controller.rules.plays` reads it; nothing else
forks.

Tracks. Each player counts the points along their own track, ``pos`` 1..24 (0 is their
bar, 25 off). The generator works on the mover's *view*: a 26-integer board where the
mover's checkers are positive and travel from index 24 (``pos`` 1) down to index 1
(``pos`` 24), index 25 is the mover's bar and index 0 the opponent's. A track is the
26-tuple of layout indices that the view's indices read, so that
``view[i] = sign * board[track[i]]``. Backgammon's player 0 reads the board as it is and
player 1 reads it flipped.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from controller.rules.board import NACKGAMMON_START, START, Board
from controller.rules.errors import RulesError

__all__ = [
    "BACKGAMMON",
    "JACQUET",
    "JACQUET_LUDII",
    "NACKGAMMON",
    "VARIANTS",
    "BearOff",
    "Doublets",
    "FirstTurn",
    "Scoring",
    "Track",
    "UnknownVariantError",
    "Unplayable",
    "Variant",
    "track_from_positions",
    "variant_named",
]

Track = tuple[int, ...]
"""26 layout indices, one per view index (see the module docstring)."""


class Doublets(enum.Enum):
    """How many moves a doublet ``n-n`` gives."""

    FOUR = "four"
    """Backgammon: four moves of ``n``."""
    N_TIMES = "n-times"
    """Jacquet de Versailles: ``n`` moves of ``n`` (1-1 one move, 6-6 six)."""


class BearOff(enum.Enum):
    """Which dice bear a checker off, once every checker is in the last quadrant."""

    EXACT_OR_HIGHEST = "exact-or-highest"
    """Backgammon: the exact number, or a higher one from the highest occupied point."""
    ANY_HIGHER = "any-higher"
    """Jacquet: any number at least the distance, whatever stands behind."""


class Unplayable(enum.Enum):
    """What becomes of a number the mover cannot play."""

    FORFEIT = "forfeit"
    """Backgammon: it is lost, but both dice (or the higher) must be used when possible."""
    HANDED_OVER = "handed-over"
    """Jacquet (Moulidars): both dice or the higher must be used; the rest passes to the
    opponent, who plays it with their own checkers before their own throw."""
    LOST = "lost"
    """Ludii's Jacquet: at each step the player plays any number left that can move now,
    in the order they choose (one that makes another unplayable included); the numbers
    left are lost only when none of them can move."""


class FirstTurn(enum.Enum):
    """How the first turn of a game is decided."""

    OPENING_ROLL = "opening-roll"
    """One die each, ties rolled again; the higher plays both numbers."""
    PRIMAUTE = "primaute"
    """One die each; the higher plays both; a doublet is played by both, then rethrown."""
    PLAYER_0 = "player-0"
    """Player 0 always starts (Ludii)."""


class Scoring(enum.Enum):
    """How a game won on the board is scored."""

    # By identity, as members compare, at C speed: Enum's own hash is Python code, and
    # resuming a journal looks a member up in a dict for every event it folds.
    __hash__ = object.__hash__

    BACKGAMMON = "backgammon"
    """Cube value times 1, 2 (gammon) or 3 (backgammon)."""
    JACQUET = "jacquet"
    """1 point, or 2 (double win) if the loser has borne off no checker."""


def track_from_positions(point_of: Callable[[int], int], player: int) -> Track:
    """The track of ``player`` given the layout point of each of their ``pos`` 1..24."""
    own_bar, their_bar = (25, 0) if player == 0 else (0, 25)
    return (their_bar, *(point_of(25 - index) for index in range(1, 25)), own_bar)


BACKGAMMON_TRACKS = (
    track_from_positions(lambda pos: 25 - pos, 0),
    track_from_positions(lambda pos: pos, 1),
)
JACQUET_TRACKS = (
    track_from_positions(lambda pos: 25 - pos, 0),
    track_from_positions(lambda pos: 24 - (pos + 11) % 24, 1),
)


def _jacquet_start() -> Board:
    board = [0] * 26
    board[24], board[12] = 15, -15
    return tuple(board)


@dataclass(frozen=True, slots=True)
class Variant:
    """The description of a game played on the backgammon board (see the module docstring)."""

    name: str
    start: Board
    tracks: tuple[Track, Track] = BACKGAMMON_TRACKS
    doublets: Doublets = Doublets.FOUR
    blocked_by: int = 2
    """Opposing checkers that close a point; one alone is hit and sent to its bar."""
    must_enter_first: bool = True
    """Checkers on the bar enter before any other moves (backgammon), or not (Jacquet)."""
    bear_off: BearOff = BearOff.EXACT_OR_HIGHEST
    courier: bool = False
    """Jacquet's rule 5: a second checker leaves the start point only once the first has
    reached the last quadrant (or is hit, or others already left)."""
    home_point_limit: int | None = None
    """Jacquet's rule 8: at most this many points of the first quadrant may hold two or
    more of the mover's checkers after any single move."""
    unplayable: Unplayable = Unplayable.FORFEIT
    first_turn: FirstTurn = FirstTurn.OPENING_ROLL
    scoring: Scoring = Scoring.BACKGAMMON
    has_cube: bool = True
    has_backgammon_ids: bool = True
    """Whether XGID and GNU Backgammon's IDs describe its positions, and so whether GNU
    Backgammon can analyse them: not Jacquet's, whose two players run the same way round."""
    has_gnubg_files: bool = True
    """Whether GNU Backgammon's match files (``.mat``, ``.sgf``) can hold its matches:
    backgammon's only (they name no variant)."""

    is_backgammon_movement: bool = field(init=False, repr=False, compare=False)
    """Whether plays follow backgammon's movement exactly (the generator's fast path).
    Worked out once: every query of the rules asks, and comparing the tracks took longer
    than a small search."""

    def __post_init__(self) -> None:
        backgammon_movement = (
            self.tracks == BACKGAMMON_TRACKS
            and self.doublets is Doublets.FOUR
            and self.blocked_by == 2
            and self.must_enter_first
            and self.bear_off is BearOff.EXACT_OR_HIGHEST
            and not self.courier
            and self.home_point_limit is None
            and self.unplayable is Unplayable.FORFEIT
        )
        object.__setattr__(self, "is_backgammon_movement", backgammon_movement)

    def __hash__(self) -> int:
        # By name (equal variants have equal names): the generated hash of every field,
        # Enum's own hash being Python code, took 2 us, and every search of a turn's plays
        # looks its variant up twice (its cache, its rules' step function).
        return hash(self.name)

    def moves_of(self, dice: tuple[int, int]) -> tuple[int, ...]:
        """The numbers a roll gives to play, highest first: ``(6, 5)``, ``(3, 3, 3, 3)``."""
        high, low = max(dice), min(dice)
        if high != low:
            return (high, low)
        return (high,) * (4 if self.doublets is Doublets.FOUR else high)


BACKGAMMON = Variant(name="backgammon", start=START)
NACKGAMMON = Variant(name="nackgammon", start=NACKGAMMON_START, has_gnubg_files=False)
JACQUET = Variant(
    name="jacquet-versailles",
    start=_jacquet_start(),
    tracks=JACQUET_TRACKS,
    doublets=Doublets.N_TIMES,
    must_enter_first=False,
    bear_off=BearOff.ANY_HIGHER,
    courier=True,
    home_point_limit=2,
    unplayable=Unplayable.HANDED_OVER,
    first_turn=FirstTurn.PRIMAUTE,
    scoring=Scoring.JACQUET,
    has_cube=False,
    has_backgammon_ids=False,
    has_gnubg_files=False,
)
# Ludii's reading: the same board and moves, none of Moulidars' obligations.
JACQUET_LUDII = replace(
    JACQUET,
    name="jacquet-versailles-ludii",
    unplayable=Unplayable.LOST,
    first_turn=FirstTurn.PLAYER_0,
)

VARIANTS: dict[str, Variant] = {
    variant.name: variant for variant in (BACKGAMMON, NACKGAMMON, JACQUET, JACQUET_LUDII)
}


class UnknownVariantError(RulesError, ValueError):
    """A variant name Tabula does not know."""


def variant_named(name: object) -> Variant:
    """The variant called ``name``: a name read from a request or a file may be any value.

    Raises:
        UnknownVariantError: naming the known variants.
    """
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return variant

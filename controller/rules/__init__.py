"""Tabula's rules engine: pure, typed, immutable positions and everything the rules say.

No I/O, no clocks, and no randomness it does not receive (a ``random.Random``).

* :mod:`~controller.rules.board` — the 26-integer board layout, pip counts, checks.
* :mod:`~controller.rules.plays` — the legal plays of a roll, in GNU Backgammon notation.
* :mod:`~controller.rules.tree` — the partial plays of a roll, for the referee.
* :mod:`~controller.rules.cube` — the doubling cube, game end and scoring.
* :mod:`~controller.rules.match` — match play (Crawford), money play, the opening roll.
* :mod:`~controller.rules.variants` — backgammon, nackgammon and Jacquet de Versailles
  as descriptions read by the one move generator.
* :mod:`~controller.rules.jacquet` — Jacquet's turn model: handed-over numbers, primauté.
* :mod:`~controller.rules.xgid`, :mod:`~controller.rules.position_id`,
  :mod:`~controller.rules.match_id` — position and match codes;
  :mod:`~controller.rules.gnubg_ids` — an XGID's GNU Backgammon IDs, and pasted positions.

>>> from controller.rules import START, legal_plays
>>> sorted(play.notation for play in legal_plays(START, 0, (6, 5)))
['13/2', '13/7 8/3', '13/8 13/7', '24/13', '24/18 13/8', '24/18 8/3', '8/3 8/2']
"""

from controller.rules.board import (
    CHECKERS,
    NACKGAMMON_START,
    START,
    Board,
    Player,
    board_problems,
    borne_off,
    check_board,
    flip,
    pip_counts,
)
from controller.rules.cube import (
    MAX_MATCH_LENGTH,
    CubePhase,
    CubeState,
    GameResult,
    Outcome,
    Rules,
    WinKind,
    outcome,
)
from controller.rules.errors import (
    IllegalActionError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRulesError,
    RulesError,
)
from controller.rules.gnubg_ids import gnubg_id, parse_gnubg_id, parse_position
from controller.rules.jacquet import JacquetResult, JacquetTurn, jacquet_result
from controller.rules.match import MatchState, OpeningRoll, roll_opening
from controller.rules.match_id import GameState, MatchKey, match_id, parse_match_id
from controller.rules.notation import format_play, format_point
from controller.rules.plays import (
    Move,
    Play,
    check_dice,
    legal_plays,
    legal_results,
    play_reaching,
    plays_of_numbers,
)
from controller.rules.position_id import board_from_position_id, position_id
from controller.rules.tree import PlayTree
from controller.rules.variants import (
    BACKGAMMON,
    JACQUET,
    JACQUET_LUDII,
    NACKGAMMON,
    VARIANTS,
    UnknownVariantError,
    Variant,
    variant_named,
)
from controller.rules.xgid import CubeOffer, Xgid, parse_xgid, xgid

__all__ = [
    "BACKGAMMON",
    "CHECKERS",
    "JACQUET",
    "JACQUET_LUDII",
    "MAX_MATCH_LENGTH",
    "NACKGAMMON",
    "NACKGAMMON_START",
    "START",
    "VARIANTS",
    "Board",
    "CubeOffer",
    "CubePhase",
    "CubeState",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidRulesError",
    "JacquetResult",
    "JacquetTurn",
    "MatchKey",
    "MatchState",
    "Move",
    "OpeningRoll",
    "Outcome",
    "Play",
    "PlayTree",
    "Player",
    "Rules",
    "RulesError",
    "UnknownVariantError",
    "Variant",
    "WinKind",
    "Xgid",
    "board_from_position_id",
    "board_problems",
    "borne_off",
    "check_board",
    "check_dice",
    "flip",
    "format_play",
    "format_point",
    "gnubg_id",
    "jacquet_result",
    "legal_plays",
    "legal_results",
    "match_id",
    "outcome",
    "parse_gnubg_id",
    "parse_match_id",
    "parse_position",
    "parse_xgid",
    "pip_counts",
    "play_reaching",
    "plays_of_numbers",
    "position_id",
    "roll_opening",
    "variant_named",
    "xgid",
]

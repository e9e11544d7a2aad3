"""Boards and the GNU Backgammon oracle shared by the codec tests."""

from __future__ import annotations

import platform
import random
from types import ModuleType

import pytest
from hypothesis import strategies as st

from controller.rules.board import Board, Player


def _fill(picks: tuple[list[int], list[int]]) -> Board:
    """A board with one checker per pick: player 0's slots, then player 1's."""
    cells = [0] * 26
    for player, sign in ((0, 1), (1, -1)):
        for slot in picks[player]:
            cells[slot] += sign
    return tuple(cells)


def _slots(owners: list[Player | None], player: Player) -> list[int]:
    """Where ``player`` may have checkers: the points given to them, and their bar."""
    return [point for point in range(1, 25) if owners[point - 1] == player] + [
        25 if player == 0 else 0
    ]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any possible board: up to 15 checkers a side, on points, bars, or borne off."""
    owners = draw(st.lists(st.sampled_from((0, 1, None)), min_size=24, max_size=24))
    picks = tuple(
        draw(st.lists(st.sampled_from(_slots(owners, player)), max_size=15)) for player in (0, 1)
    )
    return _fill((picks[0], picks[1]))


def random_board(rng: random.Random) -> Board:
    """A random possible board, often crowded, sometimes with bars and borne-off checkers."""
    owners: list[Player | None] = [rng.choice((0, 1, None)) for _ in range(24)]
    picks = []
    for player in (0, 1):
        slots = _slots(owners, player)
        count = 15 if rng.random() < 0.5 else rng.randint(0, 15)
        weights = [3 if slot in (0, 25) and rng.random() < 0.2 else 1 for slot in slots]
        picks.append(rng.choices(slots, weights, k=count))
    return _fill((picks[0], picks[1]))


def gnubg_board(board: Board, on_roll: Player) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board as GNU Backgammon's Python bindings take it: (opponent, player on roll),
    each side from its own ace point to its 24 point, then its bar.

    Written apart from :func:`controller.rules.position_id.gnubg_board` on purpose: it is
    the oracle's side of the Position ID's differential tests, which would not see a fault
    of the conversion they share.
    """

    def side(player: Player) -> tuple[int, ...]:
        if player == 0:
            return (*(max(board[point], 0) for point in range(1, 25)), board[25])
        return (*(max(-board[25 - point], 0) for point in range(1, 25)), -board[0])

    return side(1 - on_roll), side(on_roll)


def load_gnubg() -> ModuleType:
    """GNU Backgammon's bindings; they only exist for x86-64, elsewhere the test skips."""
    if platform.machine() != "x86_64":
        pytest.skip(f"the gnubg bindings have no wheel for {platform.machine()}")
    import gnubg

    return gnubg

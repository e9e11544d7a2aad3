"""GNU Backgammon's default match equity table, to write match analysis as it stores it.

GNU Backgammon keeps a cube decision's cubeful equities in an ``.sgf`` as match winning
chances (MWC) in match play, and turns them back into money-equivalent equities (EMG)
with its match equity table when it shows them. The engine answers in EMG: this module
turns them into MWC with the same table (Kazaross XG2, GNU Backgammon 1.07's default,
``Kazaross-XG2.xml`` copied from its ``met`` directory with its notice) and the same
arithmetic (``eq2mwc``), so that GNU Backgammon shows the engine's numbers.
"""

from __future__ import annotations

import functools
from importlib import resources
from xml.etree import ElementTree

from controller.rules import Player, Xgid

__all__ = ["emg_to_mwc", "match_equity"]

_TABLE = "Kazaross-XG2.xml"


@functools.cache
def _tables() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """(pre-Crawford rows, post-Crawford row): row i, column j = (i+1)-away vs (j+1)-away."""
    text = resources.files("controller.record").joinpath(_TABLE).read_text(encoding="utf-8")
    root = ElementTree.fromstring(text)
    pre = root.find("pre-crawford-table")
    post = root.find("post-crawford-table")
    if pre is None or post is None:
        raise ValueError(f"{_TABLE}: no pre- or post-Crawford table")
    rows = tuple(tuple(float(me.text or "") for me in row.iter("me")) for row in pre.iter("row"))
    return rows, tuple(float(me.text or "") for me in post.iter("me"))


def match_equity(away: tuple[int, int], player: Player, *, post_crawford: bool) -> float:
    """``player``'s chance to win the match with each player ``away`` points from winning.

    ``post_crawford``: the next game is played after the Crawford game (no Crawford
    game is left for a player who reaches 1-away).

    >>> match_equity((1, 2), 0, post_crawford=False)
    0.67736
    >>> round(match_equity((1, 2), 1, post_crawford=True), 5)
    0.48803
    """
    if away[player] <= 0:
        return 1.0
    if away[1 - player] <= 0:
        return 0.0
    pre, post = _tables()
    if post_crawford and 1 in away:
        trailer = 0 if away[1] == 1 else 1
        if away[trailer] == 1:
            return 0.5
        chance = post[away[trailer] - 1]
        return chance if player == trailer else 1.0 - chance
    return pre[away[player] - 1][away[1 - player] - 1]


def emg_to_mwc(position: Xgid, equity: float) -> float:
    """The match winning chance of ``position.turn`` for an EMG ``equity`` at its cube.

    EMG scales the match equities of winning and of losing the cube's value to +1 and
    -1: GNU Backgammon's ``eq2mwc``.

    Raises:
        ValueError: for a money position.
    """
    length = position.match_length
    if not length:
        raise ValueError("a money position has no match winning chances")
    player, cube = position.turn, position.cube_value
    away = (length - position.score[0], length - position.score[1])
    after_crawford = position.crawford or 1 in away

    def win(winner: Player) -> float:
        left = list(away)
        left[winner] -= cube
        return match_equity((left[0], left[1]), player, post_crawford=after_crawford)

    mwc_win, mwc_lose = win(player), win(1 - player)
    return 0.5 * ((mwc_win - mwc_lose) * equity + (mwc_win + mwc_lose))

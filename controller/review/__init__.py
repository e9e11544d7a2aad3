"""The post-game review and the learner's signals: GNU Backgammon as Tabula's teacher.

* :func:`analyse` — the engine's review of a recorded match (plays and close or actual
  cube decisions, as GNU Backgammon counts them);
* :func:`build_report` — the review as a value: each decision with its verdict, pip
  counts, the best play, and each player's error rate and rating; :func:`render_text`
  and :func:`render_html` show it;
* :func:`play_signal` / :func:`signal_for` — the gentle status lamp and words after a play;
* :func:`check_aid` — hints and reviews refused during play in ``recorder`` mode.

The analysed ``.sgf`` is :func:`controller.record.sgf.write_sgf` with the review.
"""

from controller.review.analysis import CLOSE_CUBE, analyse, is_close
from controller.review.errors import AidForbiddenError, ReviewError
from controller.review.policy import AIDS, Aid, aid_allowed, check_aid
from controller.review.render import render_html, render_text
from controller.review.report import (
    Choice,
    DecisionKind,
    DecisionLine,
    GameReport,
    PlayerSummary,
    ReviewReport,
    build_report,
)
from controller.review.signal import LAMPS, PlaySignal, cube_signal, play_signal, signal_for

__all__ = [
    "AIDS",
    "CLOSE_CUBE",
    "LAMPS",
    "Aid",
    "AidForbiddenError",
    "Choice",
    "DecisionKind",
    "DecisionLine",
    "GameReport",
    "PlaySignal",
    "PlayerSummary",
    "ReviewError",
    "ReviewReport",
    "aid_allowed",
    "analyse",
    "build_report",
    "check_aid",
    "cube_signal",
    "is_close",
    "play_signal",
    "render_html",
    "render_text",
    "signal_for",
]

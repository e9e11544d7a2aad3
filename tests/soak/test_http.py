"""The HTTP fuzzing soak, small: 150 requests a target (``python -m tests.soak http``: 2,000)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.soak import SOAKS
from tests.soak.http import fuzz

REQUESTS = 150


def test_fuzzed_requests_get_no_5xx_and_change_nothing_without_the_token(tmp_path: Path) -> None:
    result = asyncio.run(fuzz(REQUESTS, 1, tmp_path, budget_s=900))
    board, hub = result.board, result.hub
    assert result.tracebacks == []
    for report in (board, hub):
        assert report.failures == [], report.figures()
        assert report.sent == REQUESTS, report.figures()
    # The requests reached what matters: each kind of refusal, and actions taken.
    assert {200, 400, 401, 403, 404, 405, 409} <= set(board.statuses), board.figures()
    assert board.changed_with_token > 0 and board.without_token > 0, board.figures()
    assert board.follow_ups > 0 and hub.follow_ups > 0, board.figures()
    assert SOAKS["http"] == "tests.soak.http"

"""The commands' progress lines: the first, the last, at most one a second between."""

from __future__ import annotations

import io

from controller.commands.progress import Progress


def test_progress_prints_the_ends_and_one_line_a_second() -> None:
    now = [0.0]
    out = io.StringIO()
    progress = Progress("export", "games", shown=True, stream=out, clock=lambda: now[0])
    for done in range(1, 11):
        now[0] = done * 0.3  # 3 s in all
        progress(done, 10)
    assert out.getvalue().splitlines() == [
        "export: 1/10 games (10%)",
        "export: 5/10 games (50%)",  # 1.5 s: the first line a second after 0.3 s
        "export: 9/10 games (90%)",
        "export: 10/10 games (100%)",
    ]


def test_hidden_progress_prints_nothing() -> None:
    out = io.StringIO()
    progress = Progress("review", "decisions", shown=False, stream=out)
    progress(1, 1)
    assert out.getvalue() == ""

"""The review of recorded matches by each real engine: every decision listed and graded."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest

from controller.engine import Review, Skill
from controller.record import Doubled, Dropped, MatchRecord, Played, RecordError, Taken
from controller.record.decisions import decisions_of
from controller.review import (
    DecisionKind,
    build_report,
    render_html,
    render_text,
    signal_for,
)
from controller.rules import pip_counts


def test_the_review_of_a_simulated_match_lists_every_play_and_cube_decision(
    match: tuple[MatchRecord, Review],
) -> None:
    record, review = match
    report = build_report(record, review)
    plays = [event for event in record.events if isinstance(event, Played)]
    answers = [event for event in record.events if isinstance(event, Taken | Dropped)]
    doubles = [event for event in record.events if isinstance(event, Doubled)]
    assert len(doubles) == len(answers) == 2

    lines = report.lines
    play_lines = [line for line in lines if line.kind is DecisionKind.PLAY]
    assert [line.chosen for line in play_lines] == [
        event.notation or "(no move)" for event in plays
    ]
    assert [line.dice for line in play_lines] == [event.dice for event in plays]
    takes = [line for line in lines if line.kind is DecisionKind.TAKE]
    assert [line.chosen for line in takes] == [
        "take" if isinstance(event, Taken) else "pass" for event in answers
    ]
    assert [line.chosen for line in lines if line.chosen == "double"] == ["double"] * 2
    # Every chance to double the engine found close is listed, and only those.
    chances = [line for line in lines if line.chosen == "no double"]
    assert len(chances) == sum(
        1 for verdict in review.cube_decisions if not verdict.decision.doubled
    )
    assert len(chances) < sum(
        1 for d in decisions_of(record) if getattr(d, "doubled", True) is False
    )

    for line, verdict in zip(play_lines, review.plays, strict=True):
        before = pip_counts(verdict.decision.position.board)
        assert line.pips == (before[line.player], before[1 - line.player])
        assert line.best == (verdict.best.play.notation or "(no move)")
        assert line.loss == pytest.approx(verdict.best.equity - verdict.played.equity)
        assert line.choices[0].text == line.best and line.choices[0].loss == 0.0
    assert [game.number for game in report.games] == [1, 2]
    assert report.games[0].lines[0].pips == (167, 167)

    # The simulated players are weak: each player's summary is GNU Backgammon's error rate.
    for summary in report.players:
        rate = review.error_rate(summary.player)
        assert summary.decisions == rate.decisions > 10
        assert summary.mean_loss == pytest.approx(rate.total_loss / rate.decisions)
        assert summary.rating is rate.rating
        mistakes = [
            line
            for line in lines
            if line.player == summary.player and not line.forced and line.skill is Skill.BLUNDER
        ]
        assert summary.count(Skill.BLUNDER) == len(mistakes) > 0


def test_a_known_blunder_is_a_blunder_in_the_report(blunder: tuple[MatchRecord, Review]) -> None:
    record, review = blunder
    report = build_report(record, review)
    opening = report.lines[0]
    assert (opening.name, opening.dice, opening.chosen) == ("Alice", (3, 1), "13/9")
    assert opening.best == "8/5 6/5"
    assert opening.skill is Skill.BLUNDER and opening.loss > 0.2
    assert report.players[0].count(Skill.BLUNDER) == 1
    assert signal_for(review.plays[0]).text == f"blunder -{opening.loss:.2f}: best 8/5 6/5"

    text = render_text(report)
    assert re.search(r"1 Alice\s+31: 13/9\s+pips 167-167\s+blunder -0\.2\d\d, best 8/5 6/5", text)
    assert "Rating" in text and report.players[0].rating.value in text


def test_the_page_stands_alone_and_escapes_what_it_shows(
    match: tuple[MatchRecord, Review],
) -> None:
    record, review = match
    report = build_report(record, review)
    page = render_html(report)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"(src|href)=|https?:|@import|<script", page)  # works offline
    assert page.count('<tr class="') == len(report.lines)
    assert page.count('class="blunder"') == sum(
        1 for line in report.lines if line.skill is Skill.BLUNDER and not line.forced
    )

    named = dataclasses.replace(report, names=("<Ann & Co>", "Bob"))
    shown = render_html(named)
    assert html.escape("<Ann & Co>") in shown and "<Ann & Co>" not in shown


def test_a_review_of_another_match_is_refused(
    match: tuple[MatchRecord, Review], blunder: tuple[MatchRecord, Review]
) -> None:
    record, _ = match
    _, other = blunder
    with pytest.raises(
        RecordError,
        match=r"verdict 1 of 2 judges no decision of this match in order: "
        r"player 0's play of 31 at XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ):
        build_report(record, other)

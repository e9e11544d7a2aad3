"""The review report as text (a terminal, a log) and as a standalone web page.

The page carries its own style and no script or font from elsewhere: it is read on the
Pi's own web view or saved and opened offline.
"""

from __future__ import annotations

import html
from typing import Final

from controller.engine.review import Skill
from controller.review.report import DecisionKind, DecisionLine, ReviewReport

__all__ = ["render_html", "render_text"]


def _loss(value: float) -> str:
    return f"-{value:.3f}" if value > 0.0005 else "0.000"


def _equity(value: float) -> str:
    return f"{value:+.3f}"


def _what(line: DecisionLine) -> str:
    """The decision as one reads it: the roll and the play, or the cube action."""
    if line.kind is DecisionKind.PLAY:
        assert line.dice is not None
        return f"{line.dice[0]}{line.dice[1]}: {line.chosen}"
    return line.chosen


def _verdict(line: DecisionLine) -> str:
    if line.forced:
        return "forced"
    if line.skill is Skill.GOOD:
        return "good"
    return f"{line.skill.value} {_loss(line.loss)}, best {line.best}"


def _summary_rows(report: ReviewReport) -> list[tuple[str, str, str]]:
    """(label, first player, second player) rows of the players' summary."""
    one, two = report.players
    return [
        ("Decisions", str(one.decisions), str(two.decisions)),
        ("Doubtful", str(one.count(Skill.DOUBTFUL)), str(two.count(Skill.DOUBTFUL))),
        ("Errors", str(one.count(Skill.ERROR)), str(two.count(Skill.ERROR))),
        ("Blunders", str(one.count(Skill.BLUNDER)), str(two.count(Skill.BLUNDER))),
        ("Equity lost", _loss(one.total_loss), _loss(two.total_loss)),
        (
            "Error rate (mEMG)",
            f"{one.error_rate_milli:.1f}",
            f"{two.error_rate_milli:.1f}",
        ),
        ("Rating", one.rating.value, two.rating.value),
    ]


def render_text(report: ReviewReport) -> str:
    """The report for a terminal: the players' summary, then every decision game by game."""
    out = [
        f"Review: {report.title}",
        f"Engine: {report.engine}, {report.ply}-ply",
        "",
    ]
    width = max(len(report.names[0]), len(report.names[1]), 12)
    out.append(f"{'':<18} {report.names[0]:>{width}} {report.names[1]:>{width}}")
    for label, first, second in _summary_rows(report):
        out.append(f"{label:<18} {first:>{width}} {second:>{width}}")
    for game in report.games:
        out += ["", f"Game {game.number} (score {game.score[0]}-{game.score[1]}): {game.result}"]
        for line in game.lines:
            pips = f"{line.pips[0]}-{line.pips[1]}"
            out.append(
                f"{line.move:>4} {line.name:<{width}} {_what(line):<28} pips {pips:<8} "
                f"{_verdict(line)}"
            )
    return "\n".join(out) + "\n"


_STYLE: Final = """
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fdfdf8; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #ddd; text-align: left;
  vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.doubtful td.verdict { background: #fff3c4; }
tr.error td.verdict { background: #ffd9a8; }
tr.blunder td.verdict { background: #ffb3b3; font-weight: bold; }
tr.forced { color: #888; }
.choices { font-size: 0.85em; color: #555; }
.position { font-family: monospace; font-size: 0.8em; color: #777; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html_line(line: DecisionLine) -> str:
    grade = "forced" if line.forced else line.skill.value
    choices = "<br>".join(
        f"{_e(choice.text)} {_e(_equity(choice.equity))}"
        + (f" ({_e(_loss(choice.loss))})" if choice.loss > 0.0005 else "")
        for choice in line.choices
    )
    return (
        f'<tr class="{_e(grade)}"><td class="num">{line.move}</td><td>{_e(line.name)}</td>'
        f"<td>{_e(_what(line))}</td>"
        f'<td class="num">{line.pips[0]}</td><td class="num">{line.pips[1]}</td>'
        f'<td class="verdict">{_e(_verdict(line))}</td>'
        f'<td class="choices">{choices}</td>'
        f'<td class="position">{_e(line.position)}</td></tr>'
    )


def render_html(report: ReviewReport) -> str:
    """The report as one standalone HTML page (inline style, no script, works offline)."""
    title = f"Review: {report.title}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p>Engine: {_e(report.engine)}, {report.ply}-ply. Equities are the engine's, "
        "in units of the cube; losses are graded doubtful (over 0.030), error (over 0.060) "
        "and blunder (over 0.120), as GNU Backgammon grades them.</p>",
        "<table><thead><tr><th></th>"
        f"<th>{_e(report.names[0])}</th><th>{_e(report.names[1])}</th></tr></thead><tbody>",
    ]
    for label, first, second in _summary_rows(report):
        parts.append(
            f'<tr><th>{_e(label)}</th><td class="num">{_e(first)}</td>'
            f'<td class="num">{_e(second)}</td></tr>'
        )
    parts.append("</tbody></table>")
    for game in report.games:
        parts.append(
            f"<h2>Game {game.number} (score {game.score[0]}-{game.score[1]}): "
            f"{_e(game.result)}</h2>"
        )
        parts.append(
            "<table><thead><tr><th>#</th><th>Player</th><th>Decision</th><th>Pips</th>"
            "<th>Opp.</th><th>Verdict</th><th>Engine</th><th>Position</th></tr></thead><tbody>"
        )
        parts.extend(_html_line(line) for line in game.lines)
        parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"

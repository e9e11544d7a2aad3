"""The match as plain records: its events as JSON lines, and a text a player can read.

Why: ``.mat`` and ``.sgf`` are GNU Backgammon's formats and hold backgammon only. A match
of another variant (Jacquet de Versailles, nackgammon) is exported as its events, one JSON
object a line (the saved-match format ``tabula export --match`` reads back, checked against
the rules), or as a text listing each game's throws and plays. :func:`gnubg_refusal` says
why a match cannot go to GNU Backgammon.
"""

from __future__ import annotations

from controller.record.events import (
    Declined,
    GameEnded,
    IllegalPlayAccepted,
    OpeningRolled,
    Played,
    PositionEdited,
    Rolled,
    event_to_json,
)
from controller.record.model import MatchRecord

__all__ = ["gnubg_refusal", "write_events", "write_text"]


def gnubg_refusal(record: MatchRecord, suffix: str) -> str | None:
    """Why the match cannot be written as a GNU Backgammon ``suffix`` file, or None if it can."""
    variant = record.variant.name
    if variant == "backgammon":
        return None
    return (
        f"a {suffix} file holds backgammon, not {variant}: export the match as JSON "
        "lines or text instead (tabula export --format json|text)"
    )


def write_events(record: MatchRecord) -> str:
    """The match's events, one JSON object a line (the saved-match format)."""
    return "".join(event_to_json(event) + "\n" for event in record.events)


def write_text(record: MatchRecord) -> str:
    """The match for people: the players, the variant, then each game's events, one a line.

    ``Ann threw 6-5: 1/7 1/6``; numbers handed over are played with the thrower's dice;
    ``Bob declined`` is rule 11's choice.
    """
    names = record.names
    length = record.rules.match_length
    what = f"{length}-point match" if length else "money session"
    lines = [f"{names[0]} - {names[1]}, {record.variant.name}, {what}"]
    for game in record.games:
        lines.append("")
        lines.append(f"Game {game.number} (score {game.score[0]}-{game.score[1]})")
        for event in (*game.opening, *game.actions):
            line = _line(event, names)
            if line:
                lines.append(f"  {line}")
        if game.result is not None:
            result = game.result
            lines.append(f"  {names[result.winner]} wins {result.points} point(s)")
    lines.append("")
    lines.append(record.state.describe())
    return "\n".join(lines) + "\n"


def _line(event: object, names: tuple[str, str]) -> str:
    if isinstance(event, OpeningRolled):
        return f"first throw {event.dice[0]}-{event.dice[1]} ({names[0]}-{names[1]})"
    if isinstance(event, Rolled):
        return f"{names[event.player]} threw {event.dice[0]}-{event.dice[1]}"
    if isinstance(event, Played):
        return f"{names[event.player]} played {event.notation or '(no move)'}"
    if isinstance(event, IllegalPlayAccepted):
        return f"{names[event.player]} made an illegal play, accepted"
    if isinstance(event, Declined):
        return f"{names[event.player]} declined the numbers handed over"
    if isinstance(event, PositionEdited):
        return "position corrected"
    if isinstance(event, GameEnded):
        return ""
    return ""

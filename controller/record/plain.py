"""The match as plain records: its events as JSON lines, and a text a player can read.

Why: ``.mat`` and ``.sgf`` are GNU Backgammon's formats and hold backgammon only. A match
of another variant (Jacquet de Versailles, nackgammon) is exported as its events, one JSON
object a line (the saved-match format ``tabula export --match`` reads back, checked against
the rules), or as a text listing each game's throws and plays. :func:`gnubg_refusal` says
why a match cannot go to GNU Backgammon.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.match.event_json import event_to_json
from controller.match.events import (
    Beavered,
    Declined,
    Doubled,
    Dropped,
    IllegalPlayAccepted,
    OpeningRolled,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.match.replay import MatchRecord
from controller.rules import WinKind
from controller.rules.variants import Scoring

__all__ = ["gnubg_refusal", "write_events", "write_text"]


def gnubg_refusal(record: MatchRecord, suffix: str) -> str | None:
    """Why the match cannot be written as a GNU Backgammon ``suffix`` file, or None if it can."""
    if record.variant.has_gnubg_files:
        return None
    return (
        f"a {suffix} file holds backgammon, not {record.variant.name}: export the match as JSON "
        "lines or text instead (tabula export --format jsonl|txt)"
    )


def write_events(record: MatchRecord) -> str:
    """The match's events, one JSON object a line (the saved-match format)."""
    return "".join(event_to_json(event) + "\n" for event in record.events)


def write_text(record: MatchRecord) -> str:
    """The match for people: the players, the variant, then each game's events, one a line.

    ``Ann threw 6-5``, ``Ann played 24/18 13/8``; numbers handed over are played with the
    thrower's dice; ``Bob declined`` is rule 11's choice. The cube's actions and the
    resignations are there too (``Ann doubled to 2``, ``Bob dropped``), so that each
    result (``Ann wins 2 points``) follows from the lines above it.
    """
    names = record.names
    length = record.rules.match_length
    what = f"{length}-point match" if length else "money session"
    lines = [f"{names[0]} - {names[1]}, {record.variant.name}, {what}"]
    wins = _WINS[record.variant.scoring]
    for game in record.games:
        crawford = ", Crawford game" if game.crawford else ""
        lines.append("")
        lines.append(f"Game {game.number} (score {game.score[0]}-{game.score[1]}{crawford})")
        for event in (*game.opening, *game.actions):
            line = _line(event, names)
            if line:
                lines.append(f"  {line}")
        if game.result is not None:
            result = game.result
            points = f"{result.points} point{'s' if result.points > 1 else ''}"
            how = f" ({wins[result.kind]})" if result.kind is not WinKind.SINGLE else ""
            lines.append(f"  {names[result.winner]} wins {points}{how}")
    lines.append("")
    lines.append(record.state.describe())
    return "\n".join(lines) + "\n"


_BACKGAMMON_WINS = {WinKind.GAMMON: "a gammon", WinKind.BACKGAMMON: "a backgammon"}
_WINS = {Scoring.BACKGAMMON: _BACKGAMMON_WINS, Scoring.JACQUET: {WinKind.GAMMON: "a double win"}}
"""What each scoring calls a win of more than one game's points."""
_RESIGNED = {WinKind.SINGLE: "a single game", **_BACKGAMMON_WINS}

_DEEDS: dict[type, Callable[[Any], str]] = {
    Rolled: lambda event: f"threw {event.dice[0]}-{event.dice[1]}",
    Played: lambda event: f"played {event.notation or '(no move)'}",
    IllegalPlayAccepted: lambda event: "made an illegal play, accepted",
    Declined: lambda event: "declined the numbers handed over",
    Doubled: lambda event: f"doubled to {event.value}",
    Taken: lambda event: "took",
    Dropped: lambda event: "dropped",
    Beavered: lambda event: f"beavered to {event.value}",
    Resigned: lambda event: f"resigned {_RESIGNED[event.kind]}",
    ResignAccepted: lambda event: "accepted the resignation",
    ResignRefused: lambda event: "refused the resignation",
}
"""What a player did, by the event's type: the line is the player's name and this."""


def _line(event: Any, names: tuple[str, str]) -> str:
    if isinstance(event, OpeningRolled):
        return f"first throw {event.dice[0]}-{event.dice[1]} ({names[0]}-{names[1]})"
    if isinstance(event, PositionEdited):
        return "position corrected"
    deed = _DEEDS.get(type(event))
    return f"{names[event.player]} {deed(event)}" if deed else ""

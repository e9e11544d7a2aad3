"""The learner's gentle signal after each play: a status lamp and a few words.

A learner at the board wants to know at a glance whether the play was fine, not a wall
of numbers: the status lamp is green for a good play, amber for a doubtful one, amber
blinking slowly for an error and red blinking slowly for a blunder (never the fast red
blink of a fault), with a short text for the web view: ``good``, ``doubtful -0.04``,
``blunder -0.21: best 13/9 13/10``. Pure: the service decides when to show it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from controller.engine.model import CubeAction
from controller.engine.review import CubeVerdict, PlayVerdict, Skill, classify
from hardware.board.scene import Colour, Lamp, Pattern

__all__ = ["LAMPS", "PlaySignal", "cube_signal", "play_signal", "signal_for"]

LAMPS: Final[dict[Skill, Lamp]] = {
    Skill.GOOD: Lamp(Colour.GREEN),
    Skill.DOUBTFUL: Lamp(Colour.AMBER),
    Skill.ERROR: Lamp(Colour.AMBER, Pattern.SLOW),
    Skill.BLUNDER: Lamp(Colour.RED, Pattern.SLOW),
}
"""The status lamp of each grade."""


@dataclass(frozen=True, slots=True)
class PlaySignal:
    """What the board shows after a decision: its grade, the status lamp, a short text."""

    skill: Skill
    loss: float
    lamp: Lamp
    text: str


def _loss_text(loss: float) -> str:
    return f"-{loss:.2f}"


def play_signal(loss: float, best: str | None = None) -> PlaySignal:
    """The signal of a play that lost ``loss`` equity; ``best`` names the better play.

    The best play is only named for an error or a blunder: a doubtful play is close
    enough that naming another one would distract more than teach.

    >>> play_signal(0.0).text, play_signal(0.04).text
    ('good', 'doubtful -0.04')
    >>> play_signal(0.21, "13/9 13/10").text
    'blunder -0.21: best 13/9 13/10'

    Raises:
        ValueError: for a negative or non-finite loss.
    """
    if not math.isfinite(loss) or loss < 0:
        raise ValueError(f"an equity loss is a finite number >= 0, got {loss!r}")
    skill = classify(loss)
    if skill is Skill.GOOD:
        text = "good"
    else:
        text = f"{skill.value} {_loss_text(loss)}"
        if best is not None and skill in (Skill.ERROR, Skill.BLUNDER):
            text += f": best {best or '(no move)'}"
    return PlaySignal(skill, loss, LAMPS[skill], text)


def cube_signal(loss: float, best: str) -> PlaySignal:
    """The signal of a cube decision (``best`` says the right one: ``no double``, ``take``).

    >>> cube_signal(0.3, "double").text
    'blunder -0.30: best double'
    """
    return play_signal(loss, best)


def signal_for(verdict: PlayVerdict | CubeVerdict, *, answer: bool = False) -> PlaySignal:
    """The signal of an engine verdict: a play, a cube decision, or (``answer``) its take.

    Raises:
        ValueError: for ``answer`` on a cube decision without a double.
    """
    if isinstance(verdict, PlayVerdict):
        return play_signal(verdict.loss, verdict.best.play.notation)
    action = verdict.advice.action
    if answer:
        if verdict.take_loss is None:
            raise ValueError("no double was offered: there is no answer to signal")
        return cube_signal(verdict.take_loss, "take" if action.should_take else "pass")
    best = "double" if action.should_double else "no double"
    if action in (CubeAction.TOO_GOOD_PASS, CubeAction.TOO_GOOD_TAKE):
        best = "no double (too good: play on)"
    return cube_signal(verdict.loss, best)

"""What the board service has done, counted: the tests and the soaks wait on these."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Counters"]


@dataclass(slots=True)
class Counters:
    """The service's counters (read by tests, soaks and benchmarks to see progress)."""

    inputs: int = 0
    rolls: int = 0
    """Camera readings of a roll handled (read, irregular or unreadable)."""
    refused: int = 0
    journalled: int = 0
    led_updates: int = 0
    hints: int = 0
    """Hints shown (a play's first checker lit, or a cube advice said)."""
    hints_dropped: int = 0
    """Engine answers that came after the position moved on."""
    judged: int = 0
    """Plays judged by the engine (learner mode)."""

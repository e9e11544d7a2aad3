"""The hooks of a variant whose turns have states of their own, into the match's flow.

Why apart from :mod:`~controller.match.flow`: the flow asks the registry for a variant's
hooks and never imports the variant's module (Jacquet's, :mod:`controller.match.jacquet`,
registers its own), as the replay asks :mod:`~controller.match.snapshot`'s for its
:class:`~controller.match.snapshot.VariantReplay`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from controller.match import events as recorded
from controller.match.inputs import Input
from controller.rules import Player, Variant, WinKind
from controller.rules.variants import Scoring

if TYPE_CHECKING:
    from controller.match.flow import Flow

__all__ = ["VariantTurns", "register_variant_turns", "variant_turns"]


class VariantTurns(Protocol):
    """The turns of a variant with states of its own (Jacquet's primauté, numbers handed
    over, Decline).

    Why hooks: :class:`Flow` hands such a match's inputs to its variant, as python-chess's
    variant boards override a few methods, and never imports the variant's module; each
    variant module registers its hooks (:func:`register_variant_turns`).
    """

    def start(self, flow: Flow) -> Flow:
        """The flow of a new match (what its players are told first)."""
        ...

    def resume(self, flow: Flow) -> Flow:
        """The flow where its snapshot (the journal's) stands, no game over owed."""
        ...

    def on(self, flow: Flow, event: Input) -> tuple[Flow, list[recorded.Event]]:
        """The next flow after ``event`` and the record events to journal first."""
        ...

    def thrower(self, flow: Flow) -> Player | None:
        """Who throws the next dice the camera sees (:attr:`Flow.thrower`)."""
        ...

    def resign(
        self, flow: Flow, player: Player, kind: WinKind
    ) -> tuple[Flow, list[recorded.Event]]:
        """``player`` offers to resign (:meth:`Flow.resign`).

        Raises:
            RefusedError: when the variant's games cannot be resigned, or not now.
        """
        ...


_VARIANT_TURNS: dict[Scoring, VariantTurns] = {}


def register_variant_turns(scoring: Scoring, turns: VariantTurns) -> None:
    """Let ``turns`` play the matches scored by ``scoring``."""
    _VARIANT_TURNS[scoring] = turns


def variant_turns(variant: Variant) -> VariantTurns | None:
    """The turn hooks of ``variant``; None for backgammon's turns."""
    return _VARIANT_TURNS.get(variant.scoring)

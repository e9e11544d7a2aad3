"""The hooks of a variant whose turns have states of their own, into the match's flow.

Why apart from :mod:`~controller.match.flow`: the flow asks its registry for a variant's
hooks and never imports the variant's module (Jacquet's, :mod:`controller.match.jacquet`,
registers its own), as the replay asks :mod:`~controller.match.snapshot`'s for its
:class:`~controller.match.snapshot.VariantReplay`. The hooks are generic in the flow they
take and return (``VariantTurns[Flow]``), so that this module needs not import the flow.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from controller.match import events as recorded
from controller.referee import Input
from controller.rules import Player, WinKind

__all__ = ["VariantTurns"]

FlowT = TypeVar("FlowT")
"""The flow the hooks take and return (:class:`~controller.match.flow.Flow`)."""


class VariantTurns(Protocol[FlowT]):
    """The turns of a variant with states of its own (Jacquet's primauté, numbers handed
    over, Decline).

    Why hooks: :class:`~controller.match.flow.Flow` hands such a match's inputs to its
    variant, as python-chess's variant boards override a few methods, and never imports
    the variant's module; each variant module registers its hooks
    (:func:`~controller.match.flow.register_variant_turns`).
    """

    def start(self, flow: FlowT) -> FlowT:
        """The flow of a new match (what its players are told first)."""
        ...

    def resume(self, flow: FlowT) -> FlowT:
        """The flow where its snapshot (the journal's) stands, no game over owed."""
        ...

    def on(self, flow: FlowT, event: Input) -> tuple[FlowT, list[recorded.Event]]:
        """The next flow after ``event`` and the record events to journal first."""
        ...

    def resign(
        self, flow: FlowT, player: Player, kind: WinKind
    ) -> tuple[FlowT, list[recorded.Event]]:
        """``player`` offers to resign (:meth:`~controller.match.flow.Flow.resign`).

        Raises:
            RefusedError: when the variant's games cannot be resigned, or not now.
        """
        ...

"""What a board's service shows the world: its status, its events and the actions it takes.

The web view, the MQTT publisher and the hub all speak these values, and the service
(``controller.service``) produces them; none of them reaches into the service's
internals. Everything here is pure and JSON-friendly (``to_json``/``from_json``), and every
payload carries :data:`STATUS_VERSION` so that a hub can refuse what it does not know.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal, Protocol

from controller.match.errors import ActionError
from controller.record import names_clash
from controller.record.formats import MATCH_FORMATS, MatchFormat
from controller.referee import Button, ButtonPressed, DiceEntered, PositionCorrected
from controller.rules import MAX_MATCH_LENGTH, RulesError
from hardware.board.errors import clipped_repr
from hardware.board.json_types import JsonObject, JsonValue

__all__ = [
    "ACTIONS",
    "MATCH_FORMATS",
    "PRESSES",
    "RESIGN_KINDS",
    "REVIEW_FORMATS",
    "STATUS_VERSION",
    "Action",
    "ActionError",
    "AnswerResignation",
    "BoardEvent",
    "BoardService",
    "BoardStatus",
    "ConfirmOrientation",
    "LightState",
    "MatchFormat",
    "NewGame",
    "NewMatch",
    "Resign",
    "ReviewFormat",
    "action_from_json",
]

STATUS_VERSION: Final = 1

ReviewFormat = Literal["html", "text", "sgf"]
"""The engine's review of a match: a web page, plain text, or an analysed GNU Backgammon
``.sgf``."""
REVIEW_FORMATS: Final[tuple[ReviewFormat, ...]] = ("html", "text", "sgf")


@dataclass(frozen=True, slots=True)
class LightState:
    """One LED as shown: colour ``off|green|amber|red`` and blink ``steady|slow|fast|flash``."""

    colour: str = "off"
    blink: str = "steady"


@dataclass(frozen=True, slots=True)
class BoardStatus:
    """A board at one moment, as its web page and the hub draw it.

    ``position`` is the accepted position (before the turn being played) in the 26-integer
    layout; ``cells`` what the sensors see now (28 locations, ``None`` unknown, as
    :mod:`hardware.board.geometry`); ``lights`` the 28 location LEDs then the status LED.
    """

    board_id: str
    seq: int
    """The per-board sequence number of the last event this status reflects."""
    variant: str = "backgammon"
    mode: str = "referee"
    players: tuple[str, str] = ("Player 0", "Player 1")
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    crawford: bool = False
    phase: str = "opening"
    """opening, roll, moving, flagged, confirm-dice, manual-dice, cube-offered, game-over,
    match-over."""
    turn: int | None = None
    position: tuple[int, ...] = ()
    cells: tuple[tuple[int, int] | None, ...] = ()
    dice: tuple[int, ...] | None = None
    dice_confidence: tuple[float, ...] | None = None
    dice_source: str | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    cube_offered: bool = False
    pips: tuple[int, int] = (0, 0)
    verdict: str = "waiting"
    text: str = ""
    lights: tuple[LightState, ...] = ()
    moves: tuple[str, ...] = ()
    """The move list of the game, one line a turn (``X 52: 13/11 13/8``)."""
    xgid: str = ""
    gnubg_id: str = ""
    links: Mapping[str, str] = field(default_factory=lambda: {"board": "off", "camera": "off"})
    """Each link's state (the keys of :data:`controller.links.BOARD_LINK` and ``CAMERA_LINK``)."""
    link_text: str = ""
    """The same states in words (:func:`controller.links.link_text`)."""
    alerts: tuple[str, ...] = ()
    """What needs a person now: an illegal play to accept or demand, dice to enter, a fault."""
    online: bool = True
    orientation: str = ""
    """Who sits where with which colour (``Ann near side, colour A; Bob far side, colour B``)."""
    orientation_pending: bool = False
    """The players have still to confirm the orientation before the opening roll."""
    engine: str = ""
    """The teacher's name (``gnubg-cli``), or why there is none (hints are then off)."""
    hint: str = ""
    """The hint asked for: ``best 13/11 24/23``, ``double``, ``no double``, ``take``, ``drop``."""
    play_player: int | None = None
    """Learner mode: who made the last play the engine judged (``None``: none yet)."""
    play_notation: str = ""
    play_best: str = ""
    """The engine's best play instead."""
    play_loss: float | None = None
    """Equity the play lost against the best one."""
    play_grade: str = ""
    """``good``, ``doubtful``, ``error`` or ``blunder`` (GNU Backgammon's thresholds)."""
    play_signal: str = ""
    """The verdict in a few words: ``blunder -0.21: best 13/9 13/10``."""

    def to_json(self) -> JsonObject:
        """A JSON object with a ``version`` field.

        Written field by field, not with ``dataclasses.asdict``: its deep copy cost a hub
        about 0.4 ms a card, which a page of 500 boards pays for every card.
        """
        data: JsonObject = {"version": STATUS_VERSION}
        for name in _STATUS_FIELDS:
            data[name] = getattr(self, name)
        data["lights"] = [
            {name: getattr(light, name) for name in _LIGHT_FIELDS} for light in self.lights
        ]
        data["links"] = dict(self.links)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> BoardStatus:
        """The status a :meth:`to_json` object describes.

        Raises:
            ActionError: for another version or a field this version does not have.
        """
        if data.get("version") != STATUS_VERSION:
            raise ActionError(f"status version {data.get('version')!r}: expected {STATUS_VERSION}")
        # Each field's type is checked by the dataclass it is given to (a TypeError).
        fields: dict[str, Any] = {key: value for key, value in data.items() if key != "version"}
        try:
            fields["lights"] = tuple(LightState(**light) for light in fields.get("lights", ()))
            for key in ("players", "score", "position", "moves", "alerts", "pips"):
                if key in fields:
                    fields[key] = tuple(fields[key])
            if fields.get("cells") is not None:
                fields["cells"] = tuple(None if c is None else tuple(c) for c in fields["cells"])
            for key in ("dice", "dice_confidence"):
                if fields.get(key) is not None:
                    fields[key] = tuple(fields[key])
            return cls(**fields)
        except TypeError as error:
            raise ActionError(f"bad status: {error}") from None


_STATUS_FIELDS: Final = tuple(member.name for member in fields(BoardStatus))
_LIGHT_FIELDS: Final = tuple(member.name for member in fields(LightState))


@dataclass(frozen=True, slots=True)
class BoardEvent:
    """Something that happened on a board, numbered per board so nothing is lost unseen.

    ``kind`` is the journal's event type (``played``, ``doubled``, ``game-ended``...) or a
    service event (``verdict``, ``link``, ``online``); ``data`` its JSON payload.
    """

    board_id: str
    seq: int
    kind: str
    data: Mapping[str, JsonValue] = field(default_factory=dict)
    time: float = 0.0

    def to_json(self) -> JsonObject:
        return {
            "version": STATUS_VERSION,
            "board_id": self.board_id,
            "seq": self.seq,
            "kind": self.kind,
            "data": dict(self.data),
            "time": self.time,
        }


# Actions a referee takes from the web view (behind the token) on the match itself; the
# web view's other actions are the match's own inputs (controller.referee.inputs).


@dataclass(frozen=True, slots=True)
class NewGame:
    """Abandon the game in progress (a knocked board): the score stays, a new opening roll."""

    reason: str = "restarted by the referee"


@dataclass(frozen=True, slots=True)
class NewMatch:
    """Start a new match of ``length`` points (0: money play; at most 64), the old journal archived.

    ``names`` None keeps the players; ``options`` are the rules' switches (``crawford``,
    ``jacoby``, ``beavers``, ``automatic_doubles``) as (name, on) pairs, the others default.
    """

    length: int = 0
    names: tuple[str, str] | None = None
    options: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class ConfirmOrientation:
    """Confirm the board's orientation before the opening roll, or its swap (``swap``)."""

    swap: bool = False


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` offers to resign ``kind``: ``single``, ``gammon`` or ``backgammon``."""

    player: int
    kind: str = "single"


@dataclass(frozen=True, slots=True)
class AnswerResignation:
    """The opponent accepts the pending resignation (the game ends) or refuses it."""

    accept: bool


RESIGN_KINDS: Final = ("single", "gammon", "backgammon")
"""What a player may resign (as ``controller.rules.WinKind`` names them, lower case)."""


Action = (
    DiceEntered
    | PositionCorrected
    | ButtonPressed
    | NewGame
    | NewMatch
    | ConfirmOrientation
    | Resign
    | AnswerResignation
)
"""What the web view asks: the match's own inputs (dice entered, the position corrected, a
button of the board), or an action on the match itself."""

PRESSES: Final[dict[str, Button]] = {
    "accept": Button.ACCEPT,
    "demand": Button.DEMAND,
    "hint": Button.HINT,
    "decline": Button.DECLINE,
}
"""The web view's actions that are a button of the board pressed."""

ACTIONS: Final = (
    "enter-dice",
    "correct-position",
    *PRESSES,
    "new-game",
    "new-match",
    "orientation",
    "resign",
    "accept-resignation",
    "refuse-resignation",
)
"""The actions' names in a request (``{"action": NAME, ...}``)."""

RULE_OPTIONS: Final = ("crawford", "jacoby", "beavers", "automatic_doubles")
"""The rules' switches a new match may set."""
_MAX_REASON: Final = 200
_RESTARTED: Final = "restarted by the referee"


def _is_board(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 26 and all(type(n) is int for n in value)


def action_from_json(data: object) -> Action:
    """The action a request body names: ``{"action": "enter-dice", "dice": [5, 3]}``.

    Only the shape is checked here; whether the board can take it now is the service's
    call, which raises :class:`ActionError`.

    Raises:
        ActionError: naming what is wrong with the request.
    """
    if not isinstance(data, dict):
        raise ActionError(f"an action is a JSON object, got {clipped_repr(data)}")
    name = data.get("action")
    if not isinstance(name, str) or name not in ACTIONS:
        raise ActionError(f"unknown action {clipped_repr(name)}; known: {', '.join(ACTIONS)}")
    if name in PRESSES:
        return ButtonPressed(PRESSES[name])
    if name == "enter-dice":
        dice = data.get("dice")
        if isinstance(dice, list) and len(dice) == 2 and all(type(d) is int for d in dice):
            with contextlib.suppress(RulesError):  # the input checks its numbers itself
                return DiceEntered((dice[0], dice[1]))
        raise ActionError(f"enter-dice needs dice: two numbers 1-6, got {clipped_repr(dice)}")
    if name == "correct-position":
        board: Any = data.get("board")
        if not _is_board(board):
            raise ActionError(
                f"correct-position needs board: 26 integers, got {clipped_repr(board)}"
            )
        try:
            return PositionCorrected(tuple(board))
        except RulesError as error:
            raise ActionError(f"correct-position: {error}") from None
    if name == "new-match":
        return _new_match(data)
    if name == "new-game":
        reason = data.get("reason", _RESTARTED)
        if not isinstance(reason, str) or not reason.strip() or len(reason) > _MAX_REASON:
            raise ActionError(
                f"new-game reason: 1 to {_MAX_REASON} characters, got {clipped_repr(reason)}"
            )
        return NewGame(reason.strip())
    if name == "orientation":
        swap = data.get("swap", False)
        if not isinstance(swap, bool):
            raise ActionError(f"orientation swap: true or false, got {clipped_repr(swap)}")
        return ConfirmOrientation(swap)
    if name == "resign":
        return _resign(data)
    return AnswerResignation(name == "accept-resignation")


def _resign(data: dict[str, Any]) -> Resign:
    """A resign request: ``player`` 0 or 1 and ``kind`` (a single game by default)."""
    player = data.get("player")
    if type(player) is not int or player not in (0, 1):
        raise ActionError(f"resign needs player: 0 or 1, got {clipped_repr(player)}")
    kind = data.get("kind", "single")
    if kind not in RESIGN_KINDS:
        raise ActionError(
            f"resign kind: one of {', '.join(RESIGN_KINDS)}, got {clipped_repr(kind)}"
        )
    return Resign(player, kind)


def _new_match(data: dict[str, Any]) -> NewMatch:
    """A new-match request: ``length``, optional ``names`` and rules switches."""
    known = {"action", "length", "names", *RULE_OPTIONS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ActionError(
            f"new-match: unknown fields {clipped_repr(unknown)}; known: {sorted(known)}"
        )
    length = data.get("length", 0)
    if type(length) is not int or not 0 <= length <= MAX_MATCH_LENGTH:
        raise ActionError(
            f"new-match needs length: an integer from 0 (money play) to {MAX_MATCH_LENGTH}, "
            f"got {clipped_repr(length)}"
        )
    names: Any = data.get("names")
    if names is not None and (
        not isinstance(names, list) or len(names) != 2 or not all(isinstance(n, str) for n in names)
    ):
        raise ActionError(f"new-match names: two strings, got {clipped_repr(names)}")
    clash = None if names is None else names_clash((names[0], names[1]))
    if clash is not None:
        raise ActionError(f"new-match names: {clash}")
    options = []
    for option in RULE_OPTIONS:
        if option in data:
            if not isinstance(data[option], bool):
                raise ActionError(
                    f"new-match {option}: true or false, got {clipped_repr(data[option])}"
                )
            options.append((option, data[option]))
    return NewMatch(length, None if names is None else (names[0], names[1]), tuple(options))


class BoardService(Protocol):
    """What the web view and the MQTT publisher need from a running board."""

    @property
    def board_id(self) -> str: ...

    def status(self) -> BoardStatus:
        """The status now."""
        ...

    def updates(self) -> AsyncIterator[BoardStatus | BoardEvent]:
        """Every event and every new status from now on, in order."""
        ...

    async def apply(self, action: Action) -> None:
        """Carry out ``action`` (journalled first), or raise :class:`ActionError` and change
        nothing."""
        ...

    async def export(self, fmt: MatchFormat) -> str:
        """The match so far as a ``.mat``, ``.sgf``, JSON-lines or text record."""
        ...

    async def review(self, fmt: ReviewFormat) -> str:
        """The engine's review of the match so far, or raise :class:`ActionError` saying why
        there is none (no engine, a game in play in recorder mode, a board that keeps none)."""
        ...

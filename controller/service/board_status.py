"""The board's status as its web page, the hub and MQTT show it, built from the service's state.

Why apart from the loop: the status is a pure function of the flow, what is shown, the
journal's snapshot and the links; the service only decides when to publish it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from controller import record
from controller.links import LinkStates, link_text
from controller.match.cube_seen import CubeSeen, cube_disagreement
from controller.match.flow import Flow
from controller.match.orientation import Orientation
from controller.referee import Cells, Display
from controller.rules import BACKGAMMON, Board, RulesError, Variant, gnubg_id, pip_counts, xgid
from controller.service.teacher import TeacherStatus
from controller.status import BoardStatus, LightState
from hardware.board.scene import Lamp, Scene

__all__ = ["MoveList", "build_status", "scene_text"]

_COLOURS = {"OFF": "off", "GREEN": "green", "RED": "red", "AMBER": "amber"}


@dataclass(slots=True)
class MoveList:
    """The current game's move list (one line a turn or cube action), kept from the journal."""

    lines: list[str] = field(default_factory=list)

    def note(self, event: record.Event) -> None:
        """Add ``event``'s line, or start a new game's list."""
        if isinstance(event, record.GameAbandoned):
            self.lines = []
            return
        if isinstance(event, record.OpeningRolled | record.MatchStarted):
            if not self.lines or self.lines[-1].startswith("game over"):
                self.lines = []
            return
        line = _move_line(event)
        if line is not None:
            self.lines.append(line)


def build_status(
    *,
    board_id: str,
    flow: Flow,
    display: Display,
    snapshot: record.MatchSnapshot | None,
    seq: int,
    cells: Cells | None,
    links: LinkStates,
    cube_seen: CubeSeen | None,
    orientation: Orientation,
    orienting: bool,
    moves: MoveList,
    teacher: TeacherStatus,
) -> BoardStatus:
    """The board's status: the match, the turn, what the LEDs show, the links and alerts.

    ``teacher`` holds the engine's fields
    (:meth:`~controller.service.teacher.Teacher.status_fields`).
    """
    turn, cube = flow.turn, flow.cube
    position_text = gnubg_text = ""
    if snapshot is not None:
        with contextlib.suppress(RulesError):
            code = snapshot.position()
            position_text, gnubg_text = xgid(code), gnubg_id(code)
    position = turn.before if turn is not None else ()
    lights = tuple(_light(lamp) for lamp in (*display.scene.lamps, display.scene.status))
    verdict = turn.verdict.kind.value if turn is not None and turn.verdict else "waiting"
    cube_problem = cube_disagreement(cube_seen, flow.cube, orientation, flow.names)
    alerts = tuple(
        text
        for text, on in (
            ("illegal play: accept or demand a legal play", flow.phase == "flagged"),
            ("enter the dice", flow.phase == "manual-dice"),
            ("confirm the dice", flow.phase == "confirm-dice"),
            ("confirm the board's orientation", orienting),
            (f"sensor board: {links.board_problem}", links.board_problem is not None),
            (f"check the cube: {cube_problem}", cube_problem is not None),
        )
        if on
    )
    return BoardStatus(
        board_id=board_id,
        variant=flow.variant.name,
        seq=seq,
        mode=flow.mode.value,
        players=flow.names,
        match_length=flow.rules.match_length,
        score=flow.match.score,
        game_number=flow.match.game_number,
        crawford=flow.match.crawford,
        phase="orientation" if orienting else flow.phase,
        turn=turn.player if turn is not None else None,
        position=tuple(position),
        cells=cells or (),
        dice=turn.dice if turn is not None else None,
        dice_source=turn.dice_source.value if turn and turn.dice_source else None,
        cube_value=cube.value if cube is not None else 1,
        cube_owner=cube.owner if cube is not None else None,
        cube_offered=flow.phase == "cube-offered",
        pips=_pips(turn.before, flow.variant) if turn is not None else (0, 0),
        verdict=verdict,
        text=display.text,
        lights=lights,
        links=dict(links.states),
        link_text=link_text(links.states),
        alerts=alerts,
        moves=tuple(moves.lines),
        xgid=position_text,
        gnubg_id=gnubg_text,
        orientation=orientation.describe(flow.names),
        orientation_pending=orienting,
        **teacher,
    )


def _move_line(event: record.Event) -> str | None:
    """One line of the move list for ``event`` (``1 52: 13/8 13/11``), or None."""
    if isinstance(event, record.Played):
        return f"{event.player} {event.dice[0]}{event.dice[1]}: {event.notation or '(no move)'}"
    if isinstance(event, record.IllegalPlayAccepted):
        return f"{event.player} {event.dice[0]}{event.dice[1]}: illegal play accepted"
    if isinstance(event, record.Doubled | record.Beavered):
        return f"{event.player} doubles to {event.value}"
    if isinstance(event, record.Taken | record.Dropped):
        return f"{event.player} {type(event).__name__.lower()}"
    if isinstance(event, record.PositionEdited):
        return "position corrected"
    if isinstance(event, record.Declined):
        return f"{event.player} declines the numbers handed over"
    if isinstance(event, record.Resigned):
        return f"{event.player} resigns a {event.kind.name.lower()}"
    if isinstance(event, record.ResignAccepted | record.ResignRefused):
        verb = "accepts" if isinstance(event, record.ResignAccepted) else "refuses"
        return f"{event.player} {verb} the resignation"
    if isinstance(event, record.GameEnded):
        return f"game over: {event.winner} wins {event.points}"
    return None


def _pips(board: Board, variant: Variant) -> tuple[int, int]:
    """Each player's pips to bear off, along their own track (Jacquet's differ)."""
    if variant.tracks == BACKGAMMON.tracks:
        counts = pip_counts(board)
        return counts[0], counts[1]
    pips = [0, 0]
    for player, track in enumerate(variant.tracks):
        sign = 1 if player == 0 else -1
        # View index i is the track's pos 25 - i: i pips from off (the bar is 25).
        pips[player] = sum(i * max(0, sign * board[track[i]]) for i in range(1, 26))
    return pips[0], pips[1]


def _light(lamp: Lamp) -> LightState:
    blink = lamp.pattern.name.lower()
    return LightState(_COLOURS[lamp.colour.name], "steady" if blink == "steady" else blink)


def scene_text(scene: Scene) -> str:
    """The LED states in one line: ``status amber/slow; 5 green, 7 red/fast``."""
    lamps = ", ".join(
        f"{index + 1 if index < 24 else ('bar0', 'bar1', 'tray0', 'tray1')[index - 24]} "
        + _lamp_text(lamp)
        for index, lamp in enumerate(scene.lamps)
        if not lamp.is_off
    )
    status = "off" if scene.status.is_off else _lamp_text(scene.status)
    return f"status {status}" + (f"; {lamps}" if lamps else "")


def _lamp_text(lamp: Lamp) -> str:
    colour = lamp.colour.name.lower()
    pattern = lamp.pattern.name.lower()
    return colour if pattern == "steady" else f"{colour}/{pattern}"

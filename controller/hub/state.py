"""What the hub knows of every board, folded from MQTT messages: pure, no I/O.

Why pure: proving that nothing was lost or duplicated is the point of the per-board
sequence numbers, so the bookkeeping is a plain fold the tests can feed directly; the
asyncio shell (:mod:`controller.hub.server`) only moves messages and writes files.

Each board's events that are match-record events (their ``data`` is the journal's JSON of
:mod:`controller.match.events`) are applied to a :class:`~controller.record.Replayer`,
which checks them against the rules; when a match ends (or a money game, for a money
session) the hub returns an :class:`Archive` of the match, whose files (its ``.sgf`` and
``.mat``) the shell writes in a worker thread.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Final

from controller.hub.errors import ShardError
from controller.mqtt.codec import (
    decode_event,
    decode_heartbeat,
    decode_online,
    decode_status,
    parse_topic,
)
from controller.mqtt.errors import MqttError
from controller.record import (
    Event,
    GameEnded,
    InvalidEventError,
    MatchRecord,
    MatchStarted,
    Phase,
    Replayer,
    event_from_dict,
)
from controller.record.exports import kept_files
from controller.record.formats import MatchFormat
from controller.status import BoardEvent, BoardStatus
from hardware.board.json_types import JsonObject

__all__ = ["WHOLE", "Archive", "BoardView", "HubState", "Shard"]


@dataclass(frozen=True, slots=True)
class Shard:
    """Which boards one of ``count`` hubs takes: those whose id hashes to its ``number``.

    Why by board, and by a hash of its id: a board's events must reach one hub, all of
    them and in order, for its sequence numbers to prove nothing lost and its match to be
    replayed and archived; a shared subscription (``$share/hubs/...``) deals out single
    messages, so each hub would see every board with holes. A hash needs no list of boards
    (a board joining the hall goes to one hub) and a stable one (CRC-32, not Python's
    salted ``hash``) sends it to the same hub after a restart. The cost: every hub still
    receives every message, and drops the others' from the topic alone, before decoding.

    >>> shard = Shard.from_text("2/3")
    >>> shard, shard.text(), Shard.from_text(shard.text()) == shard
    (Shard(number=2, count=3), '2/3', True)

    Raises:
        ShardError: for a number outside 1..count.
    """

    number: int = 1
    """This hub's shard, from 1."""
    count: int = 1
    """How many hubs share the boards."""

    def __post_init__(self) -> None:
        if not 1 <= self.number <= self.count:
            raise ShardError(
                f"shard {self.number}/{self.count}: its number must be 1 to {self.count}"
            )

    @classmethod
    def from_text(cls, text: str) -> Shard:
        """The shard written ``number/count`` (``2/3``).

        Raises:
            ShardError: for any other text.
        """
        number, slash, count = text.partition("/")
        if not (slash and number.isdecimal() and count.isdecimal()):
            raise ShardError(f"shard {text!r}: expected NUMBER/COUNT, such as 1/2")
        return cls(int(number), int(count))

    def text(self) -> str:
        """``number/count``."""
        return f"{self.number}/{self.count}"

    def owns(self, board_id: str) -> bool:
        """Whether this hub takes ``board_id``'s messages."""
        return zlib.crc32(board_id.encode()) % self.count == self.number - 1


WHOLE: Final = Shard()
"""The one hub of a hall: every board."""


@dataclass(slots=True)
class Archive:
    """A finished match (or money session so far) to write in ``DIR/<board_id>/``.

    It holds the match, not its files' texts: a 25-point match's ``.sgf`` alone takes 30 ms
    here (``python -m benchmarks journal``: 12 us an event), its ``.mat`` as much, which
    the hub spends in a worker thread (:meth:`files`), not on the loop that follows the
    hall. Once made, the texts are kept and the match let go: an archive folder that
    refuses (a full card) keeps every match finished meanwhile, and a 25-point match held
    634 KB where its files are 48 KB (tracemalloc, measured once).
    """

    board_id: str
    name: str
    """The file name without extension: ``match-<UTC start>-<seq of its start>``."""
    match: MatchRecord | None
    """The match, until its files are made."""
    _files: dict[MatchFormat, str] | None = None

    def files(self) -> dict[MatchFormat, str]:
        """The archive's files by format, as a finished match is kept
        (:func:`~controller.record.exports.kept_files`)."""
        if self._files is None:
            assert self.match is not None  # let go only once the files are made
            self._files, self.match = kept_files(self.match)[0], None
        return self._files


@dataclass(slots=True)
class BoardView:
    """One board as the hub sees it."""

    board_id: str
    status: BoardStatus | None = None
    online: bool | None = None
    """None until the board's presence message arrives; False once it said ``offline`` (its
    last will) or fell silent for its keep-alive (:meth:`HubState.expire`)."""
    heard: float | None = None
    """When the hub last heard the board (the hub's clock), None before."""
    keepalive: float | None = None
    """The keep-alive its heartbeats announce: silent longer than this, it is offline."""
    silent: bool = False
    """Shown offline because nothing came for its keep-alive (not by its last will)."""
    last_seq: int = 0
    """The sequence number of the last event taken (0: none yet)."""
    first_seq: int = 0
    events: int = 0
    """Events taken, each once, in order."""
    duplicates: int = 0
    """Events received again (at-least-once delivery) and ignored."""
    missing: int = 0
    """Events never received: gaps in the sequence numbers (dropped by a full outbox)."""
    archived: int = 0
    journals: int = 0
    """Times the board started a new journal (its sequence numbers began again at 1)."""
    problems: list[str] = field(default_factory=list)
    _replayer: Replayer | None = None
    _start: MatchStarted | None = None
    _match_name: str = ""
    _record: list[Event] = field(default_factory=list)
    _first: tuple[float, dict[str, Any]] | None = None

    def alerts(self) -> list[str]:
        """What needs a person: offline, an illegal play, lost events, the board's own alerts."""
        alerts = []
        if self.online is False:
            alerts.append("board offline")
        if self.status is not None:
            if self.status.verdict == "illegal":
                alerts.append("illegal play")
            alerts.extend(self.status.alerts)
        if self.missing:
            alerts.append(f"{self.missing} events lost")
        alerts.extend(self.problems[-1:])
        return alerts

    def to_json(self) -> JsonObject:
        """The board's card on the hub's page."""
        return {
            "board_id": self.board_id,
            "online": self.online,
            "status": self.status.to_json() if self.status is not None else None,
            "events": self.events,
            "last_seq": self.last_seq,
            "missing": self.missing,
            "duplicates": self.duplicates,
            "archived": self.archived,
            "silent": self.silent,
            "alerts": self.alerts(),
        }


class HubState:
    """Every board under ``prefix``, folded from the messages of its topics."""

    def __init__(self, prefix: str = "tabula", shard: Shard = WHOLE) -> None:
        self.prefix = prefix
        self.shard = shard
        self.elsewhere = 0
        """Messages of boards another shard's hub takes, dropped unread."""
        self.boards: dict[str, BoardView] = {}
        self.rejected = 0
        """Messages that were not Tabula's (bad topic or payload)."""
        self.last_problem = ""

    def board(self, board_id: str) -> BoardView:
        """The view of ``board_id``, made on first sight."""
        view = self.boards.get(board_id)
        if view is None:
            view = self.boards[board_id] = BoardView(board_id)
        return view

    def receive(
        self, topic: str, payload: bytes, *, now: float = 0.0, retained: bool = False
    ) -> tuple[str | None, list[Archive]]:
        """Fold one message; the board it changed (None if refused) and matches to archive.

        Args:
            topic: the message's topic.
            payload: its payload.
            now: the hub's clock (seconds), for the boards' silences.
            retained: the broker kept it (delivered on subscribing): no sign of life now.
        """
        try:
            board_id, kind = parse_topic(topic, self.prefix)
            if not self.shard.owns(board_id):
                self.elsewhere += 1
                return None, []
            if kind == "online":
                view = self.board(board_id)
                view.online, view.silent = decode_online(payload), False
                view.heard = now
                return board_id, []
            if kind == "heartbeat":
                beating, keepalive = decode_heartbeat(payload)
                self._check_board(board_id, beating)
                view = self.board(board_id)
                view.keepalive = keepalive
                self._alive(view, now, retained)
                return board_id, []
            if kind == "status":
                status = decode_status(payload)
                self._check_board(board_id, status.board_id)
                self._alive(self.board(board_id), now, retained)
                self.board(board_id).status = status
                return board_id, []
            event = decode_event(payload)
            self._check_board(board_id, event.board_id)
            self._alive(self.board(board_id), now, retained)
            return board_id, self._event(self.board(board_id), event)
        except MqttError as error:
            self.rejected += 1
            self.last_problem = str(error)
            return None, []

    @staticmethod
    def _alive(view: BoardView, now: float, retained: bool) -> None:
        """The board spoke: heard now, and back online if it had only fallen silent."""
        if retained:
            if view.heard is None:
                view.heard = now
            return
        view.heard = now
        if view.silent:
            view.online, view.silent = True, False

    def expire(self, now: float) -> list[str]:
        """Mark offline the boards silent for longer than their keep-alive; their ids.

        Why besides the last will: the broker publishes a board's will only after 1.5
        keep-alives (and Mosquitto looks only every few seconds); a board's heartbeat every
        half keep-alive lets the hub tell within the keep-alive itself.
        """
        gone = []
        for view in self.boards.values():
            if (
                view.online
                and view.keepalive is not None
                and view.heard is not None
                and now - view.heard > view.keepalive
            ):
                view.online, view.silent = False, True
                gone.append(view.board_id)
        return gone

    @staticmethod
    def _new_journal(view: BoardView, event: BoardEvent) -> bool:
        """Whether ``event`` starts a new journal on the board (its numbers start again at 1).

        A match started again at 1 is a new journal unless it is the very start already
        taken, published again (same time and content) after a reconnection.
        """
        if event.seq != 1 or event.kind != "match_started":
            return False
        return (event.time, dict(event.data)) != view._first

    def _check_board(self, topic_board: str, payload_board: str) -> None:
        if topic_board != payload_board:
            raise MqttError(f"board {payload_board!r} published on the topic of {topic_board!r}")

    def _event(self, view: BoardView, event: BoardEvent) -> list[Archive]:
        if event.seq <= view.last_seq and not self._new_journal(view, event):
            view.duplicates += 1
            return []
        if event.seq <= view.last_seq:
            view.journals += 1
            view.last_seq = 0
        if view.last_seq:
            view.missing += event.seq - view.last_seq - 1
        else:
            view.first_seq = event.seq
        view.last_seq = event.seq
        view.events += 1
        if "v" not in event.data:
            return []  # a service event (verdict, link): shown through the status
        try:
            record_event = event_from_dict(dict(event.data))
        except InvalidEventError as error:
            view.problems.append(f"event {event.seq}: {error}")
            return []
        return self._record(view, event, record_event)

    def _record(self, view: BoardView, event: BoardEvent, record_event: Event) -> list[Archive]:
        if isinstance(record_event, MatchStarted):
            if event.seq == 1:
                view._first = (event.time, dict(event.data))
            view._start, view._replayer = record_event, Replayer(record_event)
            view._record = [record_event]
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(event.time))
            view._match_name = f"match-{stamp}-{event.seq}"
            return []
        replayer = view._replayer
        if replayer is None or view._start is None:
            return []  # joined mid-match: this match cannot be archived whole
        try:
            replayer.apply(len(view._record), record_event)
        except InvalidEventError as error:
            view.problems.append(f"event {event.seq} refused by the rules: {error}")
            view._replayer = None
            return []
        view._record.append(record_event)
        if not isinstance(record_event, GameEnded):
            return []
        snapshot = replayer.snapshot
        if snapshot.phase is not Phase.MATCH_OVER and not snapshot.rules.is_money:
            return []
        view.archived += 1
        record = replayer.record(tuple(view._record), view._start)
        return [Archive(view.board_id, view._match_name, record)]

    def summary(self) -> JsonObject:
        """Counts over every board, for the page's header and the tests."""
        views = self.boards.values()
        return {
            "boards": len(self.boards),
            "online": sum(1 for v in views if v.online),
            "events": sum(v.events for v in views),
            "missing": sum(v.missing for v in views),
            "duplicates": sum(v.duplicates for v in views),
            "archived": sum(v.archived for v in views),
            "rejected": self.rejected,
            "elsewhere": self.elsewhere,
        }

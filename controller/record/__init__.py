"""Tabula's records: the crash-safe SQLite journal, ``.mat``, ``.sgf`` and plain text.

The record depends on the match core, never the reverse: the events and their replay are
the core's (:mod:`controller.match`), re-exported here for the record's readers, as
``chess.pgn`` reads and writes games of ``chess``'s boards.

* :mod:`~controller.match.events` — what happened, event by event, and
  :mod:`~controller.match.event_json` its JSON form.
* :mod:`~controller.match.replay` — events replayed against the rules: games, scores, and
  the state to resume from.
* :mod:`~controller.record.journal` — the SQLite journal every event is written to before
  it is acted upon.
* :mod:`~controller.record.matfile`, :mod:`~controller.record.sgf` — Jellyfish ``.mat`` and
  GNU Backgammon ``.sgf`` (with the engine's analysis, if given).
* :mod:`~controller.record.decisions` — the decisions an engine reviews, and its verdicts
  put back on the events they judge.
"""

from controller.match.event_json import (
    FORMAT_VERSION,
    event_from_dict,
    event_from_json,
    event_kind,
    event_to_dict,
    event_to_json,
)
from controller.match.events import (
    Beavered,
    Declined,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
    name_problem,
    names_clash,
)
from controller.match.replay import GameRecord, MatchRecord, Replayer, replay
from controller.match.snapshot import MatchSnapshot, Phase
from controller.record.errors import (
    InvalidEventError,
    JournalCorruptError,
    JournalDamagedError,
    JournalError,
    MatFileError,
    RecordError,
    SgfError,
)

__all__ = [
    "FORMAT_VERSION",
    "Beavered",
    "Declined",
    "DiceCorrected",
    "Doubled",
    "Dropped",
    "Event",
    "Flagged",
    "GameAbandoned",
    "GameEnded",
    "GameRecord",
    "IllegalPlayAccepted",
    "InvalidEventError",
    "JournalCorruptError",
    "JournalDamagedError",
    "JournalError",
    "MatFileError",
    "MatchRecord",
    "MatchSnapshot",
    "MatchStarted",
    "Observed",
    "OpeningRolled",
    "OrientationConfirmed",
    "Phase",
    "Played",
    "PositionEdited",
    "RecordError",
    "Replayer",
    "ResignAccepted",
    "ResignRefused",
    "Resigned",
    "Rolled",
    "SgfError",
    "Taken",
    "event_from_dict",
    "event_from_json",
    "event_kind",
    "event_to_dict",
    "event_to_json",
    "name_problem",
    "names_clash",
    "replay",
]

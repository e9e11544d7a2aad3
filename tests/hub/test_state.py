"""The hub's fold of MQTT messages, fed directly: once and in order, gaps, archives."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from controller.cli import main
from controller.hub import HubState, Shard, ShardError, write_archive
from controller.mqtt import encode_event, encode_status, topic
from controller.record.matfile import read_mat
from controller.simulated.board_service import SelfPlayBoard
from controller.status import BoardEvent, BoardStatus


def recorded(board: SelfPlayBoard) -> tuple[list[BoardEvent], list[BoardStatus]]:
    """Every event and status of the board's whole match."""
    updates = asyncio.run(board.play_through())
    events = [update for update in updates if isinstance(update, BoardEvent)]
    statuses = [update for update in updates if isinstance(update, BoardStatus)]
    return events, statuses


def feed(state: HubState, events: list[BoardEvent]) -> list:
    archives = []
    for event in events:
        archives += state.receive(topic(event.board_id, "events"), encode_event(event))[1]
    return archives


def test_each_event_taken_once_in_order_and_the_match_archived() -> None:
    board = SelfPlayBoard("b1", seed=4, match_length=3)
    events, statuses = recorded(board)
    state = HubState()
    archives = feed(state, events[:50] + events[40:60] + events[60:])
    view = state.boards["b1"]
    assert (view.events, view.duplicates, view.missing, view.last_seq) == (
        len(events),
        10,
        0,
        board.seq,
    )
    (archive,) = archives
    files = archive.files()
    assert archive.match is None and archive.files() is files  # made once, the match let go
    assert files["mat"] == asyncio.run(board.export("mat"))
    assert files["sgf"] == asyncio.run(board.export("sgf"))
    assert archive.name.startswith("match-") and archive.name.endswith("-1")
    assert read_mat(files["mat"]).record().state.match.score == board.status().score
    state.receive("tabula/b1/status", encode_status(statuses[-1]))
    state.receive("tabula/b1/online", b"offline")
    assert view.status == board.status()
    assert view.alerts() == ["board offline"]


def test_gaps_are_counted_and_a_match_joined_late_is_not_archived() -> None:
    events, _ = recorded(SelfPlayBoard("b2", seed=4, match_length=1))
    state = HubState()
    assert feed(state, events[5:20] + events[25:]) == []
    view = state.boards["b2"]
    assert (view.first_seq, view.missing) == (6, 5)
    assert "5 events lost" in view.alerts()


def test_an_event_the_rules_refuse_stops_the_archive_of_its_match() -> None:
    events, _ = recorded(SelfPlayBoard("b3", seed=4, match_length=1))
    played = next(i for i, e in enumerate(events) if e.kind == "played")
    bad = dict(events[played].data, notation="24/1")
    events[played] = replace(events[played], data=bad)
    state = HubState()
    assert feed(state, events) == []
    (problem,) = state.boards["b3"].problems
    assert problem.startswith(f"event {played + 1} refused by the rules: event {played}")
    assert "the canonical notation is" in problem


def test_a_money_session_is_archived_as_sgf_after_each_game() -> None:
    events, _ = recorded(SelfPlayBoard("b4", seed=4, match_length=0, games=2))
    archives = feed(HubState(), events)
    assert [list(a.files()) for a in archives] == [["sgf"], ["sgf"]]  # no .mat of money
    assert archives[1].files()["sgf"].count("(;FF[4]") == 2


def test_foreign_messages_are_counted_not_taken(tmp_path: Path) -> None:
    state = HubState()
    event = BoardEvent("b5", 1, "verdict", {}, 0.0)
    assert state.receive("tabula/other/events", encode_event(event)) == (None, [])
    assert state.receive("tabula/b5/events", b"{") == (None, [])
    assert state.receive("tabula/b5/what", b"") == (None, [])
    assert state.rejected == 3
    assert state.last_problem == (
        "not a topic tabula/<board-id>/status|events|online|heartbeat: 'tabula/b5/what'"
    )
    assert state.boards == {}


def test_archives_are_written_per_board(tmp_path: Path) -> None:
    events, _ = recorded(SelfPlayBoard("b6", seed=9, match_length=1))
    (archive,) = feed(HubState(), events)
    paths = write_archive(tmp_path, archive)
    assert [p.relative_to(tmp_path).parent.name for p in paths] == ["b6", "b6"]
    assert sorted(p.suffix for p in tmp_path.glob("b6/*")) == [".mat", ".sgf"]


def test_a_match_published_as_board_dot_dot_is_refused_not_archived(tmp_path: Path) -> None:
    """A board's id is a folder of the archive: one published as ".." (anyone who may
    publish to the hall's broker) had its match written in the archive folder's parent."""
    events, _ = recorded(SelfPlayBoard("b7", seed=9, match_length=1))
    state = HubState()
    archives = []
    for event in events:
        payload = encode_event(event).replace(b'"board_id":"b7"', b'"board_id":".."')
        archives += state.receive("tabula/../events", payload)[1]
    assert (archives, state.boards, state.rejected) == ([], {}, len(events))
    assert state.last_problem is not None and "not a topic" in state.last_problem


def test_a_match_started_in_the_year_1e20_is_refused_and_the_hub_goes_on() -> None:
    """The hub names an archive by its match's start: a time past the year 10000 (any
    client of the broker may send one) raised OverflowError out of the hub."""
    events, _ = recorded(SelfPlayBoard("b8", seed=9, match_length=1))
    state = HubState()
    poisoned = encode_event(replace(events[0], time=1e20))
    assert state.receive(topic("b8", "events"), poisoned) == (None, [])
    assert state.rejected == 1 and "bad time 1e+20" in (state.last_problem or "")
    assert len(feed(state, events)) == 1  # the match itself, sent again, is archived


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--broker", "http://x"], "tabula hub: --broker:2: mqtt.broker: expected a URL mqtt://"),
        (["--broker", "mqtt://h", "--port", "70000"], "tabula hub: --port: a TCP port 0..65535"),
        (["--broker", "mqtt://h", "--max-connections", "0"],
         "tabula hub: --max-connections: 1 to 512, got 0"),
        (["--broker", "mqtt://h", "--per-client", "600"],
         "tabula hub: --per-client: 1 to --max-connections, got 600"),
    ],
)  # fmt: skip
def test_the_command_refuses_bad_arguments(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hub", *argv, "--archive", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(message)


def test_the_page_s_limits_reach_the_hall_s_server(tmp_path: Path) -> None:
    """Behind a reverse proxy every spectator has the proxy's address: the director raises
    ``--per-client``; unset, the limits are the hub's own."""
    from controller.cli import build_parser
    from controller.commands.hub import hub_of
    from controller.config import MqttConfig
    from controller.hub import Hub

    def hub(*options: str) -> Hub:
        argv = ["hub", "--broker", "mqtt://h", "--archive", str(tmp_path), *options]
        return hub_of(build_parser("hub").parse_args(argv))

    proxied = hub("--max-connections", "300", "--per-client", "300").web
    assert (proxied.max_connections, proxied.per_client) == (300, 300)
    default, own = hub().web, Hub(MqttConfig("mqtt://h", "hub"), tmp_path).web
    assert (default.max_connections, default.per_client) == (own.max_connections, own.per_client)


@pytest.mark.parametrize(
    ("name", "reason"), [("file", " is not a directory"), ("z" * 300, ": File name too long")]
)
def test_the_command_refuses_an_archive_that_cannot_be_a_directory(
    name: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file, or a name too long: an OSError's traceback before."""
    (tmp_path / "file").touch()
    archive = tmp_path / name
    assert main(["hub", "--broker", "mqtt://h", "--archive", str(archive)]) == 2
    assert capsys.readouterr().err == f"tabula hub: --archive {str(archive)!r}{reason}\n"


def test_a_jacquet_match_is_archived_as_its_events_and_its_text(tmp_path: Path) -> None:
    import random

    from controller.record import event_from_json, event_to_dict, replay
    from controller.record.plain import write_text
    from controller.rules import Rules
    from controller.simulated.players import jacquet_record_events

    match = list(jacquet_record_events(Rules(1), random.Random(7)))
    events = [
        BoardEvent("j1", seq, type(event).__name__, event_to_dict(event), 0.0)
        for seq, event in enumerate(match, 1)
    ]
    (archive,) = feed(HubState(), events)
    files = archive.files()  # not GNU Backgammon's: they hold backgammon only
    assert list(files) == ["jsonl", "txt"]
    assert [event_from_json(line) for line in files["jsonl"].splitlines()] == match
    assert files["txt"] == write_text(replay(match))
    paths = write_archive(tmp_path, archive)
    assert [p.suffix for p in paths] == [".jsonl", ".txt"]


def test_a_hostile_payload_is_refused_and_the_hub_goes_on() -> None:
    """JSON's decoder recurses: a deep payload was a RecursionError out of the hub's loop."""
    from controller.hub.state import HubState

    hub = HubState()
    payloads = (b"[" * 100_000, b'{"version": 1, "n": ' + b"9" * 5000 + b"}", b"\xff\xfe")
    for kind in ("status", "events", "heartbeat", "online"):
        for payload in payloads:
            assert hub.receive(f"tabula/hostile/{kind}", payload) == (None, [])
            assert hub.last_problem is not None and "payload" in hub.last_problem
    assert hub.rejected == 12


def test_two_shards_take_every_board_exactly_once_and_whole() -> None:
    events, _ = recorded(SelfPlayBoard("s", seed=5, match_length=1))
    boards = [f"hall-{n}" for n in range(40)]
    halves = [HubState(shard=Shard(1, 2)), HubState(shard=Shard(2, 2))]
    for state in halves:
        for board_id in boards:
            feed(state, [replace(event, board_id=board_id) for event in events])
    first, second = (set(state.boards) for state in halves)
    assert first & second == set() and first | second == set(boards)
    assert 10 < len(first) < 30, "the hash shares the boards out"
    for state in halves:
        others = len(boards) - len(state.boards)
        assert state.elsewhere == others * len(events)
        assert state.summary()["events"] == len(state.boards) * len(events)
        assert state.summary()["archived"] == len(state.boards)


def test_a_shard_is_written_number_slash_count() -> None:
    assert Shard.from_text("2/3") == Shard(2, 3) and Shard(2, 3).text() == "2/3"
    assert Shard().owns("any") and Shard.from_text("1/1") == Shard()
    for text, error in (
        ("3/2", "shard 3/2: its number must be 1 to 2"),
        ("0/2", "shard 0/2: its number must be 1 to 2"),
        ("half", "shard 'half': expected NUMBER/COUNT, such as 1/2"),
        ("1/", "shard '1/': expected NUMBER/COUNT, such as 1/2"),
    ):
        with pytest.raises(ShardError) as raised:
            Shard.from_text(text)
        assert str(raised.value) == error


def test_the_command_refuses_a_bad_shard_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["hub", "--broker", "mqtt://127.0.0.1:1", "--archive", str(tmp_path)]
    assert main([*command, "--shard", "3/2"]) == 2
    assert capsys.readouterr().err.strip().endswith("shard 3/2: its number must be 1 to 2")

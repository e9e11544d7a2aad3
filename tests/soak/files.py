"""Mutated files and messages from outside: each is read or refused in Tabula's own words.

A configuration, a saved match (``tabula export --match``), a simulated board's script
(``tabula sim-board --script``), the lines of ``tabula plays --batch`` and a board's MQTT
messages to the hub are made from good ones and mutated by a seeded generator: a value of
one key or field replaced by another of any JSON or TOML type, lines dropped, repeated or
swapped, bytes cut, doubled or replaced, brackets nested thousands deep, integers of
thousands of digits. Each is read as its command reads it:

* a configuration, a saved match and a script either read, or raise Tabula's own error
  (:class:`~hardware.board.errors.TabulaError`), which the command prints in one line;
  any other exception is a defect (the command would print a traceback's file);
* a batch answers every line, with its results or an error, and the hub takes or refuses
  every message (any board of a club's network may publish): any exception is a defect,
  since it would lose the lines after it, or stop the hub.

``python -m tests.soak files [--cases 2000] [--seed 1]`` prints the cases of each kind
read and refused, and each defect with the case that shows it (written to a file), and
exits 1 on any; the suite runs a small version (:mod:`tests.soak.test_files`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import random
import re
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.commands.export import load_match, print_position
from controller.commands.plays import run_batch
from controller.commands.sim_board import read_script
from controller.config import load_config
from controller.hub import HubState
from controller.match.event_json import event_to_json
from controller.mqtt import encode_event, encode_status, topic
from controller.record.exports import write_match
from controller.record.formats import MATCH_FORMATS
from controller.simulated.board_service import SelfPlayBoard
from controller.status import BoardEvent
from hardware.board.errors import TabulaError
from tests.record.matches import selfplay_events
from tests.rules.positions import golden_cases

ROOT = Path(__file__).parent.parent.parent
EXAMPLE_CONFIG = ROOT / "hardware" / "tabula.example.toml"
KINDS = ("config", "match", "script", "batch", "hub")
_SHOUTS = ("batch", "hub")
"""The kinds where no error at all may come out: each line is answered or refused."""

_JSON_VALUES: tuple[object, ...] = (
    None, True, 0, -1, 7, 26, 10**30, 1.5, "", "x", "backgammon", [], [1, 2], {}, {"a": 1},
    [0] * 26, [[0] * 26],
)  # fmt: skip
_TOML_VALUES = (
    "0", "-1", "1e400", "nan", "inf", '"x"', '""', "[]", '[1, "a"]', "{a = 1}", "true",
    "99999999999999999999", '"/nonexistent"', '"mqtt://[::1]:99999"', '"a\\u0000b"', "1.5",
    "[[1]]", "{}", '"mqtts://host:1"', '"../x"', "65535", '"' + "x" * 300 + '"',
)  # fmt: skip


@dataclass
class Tally:
    """What one kind's cases gave."""

    read: int = 0
    refused: int = 0
    defects: dict[str, str] = field(default_factory=dict)
    """Each distinct defect (its exception and where it was raised) and a case showing it."""


def _textual(text: str, rng: random.Random) -> str:
    """``text`` with bytes cut, doubled or replaced, or a line of the worst shapes added."""
    choice = rng.randrange(6)
    at = rng.randrange(len(text) + 1)
    if choice == 0:
        return text[:at]
    if choice == 1:
        return text[:at] + text[at : at + rng.randint(1, 40)] * 2 + text[at:]
    if choice == 2:
        return text[:at] + rng.choice(["\x00", "\ufffd", "\udcff", '"', "[", "}", "\n"]) + text[at:]
    if choice == 3:
        return text[:at] + "[" * rng.choice([100, 5000, 100_000]) + text[at:]
    if choice == 4:
        return text[:at] + "9" * rng.choice([400, 5000]) + text[at:]
    return text[:at] + "\n" + text[at:]


def _mutated_json(value: object, rng: random.Random) -> object:
    """``value`` (decoded JSON) with one value somewhere in it replaced."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {**value, key: _mutated_json(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        return [*value[:index], _mutated_json(value[index], rng), *value[index + 1 :]]
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-1, 1, -16, 16])
    return rng.choice(_JSON_VALUES)


def _mutated_lines(lines: list[str], rng: random.Random) -> list[str]:
    """Lines of JSON with one dropped, repeated, swapped or one of its values replaced."""
    lines = list(lines)
    at = rng.randrange(len(lines))
    choice = rng.random()
    if choice < 0.15:
        del lines[at]
    elif choice < 0.25:
        lines.insert(at, lines[rng.randrange(len(lines))])
    elif choice < 0.35:
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    else:
        lines[at] = json.dumps(_mutated_json(json.loads(lines[at]), rng))
    return lines


def _mutated_config(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(lines))
        line = lines[at].lstrip("# ")
        key = re.match(r"^([a-z_0-9]+)\s*=", line)
        if key:
            lines[at] = f"{key.group(1)} = {rng.choice(_TOML_VALUES)}"
        elif line.startswith("["):
            lines[at] = rng.choice(["[x]", "[board.y]", "[[gpio]]", line])
    return "\n".join(lines) + "\n"


class _Cases:
    """Good files of each kind, and the mutated case ``rng`` makes of one."""

    def __init__(self) -> None:
        self.config = EXAMPLE_CONFIG.read_text()
        self.matches = [[event_to_json(e) for e in selfplay_events(seed, 3)] for seed in range(3)]
        boards = [case["board"] for case in golden_cases()[:50]]
        self.script = [json.dumps({"board": board, "hold_ms": 5}) for board in boards[:8]]
        self.batch = [
            json.dumps({"id": index, "board": case["board"], "player": case["player"],
                        "dice": case["dice"]})
            for index, case in enumerate(golden_cases()[:12])
        ]  # fmt: skip
        # A 1-point match of a board, as the hub hears it: each message a line of its topic
        # and payload (JSON, so that the payload's values are mutated too).
        updates = asyncio.run(SelfPlayBoard("b1", seed=3, match_length=1).play_through())
        self.hub = [
            json.dumps({"topic": topic("b1", kind), "payload": json.loads(payload)})
            for update in updates
            for kind, payload in (
                ("events", encode_event(update)) if isinstance(update, BoardEvent)
                else ("status", encode_status(update)),
            )
        ]  # fmt: skip

    def make(self, kind: str, rng: random.Random) -> str:
        """A case of ``kind``: one in ten a good file, so that reading it all is tried too."""
        match = rng.choice(self.matches)
        good = {"config": [self.config], "match": match, "script": self.script,
                "batch": self.batch, "hub": self.hub}  # fmt: skip
        if rng.random() < 0.1:
            return "\n".join(good[kind]) + "\n"
        if kind == "config":
            text = _mutated_config(self.config, rng)
        else:
            text = "\n".join(_mutated_lines(good[kind], rng)) + "\n"
        return _textual(text, rng) if rng.random() < 0.3 else text


def _read(kind: str, path: Path) -> None:
    """Read ``path`` as the command of ``kind`` reads it (raising what it raises)."""
    if kind == "config":
        load_config(path)
    elif kind == "match":
        record = load_match(path)
        for fmt in MATCH_FORMATS:
            with contextlib.suppress(TabulaError):  # a match a format cannot hold: one line
                write_match(record, fmt)
        print_position(record, io.StringIO())
    elif kind == "script":
        read_script(path)
    elif kind == "batch":
        with path.open(encoding="utf-8", errors="replace") as lines:
            run_batch(lines, io.StringIO())  # must not raise: a line's error is an answer
    else:
        hub = HubState()
        for line in path.read_bytes().splitlines():
            try:  # a line cut or spoilt: its bytes are an events payload
                message = json.loads(line)
                subject, payload = message["topic"], json.dumps(message["payload"]).encode()
            except (ValueError, TypeError, KeyError, RecursionError):
                subject, payload = topic("b1", "events"), line
            hub.receive(str(subject), payload)  # must not raise: a refusal is counted


def soak(cases: int, seed: int, out: Path | None = None) -> dict[str, Tally]:
    """``cases`` mutated cases of each kind; a defect's case is written in ``out``."""
    rng = random.Random(seed)
    good = _Cases()
    tallies = {kind: Tally() for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="tabula-files-") as scratch:
        path = Path(scratch) / "case"
        for number in range(cases):
            for kind in KINDS:
                text = good.make(kind, rng)
                path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
                tally = tallies[kind]
                try:
                    _read(kind, path)
                except Exception as error:  # what the soak looks for
                    if isinstance(error, TabulaError) and kind not in _SHOUTS:
                        tally.refused += 1
                    else:  # another exception; or any at all out of a batch
                        _defect(tally, kind, number, text, out)
                else:
                    tally.read += 1
    return tallies


def _defect(tally: Tally, kind: str, number: int, text: str, out: Path | None) -> None:
    """Keep the first case of each distinct exception (its type and where it was raised)."""
    error = sys.exc_info()[1]
    assert error is not None
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}"
    if where in tally.defects:
        return
    case = f"{kind}-case-{number}.txt"
    if out is not None:
        (out / case).write_bytes(text.encode("utf-8", errors="surrogateescape"))
    tally.defects[where] = f"{error!r:.200} (case {number}{f', in {out / case}' if out else ''})"


def main(argv: list[str], print_: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak files", description=__doc__)
    parser.add_argument("--cases", type=int, default=2000, help="mutated cases of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()),
                        help="where a defect's case is written")  # fmt: skip
    args = parser.parse_args(argv)
    tallies = soak(args.cases, args.seed, args.out)
    for kind, tally in tallies.items():
        print_(f"  {kind:7} {tally.read:6} read, {tally.refused:6} refused, "
               f"{len(tally.defects)} defects")  # fmt: skip
        for where, case in tally.defects.items():
            print_(f"    {where}: {case}")
    return 1 if any(tally.defects for tally in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

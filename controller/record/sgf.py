"""GNU Backgammon ``.sgf`` (``GM[6]``) match files, written and read back.

The layout is the one GNU Backgammon 1.07 saves (``save match``): one game tree per game,
whose root node holds ``FF[4]GM[6]CA[UTF-8]``, ``MI[length:N][game:i][ws:a][bs:b]`` (the
game's 0-based index and the score before it), the players ``PW`` (White, our player 0)
and ``PB``, the rules ``RU[Crawford]`` / ``RU[Crawford:CrawfordGame]`` / ``RU[Jacoby]`` and
the result ``RE[W+2]``, the cube ``CV[2]`` after automatic doubles, and in money play
``TR[beavers][automatic-doubles:1]``, and ``TT[4][2]`` the numbers of tied opening rolls
(Tabula's own properties: GNU Backgammon keeps no such thing in a file and ignores
them); then one node per action:

* a play ``;W[31hefe]``: the dice, higher first, then a source and a destination letter per
  die, ``a``..``x`` the points 1..24 of our board layout (White's numbering), ``y`` the bar
  and ``z`` off, for both colours;
* cube actions ``;W[double]``, ``;B[take]``, ``;B[drop]``; a beaver is the doubled
  player's own ``double`` answered by ``take`` or ``drop``, as GNU Backgammon saves it;
* a position edit (GNU Backgammon's "set board"): ``;PL[B]AE[a:y]AW[f][f]...AB[s]...``,
  the player to act, every point cleared, then one letter per checker;
* an illegal play accepted by the opponent: its roll ``;PL[W]DI[31]``, then the board it
  left as an edit with the opponent to act, and a comment ``C[...]`` saying so.

GNU Backgammon does not check the moves of an ``.sgf`` when it loads one: :func:`read_sgf`
does, replaying every node against the rules, so a test can prove what gnubg cannot.
"""

from __future__ import annotations

import re
from typing import Final

from controller.engine.review import Review
from controller.match.events import (
    Beavered,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    Played,
    PositionEdited,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.match.replay import GameRecord, MatchRecord, replay
from controller.record._moves import GameBuilder, play_steps
from controller.record._sgf_analysis import Notes as _Notes
from controller.record._sgf_analysis import letter as _letter
from controller.record.errors import InvalidEventError, SgfError
from controller.record.plain import gnubg_refusal
from controller.rules import START, Board, MatchState, Player, Rules

__all__ = ["read_sgf", "write_sgf"]

_COLOURS: Final = ("W", "B")
_APPLICATION: Final = "Tabula:0.1"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _point(letter: str, player: Player) -> int:
    """The point in ``player``'s numbering of a letter (25 bar, 0 off)."""
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    index = ord(letter) - ord("a") + 1
    if not 1 <= index <= 24:
        raise ValueError(f"{letter!r} is not a point letter a..z")
    return index if player == 0 else 25 - index


def _setup(board: Board, turn: Player, comment: str) -> str:
    """A position edit node: the player to act, every point cleared, then each checker."""
    white = "".join(
        f"[{'y' if i == 25 else chr(ord('a') + i - 1)}]" * board[i]
        for i in range(1, 26)
        if board[i] > 0
    )
    black = "".join(
        f"[{'y' if i == 0 else chr(ord('a') + i - 1)}]" * -board[i]
        for i in range(25)
        if board[i] < 0
    )
    node = f";PL[{_COLOURS[turn]}]AE[a:y]"
    node += (f"AW{white}" if white else "") + (f"AB{black}" if black else "")
    return node + (f"C[{_escape(comment)}]" if comment else "")


def _root(record: MatchRecord, game: GameRecord) -> str:
    rules = record.rules
    root = (
        f"(;FF[4]GM[6]CA[UTF-8]AP[{_APPLICATION}]"
        f"MI[length:{rules.match_length}][game:{game.number - 1}]"
        f"[ws:{game.score[0]}][bs:{game.score[1]}]"
        f"PW[{_escape(record.names[0])}]PB[{_escape(record.names[1])}]"
    )
    if rules.is_money:
        root += "RU[Jacoby]" if rules.jacoby else ""
        # GNU Backgammon keeps no beaver or automatic-double setting in an .sgf: Tabula's
        # own property (ignored by other readers) keeps them for read_sgf.
        options = ("[beavers]" if rules.beavers else "") + (
            f"[automatic-doubles:{rules.max_automatic_doubles}]" if rules.automatic_doubles else ""
        )
        root += f"TR{options}" if options else ""
    elif rules.crawford:
        root += "RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]"
    if game.result is not None:
        resigned = "R" if game.result.resigned else ""  # as GNU Backgammon marks it
        root += f"RE[{_COLOURS[game.result.winner]}+{game.result.points}{resigned}]"
    ties = [roll.dice[0] for roll in game.opening[:-1]]
    if ties:  # Tabula's own property: the numbers of the tied opening rolls
        root += "TT" + "".join(f"[{number}]" for number in ties)
    if rules.automatic_doubles and ties:
        root += f"CV[{1 << min(len(ties), rules.max_automatic_doubles)}]"
    return root


def _game_nodes(game: GameRecord, notes: _Notes | None = None) -> list[str]:
    """The nodes of one game after its root, with the analysis in ``notes`` if any."""
    nodes: list[str] = []
    board = START
    turn = game.first_player
    assert turn is not None
    pending_roll: Rolled | None = None
    for action in game.actions:
        if isinstance(action, Rolled):
            pending_roll = action
            continue
        if isinstance(action, DiceCorrected):  # the roll as corrected is the one played
            pending_roll = Rolled(action.player, action.dice)
            continue
        if isinstance(action, Observed | Flagged | Resigned | ResignRefused):
            # Boards seen mid-turn, flags and resignations offered are not kept (GNU
            # Backgammon marks an accepted one in RE[] alone): the roll is still pending.
            continue
        if isinstance(action, Played):
            steps = play_steps(board, action.player, action.dice, action.board)
            letters = "".join(
                _letter(s.source, action.player) + _letter(s.destination, action.player)
                for s in steps
            )
            dice = f"{max(action.dice)}{min(action.dice)}"
            node = f";{_COLOURS[action.player]}[{dice}{letters}]"
            if notes is not None:
                node += notes.play(action, pending_roll)
            nodes.append(node)
            board, turn = action.board, 1 - action.player
        elif isinstance(action, IllegalPlayAccepted):
            player = action.player
            dice = f"{max(action.dice)}{min(action.dice)}"
            nodes.append(f";PL[{_COLOURS[player]}]DI[{dice}]")
            nodes.append(
                _setup(action.after, 1 - player, f"illegal play of {dice} accepted by the opponent")
            )
            board, turn = action.after, 1 - player
        elif isinstance(action, PositionEdited):
            nodes.append(_setup(action.board, turn, action.reason or "position edited"))
            board = action.board
        elif isinstance(action, Doubled | Beavered):
            note = notes.cube(action) if notes is not None else ""
            nodes.append(f";{_COLOURS[action.player]}[double]{note}")
        elif isinstance(action, Taken | Dropped):
            note = notes.cube(action) if notes is not None else ""
            word = "take" if isinstance(action, Taken) else "drop"
            nodes.append(f";{_COLOURS[action.player]}[{word}]{note}")
        pending_roll = None
    if pending_roll is not None:  # rolled, not played yet: the game stops mid-turn
        dice = f"{max(pending_roll.dice)}{min(pending_roll.dice)}"
        nodes.append(f";PL[{_COLOURS[pending_roll.player]}]DI[{dice}]")
    return nodes


def write_sgf(record: MatchRecord, analysis: Review | None = None) -> str:
    """The ``.sgf`` text of a match or money session (the games started so far).

    With ``analysis`` (the engine's review of this match, as
    :func:`~controller.record.decisions.decisions_of` lists its decisions, or some of
    them), each judged play and cube decision carries GNU Backgammon's analysis
    properties, so that GNU Backgammon shows it (see :mod:`~controller.record._sgf_analysis`).

    Raises:
        RecordError: if ``analysis`` is not a review of this match; SgfError for a
            variant that is not backgammon (:mod:`~controller.record.plain` exports it).
    """
    refusal = gnubg_refusal(record, ".sgf")
    if refusal is not None:
        raise SgfError(refusal)
    notes = None if analysis is None else _Notes(record, analysis)
    trees = []
    for game in record.games:
        if game.first_player is None:
            continue  # only tied opening rolls so far: nothing to write
        nodes = _game_nodes(game, notes)
        trees.append(_root(record, game) + "\n" + "\n".join(nodes) + ")\n")
    return "".join(trees)


# Reading.

_PROPERTY: Final = re.compile(r"\s*([A-Z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+)", re.DOTALL)
_VALUE: Final = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)

_Node = dict[str, list[str]]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text, flags=re.DOTALL)


def _parse(text: str) -> list[list[_Node]]:
    """The game trees of an ``.sgf`` collection, each as its main line of nodes."""
    trees: list[list[_Node]] = []
    position = 0
    depth = 0
    nodes: list[_Node] = []
    while position < len(text):
        char = text[position]
        if char.isspace():
            position += 1
        elif char == "(":
            depth += 1
            if depth == 1:
                nodes = []
                trees.append(nodes)
            position += 1
        elif char == ")":
            if depth == 0:
                raise SgfError(f"unbalanced ')' at offset {position}")
            depth -= 1
            position += 1
        elif char == ";" and depth:
            node: _Node = {}
            position += 1
            while match := _PROPERTY.match(text, position):
                node[match.group(1)] = [_unescape(v) for v in _VALUE.findall(match.group(2))]
                position = match.end()
            nodes.append(node)
        else:
            raise SgfError(f"unexpected {char!r} at offset {position}")
    if depth:
        raise SgfError("the text ends inside a game tree")
    return trees


def _board(node: _Node) -> Board:
    """The board an edit node sets (it clears every point first)."""
    cells = [0] * 26
    for letter in node.get("AW", []):
        index = 25 if letter == "y" else ord(letter) - ord("a") + 1
        cells[index] += 1
    for letter in node.get("AB", []):
        index = 0 if letter == "y" else ord(letter) - ord("a") + 1
        cells[index] -= 1
    return tuple(cells)


def _dice(text: str) -> tuple[int, int]:
    if len(text) < 2 or not all(c in "123456" for c in text[:2]):
        raise ValueError(f"{text!r} does not start with two dice")
    return int(text[0]), int(text[1])


def _read_game(reader: GameBuilder, nodes: list[_Node]) -> None:
    ties = nodes[0].get("TT", [])
    if nodes[0].get("CV", ["1"])[0] != "1" and not ties:
        raise ValueError(f"CV[{nodes[0]['CV'][0]}]: automatic doubles without their tied rolls")
    for number in ties:
        if number not in ("1", "2", "3", "4", "5", "6"):
            raise ValueError(f"TT[{number}] is not a die's number")
        reader.add(OpeningRolled((int(number), int(number))))
    rolled: tuple[Player, tuple[int, int]] | None = None
    for node in nodes[1:]:
        state = reader.replayer.snapshot
        if "AE" in node:
            board = _board(node)
            if rolled is not None:
                player, dice = rolled
                reader.roll(player, dice)
                before = reader.replayer.snapshot.board
                reader.add(IllegalPlayAccepted(player, dice, before, board))
                rolled = None
            else:
                reader.add(PositionEdited(board, _unescape(node.get("C", [""])[0])))
            continue
        if "DI" in node:
            player = _COLOURS.index(node.get("PL", ["W"])[0])
            rolled = (player, _dice(node["DI"][0]))
            continue
        colour = "W" if "W" in node else "B" if "B" in node else None
        if colour is None:
            continue
        player = _COLOURS.index(colour)
        value = node[colour][0]
        if value == "double":
            cube = state.cube
            if cube is not None and cube.offered_value is not None:
                reader.add(Beavered(player, cube.value * 4))
            else:
                reader.add(Doubled(player, (cube.value if cube else 1) * 2))
        elif value == "take":
            reader.add(Taken(player))
        elif value == "drop":
            reader.add(Dropped(player))
        else:
            letters = value[2:]
            steps = [
                (_point(letters[i], player), _point(letters[i + 1], player))
                for i in range(0, len(letters) - 1, 2)
            ]
            if not reader.play(player, _dice(value), steps):
                raise ValueError(f"{colour}[{value}] is not a legal play")
        rolled = None
    if rolled is not None:
        reader.roll(*rolled)
    result = nodes[0].get("RE", [""])[0]
    if result:
        found = re.fullmatch(r"([WB])\+(\d+)(R?)", result)
        if not found:
            raise ValueError(f"RE[{result}] is not a result such as W+2 or W+2R (resigned)")
        try:
            winner, points = _COLOURS.index(found.group(1)), int(found.group(2))
            reader.end(winner, points, resigned=True if found.group(3) else None)
        except ValueError as error:
            raise ValueError(f"RE[{result}]: {error}") from None


def _rules(root: _Node) -> Rules:
    info = dict(value.partition(":")[::2] for value in root.get("MI", []))
    length = int(info.get("length", "0") or 0)
    rules_text = root.get("RU", [""])[0]
    if length:
        return Rules(match_length=length, crawford=rules_text.startswith("Crawford"))
    options = dict(value.partition(":")[::2] for value in root.get("TR", []))
    return Rules(
        jacoby=rules_text == "Jacoby",
        beavers="beavers" in options,
        automatic_doubles="automatic-doubles" in options,
        max_automatic_doubles=int(options.get("automatic-doubles") or 1),
    )


def read_sgf(text: str) -> MatchRecord:
    """The match an ``.sgf`` text records, every move replayed against the rules.

    Raises:
        SgfError: for text that does not parse, or a node the rules refuse (an illegal
            move, a cube action out of turn, a result that is not the game's), naming the
            game and the node.
    """
    trees = _parse(text)
    if not trees or not trees[0]:
        raise SgfError("no game tree in this .sgf text")
    root = trees[0][0]
    if root.get("GM", ["6"])[0] != "6":
        raise SgfError(f"GM[{root['GM'][0]}] is not backgammon (GM[6])")
    try:
        names = (root.get("PW", ["White"])[0], root.get("PB", ["Black"])[0])
        start = MatchStarted(names, _rules(root))
    except (InvalidEventError, ValueError) as error:
        raise SgfError(f"game 1 root: {error}") from None
    events: list[Event] = [start]
    match = MatchState(start.rules)
    for number, nodes in enumerate(trees, 1):
        reader = GameBuilder(start, match)
        try:
            _read_game(reader, nodes)
        except (InvalidEventError, ValueError) as error:
            raise SgfError(f"game {number}: {error}") from None
        events += reader.events
        match = reader.replayer.snapshot.match
    try:
        return replay(events)
    except InvalidEventError as error:
        raise SgfError(f"the games do not follow each other: {error}") from None

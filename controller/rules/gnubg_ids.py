"""GNU Backgammon's Position ID and Match ID of a position, and a position as people paste it.

Why apart from :mod:`controller.rules.xgid`: the XGID's fields are the position's one
description here; this module translates them to and from GNU Backgammon's two codes
(:mod:`~controller.rules.position_id`, :mod:`~controller.rules.match_id`), whose player 1
is our player 0 and which keep no score in money play.
"""

from __future__ import annotations

from controller.rules.errors import InvalidNotationError
from controller.rules.match_id import GameState, MatchKey, match_id, parse_match_id
from controller.rules.position_id import board_from_position_id, position_id
from controller.rules.xgid import XGID_PREFIX, CubeOffer, Xgid, parse_xgid, xgid

__all__ = ["gnubg_id", "parse_gnubg_id", "parse_position"]


def gnubg_id(position: Xgid) -> str:
    """``PositionID:MatchID``, GNU Backgammon's two codes for the same position.

    GNU Backgammon makes the XGID's bottom player (our player 0) its player 1 and keeps no
    score in money play; these are the IDs it shows after reading the XGID. A pending
    double is written as GNU Backgammon holds one in play (the doubled flag, and the turn
    bit naming the player who answers); importing an XGID, it steps back to before the
    offer instead.

    Raises:
        InvalidNotationError: for a pending beaver or raccoon, which the IDs cannot hold.

    >>> gnubg_id(Xgid(dice=(5, 2), jacoby=True, beavers=True))
    '4HPwATDgc/ABMA:cIkKAAAAAAAA'
    """
    if position.offer not in (None, CubeOffer.DOUBLE):
        raise InvalidNotationError(
            f"invalid XGID {xgid(position)!r}: GNU Backgammon IDs cannot hold a pending "
            f"{position.offer.name.lower()}"
        )
    doubled = position.offer is CubeOffer.DOUBLE
    gnubg_player = 1 - position.turn
    key = MatchKey(
        cube_value=position.cube_value,
        cube_owner=None if position.cube_owner is None else 1 - position.cube_owner,
        player_on_roll=gnubg_player,
        crawford=position.crawford,
        game_state=GameState.PLAYING,
        turn=1 - gnubg_player if doubled else gnubg_player,
        doubled=doubled,
        dice=position.dice,
        match_length=position.match_length,
        # gnubg keeps no score in money play.
        score=(position.score[1], position.score[0]) if position.match_length else (0, 0),
        jacoby=position.jacoby and not position.match_length,
    )
    return f"{position_id(position.board, position.turn)}:{match_id(key)}"


def parse_gnubg_id(text: str) -> Xgid:
    """The position of GNU Backgammon's ``PositionID:MatchID``, or of a bare Position ID.

    The inverse of :func:`gnubg_id`: the Match ID's player 1 is our player 0. A bare
    Position ID is read as a money position with player 0 on roll and a centred cube.
    What an XGID cannot hold is not kept: the game state (a finished game keeps its
    board), beavers allowed (not in a Match ID) and the max cube.

    Raises:
        InvalidNotationError: naming the text and what is wrong with it, including a
            pending resignation, which an XGID cannot hold.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid GNU Backgammon ID {text!r}: an ID is a string")
    try:
        return _from_gnubg_id(text)
    except InvalidNotationError as error:
        reason = str(error).removeprefix("invalid XGID fields: ")
        raise InvalidNotationError(f"invalid GNU Backgammon ID {text!r}: {reason}") from None


def _from_gnubg_id(text: str) -> Xgid:
    position_text, colon, match_text = text.strip().partition(":")
    if not colon:
        return Xgid(board=board_from_position_id(position_text, 0))
    key = parse_match_id(match_text)
    if key.resigned:
        raise InvalidNotationError("a pending resignation has no XGID")
    if key.doubled and key.turn == key.player_on_roll:
        raise InvalidNotationError(
            "with a double pending the turn is the doubled player's, not the doubler's"
        )
    turn = 1 - key.player_on_roll
    return Xgid(
        board=board_from_position_id(position_text, turn),
        cube_value=key.cube_value,
        cube_owner=None if key.cube_owner is None else 1 - key.cube_owner,
        turn=turn,
        dice=key.dice,
        offer=CubeOffer.DOUBLE if key.doubled else None,
        score=(key.score[1], key.score[0]),
        crawford=key.crawford,
        jacoby=key.jacoby and not key.match_length,
        match_length=key.match_length,
    )


def parse_position(text: str) -> Xgid:
    """A position given as people paste it: an XGID, or GNU Backgammon's IDs.

    ``XGID=...`` (or its ten fields without the prefix), ``PositionID:MatchID``, or a bare
    Position ID (player 0 on roll, centred cube, money play).

    Raises:
        InvalidNotationError: naming the text and what is wrong with it.
    """
    text = text.strip()
    if text.startswith(XGID_PREFIX) or text.count(":") >= 9:
        return parse_xgid(text)
    return parse_gnubg_id(text)

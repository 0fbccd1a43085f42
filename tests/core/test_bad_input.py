"""Issue 27, the library: every bad input of its list refused with cardtable's own error
(or ``TypeError`` for a value of the wrong type), in a short message, the game unchanged.

Each case of the issue's sections "Numbers in text", "Saves", "Wrong types", "Redo and
automatic moves" and "Error messages are short" is a test here; the positions no deal can
reach are in ``tests/games/test_unreachable_layouts.py``, the command line's cases in
``tests/cli/test_bad_input.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import (
    CardtableError,
    DealNumberError,
    LayoutError,
    MoveParseError,
    NotYourTurnError,
    OptionError,
    SaveFileError,
)
from cardtable.core.game import MAX_SAVE_SIZE
from cardtable.core.inputs import MAX_MESSAGE, check_int, check_limit, quote, read_int
from cardtable.core.layout import MAX_LAYOUT_SIZE
from cardtable.core.shuffle import MAX_DEAL, read_deal
from cardtable.games.klondike import KlondikeMove

HUGE = "9" * 4301
"""More digits than Python's ``int()`` reads from text."""
ODD_DIGITS = ["\u0661", "\u00b2", "\u0664\u0662", "\uff11", "1_0", " 1", "+1", "0x1", "1.0", "", "-"]
"""Text ``int()`` reads as a number, or that is no ASCII decimal number."""


def refused(error: type[Exception], call: Callable[..., object], *args: Any, **kwargs: Any) -> str:
    """Call ``call(*args, **kwargs)``, which must raise ``error`` with a short message; return the message."""
    with pytest.raises(error) as caught:
        call(*args, **kwargs)
    message = str(caught.value)
    assert len(message) < 300, message[:400]
    assert "\n" not in message
    return message


def game_of(name: str, **options: Any) -> cardtable.Game[Any, Any]:
    return cardtable.new_game(name, deal=3, **options)


# --- numbers in text -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ODD_DIGITS)
def test_the_shared_reader_takes_ascii_decimals_only(text: str) -> None:
    refused(ValueError, lambda: read_int(text, "n", ValueError, -5, 5))


def test_the_shared_reader_checks_the_range_before_converting() -> None:
    assert read_int("0" * 5000 + "7", "n", ValueError, 0, 9) == 7  # leading zeros are not digits that count
    assert read_int("-3", "n", ValueError, -5, 5) == -3
    assert "not '99999999999999999999999999999999'... (4301 characters)" in refused(
        ValueError, lambda: read_int(HUGE, "n", ValueError, 0, None)
    )
    assert refused(ValueError, lambda: read_int("10", "n", ValueError, 0, 9)) == (
        "n must be a whole number from 0 to 9, not 10"
    )
    assert refused(ValueError, lambda: check_int(True, "n", ValueError)).endswith("not True")


def test_deserto_seat_to_move_of_odd_digits() -> None:
    text = cardtable.new_game("deserto", deal=0).to_text()
    for seat in ["\u00b2", "1" * 4301, "\u0661", "\u0660"]:
        message = refused(
            LayoutError, cardtable.new_game, "deserto", layout=text.replace("to move: 0", f"to move: {seat}")
        )
        assert "is not a seat" in message


def test_deserto_stuck_record_of_odd_digits() -> None:
    game = cardtable.new_game("deserto", deal=28, players=3)
    for move in ["T2", "O1", "G3", "T4", "T3", "V2", "V4", "G3", "gT", "G1", "V3", "gT", "G2", "V2"]:
        game.play(move)
    text = game.to_text()
    assert "stuck 2: 2 of T" in text
    cardtable.new_game("deserto", layout=text, players=3)
    for held in ["\u0662", "2" * 4301, "\u00b2"]:
        odd = text.replace("stuck 2: 2 of T", f"stuck 2: {held} of T")
        assert "is not a stuck record" in refused(LayoutError, cardtable.new_game, "deserto", layout=odd, players=3)


@pytest.mark.parametrize("name", ["demonthief", "demons-and-thieves", "klondike"])
def test_redeals_used_of_odd_digits(name: str) -> None:
    text = cardtable.new_game(name, deal=0).to_text()
    for used in ["1" * 4301, "\u0661", "\u00b2", "-0x1"]:
        odd = text.replace("redeals used: 0", f"redeals used: {used}")
        assert "redeals used" in refused(LayoutError, cardtable.new_game, name, layout=odd)


@pytest.mark.parametrize("name", ["klondike", "demonthief", "demons-and-thieves"])
def test_move_counts_of_odd_digits(name: str) -> None:
    game = game_of(name)
    before = game.state
    for count in [HUGE, "\u0662", "\u00b2", "0", "-1"]:
        assert "not a" in refused(MoveParseError, game.play, "35:" + count)
    assert game.state == before and game.moves == []


def test_deal_numbers_of_any_size_and_digits() -> None:
    for deal in [10**5000, -(10**5000), MAX_DEAL + 1, -1]:
        message = refused(DealNumberError, cardtable.new_game, "klondike", deal=deal)
        assert "deal number must be a whole number from 0 to 9223372036854775807" in message
    odd_deals: list[Any] = [True, 1.0, "3"]
    for odd in odd_deals:
        refused(DealNumberError, cardtable.new_game, "klondike", deal=odd)
    assert read_deal(str(MAX_DEAL)) == MAX_DEAL
    for text in [*ODD_DIGITS[:5], HUGE, str(MAX_DEAL + 1)]:
        refused(DealNumberError, read_deal, text)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"draw": "\u0661"}, "must be a whole number from 1 to 3"),
        ({"draw": "\u00b3"}, "must be a whole number from 1 to 3"),
        ({"redeals": HUGE}, "must be a whole number, at least 0"),
        ({"redeals": 10**5000}, "not a whole number of about 5001 digits"),
        ({"redeals": 2**63}, "must be a whole number, at least 0"),
        ({"draw": "1_0"}, "must be a whole number from 1 to 3"),
    ],
)
def test_option_numbers_of_odd_digits_or_size(options: dict[str, Any], message: str) -> None:
    assert message in refused(OptionError, lambda: cardtable.new_game("klondike", deal=1, **options))


def test_deserto_players_of_odd_digits() -> None:
    for players in ["\u00b2", "2" * 4301, "\u0662", 10**5000]:
        refused(OptionError, cardtable.new_game, "deserto", deal=1, players=players)


# --- options the game does not declare ---------------------------------------------------------


@pytest.mark.parametrize("name", ["self", "name", "deal_", "layout_", "x", "", "draw-draw"])
def test_options_the_game_does_not_declare(name: str) -> None:
    options: dict[str, Any] = {name: 1}
    message = refused(OptionError, cardtable.new_game, "klondike", deal=1, **options)
    assert "has no option" in message
    refused(OptionError, lambda: cardtable.rules_for("klondike", **{name: 1}))


def test_an_option_given_twice() -> None:
    message = refused(
        OptionError,
        lambda: cardtable.new_game("klondike", deal=1, foundation_return=True, **{"foundation-return": "off"}),
    )
    assert "given twice" in message


# --- saves ----------------------------------------------------------------------------------


def save_of(game: cardtable.Game[Any, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game.save())
    return data


def test_saves_that_nest_too_deeply_or_hold_huge_numbers() -> None:
    assert "nests too deeply" in refused(SaveFileError, lambda: cardtable.load("[" * 1000))
    assert "nests too deeply" in refused(SaveFileError, lambda: cardtable.load('{"a": ' * 100_000))
    assert "too long" in refused(SaveFileError, lambda: cardtable.load("1" * 4301))
    data = save_of(game_of("klondike"))
    data["deal"] = int(HUGE[:4000])
    assert "deal number" in refused(SaveFileError, lambda: cardtable.load(json.dumps(data)))


@pytest.mark.parametrize("option", ["self", "name", "deal", "layout", "rules"])
def test_saves_with_options_the_game_does_not_declare(option: str) -> None:
    data = save_of(game_of("klondike"))
    data["options"][option] = 1
    assert f"has no option '{option}'" in refused(SaveFileError, lambda: cardtable.load(json.dumps(data)))


def test_saves_are_read_with_a_size_cap() -> None:
    data = save_of(game_of("klondike"))
    text = json.dumps(data)
    padded = text[:-1] + ', "pad": "' + "x" * (MAX_SAVE_SIZE - len(text)) + '"}'
    assert len(padded) > MAX_SAVE_SIZE
    assert f"at most {MAX_SAVE_SIZE} characters" in refused(SaveFileError, lambda: cardtable.load(padded))


@pytest.mark.parametrize(
    ("field", "value"),
    [("auto", [True]), ("auto", [10**9]), ("auto", [-1]), ("auto", [1, 1]), ("auto", "x"), ("no_autoplay", [0.5])],
)
def test_saves_with_bad_move_indices(field: str, value: Any) -> None:
    game = game_of("klondike")
    game.play("d")
    game.play("d")
    data = save_of(game)
    data[field] = value
    assert field in refused(SaveFileError, lambda: cardtable.load(json.dumps(data)))


def autoplayed(option: bool) -> cardtable.Game[Any, Any]:
    """Klondike deal 0 with ``d`` played under autoplay (the AS goes home: ``d 3f``)."""
    game = cardtable.new_game("klondike", deal=0, autoplay=option)
    game.play("d", autoplay=True)
    assert [str(m) for m in game.moves] == ["d", "3f"]
    return game


def test_a_save_whose_automatic_moves_were_removed_is_refused() -> None:
    data = save_of(autoplayed(True))
    assert data["auto"] == [1]
    cut = dict(data, moves=["d"], auto=[])
    assert "automatic move 3f follows it" in refused(SaveFileError, lambda: cardtable.load(json.dumps(cut)))
    unmarked = dict(data, auto=[])
    assert "automatic move 3f follows it" in refused(SaveFileError, lambda: cardtable.load(json.dumps(unmarked)))


def test_a_save_whose_automatic_moves_were_changed_is_refused() -> None:
    game = cardtable.new_game("klondike", deal=0, numbering="javasol")
    for move in ["d", "w6"]:
        game.play(move)
    data = save_of(game)
    marked = dict(data, auto=[1])  # w6 was played by hand: autoplay never plays it
    assert "autoplay plays no move there" in refused(SaveFileError, lambda: cardtable.load(json.dumps(marked)))
    first = dict(data, auto=[0])
    assert "autoplay plays no move there" in refused(SaveFileError, lambda: cardtable.load(json.dumps(first)))
    other = save_of(autoplayed(True))
    other["moves"][1] = "fs3"  # the same pile, but not the move autoplay makes
    refused(SaveFileError, lambda: cardtable.load(json.dumps(other)))


def test_an_incomplete_chain_of_automatic_moves_is_refused() -> None:
    game = cardtable.new_game("klondike", deal=4, autoplay=True)
    for move in ["27", "62", "31", "d", "d", "13:2", "61", "d"]:
        game.play(move)
    assert [str(m) for m in game.moves][-3:] == ["d", "wf", "wf"]  # autoplay played two cards home
    data = save_of(game)
    assert cardtable.load(game.save()).state == game.state
    cut = dict(data, moves=data["moves"][:-1], auto=data["auto"][:-1])
    assert "automatic move wf follows it" in refused(SaveFileError, lambda: cardtable.load(json.dumps(cut)))


def test_autoplay_off_for_one_move_of_an_autoplay_game_round_trips() -> None:
    game = cardtable.new_game("klondike", deal=0, autoplay=True)
    game.play("d", autoplay=False)
    assert [str(m) for m in game.moves] == ["d"]
    data = save_of(game)
    assert data["no_autoplay"] == [0]
    assert cardtable.load(game.save()).save() == game.save()
    del data["no_autoplay"]  # without it the rules would have played 3f after d
    assert "automatic move 3f" in refused(SaveFileError, lambda: cardtable.load(json.dumps(data)))
    plain = save_of(cardtable.new_game("klondike", deal=0))
    plain["no_autoplay"] = []
    cardtable.load(json.dumps(plain))


def test_a_save_of_a_game_without_the_option_keeps_its_choice() -> None:
    # Option off, autoplay asked for one move: the moves and marks are the record.
    game = autoplayed(False)
    assert cardtable.load(game.save()).moves == game.moves
    data = save_of(game)
    # Without its automatic moves and marks it is a game played without autoplay: a game of the rules.
    loaded = cardtable.load(json.dumps(dict(data, moves=["d"], auto=[])))
    assert [str(m) for m in loaded.moves] == ["d"]


# --- wrong types --------------------------------------------------------------------------------


NOT_MOVES: list[Any] = [None, 5, b"35", ["d"], 3.5, (2, 9, 1), (7, 9, 1), {"d": 1}, object(), True, bytearray(b"d")]


@pytest.mark.parametrize("name", cardtable.GAMES)
def test_play_takes_a_move_of_the_game_or_its_text_only(name: str) -> None:
    game = game_of(name)
    move = game.legal_moves()[0]
    before, moves = game.state, game.moves
    for value in [*NOT_MOVES, tuple(move)]:
        message = refused(TypeError, game.play, value)
        assert "or the text of a move" in message
        assert game.state == before and game.moves == moves
        assert not game.is_legal(value)
    other = next(m for n in cardtable.GAMES if n != name for m in game_of(n).legal_moves() if type(m) is not type(move))
    refused(TypeError, lambda: game.play(other))
    assert game.play(move) is move  # the game's own move object


def test_a_move_value_of_the_game_that_is_no_move() -> None:
    game = game_of("klondike")
    for value in [KlondikeMove(100, 4, 1), KlondikeMove(2, 4, 1.5), KlondikeMove("a", None, [])]:  # type: ignore[arg-type]
        assert "not a klondike move" in refused(MoveParseError, game.play, value)
    # A field of another numeric type is the move it equals: the game's own move is played.
    game.play("d")
    played = game.play(KlondikeMove(8, 7, False))
    assert type(played.n) is int and str(played) == "d"


def test_other_wrong_types() -> None:
    game = game_of("klondike")
    refused(TypeError, lambda: game.play("d", autoplay="yes"))  # type: ignore[arg-type]
    refused(TypeError, lambda: game.parse_move(5))  # type: ignore[arg-type]
    refused(TypeError, lambda: cardtable.new_game(5, deal=1))  # type: ignore[call-overload]
    refused(TypeError, lambda: cardtable.load(b"{}"))  # type: ignore[arg-type]
    refused(TypeError, lambda: cardtable.load(None))  # type: ignore[arg-type]
    refused(LayoutError, lambda: cardtable.new_game("klondike", layout=b"klondike"))  # type: ignore[call-overload]
    deserto = cardtable.new_game("deserto", deal=3)
    move = deserto.legal_moves()[0]
    for seat in ["0", 0.0, True]:
        refused(TypeError, deserto.play, move, seat=seat)
    refused(NotYourTurnError, lambda: deserto.play(move, seat=10**5000))
    assert deserto.moves == []


# --- redo and automatic moves -----------------------------------------------------------------


def test_redo_repeats_exactly_what_undo_took_back() -> None:
    game = autoplayed(False)
    after = game.state
    assert str(game.undo()) == "d" and game.moves == []
    assert str(game.redo()) == "d"
    assert [str(m) for m in game.moves] == ["d", "3f"] and game.state == after
    game.undo()
    game.play("d")  # a new move clears the redo list
    refused(CardtableError, game.redo)


def test_redo_of_a_move_played_without_autoplay_in_an_autoplay_game() -> None:
    game = cardtable.new_game("klondike", deal=0, autoplay=True)
    game.play("d", autoplay=False)
    after, saved = game.state, game.save()
    game.undo()
    game.redo()
    assert game.state == after and [str(m) for m in game.moves] == ["d"] and game.save() == saved


def test_redo_in_a_multiplayer_game_keeps_the_history() -> None:
    game = cardtable.new_game("deserto", deal=3)
    game.play(game.legal_moves()[0])
    history = game.history(None)
    game.undo()
    game.redo()
    assert game.history(None) == history


# --- short messages --------------------------------------------------------------------------


def test_messages_about_huge_inputs_are_short() -> None:
    big = "x" * 10**7
    refused(MoveParseError, lambda: game_of("klondike").play(big))
    refused(CardtableError, lambda: cardtable.new_game(big, deal=1))
    refused(OptionError, lambda: cardtable.new_game("klondike", deal=1, draw=big))
    options: dict[str, Any] = {big: 1}
    refused(OptionError, cardtable.new_game, "klondike", deal=1, **options)
    layout = game_of("klondike").to_text()
    refused(
        LayoutError, lambda: cardtable.new_game("klondike", layout=layout.replace("waste:", "waste: " + big[:50_000]))
    )
    assert "at most" in refused(LayoutError, lambda: cardtable.new_game("klondike", layout=layout + "\n#" + big))
    assert len(layout) < MAX_LAYOUT_SIZE
    data = save_of(game_of("klondike"))
    for field in ["format", "version", "rules_version", "game"]:
        refused(SaveFileError, cardtable.load, json.dumps({**data, field: big[:100_000]}))
    refused(SaveFileError, lambda: cardtable.load(json.dumps(dict(data, moves=[big[:100_000]]))))
    refused(SaveFileError, lambda: cardtable.load(json.dumps(dict(data, moves=[[[[[1]]]]]))))


def test_every_error_message_is_cut_short() -> None:
    assert len(str(CardtableError("x" * 10**6))) == MAX_MESSAGE
    assert quote(10**5000) == "a whole number of about 5001 digits"
    assert len(quote([[1] * 10**6] * 10)) < 100
    assert len(quote("\x00" * 10**6)) < 100


def test_the_limits_of_a_search_are_numbers_or_none() -> None:
    # For solve(game, seconds=..., nodes=...): the check it makes before it starts.
    assert check_limit(None, "nodes", whole=True) is None
    assert check_limit(3, "seconds", whole=False) == 3
    for value, whole in (("1", False), ("5", True), (2.5, True), (True, True), (b"1", False), ([1], False)):
        assert "or None, not" in refused(TypeError, check_limit, value, "seconds", whole=whole)


def test_drops_of_wrong_types() -> None:
    for name in ("klondike", "deserto"):
        rules = cardtable.rules_for(name)
        state = rules.deal(1)
        piles = list(rules.piles(state))
        for src, index, dst in ((["1"], 0, piles[0]), (piles[0], 0, None), (piles[0], "0", piles[1])):
            with pytest.raises((TypeError, MoveParseError)) as caught:
                rules.drop_move(state, src, index, dst)  # type: ignore[arg-type]
            assert len(str(caught.value)) < 300


def test_the_solver_and_the_hints_take_a_game_and_say_so() -> None:
    # Found by the bad-input audit: an AttributeError from deep inside, and "'int' object
    # is not callable" for a watch that is no function.
    from cardtable.hints import honest_hint

    for wrong in (None, "klondike", 3):
        for asked in (cardtable.solve, cardtable.hint, honest_hint):
            with pytest.raises(TypeError, match="a game is asked for"):
                asked(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="watch is a function of a position"):
        cardtable.solve(cardtable.new_game("klondike", deal=1), nodes=5, watch=5)  # type: ignore[arg-type]


def test_a_seat_a_game_does_not_have_is_named_as_such() -> None:
    game = cardtable.new_game("deserto", deal=1)
    for seat in (5, -1):
        with pytest.raises(NotYourTurnError, match=f"no seat {seat}: seats are 0 to 1"):
            game.play(game.legal_moves()[0], seat=seat)
    assert game.moves == [] and game.play(game.legal_moves()[0], seat=0)

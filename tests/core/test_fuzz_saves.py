"""Fuzzing saves and layouts of every game: a malformed one is refused with the library's own error.

Saves come back from browsers and disks: ``cardtable.load`` must answer every
malformed save with ``SaveFileError`` (a save that still reads must round-trip),
and ``new_game(layout=...)`` every malformed layout with a ``CardtableError``.
Mutations are JSON-level (fields dropped, given the wrong type, junk options
such as ``deal`` or ``layout``, bad moves and auto indices) and text-level
(characters and lines deleted, inserted, replaced, shuffled, cut).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.errors import CardtableError, SaveFileError

JUNK: list[Any] = [None, True, False, 0, -1, 1, 10**30, 2.5, "", "x", "3", [], {}, [1], {"a": 1}, "klondike"]
OPTION_NAMES = ["deal", "layout", "name", "game", "draw", "mode", "players", "first", "redeals", "autoplay", "x"]


def played(name: str, deal: int) -> cardtable.Game[Any, Any]:
    options: dict[str, Any] = {"players": 2 + deal % 3} if name == "deserto" else {}
    game: cardtable.Game[Any, Any] = cardtable.new_game(name, deal=deal, **options)
    rng = random.Random(deal)
    for _ in range(rng.randrange(0, 25)):
        moves = game.legal_moves()
        if not moves or game.outcome.over:
            break
        game.play(rng.choice(moves))
    return game


GAMES = [played(name, deal) for name in cardtable.GAMES for deal in range(2)]
FUZZ = settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def mutate_json(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    op = rng.randrange(6)
    key = rng.choice([*data, "options", "moves", "auto"])
    if op == 0:
        data.pop(key, None)
    elif op == 1:
        data[key] = rng.choice(JUNK)
    elif op == 2 and isinstance(data.get("options"), dict):
        data["options"][rng.choice(OPTION_NAMES)] = rng.choice(JUNK)
    elif op == 3 and isinstance(data.get("moves"), list) and data["moves"]:
        data["moves"][rng.randrange(len(data["moves"]))] = rng.choice([*JUNK, "d", "r", "35", "zz"])
    elif op == 4:
        data["auto"] = rng.choice([*JUNK, [10**9], [-1], [True]])
    else:
        data[rng.choice(["deal", "layout", "version", "rules_version", "format", "game"])] = rng.choice(JUNK)
    return data


def mutate_text(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        op = rng.randrange(4)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, rng.choice("<>:0123456789ACDHSKQJTYRGBOVxw \n-"))
        elif op == 2:
            chars[i] = rng.choice("<>:0123456789ACDHSKQJTYRGBOV \n")
        else:
            lines = "".join(chars).split("\n")
            if rng.random() < 0.5:
                rng.shuffle(lines)
            chars = list("\n".join(lines[: rng.randrange(len(lines) + 1)]))
    return "".join(chars)


@FUZZ
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32), st.booleans())
def test_a_mutated_save_loads_or_is_refused_with_save_file_error(which: int, seed: int, as_text: bool) -> None:
    rng = random.Random(seed)
    data = json.loads(GAMES[which].save())
    for _ in range(rng.randrange(1, 4)):
        data = mutate_json(data, rng)
    text = mutate_text(json.dumps(data), rng) if as_text else json.dumps(data)
    try:
        game = cardtable.load(text)
    except SaveFileError:
        return
    assert cardtable.load(game.save()).state == game.state


@FUZZ
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32))
def test_a_mutated_layout_reads_or_is_refused_with_a_cardtable_error(which: int, seed: int) -> None:
    game = GAMES[which]
    options = {"players": game.options["players"]} if game.name == "deserto" else {}
    text = mutate_text(game.to_text(), random.Random(seed))
    try:
        read = cardtable.new_game(game.name, layout=text, **options)
    except CardtableError:
        return
    assert cardtable.new_game(game.name, layout=read.to_text(), **options).state == read.state


@pytest.mark.parametrize("name", ["demonthief", "klondike", "deserto"])
@pytest.mark.parametrize("key", ["deal", "layout", "name"])
def test_options_naming_new_games_own_parameters_are_refused(name: str, key: str) -> None:
    # Found by fuzzing: a save whose options held a "deal" key raised a bare TypeError.
    data = json.loads(cardtable.new_game(name, deal=1).save())
    data["options"][key] = 3
    with pytest.raises(SaveFileError, match=key):
        cardtable.load(json.dumps(data))

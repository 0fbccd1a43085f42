"""Issue 27: property-based fuzzing of every input the library and the CLI read.

One strategy per kind of input: layouts of every game and option set in both formats (real
positions, mutated: cards swapped, duplicated, deleted, moved, turned, numbers changed to
other digits or huge values, lines deleted, repeated, cut), move texts, values that are not
text where text or a move is expected, saves (real saves of games played with and without
autoplay, mutated as JSON and as text) and options (declared and undeclared names, values of
every type, as keywords and as command-line words). Each property checks:

- a refusal is one of cardtable's errors, or ``TypeError`` for a value of a wrong type, with
  a message of one line under 300 characters;
- a refused input changes nothing (the game's position, moves and save are as before);
- an accepted layout round-trips (``from_text(to_text(s)) == s``), and every legal move in it
  is legal by the rules: it reads back from its text, it applies, and the position after it,
  its legal moves and the game's outcome come without an exception; an accepted save loads
  to a game whose save loads to the same game.

The runs are derandomized (a fixed seed), so CI sees the same inputs every time, and sized
to about 30 seconds together; ``bench/fuzz_inputs.py`` runs the same properties far longer.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.cli.main import make_game
from cardtable.core.errors import CardtableError
from cardtable.games import specs

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    (spec.name, dict(options)) for spec in specs() for options in spec.variants if spec.name in cardtable.GAMES
]
VARIANTS += [
    ("klondike", {"redeals": 2, "autoplay": True}),
    ("klondike", {"draw": 1, "foundation_return": False}),
    ("demonthief", {"autoplay": True}),
    ("deserto", {"players": 3, "first": 2, "refill_after_give": False}),
]

FUZZ = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""The settings of every property here: deterministic, about 20 seconds in all (issue 27: the fuzz
suites about a minute in `make test`)."""

ODD_NUMBERS = ["\u0661", "\u00b2", "\uff13", "1_0", "-1", "+2", " 7", "0x1", "9" * 4301, "1" * 30, "", "x", "3.0"]
JUNK: list[Any] = [None, True, False, 0, -1, 1, 2**63, 10**30, 2.5, float("nan"), "", "x", "3", [], {}, [1], {"a": 1}]
NOT_TEXT: list[Any] = [
    None,
    5,
    -(10**5000),
    3.5,
    b"35",
    bytearray(b"d"),
    ["d"],
    ("d",),
    (2, 9, 1),
    (7, 9, 1),
    {"move": "d"},
    {1, 2},
    object(),
    True,
    [[[["d"]]]],
]
CHECKED = {"inputs": 0, "accepted": 0}
"""How many inputs the properties tried, and how many of them were accepted (``bench/fuzz_inputs.py``
reports them)."""


# --- what every refusal and every accepted input must satisfy ----------------------------------------


def check_refusal(err: BaseException, wrong_type: bool = False) -> None:
    """A refusal is cardtable's own error (``TypeError`` for a value of a wrong type), in one short line."""
    allowed: tuple[type[BaseException], ...] = (CardtableError, TypeError) if wrong_type else (CardtableError,)
    assert isinstance(err, allowed), f"{type(err).__name__}: {str(err)[:200]}"
    message = str(err)
    assert len(message) < 300, message[:400]
    assert "\n" not in message, message[:400]


def snapshot(game: cardtable.Game[Any, Any]) -> tuple[Any, ...]:
    """Everything a refused input must leave as it was."""
    return game.state, [str(m) for m in game.moves], game.save()


def attempt(call: Callable[[], Any], wrong_type: bool = False) -> tuple[bool, Any]:
    """``(True, result)``, or ``(False, None)`` after checking the refusal."""
    CHECKED["inputs"] += 1
    try:
        result = call()
    except (CardtableError, TypeError) as err:
        check_refusal(err, wrong_type)
        return False, None
    CHECKED["accepted"] += 1
    return True, result


def check_position(game: cardtable.Game[Any, Any]) -> None:
    """An accepted position round-trips, and every legal move in it is legal by the rules."""
    rules, state = game.rules, game.state
    assert rules.from_text(rules.to_text(state)) == state
    for move in game.legal_moves():
        assert rules.parse_move(str(move)) == move
        assert game.is_legal(move)
        after = rules.apply(state, move)
        rules.legal_moves(after)
        rules.to_text(after)
    assert game.outcome is not None
    rules.status(state)
    rules.display(state)


# --- positions to start from ----------------------------------------------------------------------


def played(name: str, options: dict[str, Any], seed: int, steps: int) -> cardtable.Game[Any, Any]:
    """Deal ``seed`` of the game after up to ``steps`` random moves (autoplay asked for at random),
    with some moves taken back and played again."""
    game = cardtable.new_game(name, deal=seed, **options)
    rng = random.Random(seed * 31 + steps)
    for _ in range(steps):
        moves = game.legal_moves()
        roll = rng.random()
        if roll < 0.08 and game.moves:
            game.undo()
        elif roll < 0.12:
            with contextlib.suppress(CardtableError):
                game.redo()
        elif moves:
            game.play(rng.choice(moves), autoplay=rng.choice([None, True, False]))
        else:
            break
    return game


@st.composite
def games(draw: st.DrawFn, max_steps: int = 80) -> cardtable.Game[Any, Any]:
    """A game of any variant, some random moves into a deal."""
    name, options = draw(st.sampled_from(VARIANTS))
    return played(name, options, draw(st.integers(0, 10**6)), draw(st.integers(0, max_steps)))


# --- layouts -------------------------------------------------------------------------------------------


def mutate_layout(text: str, rng: random.Random) -> str:
    """``text`` with one to three changes a careless or hostile writer might make."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        spots = [(i, k) for i, line in enumerate(lines) for k, _ in enumerate(line.partition(":")[2].split())]
        op = rng.randrange(10)
        if op < 5 and spots:
            i, k = rng.choice(spots)
            head, sep, tail = lines[i].partition(":")
            words = tail.split()
            token = words[k]
            if op == 0 and len(spots) > 1:  # swap two cards
                j, m = rng.choice(spots)
                other = lines[j].partition(":")[2].split()[m]
                words[k] = other
                lines[i] = f"{head}{sep} {' '.join(words)}"
                h2, s2, t2 = lines[j].partition(":")
                w2 = t2.split()
                w2[m] = token
                lines[j] = f"{h2}{s2} {' '.join(w2)}"
                continue
            if op == 1:  # duplicate a card elsewhere
                j = rng.randrange(len(lines))
                lines[j] += f" {token}"
            elif op == 2:  # delete a card
                del words[k]
            elif op == 3:  # move a card to another line
                del words[k]
                j = rng.randrange(len(lines))
                if j != i:
                    lines[j] += f" {token}"
            else:  # turn a card over
                words[k] = token[1:-1] if token.startswith("<") else f"<{token}>"
            if op != 1:
                lines[i] = f"{head}{sep} {' '.join(words)}"
        elif op == 5:  # a number in odd digits, huge, or out of range
            i = rng.randrange(len(lines))
            head, sep, tail = lines[i].partition(":")
            words = tail.split()
            numbers = [k for k, w in enumerate(words) if w.isdigit()]
            if sep and numbers:
                words[rng.choice(numbers)] = rng.choice([*ODD_NUMBERS, "3", "4", "99"])
                lines[i] = f"{head}{sep} {' '.join(words)}"
            elif sep:
                lines[i] = f"{head}{sep} {rng.choice(ODD_NUMBERS)}"
        elif op == 6 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        elif op == 7:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
        elif op == 8:
            i = rng.randrange(len(lines))
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = (
                lines[i][:cut] + rng.choice(["<", ">", ":", "#", "\x00", "\u0661", "10", "X", " ", ""]) + lines[i][cut:]
            )
        else:
            rng.shuffle(lines)
    return "\n".join(lines)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, dict[str, Any], str]:
    """A game variant and a layout for it: a real position in either format, often mutated."""
    game = draw(games())
    name, options = game.name, game.options
    text = game.to_text()
    if name == "klondike" and draw(st.booleans()):
        text = cardtable.new_game(name, deal=draw(st.integers(0, 10**6)), **options).to_text("pysol")
    if draw(st.integers(0, 4)):
        text = mutate_layout(text, draw(st.randoms(use_true_random=False)))
    return name, options, text


def layout_property(case: tuple[str, dict[str, Any], str]) -> None:
    """A layout is refused cleanly, or read as a position of the game."""
    name, options, text = case
    ok, game = attempt(lambda: cardtable.new_game(name, layout=text, **options))
    if ok:
        check_position(game)
        moves = game.legal_moves()
        if moves:
            game.play(moves[0])
            check_position(game)


# --- move texts ------------------------------------------------------------------------------------


def mutate_move(text: str, rng: random.Random) -> str:
    """A move's text changed: a count in odd digits, a character swapped, junk around."""
    op = rng.randrange(6)
    if op == 0:
        return f"{text}:{rng.choice(ODD_NUMBERS)}"
    if op == 1 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("abcdefgwxrf0123456789:<>OVTG \u0661\u00b2") + text[i + 1 :]
    if op == 2:
        return rng.choice(["", " ", "\x00", "\n", "d\nd", "x" * 100_000, "35:" + "9" * 4301, "\u0663\u0665"])
    if op == 3:
        return text.upper() + rng.choice(["", " ", ":1", ":01", ":0"])
    if op == 4:
        return text * rng.randint(2, 3)
    return text


def move_text_property(game: cardtable.Game[Any, Any], rng: random.Random, legal_one: bool) -> None:
    """Move text is refused cleanly with the game unchanged, or is a legal move played."""
    moves = [str(m) for m in game.legal_moves()] or ["d", "35", "a1b2", "V3", "ab"]
    text = mutate_move(rng.choice(moves), rng) if not legal_one else rng.choice(moves)
    before = snapshot(game)
    ok, move = attempt(lambda: game.play(text))
    if not ok:
        assert snapshot(game) == before
        return
    assert game.rules.parse_move(str(move)) == move
    check_position(game)


# --- values that are not text ------------------------------------------------------------------------


def non_text_property(game: cardtable.Game[Any, Any], value: Any, where: str) -> None:
    """A value of a wrong type is refused with TypeError or cardtable's error, the game unchanged."""
    before = snapshot(game)
    name = game.name
    calls: dict[str, Callable[[], Any]] = {
        "play": lambda: game.play(value),
        "seat": lambda: game.play(game.legal_moves()[0], seat=value) if game.legal_moves() else game.play(value),  # type: ignore[call-arg]
        "new_game": lambda: cardtable.new_game(value, deal=1),
        "layout": lambda: cardtable.new_game(name, layout=value),
        "load": lambda: cardtable.load(value),
        "deal": lambda: cardtable.new_game(name, deal=value),
        "parse": lambda: game.parse_move(value),
        "autoplay": lambda: game.play(str(game.legal_moves()[0]), autoplay=value) if game.legal_moves() else None,
    }
    if where == "seat" and not isinstance(game, cardtable.MultiplayerGame):
        where = "play"
    ok, _ = attempt(calls[where], wrong_type=True)
    if ok:
        # Only the moves of the game itself (their values are never plain ones) or a seat's number are taken.
        assert where in ("seat", "autoplay", "deal"), (where, value)
        return
    assert snapshot(game) == before


# --- saves --------------------------------------------------------------------------------------------


def mutate_save(data: dict[str, Any], rng: random.Random) -> str:
    """A save changed as JSON (fields dropped or retyped, options junk, moves and autoplay marks
    removed or changed) or as text (characters cut, inserted, nested)."""
    data = json.loads(json.dumps(data))
    op = rng.randrange(9)
    key = rng.choice([*data, "options", "moves", "auto", "no_autoplay"])
    if op == 0:
        data.pop(key, None)
    elif op == 1:
        data[key] = rng.choice(JUNK)
    elif op == 2 and isinstance(data.get("options"), dict):
        option = rng.choice(
            ["self", "name", "deal", "layout", "game", "draw", "mode", "players", "first", "redeals", "autoplay", "x"]
        )
        data["options"][option] = rng.choice([*JUNK, *ODD_NUMBERS[:6]])
    elif op == 3 and data.get("moves"):
        i = rng.randrange(len(data["moves"]))
        data["moves"][i] = rng.choice([*JUNK, "d", "r", "35", "35:" + "9" * 4301, "\u0663\u0665", "zz"])
    elif op == 4 and data.get("auto"):  # an automatic move, or its mark, removed
        i = rng.choice(data["auto"])
        data["auto"].remove(i)
        if rng.random() < 0.5:
            del data["moves"][i]
            data["auto"] = [j - (j > i) for j in data["auto"]]
    elif op == 5:
        data["auto"] = rng.choice([*JUNK, [10**9], [-1], [True], [0], [1, 1]])
    elif op == 6 and data.get("moves"):
        del data["moves"][rng.randrange(len(data["moves"])) :]
        data["auto"] = [i for i in data.get("auto", []) if i < len(data["moves"])]
    text = json.dumps(data, indent=1)
    if op == 7:
        i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(["[" * 2000, "{", "}", '"', "1" * 4301, "\x00", ",", "NaN", "\u0661"]) + text[i:]
    elif op == 8:
        text = text[: rng.randrange(len(text) + 1)]
    return text


def save_property(game: cardtable.Game[Any, Any], rng: random.Random) -> None:
    """A save is refused cleanly, or loads to a game whose save loads to the same game."""
    text = mutate_save(json.loads(game.save()), rng) if rng.random() < 0.85 else game.save()
    ok, loaded = attempt(lambda: cardtable.load(text))
    if not ok:
        return
    again = cardtable.load(loaded.save())
    assert again.state == loaded.state and again.save() == loaded.save()
    check_position(loaded)


# --- options --------------------------------------------------------------------------------------------


OPTION_NAMES = ["self", "name", "deal", "layout", "draw", "redeals", "foundation-return", "numbering", "autoplay"]
OPTION_NAMES += ["mode", "players", "first", "refill_after_give", "x", "", "Draw", "draw_"]


def option_property(name: str, options: dict[str, Any], as_words: bool) -> None:
    """Options are refused with OptionError (or the call's own error), or are declared and checked."""
    if as_words:
        words = [w for key, value in options.items() for w in (f"--{key}", str(value))]
        ok, game = attempt(lambda: make_game(name, 7, words))
    else:
        # ``deal`` and ``layout`` given as keywords are new_game's own (a call naming them twice is no call).
        kwargs = {"deal": 7, **options}
        ok, game = attempt(lambda: cardtable.new_game(name, **kwargs), wrong_type="deal" in options)
    if ok:
        declared = {o.name for o in game.rules.OPTIONS}
        assert {key.replace("-", "_") for key in options} - {"deal", "layout"} <= declared
        check_position(game)


# --- the properties, their strategies, and the tests ------------------------------------------------------

PROPERTIES: dict[str, tuple[Callable[..., None], tuple[st.SearchStrategy[Any], ...]]] = {
    "layouts": (layout_property, (layouts(),)),
    "move texts": (move_text_property, (games(), st.randoms(use_true_random=False), st.booleans())),
    "non-text arguments": (
        non_text_property,
        (
            games(max_steps=20),
            st.sampled_from(NOT_TEXT),
            st.sampled_from(["play", "seat", "new_game", "layout", "load", "deal", "parse", "autoplay"]),
        ),
    ),
    "saves": (save_property, (games(), st.randoms(use_true_random=False))),
    "options": (
        option_property,
        (
            st.sampled_from([spec.name for spec in specs() if spec.name in cardtable.GAMES]),
            st.dictionaries(
                st.sampled_from(OPTION_NAMES),
                st.sampled_from([*JUNK, *ODD_NUMBERS, "1", "3", "on", "hard", "unlimited"]),
                max_size=3,
            ),
            st.booleans(),
        ),
    ),
}
"""Each kind of input: the property it must keep and the strategies of its arguments."""


def fuzzed(kind: str, run: settings) -> Callable[[], None]:
    """The test of one kind of input under ``run``'s settings (``bench/fuzz_inputs.py`` runs it longer)."""
    check, strategies = PROPERTIES[kind]
    test: Callable[[], None] = run(given(*strategies)(check))
    return test


test_layouts = fuzzed("layouts", settings(FUZZ, max_examples=400))  # the slowest kind: each accepted one is played
test_move_texts = fuzzed("move texts", FUZZ)
test_non_text_arguments = fuzzed("non-text arguments", FUZZ)
test_saves = fuzzed("saves", FUZZ)
test_options = fuzzed("options", FUZZ)

"""Observations carry what a player can see and nothing hidden.

For every one-player game: positions that differ only in face-down cards
(their identities shuffled in the position text, where ``<..>`` marks them)
give the same observation and text, while a change to a face-up card changes
it. For Deserto: every position a seat cannot tell apart from the true one
(the rules' ``sample``: other hands, the deck order, gifts between others)
gives that seat the same observation.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

from cardtable.games import rules_for
from cardtable.games.deserto import Deserto
from cardtable.research.observations import DESERTO_SIZE, DesertoEncoder, SolitaireEncoder

from ..helpers import random_line

pytestmark = pytest.mark.research

SOLITAIRES: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {}),
    ("demonthief", {}),
    ("demons-and-thieves", {}),
    ("desturado", {"mode": "easy"}),
    ("desturado", {"mode": "hard"}),
    ("devils-square", {}),
]

HIDDEN = re.compile(r"<([^<>]+)>")


def shuffle_hidden(text: str, rng: random.Random) -> str:
    """The position text with the face-down cards' identities shuffled among themselves."""
    cards = HIDDEN.findall(text)
    rng.shuffle(cards)
    it = iter(cards)
    return HIDDEN.sub(lambda _: f"<{next(it)}>", text)


def random_positions(rules: Any, rng: random.Random, count: int) -> list[Any]:
    """The end of a short random line from each of ``count`` deals."""
    return [random_line(rules, rules.deal(deal), rng.randrange(2**32), rng.randrange(40))[-1] for deal in range(count)]


@pytest.mark.parametrize(("name", "options"), SOLITAIRES)
def test_face_down_cards_never_change_an_observation(name: str, options: dict[str, Any]) -> None:
    rules = rules_for(name, **options)
    enc = SolitaireEncoder(rules)
    rng = random.Random(f"hidden {name} {options}")
    changed = 0
    for state in random_positions(rules, rng, 10):
        obs = enc.encode(state)
        assert obs.shape == (enc.size,) and obs.dtype == np.int16
        assert (obs >= 0).all() and (obs <= enc.high).all()
        text = rules.to_text(state)
        other = rules.from_text(shuffle_hidden(text, rng))
        changed += other != state
        assert np.array_equal(enc.encode(other), obs)
        assert enc.text(other) == enc.text(state)
        assert "<" not in enc.text(state)
    assert changed >= 5  # the shuffles did make other positions


@pytest.mark.parametrize(("name", "options"), SOLITAIRES)
def test_a_face_up_card_does_change_the_observation(name: str, options: dict[str, Any]) -> None:
    rules = rules_for(name, **options)
    enc = SolitaireEncoder(rules)
    state = rules.deal(1)
    text = rules.to_text(state)
    # Swap two different face-up cards of the text (tokens not in <..>).
    lines = text.splitlines()
    faces = [
        (i, w) for i, line in enumerate(lines) if ":" in line for w in line.split(":", 1)[1].split() if "<" not in w
    ]
    (i, a), (j, b) = next((x, y) for x in faces for y in faces if x[1] != y[1])
    lines[i] = lines[i].replace(a, "#", 1)
    lines[j] = lines[j].replace(b, a, 1)
    lines[i] = lines[i].replace("#", b, 1)
    other = rules.from_text("\n".join(lines))
    assert not np.array_equal(enc.encode(other), enc.encode(state))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deserto_positions_a_seat_cannot_tell_apart_look_the_same(players: int) -> None:
    rules = Deserto(players=players)
    enc = DesertoEncoder(rules)
    rng = random.Random(f"deserto hidden {players}")
    differed = 0
    for state in random_positions(rules, rng, 20):
        for seat in range(players):
            obs = enc.encode(state, seat)
            assert obs.shape == (DESERTO_SIZE,) and (obs >= 0).all() and (obs <= enc.high).all()
            # what the seat cannot see adds up with what it can: 51 cards
            assert int(obs[0:4].sum() + obs[24:28].sum() + obs[37:61].sum() + obs[61:65].sum()) == 51
            for _ in range(3):
                other = rules.sample(state, seat, rng)
                differed += other != state
                assert np.array_equal(enc.encode(other, seat), obs)
                assert enc.text(other, seat) == enc.text(state, seat)
    assert differed > 50


def test_deserto_observations_differ_by_seat_and_show_the_own_hand() -> None:
    rules = Deserto(players=2)
    state = rules.deal(0)
    enc = DesertoEncoder(rules)
    for seat in range(2):
        hand = enc.encode(state, seat)[0:4].tolist()
        assert hand == [state.hands[seat].count(k) for k in range(4)]

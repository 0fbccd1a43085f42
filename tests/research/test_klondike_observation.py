"""Klondike's fast observation is the generic one, number for number."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardtable.games import rules_for
from cardtable.research.klondike_observation import KlondikeEncoder
from cardtable.research.observations import SolitaireEncoder, solitaire_encoder


@pytest.mark.parametrize("options", [{"draw": 3}, {"draw": 1}, {"draw": 3, "redeals": 2}])
def test_the_fast_observation_is_the_generic_one_along_random_games(options: dict[str, int]) -> None:
    rules = rules_for("klondike", **options)
    fast, generic = KlondikeEncoder(rules), SolitaireEncoder(rules)
    rng = random.Random(str(options))
    checked = 0
    for deal in range(12):
        state = rules.deal(deal)
        for _ in range(150):
            a, b = fast.encode(state), generic.encode(state)
            assert a.dtype == b.dtype == np.int16 and a.shape == b.shape
            assert np.array_equal(a, b), (deal, np.flatnonzero(a != b))
            checked += 1
            legal = rules.legal_moves(state)
            if not legal:
                break
            state = rules.apply(state, rng.choice(legal))
    assert checked > 1000


def test_klondike_declares_it() -> None:
    assert type(solitaire_encoder(rules_for("klondike"))) is KlondikeEncoder
    assert type(solitaire_encoder(rules_for("desturado"))) is SolitaireEncoder

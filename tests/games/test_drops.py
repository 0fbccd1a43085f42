"""Where moves happen on the table (``move_places``) and the moves that drops of cards make
(``drop_move``), for every game: checked against the display, position after position of
random play, and drop by drop for the refusals."""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import IllegalMoveError, MoveParseError, NotYourTurnError
from cardtable.core.rules import MovePlaces, Rules
from cardtable.games import specs
from cardtable.games.deserto import GIFT, PLACE, THIEF, TREASURE, Deserto
from cardtable.games.klondike import Klondike
from tests.games import test_demonthief, test_desturado, test_klondike
from tests.games.test_deserto import layout as deserto_layout
from tests.games.test_devils_square import layout as square_layout

VARIANTS = [(spec.name, dict(options)) for spec in specs() for options in spec.variants]


def positions(name: str, options: dict[str, Any], deals: int = 4, length: int = 80) -> list[Any]:
    """Positions of random play from a few deals (the last one of each line included)."""
    rng = random.Random(f"{name} {options}")
    found = []
    for deal in range(deals):
        game = cardtable.new_game(name, deal=deal, **options)
        found.append(game.state)
        for _ in range(length):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            found.append(game.state)
    return found


def klondike_state(text: str) -> Any:
    """A position of ``test_klondike.layout`` text, read without the checks that a deal and play reach it."""
    return Klondike()._read(text)


def cards(pile: list[tuple[int, bool]]) -> list[int]:
    return [card for card, _ in pile]


def lands(rules: Rules[Any, Any], state: Any, move: Any, places: MovePlaces) -> bool:
    """Whether the cards ``places`` names leave its ``src`` and lie on top of its ``dst`` after
    the move, read from the display before and after (not how the rules compute it)."""
    before, after = rules.piles(state), rules.piles(rules.apply(state, move))
    src, dst = places.src, places.dst
    if places.card is not None:  # one chosen card out of a hand, which may draw after it
        left = Counter(cards(before[src]))
        left[places.card] -= 1
        return Counter(cards(after[dst])) - Counter(cards(before[dst])) == Counter([places.card]) and not (
            left - Counter(cards(after[src]))
        )
    kept = len(before[src]) - places.n
    moved = cards(before[src])[kept:]
    return cards(after[src])[:kept] == cards(before[src])[:kept] and cards(after[dst])[-len(moved) :] == moved


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_every_legal_move_lands_where_its_places_say_and_its_drop_makes_it(name: str, options: dict[str, Any]) -> None:
    rules = cardtable.new_game(name, deal=0, **options).rules
    checked = stock = 0
    for state in positions(name, options):
        piles = rules.piles(state)
        for move in rules.legal_moves(state):
            places = rules.move_places(state, move)
            assert isinstance(places, MovePlaces)
            assert places.src in piles and places.dst in piles and places.src != places.dst
            if places.n == 0:  # the stock as a whole: no drop makes it
                assert places.card is None and "stock" in (places.src, places.dst)
                stock += 1
                continue
            if places.card is None:
                index = len(piles[places.src]) - places.n
                assert index >= 0 and all(up for _, up in piles[places.src][index:])
            else:
                index = cards(piles[places.src]).index(places.card)
                assert places.n == 1
            assert rules.drop_move(state, places.src, index, places.dst) == move, (str(move), places)
            after = rules.apply(state, move)
            made_book = name == "devils-square" and after.books > state.books
            won_piles = name == "deserto" and after.captured != state.captured
            if not (made_book or won_piles):
                assert lands(rules, state, move, places), (str(move), places)
            checked += 1
    assert checked > 200
    assert stock > 0 or name not in ("klondike", "demonthief", "demons-and-thieves")


def test_the_foundation_named_is_the_one_that_takes_the_card() -> None:
    # 2H goes home on the hearts foundation; 3S on the spades one.
    state = klondike_state(test_klondike.layout({1: "2H", 2: "3S"}, found=(1, 0, 1, 2), rest=1))
    rules = cardtable.rules_for("klondike")
    assert [rules.move_places(state, m) for m in rules.legal_moves(state)][:2] == [
        MovePlaces("1", "fh", 1),
        MovePlaces("2", "fs", 1),
    ]
    # Demonthief: the first foundation that takes the card, as the move is applied.
    text = test_demonthief.layout(base="7", tab={5: "6S"})
    state = test_demonthief.state_of(text)
    move = test_demonthief.DT.parse_move("5f")
    places = test_demonthief.DT.move_places(state, move)
    home = int(places.dst[1:]) - 1
    assert test_demonthief.DT.apply(state, move).foundations[home] == state.tableau[4][-1]


@pytest.mark.parametrize("name", ["klondike", "demonthief", "demons-and-thieves"])
def test_a_card_dropped_on_a_foundation_goes_home_unless_that_foundation_cannot_stand_for_its_own(name: str) -> None:
    """A drop on any foundation plays "to its foundation"; it is refused when the legal move
    goes to another foundation and the one dropped on holds cards with another top card."""
    rules = cardtable.rules_for(name)
    refused = accepted_elsewhere = 0
    for state in positions(name, {}, deals=6):
        piles = rules.piles(state)
        homes = [p for p in piles if p.startswith("f")]
        for move in rules.legal_moves(state):
            places = rules.move_places(state, move)
            if places.dst not in homes:
                continue
            index = len(piles[places.src]) - 1
            for home in homes:
                here, there = piles[home], piles[places.dst]
                if home == places.dst or not here or (there and here[-1][0] == there[-1][0]):
                    assert rules.drop_move(state, places.src, index, home) == move
                    accepted_elsewhere += home != places.dst
                else:
                    with pytest.raises(IllegalMoveError, match=r"^that card goes to .*, not here$"):
                        rules.drop_move(state, places.src, index, home)
                    refused += 1
    assert refused > 0 and accepted_elsewhere > 0


def test_klondike_wrong_foundation_message() -> None:
    rules = cardtable.rules_for("klondike")
    state = klondike_state(test_klondike.layout({1: "2H"}, found=(1, 0, 1, 0), rest=1))
    with pytest.raises(IllegalMoveError) as err:
        rules.drop_move(state, "1", len(state.tableau[0]) - 1, "fc")
    assert str(err.value) == "that card goes to the hearts foundation, not here"
    assert str(rules.drop_move(state, "1", len(state.tableau[0]) - 1, "fd")) == "1f"  # empty: as good


def test_an_illegal_drop_of_the_right_shape_is_a_move_the_game_explains() -> None:
    game = cardtable.new_game("klondike", deal=0)
    move = game.rules.drop_move(game.state, "1", 0, "2")
    assert str(move) == "12"
    with pytest.raises(IllegalMoveError, match=r"^illegal move 12: rule 3: "):
        game.play(move)
    desturado = cardtable.new_game("desturado", layout=textwrap.dedent(test_desturado.WON_IN_ONE))
    back = desturado.rules.drop_move(desturado.state, "2", 0, "a")  # a hand stack onto the board
    assert str(back) == "2a"
    with pytest.raises(IllegalMoveError, match="rule 6"):
        desturado.play(back)


def refused(name: str, state: Any, src: str, index: int, dst: str, **options: Any) -> str:
    """The message of a drop refused as no move of the game."""
    with pytest.raises(MoveParseError) as err:
        cardtable.rules_for(name, **options).drop_move(state, src, index, dst)
    return str(err.value)


def test_drops_no_move_of_klondike_has_the_shape_of() -> None:
    state = cardtable.rules_for("klondike").deal(0)
    assert refused("klondike", state, "3", 2, "nowhere") == "no pile 'nowhere' on this table"
    assert refused("klondike", state, "nowhere", 0, "3") == "no pile 'nowhere' on this table"
    assert refused("klondike", state, "3", 2, "3") == "the cards are already on that pile"
    assert refused("klondike", state, "3", 3, "4") == "pile 3 has no card 3"
    assert refused("klondike", state, "3", -1, "4") == "pile 3 has no card -1"
    assert refused("klondike", state, "3", 0, "4") == "a face-down card cannot be moved"
    assert refused("klondike", state, "stock", 23, "4") == "a face-down card cannot be moved"
    assert refused("klondike", state, "3", 2, "w") == "no card may be put on the waste"
    assert refused("klondike", state, "3", 2, "stock") == "no card may be put on the stock"
    drawn = cardtable.rules_for("klondike").apply(state, cardtable.rules_for("klondike").parse_move("d"))
    assert refused("klondike", drawn, "w", 0, "3") == "only the top card of the waste moves"
    two = klondike_state(test_klondike.layout({1: "KS QH"}, found=(1, 1, 1, 1), rest=1))
    assert refused("klondike", two, "1", len(two.tableau[0]) - 2, "fh") == "one card at a time goes to a foundation"
    assert refused("klondike", two, "fc", 0, "fd") == (
        "a card on a foundation goes back to the tableau, not to another foundation"
    )
    assert refused("klondike", two, "1", 0, "2") == "a face-down card cannot be moved"


def test_drops_no_move_of_demonthief_has_the_shape_of() -> None:
    rules = test_demonthief.DT
    state = rules.deal(0)
    assert refused("demonthief", state, "f1", 0, "1") == "a card on a foundation stays there"
    for pile, label in (("x", "reserve"), ("w", "waste"), ("stock", "stock")):
        assert refused("demonthief", state, "8", 7, pile) == f"no card may be put on the {label}"
    assert refused("demonthief", state, "x", 0, "1") == "a face-down card cannot be moved"
    assert str(rules.drop_move(state, "x", 12, "5")) == "x5"
    assert str(rules.drop_move(state, "8", 6, "1")) == "81:2"  # two cards: a group, legal or not
    waste = test_demonthief.state_of(test_demonthief.layout(tab=test_demonthief.SHORT, waste="JS QS QC"))
    assert refused("demonthief", waste, "w", 1, "5") == "only the top card of the waste moves"
    assert refused("demonthief", waste, "2", 1, "f2") == "one card at a time goes to a foundation"


def test_drops_no_move_of_desturado_has_the_shape_of() -> None:
    rules = cardtable.rules_for("desturado", mode="hard")
    state = rules.deal(0)
    assert refused("desturado", state, "a", 11, "a", mode="hard") == "the cards are already on that pile"
    assert refused("desturado", state, "a", 3, "b", mode="hard") == "a face-down card cannot be moved"
    assert refused("desturado", state, "d", 0, "a", mode="hard") == "no pile 'd' on this table"
    whole = cardtable.new_game("desturado", layout=textwrap.dedent(test_desturado.WON_IN_ONE))
    assert (
        refused("desturado", whole.state, "1", 1, "2")
        == "a unit moves whole: the unit of hand space 1 is its top 5 card(s)"
    )


def test_drops_no_move_of_devils_square_has_the_shape_of() -> None:
    state = cardtable.rules_for("devils-square").deal(0)
    assert refused("devils-square", state, "a1", 0, "draw") == "no card may be put on the draw pile"
    assert refused("devils-square", state, "draw", 0, "a1") == "a face-down card cannot be moved"
    three = cardtable.new_game("devils-square", layout=square_layout({"a1": "1RK 2RA 3RS", "b1": "4RC"})).state
    assert str(cardtable.rules_for("devils-square").drop_move(three, "a1", 0, "b1")) == "a1b1:3"


def test_deserto_drops() -> None:
    rules = Deserto(players=3)
    state = rules._read(deserto_layout("to move: 1\n1: T\nhand 0: V\nhand 1: G T\nhand 2: O", players=3))
    assert rules.drop_move(state, "hand 1", 0, "2") == PLACE[THIEF][1]
    assert rules.drop_move(state, "hand 1", 1, "won 0") == GIFT[TREASURE]  # illegal (a card can be placed): play says
    assert rules.move_places(state, PLACE[THIEF][1]) == MovePlaces("hand 1", "2", 1, THIEF)
    with pytest.raises(NotYourTurnError, match=r"^it is seat 1's turn, not seat 0's$"):
        rules.drop_move(state, "hand 0", 0, "2")
    with pytest.raises(NotYourTurnError, match=r"^it is seat 1's turn, not seat 2's$"):
        rules.drop_move(state, "hand 2", 0, "won 1")
    assert refused("deserto", state, "hand 1", 0, "won 2", players=3) == (
        "a card goes to an area position (1 to 4), or as a gift to the previous seat's winnings (won 0)"
    )
    assert refused("deserto", state, "hand 1", 0, "deck", players=3).startswith("a card goes to an area position")
    assert refused("deserto", state, "hand 1", 2, "2", players=3) == "pile hand 1 has no card 2"
    assert (
        refused("deserto", state, "1", 0, "2", players=3)
        == "cards are played from the hand of the seat to move (hand 1)"
    )
    over = rules._read(deserto_layout("to move: none\ncaptured 0: T", players=3, rest="captured 1"))
    with pytest.raises(NotYourTurnError, match="the game is over"):
        rules.drop_move(over, "hand 0", 0, "1")


def test_a_game_that_does_not_say_where_its_moves_happen_says_so() -> None:
    class Silent(Klondike):
        name = "silent"
        move_places = Rules.move_places
        _drop_move = Rules._drop_move

    rules = Silent()
    state = rules.deal(0)
    with pytest.raises(NotImplementedError, match=r"^silent does not say which piles a move touches$"):
        rules.move_places(state, rules.legal_moves(state)[0])
    with pytest.raises(NotImplementedError, match=r"^silent does not say which move a drop of cards makes$"):
        rules.drop_move(state, "3", 2, "4")

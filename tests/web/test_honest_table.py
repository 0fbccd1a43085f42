"""The honest table (issue 26): nothing the player cannot see decides what the table says or
allows. Over the API (no browser): the end follows the rules texts, a legal move is never
refused, autocomplete only from cards seen, the plain hint from the face-up cards only, the
solver and the loss warning say that they look at the face-down cards.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core.game import Game
from cardtable.hints import honest_hint, seen_only, visible_hint
from cardtable.solve.solver import solve
from cardtable.web import create_app
from cardtable.web.table_hints import SeenCards, TableHints, unseen

from .helpers import act, new

SAMPLES = 12
"""Imagined deals a candidate move in the tests of the plain hint's decisions."""

SOLITAIRES = [s.name for s in cardtable.games.specs() if s.one_player and s.table is not None]


def moves(text: str) -> list[str]:
    """A line of moves written as one text."""
    return text.split()


DEMONTHIEF_8_LAST_CARD = moves(
    "78 d d d d d d d d d d d d d d d d d d wf 5f xf d d d d d d x1 d d d d d d d d d d d wf d d d d d d wf d d d wf d"
)
"""Demonthief deal 8 after these moves: one face-down stock card is left, and the deal is lost
(the solver, which looks at that card, proves it). At the table the draw is legal, so it is
allowed; the rules' end waits for it too (a draw changes the position)."""

DEMONTHIEF_1041_UNSEEN = moves(
    "3f 8f x3 x2 xf 24:2 x2 x4 73 5f 5f 51 25 x2 52 d wf 25 d d wf 52 d d d wf 25 d d d d d wf 52 d d d d d d wf 25 "
    "d d d d wf w5 45:4 x4 14:2 x1 31:2 x3 13:3 x1 61 62 16:2 x1 x1"
)
"""Demonthief deal 1041 after 61 moves of a winning line: every tableau and reserve card is face
up, but 25 stock cards were never seen. The solver finishes from there (through the stock), so
an offer of autocomplete would tell the player the stock is good."""


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(":memory:", hint_seconds=0.3), base_url="http://localhost")


def play(client: TestClient, table: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    for move in moves:
        response = act(client, table, "move", move=move)
        assert response.status_code == 200, (move, response.text)
        table = response.json()
    return table


def test_the_last_stock_card_may_be_drawn_though_the_deal_is_lost(client: TestClient) -> None:
    game = cardtable.new_game("demonthief", deal=8)
    for move in DEMONTHIEF_8_LAST_CARD:
        game.play(move)
    # The deal is lost (the solver, which looks at the card), but a draw changes the
    # position: not over by the rules (before one-way counts, the library's end said over).
    assert len(game.state.stock) == 1 and not game.outcome.over
    assert cardtable.solve(game, seconds=10).verdict == "unsolvable"
    table = play(client, new(client, game="demonthief", deal=8), DEMONTHIEF_8_LAST_CARD)
    assert not table["outcome"]["over"] and table["outcome"]["reason"] is None and table["result"] is None
    draw = next(m for m in table["legal"] if m["from"] == "stock")
    assert draw["words"] == "Draw a card"
    response = act(client, table, "move", move=draw["move"])
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["told"] == ["Draw a card."]
    assert not next(p for p in after["piles"] if p["name"] == "stock")["cards"]
    # The game ends when no legal move is left, as the rules texts say; then it counts as lost.
    rng = random.Random(8)
    while not after["outcome"]["over"]:
        after = act(client, after, "move", move=rng.choice(after["legal"])["move"]).json()
    assert after["legal"] == [] and after["result"] == "lost"
    assert after["outcome"]["reason"] == "Game over: there are no more valid moves to play."
    rows = client.get("/api/stats").json()["rows"]
    assert (rows[0]["played"], rows[0]["won"]) == (1, 0)


def test_the_loss_warning_is_asked_for_and_says_it_looks_at_the_face_down_cards(client: TestClient) -> None:
    table = play(client, new(client, game="demonthief", deal=8), DEMONTHIEF_8_LAST_CARD)
    answer = act(client, table, "verdict").json()
    assert answer["verdict"]["status"] == "lost" and "face-down cards" in answer["verdict"]["text"]
    assert answer["hints"] == 0  # not a hint
    # The player may play on: the warning refuses nothing.
    assert act(client, answer, "move", move="d").status_code == 200
    fresh = new(client, game="klondike", deal=8)
    assert act(client, fresh, "verdict").json()["verdict"]["status"] == "unknown"


def test_autocomplete_is_not_offered_while_stock_cards_were_never_seen(client: TestClient) -> None:
    game = cardtable.new_game("demonthief", deal=1041)
    for move in DEMONTHIEF_1041_UNSEEN:
        game.play(move)
    face_down = [name for row in game.rules.display(game.state) for name, p in row for _, up in p if not up]
    assert set(face_down) == {"stock"} and len(face_down) == 25
    assert solve(game, seconds=5).solved  # the finish exists, through cards never seen
    assert sum(unseen(game).values()) == 25 and TableHints().finish(game) is None
    table = play(client, new(client, game="demonthief", deal=1041), DEMONTHIEF_1041_UNSEEN)
    assert table["finish"] is False
    refused = act(client, table, "finish")
    assert refused.status_code == 422 and "seen" in refused.json()["error"]


def _seen_by_value(game: Game[Any, Any]) -> set[int]:
    """Every card that was face up in some position of the game so far (an independent oracle)."""
    assert game.deal is not None
    state = game.rules.deal(game.deal)
    seen = {c for row in game.rules.display(state) for _, p in row for c, up in p if up}
    for move in game.moves:
        state = game.rules.apply(state, move)
        seen |= {c for row in game.rules.display(state) for _, p in row for c, up in p if up}
    return seen


@pytest.mark.parametrize("name", ["klondike", "demons-and-thieves"])
def test_autocomplete_is_offered_only_from_cards_seen(name: str) -> None:
    """The rule, proved on every position of whole games (winning lines and random play, redeals
    included): when autocomplete is offered, every face-down card has been seen face up before;
    and once a card is seen it never counts as unseen again."""
    offered = 0
    for deal, how in ((8, "solver"), (5, "random"), (11, "random")):
        game = cardtable.new_game(name, deal=deal)
        line = solve(game, seconds=10).moves if how == "solver" else []
        rng = random.Random(deal)
        hints, memo = TableHints(), SeenCards()
        before = unseen(game, memo)
        for step in range(300):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(line[step] if step < len(line) else rng.choice(legal))
            after = unseen(game, memo)
            assert all(after[c] <= before[c] for c in after), "a seen card came back unseen"
            if hints.finish(game):
                offered += 1
                face_down = [c for row in game.rules.display(game.state) for _, p in row for c, up in p if not up]
                assert set(face_down) <= _seen_by_value(game)
                assert not after
            before = after
    if name == "klondike":
        assert offered > 0  # the rule lets autocomplete be offered at all


def _next_of(cards: Any) -> Any:
    """A ``re.sub`` replacement that writes the next of ``cards`` as a face-down card."""
    return lambda _: f"<{next(cards)}>"


@pytest.mark.parametrize("name", SOLITAIRES)
def test_the_plain_hint_never_depends_on_face_down_cards(name: str) -> None:
    """Positions a player cannot tell apart (the face-down cards dealt again in another order)
    get the same plain hint, in the same words."""
    rng = random.Random(name)
    checked = 0
    for deal in range(6):
        game = _played(name, deal, rng.randrange(0, 30), rng)
        text = game.to_text()
        hidden = re.findall(r"<([^<>]+)>", text)
        if len(set(hidden)) < 2:
            continue
        hint = visible_hint(game)
        for _ in range(3):
            shuffled = hidden[:]
            rng.shuffle(shuffled)
            layout = re.sub(r"<([^<>]+)>", _next_of(iter(shuffled)), text)
            other = cardtable.new_game(name, layout=layout)
            assert other.state != game.state or shuffled == hidden
            assert seen_only(other.rules, other.state) == seen_only(game.rules, game.state)
            again = visible_hint(other)
            assert (str(again.move), again.text) == (str(hint.move), hint.text)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("name", SOLITAIRES)
def test_the_tables_plain_hint_is_the_honest_players_and_never_depends_on_face_down_cards(name: str) -> None:
    """The table's plain hint is the honest player's move (what it would play with what the
    player has seen), and positions a player cannot tell apart (the face-down cards dealt again
    in another order, after the same moves) get the same plain hint, in the same words."""
    rng = random.Random(name)
    checked = 0
    for deal in range(2):
        game = _played(name, deal, rng.randrange(5, 25), rng)
        hidden = re.findall(r"<([^<>]+)>", game.to_text())
        if len(set(hidden)) < 2:
            continue
        # No time limit (the same decision on any machine), and fewer imagined deals than the
        # table's (HONEST_SAMPLES: seconds a decision here): the claims hold at any count.
        hint = TableHints().plain(game, seconds=None, samples=SAMPLES)
        assert (hint["move"] is None) == (not game.legal_moves())  # a move whenever one is legal
        # The honest player's decision in a game its player cannot tell from this one: the
        # table's hint must be it (two decisions show both claims; each costs seconds here).
        other = _redealt(game, rng)
        honest = honest_hint(other, seconds=None, samples=SAMPLES)
        assert (hint["move"], hint["text"]) == (None if honest.move is None else str(honest.move), honest.text)
        assert hint["source"] == "plain" and honest.source == "honest"
        checked += 1
    assert checked == 2


def _played(name: str, deal: int, moves: int, rng: random.Random) -> Any:
    """Deal ``deal`` of ``name`` after up to ``moves`` random legal moves (fewer when none is left)."""
    game = cardtable.new_game(name, deal=deal)
    for _ in range(moves):
        if not game.legal_moves():
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def _redealt(game: Any, rng: random.Random) -> Any:
    """The same game (deal, moves) with the cards never seen face up in it dealt again in
    another order among their places: a game its player cannot tell from ``game``."""
    rules = game.rules
    seen: Counter[int] = Counter()
    for state in game.positions():
        seen |= Counter(rules.deck()) - Counter(rules.face_down(state))
    start = rules.deal(game.deal)
    down = list(rules.face_down(start))
    places = [i for i, c in enumerate(down) if not seen[c]]
    cards = [down[i] for i in places]
    shuffled = cards[:]
    while shuffled == cards and len(set(cards)) > 1:
        rng.shuffle(shuffled)
    for i, c in zip(places, shuffled, strict=True):
        down[i] = c
    layout = rules.to_text(rules.with_face_down(start, down))
    other = cardtable.new_game(rules.name, layout=layout, **game.options)
    for move in game.moves:
        other.play(str(move))
    assert other.state != game.state
    return other


def test_the_hints_say_what_they_know(client: TestClient) -> None:
    table = new(client, game="klondike", deal=0)
    plain = act(client, table, "hint", kind="plain").json()
    assert plain["hint"] == {
        "move": "d",
        "source": "plain",
        "status": "unknown",
        "text": "Draw three cards: a look at cards you have not seen, which costs nothing "
        "(the stock comes round to here again).",
    }
    assert plain["hints"] == 0  # looking at the table is not counted
    solver = act(client, table, "hint").json()
    assert solver["hint"]["text"].startswith("The solver sees the face-down cards: ")
    assert not re.search(r"\b(?:[1-7]f|[1-7]{2}|w[1-7f]|d)\b", solver["hint"]["text"])  # words, not notation
    assert act(client, table, "hint", kind="psychic").status_code == 400


def test_the_end_at_the_table_is_the_rules_end() -> None:
    """Over at the table exactly when the library's seen_outcome says so, in every game: won
    or no legal move left, and, where the exact over reads nothing hidden
    (Rules.OVER_SEES_HIDDEN False), also when no move can change the position."""
    client = TestClient(create_app(":memory:"), base_url="http://localhost")
    ended_with_moves_left = set()
    for name in SOLITAIRES:
        rng = random.Random(name)
        table = new(client, game=name, deal=2)
        game = cardtable.new_game(name, deal=2)
        for _ in range(300):
            assert [m["move"] for m in table["legal"]] == [str(m) for m in game.legal_moves()]
            over = table["outcome"]["over"]
            assert over == game.seen_outcome.over
            if game.rules.OVER_SEES_HIDDEN:
                assert over == (table["outcome"]["won"] or not table["legal"])
            else:
                assert over == game.outcome.over
            if over:
                if table["legal"]:
                    ended_with_moves_left.add(name)
                    assert table["outcome"]["reason"].startswith("Game over: no move can change the position")
                break
            move = rng.choice(table["legal"])["move"]
            table = act(client, table, "move", move=move).json()
            game.play(move)
    assert ended_with_moves_left  # the walk reaches such an end in some game


def test_moves_refusals_and_logs_speak_in_words(client: TestClient) -> None:
    table = new(client, game="klondike", deal=0)
    words = {m["move"]: m["words"] for m in table["legal"]}
    assert words["3f"] == "Move A♠ to the spades foundation" and words["d"] == "Draw three cards"
    refused = act(client, table, "move", move="35").json()["error"]
    assert refused == "Not allowed: A♠ cannot go on 10♠ (needs the other colour and one rank lower) (rule 3)."
    table = act(client, table, "move", move="3f").json()
    assert table["told"] == ["Move A♠ to the spades foundation."]
    assert act(client, table, "undo").json()["told"] == ["Taken back: Move A♠ to the spades foundation."]
    for name in SOLITAIRES:
        table = new(client, game=name, deal=4)
        for move in table["legal"]:
            assert move["words"] and move["move"] not in move["words"].split(), move


def test_a_restart_after_moves_counts_as_a_loss(client: TestClient) -> None:
    table = new(client, game="klondike", deal=3)
    table = act(client, table, "move", move="d").json()
    table = act(client, table, "restart").json()
    assert table["at"] == 0 and table["started"] is None and table["result"] is None
    rows = client.get("/api/stats").json()["rows"]
    assert (rows[0]["played"], rows[0]["won"]) == (1, 0)
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table["id"]]


def test_deal_numbers_javasolitaire_s_way(client: TestClient) -> None:
    table = new(client, game="klondike", deal=5, options={"numbering": "javasol"})
    assert table["label"] == "Random (JavaSolitaire 5)" and table["options"]["numbering"] == "javasol"
    game = cardtable.new_game("klondike", deal=5, numbering="javasol")
    shown = Counter(c["face"]["text"] for p in table["piles"] for c in p["cards"] if c["up"])
    assert shown == Counter(
        game.rules.card_text(c) for row in game.rules.display(game.state) for _, p in row for c, up in p if up
    )
    assert client.get("/api/tables").json()["tables"][0]["label"] == "Random (JavaSolitaire 5)"


@pytest.mark.parametrize("name", cardtable.GAMES)
def test_the_rules_pages_are_pages_for_players(client: TestClient, name: str) -> None:
    data = client.get(f"/api/rules/{name}").json()
    html = data["html"]
    assert html.startswith("<h1>") and "<table>" in html
    assert "*i*" not in html and "](" not in html and 'href="../' not in html and "../deals.md" not in html
    assert "<script" not in html
    assert data["layout"].startswith("<svg") and 'role="img"' in data["layout"]


def test_a_table_holds_a_bounded_number_of_moves() -> None:
    # Each move stores the whole game again, so a table played on for ever slowed its own
    # requests without end (found by the bad-input audit). At the cap a move is refused,
    # the table unchanged; an undo makes room again.
    from cardtable.web.database import Database
    from cardtable.web.errors import TableError
    from cardtable.web.solitaire_tables import MAX_MOVES, SolitaireTables

    assert MAX_MOVES == 10_000
    tables = SolitaireTables(Database(":memory:"), max_moves=3)
    table = tables.create("me", "klondike", {}, deal=0)
    for _ in range(3):
        table = tables.play("me", table["id"], table["at"], move="d")
    with pytest.raises(TableError, match="at most 3 moves") as refused:
        tables.play("me", table["id"], table["at"], move="d")
    assert refused.value.kind == "too-many" and refused.value.status == 429
    after = tables.get("me", table["id"])
    assert (after["at"], after["piles"], after["legal"]) == (table["at"], table["piles"], table["legal"])
    table = tables.undo("me", table["id"], table["at"])
    assert tables.play("me", table["id"], table["at"], move="d")["at"] == 3

"""The bots: the registry, legality, deciding from the seat's knowledge only, greedy's rules, random's spread."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import bots
from cardtable.bots import tactics
from cardtable.bots.ismcts import IsmctsBot, Node, greedy_choice, reward
from cardtable.bots.seat import Seat
from cardtable.bots.tournament import run_tournament
from cardtable.core.errors import NotYourTurnError, OptionError
from cardtable.core.multiplayer import MultiplayerGame, MultiplayerRules, Result
from cardtable.games.deserto import Deserto, DesertoEvent
from tests.games.test_deserto import layout

SMALL = {"ismcts": {"iterations": 30}}
"""Small budgets keep the tests fast."""


def make(name: str, seed: int = 0) -> bots.Bot:
    return bots.make(name, seed=seed, **SMALL.get(name, {}))


def deserto(text: str, players: int = 2, rest: str = "deck") -> MultiplayerGame[Any, Any]:
    """The game at a position made for a test (its spare cards make a deck bigger than a deal
    leaves, say), read without the checks that a deal and play reach it: the rules play any position."""
    rules = Deserto(players=players)
    return MultiplayerGame(rules, rules._read(layout(text, players, rest)))


def wins(game: MultiplayerGame[Any, Any], move: Any) -> bool:
    """Whether ``move`` wins piles (its event says so)."""
    event = game.rules.public_move(game.state, move, 0)
    return isinstance(event, DesertoEvent) and bool(event.captures)


def random_positions(players: int, count: int, seed: int) -> list[MultiplayerGame[Any, Any]]:
    """Positions reached by random play from random deals."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        game = cardtable.new_game("deserto", deal=rng.randrange(10**6), players=players)
        for _ in range(rng.randrange(45)):
            if game.to_move is None:
                break
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
        if game.to_move is not None:
            found.append(game)
    return found


def test_the_registry() -> None:
    assert bots.BOTS == ("random", "greedy", "ismcts")
    for name in bots.BOTS:
        assert bots.make(name, seed=1).name == name
    bot = bots.make(" ISMCTS ", seconds=0.01)
    assert isinstance(bot, IsmctsBot) and bot.seconds == 0.01


@pytest.mark.parametrize(
    ("name", "budget", "words"),
    [
        ("nobody", {}, "unknown bot 'nobody'"),
        ("greedy", {"iterations": 5}, "takes no budget keyword 'iterations'"),
        ("ismcts", {"depth": 5}, "takes no budget keyword 'depth'"),
        ("ismcts", {"iterations": 0}, "at least 1"),
        ("ismcts", {"iterations": 2.5}, "whole number"),
        ("ismcts", {"seconds": -1}, "above 0"),
        ("ismcts", {"seconds": float("inf")}, "at most 86400"),  # before: a search without end
        ("ismcts", {"seconds": 1e300}, "at most 86400"),
        ("ismcts", {"seconds": float("nan")}, "above 0"),
    ],
)
def test_make_refuses_unknown_names_and_budgets(name: str, budget: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        bots.make(name, **budget)


@pytest.mark.parametrize("name", bots.BOTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_chooses_a_legal_move_in_random_positions(name: str, players: int) -> None:
    count = 8 if name == "ismcts" else 40
    for i, game in enumerate(random_positions(players, count, seed=players)):
        seat = game.to_move
        assert seat is not None
        assert make(name, seed=i).choose(game, seat) in game.legal_moves()


@pytest.mark.parametrize("name", bots.BOTS)
def test_bots_play_whole_games(name: str) -> None:
    game = cardtable.new_game("deserto", deal=11, players=3)
    players = [make(name, seed=s) for s in range(3)]
    while (seat := game.to_move) is not None:
        game.play(players[seat].choose(game, seat), seat=seat)
    assert game.outcome.over


@pytest.mark.parametrize("name", bots.BOTS)
def test_a_bot_only_moves_for_the_seat_to_move(name: str) -> None:
    game = cardtable.new_game("deserto", deal=0)
    with pytest.raises(NotYourTurnError):
        make(name).choose(game, 1)


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_that_differ_only_in_hidden_cards_get_the_same_move(name: str, players: int) -> None:
    for i, game in enumerate(random_positions(players, 20, seed=10 + players)):
        seat = game.to_move
        assert seat is not None
        other = game.sample(seat, random.Random(1))
        assert other.view(seat) == game.view(seat)
        assert make(name, seed=i).choose(game, seat) == make(name, seed=i).choose(other, seat)


def test_ismcts_decides_from_the_view_only() -> None:
    """Two games with the same view for the seat but different hidden cards make ISMCTS
    (same seed) choose the same move: it reads nothing but its Seat, and a sample
    depends only on what the seat knows and the random stream."""
    for i, game in enumerate(random_positions(3, 6, seed=5)):
        seat = game.to_move
        assert seat is not None
        other = game.sample(seat, random.Random(2))
        assert other.view(seat) == game.view(seat) and other.state != game.state
        bot_a = bots.make("ismcts", seed=i, iterations=40)
        bot_b = bots.make("ismcts", seed=i, iterations=40)
        assert bot_a.choose(game, seat) == bot_b.choose(other, seat)


def test_a_seat_window_gives_nothing_hidden() -> None:
    game = cardtable.new_game("deserto", deal=3, players=3)
    seat = Seat(game, 1)
    assert [name for name in dir(seat) if not name.startswith("_")] == [
        "legal_moves",
        "rules",
        "sample",
        "seat",
        "view",
    ]
    with pytest.raises(NotYourTurnError):
        seat.legal_moves()
    assert seat.sample(random.Random(1)).view(1) == game.view(1)


@pytest.mark.parametrize(
    ("text", "best"),
    [
        # a thief wins the treasure pile next to it (3 cards) rather than placing elsewhere
        ("1: G G\n2: O\n3: V\n4: O\nhand 0: T O G", "T2"),  # T covers the oasis at 2, next to the treasure at 1
        # a vizier wins a thief pile
        ("1: T\nhand 0: V O G", "V2"),
        # two piles at once beat one
        ("1: T\n2: O\n3: V\n4: T T\nhand 0: V V O", "V2"),
        # four viziers win the whole area
        ("1: V\n2: V G\n3: V T\n4: O\nhand 0: V O G", "V4"),
    ],
)
def test_greedy_captures_the_most(text: str, best: str) -> None:
    game = deserto(text)
    move = bots.make("greedy").choose(game, 0)
    assert str(move) == best
    captured = [m for m in game.legal_moves() if wins(game, m)]
    assert move in captured


def test_greedy_does_not_offer_a_capture_when_it_need_not() -> None:
    # Nothing to win: the greedy bot places where the next player can win nothing at once.
    game = deserto("1: O\nhand 0: T G O")
    move = bots.make("greedy").choose(game, 0)
    assert tactics.threat(*tactics.state_area(game.rules.apply(game.state, move).area)) == 0


def test_greedy_gives_the_card_least_worth_keeping() -> None:
    # No placement: a thief may not go on a thief, a treasure may not go next to a thief.
    game = deserto("1: T\n2: T\n3: T\n4: T\nhand 0: G G T")
    assert [str(m) for m in game.legal_moves()] == ["gT", "gG"]
    assert str(bots.make("greedy").choose(game, 0)) == "gG"


def test_random_spreads_its_choices_over_the_legal_moves() -> None:
    game = cardtable.new_game("deserto", deal=0)  # 8 legal moves
    bot = bots.make("random", seed=7)
    counts = Counter(str(bot.choose(game, 0)) for _ in range(800))
    assert set(counts) == {str(m) for m in game.legal_moves()}
    assert all(70 <= c <= 130 for c in counts.values()), counts  # 100 expected each; seeded, so never flaky


def test_the_same_seed_gives_the_same_game() -> None:
    def moves(seed: int) -> list[str]:
        game = cardtable.new_game("deserto", deal=4)
        players = [bots.make("ismcts", seed=seed, iterations=20), bots.make("random", seed=seed)]
        while (seat := game.to_move) is not None:
            game.play(players[seat].choose(game, seat), seat=seat)
        return [str(m) for m in game.moves]

    assert moves(1) == moves(1)


def test_the_reward() -> None:
    assert reward(Result.from_scores((30, 10)), 0) == pytest.approx(0.5 + 0.5 * 0.75)  # margin 20 of 40 cards
    assert reward(Result.from_scores((10, 30)), 0) == pytest.approx(0.5 * 0.25)
    assert reward(Result.from_scores((10, 10, 5)), 2) < reward(Result.from_scores((10, 10, 5)), 0)
    assert reward(Result.from_scores((10, 10, 5)), 0) == pytest.approx(0.5 / 2 + 0.5 * 0.5)
    # a win by one card is still worth more than a loss by one
    assert reward(Result.from_scores((20, 19, 1)), 0) > reward(Result.from_scores((19, 20, 1)), 0)


def test_the_playout_policy_remembers_the_greedy_move() -> None:
    for game in random_positions(4, 30, seed=5):
        moves = game.legal_moves()
        tops, sizes = tactics.state_area(game.state.area)
        assert greedy_choice(game.state, moves) == tactics.best(moves, tops, sizes)
        assert greedy_choice(game.state, moves) == tactics.best(moves, tops, sizes)  # from the memory


def test_the_ismcts_tree_holds_only_the_searching_seats_own_moves() -> None:
    game = cardtable.new_game("deserto", deal=3, players=4)
    for _ in range(5):  # a few moves in, so that the tree spans several of seat 1's turns
        mover = game.to_move
        assert mover is not None
        game.play(bots.make("greedy").choose(game, mover), seat=mover)
    seat = game.to_move
    assert seat is not None
    root = IsmctsBot(seed=3, iterations=200).search(Seat(game, seat))
    nodes: list[Node] = [root]
    depth = 0
    while nodes:
        assert all(n.mover == seat for n in nodes)
        nodes = [c for n in nodes for c in n.children.values()]
        depth += 1
    assert depth >= 3  # the root, the seat's move now and at least its next turn
    assert set(root.children) <= set(game.legal_moves())
    assert sum(c.visits for c in root.children.values()) == 200


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_takes_the_big_capture(players: int) -> None:
    # The deck is empty; a vizier next to the thief on six cards wins them all.
    hands = "\n".join(f"hand {s}: O" for s in range(1, players))
    text = f"1: G G G G G T\n2: O\nhand 0: V O G\n{hands}"
    game = deserto(text, players, rest="captured 1")
    move = bots.make("ismcts", seed=0, iterations=300).choose(game, 0)
    assert wins(game, move)


def test_a_registered_bot_plays_in_a_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.bots.tournament import run_tournament

    monkeypatch.setattr(bots, "_CLASSES", dict(bots._CLASSES))  # the registration ends with the test

    @bots.register
    class FirstMove(bots.Bot):
        name = "first-move"

        def decide(self, seat: Seat) -> Any:
            return seat.legal_moves()[0]

    game = cardtable.new_game("deserto", deal=0)
    assert bots.make("first-move").choose(game, 0) == game.legal_moves()[0]
    stats = run_tournament("deserto", ["first-move", "greedy"], games=2, seed=1)
    assert [s.name for s in stats] == ["first-move", "greedy"]
    assert sum(s.win_share for s in stats) == pytest.approx(1.0)
    with pytest.raises(OptionError, match="already registered"):
        bots.register(type("Other", (bots.Bot,), {"name": "first-move"}))


def test_a_bot_plays_only_the_games_that_list_it(toy_games: Any) -> None:
    from cardtable.bots.ismcts import greedy_policy, playout_policy, random_policy

    game = cardtable.new_game("toy-duel", deal=3)
    assert isinstance(game, MultiplayerGame)
    assert bots.make("random", seed=1).choose(game, 0) in game.legal_moves()
    for name in ("greedy", "ismcts"):
        with pytest.raises(OptionError, match=f"the {name} bot does not play Toy duel \\(its bots: random\\)"):
            make(name).choose(game, 0)
        with pytest.raises(OptionError, match="does not play"):
            bots.make(name).check_game("toy-duel")
    with pytest.raises(OptionError, match="does not play Klondike"):
        bots.make("random").check_game("klondike")
    # The search models the others by the greedy bot only where the game lists it.
    assert playout_policy(game.rules) is random_policy
    deserto_rules = cardtable.rules_for("deserto")
    assert isinstance(deserto_rules, MultiplayerRules)
    assert playout_policy(deserto_rules) is greedy_policy


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"options": {"players": 3}}, "the players and the deals are the tournament's"),
        ({"options": {"deal": 3}}, "the players and the deals are the tournament's"),
        ({"players": "greedy,random"}, "a list of bot names"),  # before: "players ... not 13"
        ({"workers": "2"}, "workers must be a whole number"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"progress": 5}, "progress must be a function"),  # before: refused after the first game
    ],
)
def test_a_tournament_is_checked_before_any_game(change: dict[str, Any], words: str) -> None:
    args: dict[str, Any] = {"game": "deserto", "players": ["greedy", "random"], "games": 2, "seed": 0, **change}
    with pytest.raises(OptionError, match=words):
        run_tournament(**args)

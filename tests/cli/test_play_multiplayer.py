"""`cardtable play deserto --players you,...`: the human sees only their seat's view; bots move in between."""

from __future__ import annotations

import re
from typing import Any

import pytest

import cardtable
from cardtable import bots
from cardtable.bots.tournament import bot_seed
from cardtable.core.multiplayer import MultiplayerGame
from cardtable.games.deserto import KINDS

from .runner import assert_one_line_error, run

PROMPT = "deserto> "


def hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(KINDS[c] for c in hand)


def simulate(deal: int, names: list[str]) -> tuple[MultiplayerGame[Any, Any], list[str], list[list[str]]]:
    """The game the session plays when the human plays their first legal move each turn:
    the game, the human's moves, and at each human turn every other seat's real hand."""
    game = cardtable.new_game("deserto", deal=deal, players=len(names))
    players = {s: bots.make(n, seed=bot_seed(deal, 0, s)) for s, n in enumerate(names) if n != "you"}
    human = names.index("you")
    script: list[str] = []
    hidden: list[list[str]] = []
    while (seat := game.to_move) is not None:
        if seat == human:
            hidden.append([hand_text(h) for s, h in enumerate(game.state.hands) if s != human])
            script.append(str(game.legal_moves()[0]))
            game.play(script[-1])
        else:
            game.play(players[seat].choose(game, seat), seat=seat)
    return game, script, hidden


def find_deal() -> int:
    """A deal where seat 1 starts with an oasis and seat 0 with none, so a leak would show an O."""
    rules = cardtable.rules_for("deserto", players=3)
    return next(d for d in range(1000) if 0 in rules.deal(d).hands[1] and 0 not in rules.deal(d).hands[0])


def test_the_human_sees_only_their_own_view_and_the_game_plays_out() -> None:
    deal = find_deal()
    names = ["you", "greedy", "random"]
    game, script, hidden = simulate(deal, names)
    result = run(["play", "deserto", "--deal", str(deal), "--players", ",".join(names)], "\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = result.stdout
    screens = out.split(PROMPT)
    assert len(screens) == len(script) + 1  # one prompt a human turn
    first = screens[0]
    assert "seats: seat 0 (you), seat 1 (greedy), seat 2 (random)" in first
    assert not re.search(r"\bO\b", first)  # seat 1's oasis is nowhere on the first screen
    # Every screen shows the human's hand and no one else's; no line shows the deck's cards.
    hands = re.findall(r"^your hand: (.*)$", out, flags=re.M)
    human_hands = []
    replay = cardtable.new_game("deserto", deal=deal, players=3)
    for move in game.moves:
        if replay.to_move == 0:
            human_hands.append(hand_text(replay.state.hands[0]))
        replay.play(move)
    assert hands == human_hands
    assert not re.search(r"^(hand|deck: <)", out, flags=re.M)
    for line in out.splitlines():
        assert "hand" not in line or line.startswith("your hand: ") or "in hand" in line, line
    # The moves shown are the human seat's public history, one line each, in order.
    history = [str(event) for event in game.history(0)]
    shown = [line.removeprefix(PROMPT) for line in out.splitlines() if re.match(r"^(deserto> )?seat \d: ", line)]
    assert shown == history
    gifts_hidden = [h for h in history if "gives a card" in h]
    assert all(h in out for h in gifts_hidden)
    # The end: scores, ranks and winners.
    assert "game over" in out
    final = game.outcome.result
    assert final is not None
    for s, (score, rank) in enumerate(zip(final.scores, final.ranks, strict=True)):
        assert f"seat {s} ({names[s]}): {score} won, rank {rank}" in out
    del hidden


def test_commands_at_the_multi_player_prompt() -> None:
    result = run(
        ["play", "deserto", "--deal", "0", "--players", "you,greedy"], "moves\nhelp\nundo\nzz\nhistory\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "T1 T2 T3 T4 G1 G2 G3 G4" in out
    assert "no undo" in out
    assert "error: undo is not available in multi-player play (see help)" in out
    assert "error: not a deserto move: 'zz'" in out
    assert "no moves yet" in out


def test_watching_bots_play() -> None:
    result = run(["play", "deserto", "--deal", "3", "--players", "greedy,random,greedy"], "")
    assert result.exit_code == 0, result.output
    assert PROMPT not in result.stdout
    assert "game over" in result.stdout
    assert re.search(r"^(winner|shared win): seat", result.stdout, flags=re.M)


def test_a_number_of_players_keeps_the_old_one_screen_play() -> None:
    result = run(["play", "deserto", "--deal", "0", "--players", "3"], "quit\n")
    assert result.exit_code == 0, result.output
    assert "moves played: 0" in result.stdout and "players=3" in result.stdout


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("you,you", "at most one seat is yours"),
        ("you,nobody", "unknown bot 'nobody'"),
        ("you", "players"),
        ("you,,greedy", "separated by commas"),
    ],
)
def test_errors_are_one_line(players: str, words: str) -> None:
    assert_one_line_error(run(["play", "deserto", "--deal", "1", "--players", players]), words)


def test_players_is_for_multi_player_games() -> None:
    assert_one_line_error(run(["play", "klondike", "--players", "you,greedy"]), "one-player game")

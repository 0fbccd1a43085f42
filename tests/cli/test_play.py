"""The play loop of `cardtable play`, driven by scripted input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import make_card, parse_card
from cardtable.games.klondike import KlondikeState
from cardtable.hints import SEES_FACE_DOWN, honest_hint, solver_words

from .runner import run

PROMPT = "klondike> "


def replies(output: str, prompt: str = PROMPT) -> list[tuple[str, list[str]]]:
    """A scripted session's output as (command, lines printed in reply) pairs; the first command is ""."""
    pairs: list[tuple[str, list[str]]] = [("", [])]
    for line in output.splitlines():
        if line.startswith(prompt):
            pairs.append((line[len(prompt) :], []))
        else:
            pairs[-1][1].append(line)
    if len(pairs) > 1 and pairs[-1] == ("", []):
        pairs.pop()  # the prompt at the end of input
    return pairs


def screen(output: str, prompt: str) -> str:
    """The first screen: everything before the first prompt."""
    return output.split(prompt, 1)[0]


def test_scripted_session(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = ["moves", "3f", "35", "undo", "redo", "undo 2", f"save {save}", "restart", f"load {save}", "help", "quit"]
    result = run(["play", "klondike", "--deal", "0"], input="\n".join(script + ["d"]) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    pairs = replies(result.stdout)
    assert [command for command, _ in pairs] == ["", *script]
    first, moves, play, illegal, undo, redo, bad_undo, saved, restart, load, help_, quit_ = (r for _, r in pairs)
    assert first[1].startswith("Klondike (draw three) — klondike deal 0 — draw=3")
    assert "moves played: 0" in first
    assert moves == ["3f d"]
    assert "moves played: 1" in play
    assert len(illegal) == 1 and illegal[0].startswith("error: illegal move 35: rule 3")
    assert undo[0] == "took back 3f" and "moves played: 0" in undo
    assert redo[0] == "played again 3f" and "moves played: 1" in redo
    assert bad_undo == ["error: undo takes no argument"]
    assert saved == [f"saved to {save}"]
    assert "moves played: 0" in restart
    assert load[0] == f"loaded {save}" and "moves played: 1" in load
    assert any(line.strip().startswith("undo") for line in help_)
    assert any(line.startswith("Notation: ") for line in help_)
    assert quit_ == []  # nothing after quit is read
    after = cardtable.new_game("klondike", deal=0)
    after.play("3f")
    assert cardtable.load(save.read_text()).state == after.state


def test_bad_input_at_the_prompt_is_one_line_and_the_game_goes_on(tmp_path: Path) -> None:
    script = ["zz", "r", "redo", "save", f"load {tmp_path / 'missing.json'}", f"load {tmp_path}", "d"]
    result = run(["play", "klondike", "--deal", "0"], input="\n".join(script) + "\n")
    assert result.exit_code == 0
    pairs = replies(result.stdout)
    for _, reply in pairs[1:-1]:
        assert len(reply) == 1 and reply[0].startswith("error: "), reply
    assert "moves played: 1" in pairs[-1][1]
    assert "Traceback" not in result.output


def test_end_of_input_ends_the_game() -> None:
    result = run(["play", "klondike", "--deal", "2"], input="")
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith(PROMPT.rstrip())


def test_moves_option_plays_first() -> None:
    result = run(["play", "klondike", "--deal", "0", "--moves", "3f d"], input="")
    assert result.exit_code == 0
    assert "moves played: 2" in screen(result.stdout, PROMPT)


def test_random_deal_is_shown_in_the_title() -> None:
    result = run(["play", "klondike"], input="")
    title = result.stdout.splitlines()[1]
    deal = int(title.split("klondike deal ")[1].split()[0])
    assert 0 <= deal < 2**32


@pytest.mark.parametrize(
    "game",
    [g for g in cardtable.GAMES if g != "deserto"],  # deserto: CLI play for multi-player games comes with the bots work
)
def test_face_down_cards_are_never_shown(game: str) -> None:
    result = run(["play", game, "--deal", "3"], input="")
    assert result.exit_code == 0, result.output
    first = screen(result.stdout, f"{game}> ")
    rules = cardtable.new_game(game, deal=3).rules
    piles = [pile for row in rules.display(rules.deal(3)) for _, pile in row]
    up = {rules.card_text(c) for pile in piles for c, face_up in pile if face_up}
    down = {rules.card_text(c) for pile in piles for c, face_up in pile if not face_up} - up
    assert down, "the deal has face-down cards"
    tokens = set(first.split())
    assert not down & tokens
    assert "##" in first


def klondike_save(tmp_path: Path, state: KlondikeState, **options: Any) -> Path:
    """A save file of a Klondike game starting from ``state``, written by the library."""
    rules = cardtable.rules_for("klondike", **options)
    game = cardtable.new_game("klondike", layout=rules.to_text(state), **options)
    path = tmp_path / "klondike.json"
    path.write_text(game.save())
    return path


def test_won_message(tmp_path: Path) -> None:
    king = make_card(13, 3)  # KS
    tableau = ((king,),) + ((),) * 6
    save = klondike_save(tmp_path, KlondikeState((), (), (13, 13, 13, 12), tableau, (0,) * 7, 0))
    result = run(["play", "klondike", "--load", str(save)], input="1f\nundo\n")
    assert result.exit_code == 0, result.output
    first, won, undone = (reply for _, reply in replies(result.stdout))
    assert "You won! Score 52." in won
    assert not any("won" in line for line in first + undone)


def stuck_klondike() -> KlondikeState:
    """A position with no move at all, with no redeal (option ``redeals=0``): a deal's tableau
    whose face-up cards are all black and none an ace, the whole stock drawn to the waste with
    a black jack on top."""
    tops = [parse_card(t) for t in ("3C", "3S", "5C", "5S", "7C", "7S", "9C")]
    jack = parse_card("JS")
    rest = [c for c in range(52) if c not in tops and c != jack]
    piles = tuple(tuple(rest[i * (i - 1) // 2 : i * (i + 1) // 2]) + (tops[i],) for i in range(7))
    waste = tuple(rest[21:]) + (jack,)
    return KlondikeState((), waste, (0, 0, 0, 0), piles, tuple(range(7)), 0)


def test_over_message(tmp_path: Path) -> None:
    save = klondike_save(tmp_path, stuck_klondike(), redeals=0)
    result = run(["play", "klondike", "--load", str(save)], input="moves\n")
    assert result.exit_code == 0, result.output
    first, moves = (reply for _, reply in replies(result.stdout))
    assert any(line.startswith("Game over: there are no more valid moves to play. Score 0.") for line in first)
    assert moves == ["no legal moves"]


def test_no_over_message_while_a_move_is_left(tmp_path: Path) -> None:
    # After w7 only the stock can be cycled, to no end: the library's exact outcome is over,
    # but it read the stock, which the player has not seen. The prompt says nothing until
    # no legal move is left, as the web table does.
    from tests.games.test_klondike import WASTE_PLAY_LEFT

    rules = cardtable.rules_for("klondike")
    state = rules.apply(rules.from_text(WASTE_PLAY_LEFT), rules.parse_move("w7"))
    assert cardtable.new_game("klondike", layout=rules.to_text(state)).outcome.over
    result = run(["play", "klondike", "--load", str(klondike_save(tmp_path, state))], input="d\n")
    assert result.exit_code == 0, result.output
    assert "Game over" not in result.stdout


def test_hint_is_the_honest_players_move_and_is_not_played() -> None:
    # The plain hint sees what the player sees: on deal 8 its first move is a free look
    # through the stock (the same on any machine: no sample is weighed for it).
    result = run(["play", "klondike", "--deal", "8"], input="hint\nmoves\n")
    assert result.exit_code == 0, result.output
    _, (_, hint_reply), (_, moves) = replies(result.stdout)
    expected = honest_hint(cardtable.new_game("klondike", deal=8))
    assert (str(expected.move), expected.source) == ("d", "honest")
    assert hint_reply == [expected.text]
    assert hint_reply[0].startswith("Draw three cards: a look at cards you have not seen")
    assert "d" in moves[0].split()  # still to play


def test_solver_shows_its_move_and_says_it_sees_the_face_down_cards() -> None:
    result = run(["play", "klondike", "--deal", "8"], input="solver\nmoves\n")
    assert result.exit_code == 0, result.output
    _, (_, reply), (_, moves) = replies(result.stdout)
    game = cardtable.new_game("klondike", deal=8)
    expected = cardtable.hint(game, seconds=10)
    assert expected.source == "solver"
    assert reply == [SEES_FACE_DOWN + solver_words(game, expected)]
    assert reply[0].startswith("The solver sees the face-down cards: Move A♣ to the clubs foundation: it starts")
    assert str(expected.move) in moves[0].split()  # a legal move, still to play


def test_only_the_solver_says_the_position_can_no_longer_be_won(tmp_path: Path) -> None:
    result = run(["play", "devils-square", "--deal", "1"], input="solver\nhint\n")
    _, (_, solver), (_, plain) = replies(result.stdout, "devils-square> ")
    assert len(solver) == 1
    assert solver[0].startswith(SEES_FACE_DOWN + "this position can no longer be won. A move that looks good: ")
    assert len(plain) == 1 and "no longer be won" not in plain[0] and "unseen cards" in plain[0]
    save = klondike_save(tmp_path, stuck_klondike(), redeals=0)  # the position of test_over_message: no move at all
    result = run(["play", "klondike", "--load", str(save)], input="solver\nhint\n")
    _, (_, solver), (_, plain) = replies(result.stdout)
    assert solver == [SEES_FACE_DOWN + "this position can no longer be won. No move is left."]
    assert plain == ["No move is left."]


def test_hint_on_a_won_game(tmp_path: Path) -> None:
    king = make_card(13, 3)  # KS
    save = klondike_save(tmp_path, KlondikeState((), (), (13, 13, 13, 12), ((king,),) + ((),) * 6, (0,) * 7, 0))
    result = run(["play", "klondike", "--load", str(save)], input="1f\nhint\nsolver\n")
    assert replies(result.stdout)[-2:] == [
        ("hint", ["The game is won."]),
        ("solver", [SEES_FACE_DOWN + "the game is won."]),
    ]


def test_solver_uses_the_short_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli import play

    budgets: list[float] = []

    def fake_hint(game: cardtable.Game[Any, Any], seconds: float = 99.0) -> cardtable.Hint:
        budgets.append(seconds)
        return cardtable.Hint(None, "heuristic", "unknown", "a hint")

    monkeypatch.setattr(play, "hint", fake_hint)
    result = run(["play", "klondike", "--deal", "0"], input="solver\n")
    assert replies(result.stdout)[-1] == ("solver", [SEES_FACE_DOWN + "no move is left."])
    assert budgets == [play.HINT_SECONDS] and play.HINT_SECONDS == 2.0


def test_hint_is_in_help_and_takes_no_argument() -> None:
    result = run(["play", "klondike", "--deal", "0"], input="help\nhint now\n")
    _, (_, help_), (_, bad) = replies(result.stdout)
    assert any(line.strip().startswith("hint ") for line in help_)
    assert any(line.strip().startswith("solver ") for line in help_)
    assert bad == ["error: hint takes no argument"]

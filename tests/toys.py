"""Two toy games defined only here, for the proof that a game is one place every layer asks.

``toy-patience``: eight cards (ace to four of clubs and hearts) dealt to four piles of
two, the bottom card face down; a pile's top card goes home to its suit's foundation
(ace up: ``1f``), or onto another pile whose top card is one rank higher, or onto an
empty pile (``12``); a card left on top is turned face up. Won with all eight home.

``toy-duel``: two players, twelve cards (ace to six of clubs and hearts); each holds
three, the rest is a face-down deck. In turn a player lays a card from the hand on the
middle pile (its text: ``4H``); a card higher than the top one wins it (a point), and
the player then draws a card while the deck lasts. The game ends when both hands are
empty; more points win.

Neither game is registered by default: the ``toy_games`` fixture of ``tests/conftest.py``
adds both to the one list of games with :func:`cardtable.games.register`, and every
layer then serves them with no other file changed.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from cardtable.core.cards import RANK, SUIT, card_text, make_card, parse_card
from cardtable.core.errors import LayoutError, MoveParseError
from cardtable.core.layout import DOWN_UNDER_UP, check_cards, format_pile, join_layout, read_pile, split_layout
from cardtable.core.multiplayer import MultiplayerRules, Result
from cardtable.core.rules import MovePlaces, Pile, Rules, replace_at
from cardtable.core.shuffle import shuffled
from cardtable.core.spec import GameSpec, Place, TableSpec

PATIENCE_DECK = tuple(make_card(r, s) for s in (0, 2) for r in range(1, 5))
HOME = 9  # a move's target: its suit's foundation


class PatienceMove(NamedTuple):
    """A toy-patience move: a pile's top card to pile ``dst`` (0-3) or home (:data:`HOME`)."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{self.src + 1}{'f' if self.dst == HOME else self.dst + 1}"


class PatienceState(NamedTuple):
    """The piles (bottom first), each pile's face-down count, and each foundation's height."""

    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    home: tuple[int, int]


PATIENCE_MOVES = tuple(PatienceMove(i, j) for i in range(4) for j in (*range(4), HOME) if i != j)


class ToyPatience(Rules[PatienceState, PatienceMove]):
    """The toy patience's rules (module docstring)."""

    name = "toy-patience"
    title = "Toy patience"
    NOTATION = "1f (pile 1 home), 12 (pile 1 onto pile 2)"

    def deal(self, deal: int) -> PatienceState:
        cards = shuffled(list(PATIENCE_DECK), deal)
        return PatienceState(tuple(tuple(cards[2 * i : 2 * i + 2]) for i in range(4)), (1, 1, 1, 1), (0, 0))

    def cards(self, state: PatienceState) -> list[int]:
        return [c for pile in state.piles for c in pile] + [
            make_card(r, s) for f, s in enumerate((0, 2)) for r in range(1, state.home[f] + 1)
        ]

    def deck(self) -> list[int]:
        return list(PATIENCE_DECK)

    def card_text(self, card: int) -> str:
        return card_text(card)

    def display(self, state: PatienceState) -> list[list[tuple[str, Pile]]]:
        homes = [(f"f{'ch'[f]}", [(make_card(r, 2 * f), True) for r in range(1, state.home[f] + 1)]) for f in (0, 1)]
        piles = [(str(i + 1), [(c, k >= state.down[i]) for k, c in enumerate(p)]) for i, p in enumerate(state.piles)]
        return [homes, piles]

    def _fits(self, state: PatienceState, move: PatienceMove) -> bool:
        pile = state.piles[move.src]
        if not pile:
            return False
        card = pile[-1]
        if move.dst == HOME:
            return SUIT[card] in (0, 2) and RANK[card] == state.home[SUIT[card] // 2] + 1
        target = state.piles[move.dst]
        return not target or RANK[target[-1]] == RANK[card] + 1

    def legal_moves(self, state: PatienceState) -> list[PatienceMove]:
        return [m for m in PATIENCE_MOVES if self._fits(state, m)]

    def apply(self, state: PatienceState, move: PatienceMove) -> PatienceState:
        card, rest = state.piles[move.src][-1], state.piles[move.src][:-1]
        piles, home = replace_at(state.piles, move.src, rest), state.home
        if move.dst == HOME:
            home = replace_at(home, SUIT[card] // 2, RANK[card])
        else:
            piles = replace_at(piles, move.dst, piles[move.dst] + (card,))
        down = replace_at(state.down, move.src, min(state.down[move.src], max(len(rest) - 1, 0)))
        return PatienceState(piles, down, home)

    def explain_illegal(self, state: PatienceState, move: PatienceMove) -> str:
        return "a card goes home in suit order, or onto a card one rank higher, or onto an empty pile"

    def parse_move(self, text: str) -> PatienceMove:
        t = text.strip().lower() if isinstance(text, str) else ""
        if len(t) == 2 and t[0] in "1234" and t[1] in "1234f" and t[0] != t[1]:
            return PatienceMove(int(t[0]) - 1, HOME if t[1] == "f" else int(t[1]) - 1)
        raise MoveParseError(f"not a toy-patience move: {text!r} (moves look like 1f, 12)")

    def move_places(self, state: PatienceState, move: PatienceMove) -> MovePlaces:
        card = state.piles[move.src][-1]
        dst = f"f{'ch'[SUIT[card] // 2]}" if move.dst == HOME else str(move.dst + 1)
        return MovePlaces(str(move.src + 1), dst, 1)

    def is_won(self, state: PatienceState) -> bool:
        return state.home == (4, 4)

    def progress(self, state: PatienceState) -> tuple[int, ...]:
        return (sum(state.home), -sum(state.down))

    def score(self, state: PatienceState) -> int:
        return sum(state.home)

    def to_text(self, state: PatienceState, format: str = "cardtable") -> str:
        lines = [("home", f"{state.home[0]} {state.home[1]}")]
        lines += [(name, format_pile(pile, card_text)) for name, pile in self.display(state)[1]]
        return join_layout(self.name, lines)

    def from_text(self, text: str) -> PatienceState:
        found = split_layout(text, self.name, ["home", "1", "2", "3", "4"])
        try:
            home = tuple(int(v) for v in found["home"].split())
        except ValueError:
            raise LayoutError("home: two foundation heights, 0 to 4") from None
        if len(home) != 2 or not all(0 <= h <= 4 for h in home):
            raise LayoutError("home: two foundation heights, 0 to 4")
        read = [read_pile(found[str(i + 1)], parse_card, f"pile {i + 1}", DOWN_UNDER_UP) for i in range(4)]
        state = PatienceState(tuple(p for p, _ in read), tuple(d for _, d in read), (home[0], home[1]))
        check_cards(self.cards(state), PATIENCE_DECK, card_text)
        return state


def patience_place(name: str) -> Place:
    """Where a toy-patience pile lies in the browser."""
    if name.startswith("f"):
        return Place("foundation", 4 + "ch".index(name[1]), 0, "none", "top", f"{name} foundation")
    return Place("tableau", int(name) - 1, 1, "down", "group", f"pile {name}")


TOY_PATIENCE = GameSpec(
    name="toy-patience",
    rules=ToyPatience,
    table=TableSpec(width=6, place=patience_place),
    action_moves=lambda rules: PATIENCE_MOVES,
    gymnasium_id="cardtable/ToyPatience-v0",
    openspiel_name="cardtable_toy_patience",
)


# --- toy-duel ---------------------------------------------------------------------------

DUEL_DECK = tuple(make_card(r, s) for s in (0, 2) for r in range(1, 7))


class DuelMove(NamedTuple):
    """A toy-duel move: lay ``card`` from the hand."""

    card: int

    def __str__(self) -> str:
        return card_text(self.card)


class DuelEvent(NamedTuple):
    """What every seat sees of a move: who laid which card, and whether it won the pile's top."""

    seat: int
    card: int
    won: bool

    def __str__(self) -> str:
        return f"seat {self.seat}: {card_text(self.card)}{', wins' if self.won else ''}"

    def told(self, names: Any) -> str:
        return f"{names[self.seat]} laid {card_text(self.card)}{' and won a point' if self.won else ''}"


class DuelState(NamedTuple):
    """The hands, the deck (next card last), the middle pile, the points and the seat to play."""

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    middle: tuple[int, ...]
    points: tuple[int, ...]
    turn: int


class DuelView(NamedTuple):
    """What a seat knows: its hand (empty for a spectator), the others' hand sizes, the deck's
    size, the middle pile, the points, whose turn it is, and the history."""

    seat: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck: int
    middle: tuple[int, ...]
    points: tuple[int, ...]
    to_move: int | None
    history: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["history"] = [str(e) for e in self.history]
        return data


class ToyDuel(MultiplayerRules[DuelState, DuelMove]):
    """The toy duel's rules (module docstring)."""

    name = "toy-duel"
    title = "Toy duel"
    NOTATION = "the card to lay, e.g. 4H"

    @property
    def players(self) -> int:
        return 2

    def deal(self, deal: int) -> DuelState:
        cards = shuffled(list(DUEL_DECK), deal)
        return DuelState((tuple(cards[:3]), tuple(cards[3:6])), tuple(cards[6:]), (), (0, 0), 0)

    def cards(self, state: DuelState) -> list[int]:
        return [*state.hands[0], *state.hands[1], *state.deck, *state.middle]

    def deck(self) -> list[int]:
        return list(DUEL_DECK)

    def card_text(self, card: int) -> str:
        return card_text(card)

    def display(self, state: DuelState) -> list[list[tuple[str, Pile]]]:
        hands = [(f"hand {s}", [(c, True) for c in h]) for s, h in enumerate(state.hands)]
        return [[("deck", [(c, False) for c in state.deck]), ("middle", [(c, True) for c in state.middle])], hands]

    def to_move(self, state: DuelState) -> int | None:
        return None if not any(state.hands) else state.turn

    def legal_moves(self, state: DuelState) -> list[DuelMove]:
        return [] if self.to_move(state) is None else [DuelMove(c) for c in sorted(state.hands[state.turn])]

    def apply(self, state: DuelState, move: DuelMove) -> DuelState:
        seat = state.turn
        hand = tuple(c for c in state.hands[seat] if c != move.card)
        won = bool(state.middle) and RANK[move.card] > RANK[state.middle[-1]]
        deck = state.deck
        if deck:
            hand, deck = hand + (deck[-1],), deck[:-1]
        points = replace_at(state.points, seat, state.points[seat] + 1) if won else state.points
        other = 1 - seat
        turn = other if state.hands[other] else seat
        return DuelState(replace_at(state.hands, seat, hand), deck, state.middle + (move.card,), points, turn)

    def explain_illegal(self, state: DuelState, move: DuelMove) -> str:
        return "a player lays a card from the hand, in turn"

    def parse_move(self, text: str) -> DuelMove:
        try:
            card = parse_card(text.strip().upper())
        except (LayoutError, ValueError, AttributeError):
            raise MoveParseError(f"not a toy-duel move: {text!r} (a card, e.g. 4H)") from None
        if card not in DUEL_DECK:
            raise MoveParseError(f"not a toy-duel card: {text!r}")
        return DuelMove(card)

    def move_places(self, state: DuelState, move: DuelMove) -> MovePlaces:
        return MovePlaces(f"hand {state.turn}", "middle", 1, card=move.card)

    def public_move(self, state: DuelState, move: DuelMove, seat: int | None) -> DuelEvent:
        return DuelEvent(state.turn, move.card, bool(state.middle) and RANK[move.card] > RANK[state.middle[-1]])

    def view(self, state: DuelState, seat: int | None, history: tuple[Any, ...]) -> DuelView:
        hand = () if seat is None else tuple(sorted(state.hands[seat]))
        sizes = tuple(len(h) for h in state.hands)
        return DuelView(seat, hand, sizes, len(state.deck), state.middle, state.points, self.to_move(state), history)

    def view_display(self, view: Any) -> list[list[tuple[str, Any]]]:
        hidden = [(None, False)]
        hands = [
            (f"hand {s}", [(c, True) for c in view.hand] if s == view.seat else hidden * n)
            for s, n in enumerate(view.hand_sizes)
        ]
        return [[("deck", hidden * view.deck), ("middle", [(c, True) for c in view.middle])], hands]

    def sample(self, state: DuelState, seat: int, rng: random.Random) -> DuelState:
        hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.deck)
        rng.shuffle(hidden)
        hands = list(state.hands)
        for s in range(2):
            if s != seat:
                hands[s], hidden = tuple(hidden[: len(state.hands[s])]), hidden[len(state.hands[s]) :]
        return state._replace(hands=tuple(hands), deck=tuple(hidden))

    def result(self, state: DuelState) -> Result | None:
        return None if self.to_move(state) is not None else Result.from_scores(state.points)

    def score(self, state: DuelState) -> int:
        return max(state.points)

    def to_text(self, state: DuelState, format: str = "cardtable") -> str:
        lines = [(f"hand {s}", format_pile([(c, True) for c in h], card_text)) for s, h in enumerate(state.hands)]
        lines += [
            ("deck", " ".join(card_text(c) for c in state.deck)),
            ("middle", " ".join(map(card_text, state.middle))),
        ]
        return join_layout(
            self.name, [*lines, ("points", f"{state.points[0]} {state.points[1]}"), ("turn", str(state.turn))]
        )

    def from_text(self, text: str) -> DuelState:
        found = split_layout(text, self.name, ["hand 0", "hand 1", "deck", "middle", "points", "turn"])
        try:
            piles = {k: tuple(parse_card(t) for t in found[k].split()) for k in ("hand 0", "hand 1", "deck", "middle")}
            points = tuple(int(v) for v in found["points"].split())
            turn = int(found["turn"])
        except ValueError as err:
            raise LayoutError(f"not a toy-duel position: {err}") from None
        if len(points) != 2 or turn not in (0, 1):
            raise LayoutError("points: two numbers; turn: 0 or 1")
        state = DuelState((piles["hand 0"], piles["hand 1"]), piles["deck"], piles["middle"], points, turn)
        check_cards(self.cards(state), DUEL_DECK, card_text)
        return state


def duel_place(name: str, viewer: int | None, players: int) -> Place:
    """Where a toy-duel pile lies in the browser, seen from seat ``viewer``."""
    if name in ("deck", "middle"):
        return Place(name, 2 + 1.5 * (name == "middle"), 1, "none", "none", name)
    seat = int(name.split()[1])
    mine = seat == (viewer or 0)
    label = "your hand" if seat == viewer else f"seat {seat + 1}'s hand"
    return Place("hand", 1.5, 2 if mine else 0, "right", "single" if seat == viewer else "none", label)


TOY_DUEL = GameSpec(
    name="toy-duel",
    rules=ToyDuel,
    seats=(2, 2),
    table=TableSpec(width=6, place=duel_place),
    action_moves=lambda rules: tuple(DuelMove(c) for c in DUEL_DECK),
    level_keys=None,
    openspiel_name="cardtable_toy_duel",
    bots=("random",),
)

TOYS = (TOY_PATIENCE, TOY_DUEL)

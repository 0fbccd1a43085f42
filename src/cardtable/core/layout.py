"""The text format shared by every game's positions.

A position is written as lines of ``name: value``, after a first line that
names the game::

    klondike
    stock: <4C> <QS> <7H>
    waste: 3S
    1: <JH> 9C

A pile is listed bottom first, so its top card is the last one; a face-down
card is written in angle brackets. Blank lines and lines starting with ``#``
are ignored. Each game documents its own line names; this module only splits
and joins them.

>>> parse_pile("<JH> 9C", parse_card_for_test)
[(0, False), (1, True)]
>>> format_pile([(0, False), (1, True)], lambda c: "XY"[c])
'<X> Y'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .errors import LayoutError
from .inputs import quote

MAX_LAYOUT_SIZE = 2**16
"""The longest layout text read, in characters (64 KiB: a layout of any game is under 2 KiB,
comments included); :func:`cardtable.new_game` refuses a longer one."""


def parse_card_for_test(text: str) -> int:
    """A toy card reader for the examples here: ``JH`` is 0, ``9C`` is 1.

    >>> parse_card_for_test("9C")
    1
    """
    return {"JH": 0, "9C": 1}[text]


def format_pile(cards: Iterable[tuple[int, bool]], card_text: Callable[[int], str]) -> str:
    """Text of a pile given as ``(card, face_up)`` pairs, bottom first.

    >>> format_pile([], str)
    ''
    """
    return " ".join(card_text(c) if up else f"<{card_text(c)}>" for c, up in cards)


def parse_pile(text: str, parse_card: Callable[[str], int]) -> list[tuple[int, bool]]:
    """Read a pile's text into ``(card, face_up)`` pairs, bottom first.

    Raises :class:`~cardtable.core.errors.LayoutError` on a bad card.

    >>> parse_pile("", int)
    []
    """
    result: list[tuple[int, bool]] = []
    for token in text.split():
        if token.startswith("<") and token.endswith(">") and len(token) > 2:
            result.append((parse_card(token[1:-1]), False))
        elif "<" in token or ">" in token:
            raise LayoutError(f"bad face-down card {quote(token)} (write it as <TH>)")
        else:
            result.append((parse_card(token), True))
    return result


def split_layout(text: str, game: str, names: Sequence[str]) -> dict[str, str]:
    """Check the game line and return each ``name: value`` line, by name.

    Every name in ``names`` must appear exactly once and no other name may.

    >>> split_layout("demo\\na: 1\\nb:", "demo", ["a", "b"])
    {'a': '1', 'b': ''}
    """
    lines = [ln.strip() for ln in text.strip().splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if not lines or lines[0].lower() != game:
        first = lines[0] if lines else ""
        raise LayoutError(f"a {game} layout must start with the line {game!r}, not {quote(first)}")
    found: dict[str, str] = {}
    for ln in lines[1:]:
        name, sep, value = ln.partition(":")
        name = name.strip().lower()
        if not sep:
            raise LayoutError(f"layout line {quote(ln)} has no 'name:'")
        if name not in names:
            raise LayoutError(f"unknown layout line {quote(name)} for {game} (expected: {_listed(names)})")
        if name in found:
            raise LayoutError(f"layout line {name!r} appears twice")
        found[name] = value.strip()
    missing = [n for n in names if n not in found]
    if missing:
        raise LayoutError(f"{game} layout is missing the line(s): {_listed(missing)}")
    return {n: found[n] for n in names}


def _listed(names: Sequence[str], most: int = 12, sep: str = ", ") -> str:
    """Names for a message: the first ``most`` of them, then how many more."""
    more = f"{sep}... ({len(names) - most} more)" if len(names) > most else ""
    return sep.join(names[:most]) + more


def join_layout(game: str, lines: Iterable[tuple[str, str]]) -> str:
    """The layout text of ``(name, value)`` lines under the game line.

    >>> print(join_layout("demo", [("a", "1"), ("b", "")]))
    demo
    a: 1
    b:
    """
    return "\n".join([game] + [f"{n}: {v}".rstrip() for n, v in lines])


def check_cards(cards: Iterable[int], expected: Iterable[int], show: Callable[[int], str]) -> None:
    """Raise :class:`LayoutError` unless ``cards`` is exactly the multiset ``expected``.

    >>> check_cards([1, 2], [2, 1], str)
    """
    have: dict[int, int] = {}
    for c in cards:
        have[c] = have.get(c, 0) + 1
    want: dict[int, int] = {}
    for c in expected:
        want[c] = want.get(c, 0) + 1
    if have == want:
        return
    extra = sorted(c for c in have if have[c] > want.get(c, 0))
    short = sorted(c for c in want if want[c] > have.get(c, 0))
    parts = []
    if extra:
        parts.append("too many: " + _listed([show(c) for c in extra], sep=" "))
    if short:
        parts.append("missing: " + _listed([show(c) for c in short], sep=" "))
    raise LayoutError("the layout does not hold the game's deck exactly once (" + "; ".join(parts) + ")")


FACE_UP = "up"
FACE_DOWN = "down"
DOWN_UNDER_UP = "under"


def read_pile(text: str, parse_card: Callable[[str], int], where: str, faces: str) -> tuple[tuple[int, ...], int]:
    """Read a pile and check how its cards face; return ``(cards, face-down count)``.

    ``faces`` is ``"up"`` (every card face up), ``"down"`` (every card face
    down) or ``"under"`` (face-down cards under face-up ones, and the top card
    of a non-empty pile face up). ``where`` names the pile in the error.

    >>> read_pile("<JH> 9C", parse_card_for_test, "pile 1", "under")
    ((0, 1), 1)
    >>> read_pile("<JH>", parse_card_for_test, "pile 1", "under")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.LayoutError: pile 1: face-down cards lie under face-up ones, and the top card is face up
    """
    pile = parse_pile(text, parse_card)
    down = sum(1 for _, up in pile if not up)
    cards = tuple(c for c, _ in pile)
    if faces == FACE_UP and down:
        raise LayoutError(f"{where}: every card is face up (write them without <>)")
    if faces == FACE_DOWN and down != len(pile):
        raise LayoutError(f"{where}: every card is face down (write each as <XX>)")
    if faces == DOWN_UNDER_UP and (any(up for _, up in pile[:down]) or (pile and down == len(pile))):
        raise LayoutError(f"{where}: face-down cards lie under face-up ones, and the top card is face up")
    return cards, down


def check_run(
    cards: Sequence[int],
    start: int,
    lies_on: Callable[[int, int], bool],
    show: Callable[[int], str],
    where: str,
    what: str,
) -> None:
    """Raise :class:`LayoutError` unless each card of ``cards`` from index ``start`` up lies on
    the card under it as the game builds: ``lies_on(under, card)``. ``where`` names the pile
    and ``what`` the build in the error.

    >>> check_run([5, 4, 3], 0, lambda under, card: card == under - 1, str, "pile 1", "a run down")
    >>> check_run([9, 5, 4, 9], 1, lambda under, card: card == under - 1, str, "pile 1", "a run down")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.LayoutError: pile 1: 9 on 4 is not a run down, so no play can have put it there
    """
    for k in range(max(start, 0) + 1, len(cards)):
        if not lies_on(cards[k - 1], cards[k]):
            raise LayoutError(
                f"{where}: {show(cards[k])} on {show(cards[k - 1])} is not {what}, so no play can have put it there"
            )


def check_at_most(count: int, most: int, where: str, why: str, things: str = "cards") -> None:
    """Raise :class:`LayoutError` when a pile holds more cards (``things``) than any deal and
    play can put there; ``why`` says why.

    >>> check_at_most(7, 6, "pile 7", "the deal puts 6 there", "face-down cards")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.LayoutError: pile 7 holds 7 face-down cards, at most 6: the deal puts 6 there
    """
    if count > most:
        raise LayoutError(f"{where} holds {count} {things}, at most {most}: {why}")

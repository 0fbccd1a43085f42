"""What happened at a Deserto table, in words: the public move history told with names.

The rules write each move as a seat saw it (``seat 0: T1, wins pile 2
(GT)``; a gift's kind only for the two seats it concerns). :func:`tell`
turns such a line into a sentence for the log a player reads, and
:func:`captured` collects the cards each seat won by capture, which every
seat sees.

>>> tell("seat 0: T1, wins piles 2 (G T), 3 (G)", ["Ana", "Ben"])
'Ana put a thief at 1 and won 2 piles (3 cards)'
>>> tell("seat 1: gives a card to seat 0", ["Ana", "Ben"])
'Ben could not play and gave a card to Ana'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..games.deserto import KIND_NAMES, KINDS

_PLACE = re.compile(r"^seat (\d): ([OVTG])([1-4])(, four viziers)?(?:, wins piles? (.*))?$")
_GIFT_KNOWN = re.compile(r"^seat (\d): [gG]([OVTG]), gives an? \w+ to seat (\d)$")
_GIFT = re.compile(r"^seat (\d): gives a card to seat (\d)$")
_PILE = re.compile(r"\d \(([OVTG ]+)\)")


@lru_cache(maxsize=65536)  # every snapshot tells the same lines again
def _tell(line: str, names: tuple[str, ...]) -> str:
    return _told(line, names)


def tell(line: str, names: Sequence[str]) -> str:
    """A history line as a sentence with the seats' names (see :func:`_told`), cached.

    >>> tell("seat 1: gV, gives a vizier to seat 0", ["You", "Ben"])
    'Ben could not play and gave a vizier to You'
    """
    return _tell(line, tuple(names))


def _told(line: str, names: Sequence[str]) -> str:
    """A history line as a sentence with the seats' names (the line itself if it is
    not one of the rules' forms).

    >>> tell("seat 1: gV, gives a vizier to seat 0", ["You", "Ben"])
    'Ben could not play and gave a vizier to You'
    """

    def name(seat: str) -> str:
        i = int(seat)
        return names[i] if 0 <= i < len(names) else f"seat {i + 1}"

    if m := _PLACE.match(line):
        seat, kind, pos, four, won = m.groups()
        text = f"{name(seat)} put a{'n' if kind == 'O' else ''} {KIND_NAMES[KINDS.index(kind)]} at {pos}"
        if won:
            piles = [p.replace(" ", "") for p in _PILE.findall(won)]
            cards = sum(len(p) for p in piles)
            text += f"{': four viziers!' if four else ''} and won {len(piles)} pile{'s' if len(piles) > 1 else ''}"
            text += f" ({cards} card{'s' if cards > 1 else ''})"
        return text
    if m := _GIFT_KNOWN.match(line):
        seat, kind, receiver = m.groups()
        article = "an" if kind == "O" else "a"
        return f"{name(seat)} could not play and gave {article} {KIND_NAMES[KINDS.index(kind)]} to {name(receiver)}"
    if m := _GIFT.match(line):
        seat, receiver = m.groups()
        return f"{name(seat)} could not play and gave a card to {name(receiver)}"
    return line


def captured(history: Sequence[str], players: int) -> list[str]:
    """The cards each seat won by capture (public), as kind letters, from a history.

    >>> captured(["seat 0: T1", "seat 1: V2, wins pile 1 (V T)"], 2)
    ['', 'VT']
    """
    won = [""] * players
    for line in history:
        m = _PLACE.match(line)
        if m and m.group(5):
            seat = int(m.group(1))
            if 0 <= seat < players:
                won[seat] += "".join(_PILE.findall(m.group(5))).replace(" ", "")
    return won

"""Deserto tactics shared by the greedy bot and the search's playouts.

Positions are read as the area's top cards (``EMPTY`` for an empty position)
and pile sizes, which every seat sees. Tables are built once per top-card
tuple (625 of them) with the rules' own :func:`placement_fault` and
:func:`captures`, so the tactics follow the rules exactly.

>>> from cardtable.games.deserto import EMPTY, THIEF, TREASURE, PLACE
>>> gain((TREASURE, EMPTY, EMPTY, EMPTY), (3, 0, 0, 0), PLACE[THIEF][1])
3
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ..core.rules import replace_at
from ..games.deserto import (
    EMPTY,
    GIVE,
    OASIS,
    PLACE,
    THIEF,
    TREASURE,
    VIZIER,
    DesertoMove,
    DesertoView,
    captures,
    placement_fault,
)

KEEP_VALUE = {VIZIER: 3, THIEF: 2, OASIS: 1, TREASURE: 0}
"""How useful a kind is to keep in hand: a vizier can always be placed and wins
thieves; a thief wins treasures; an oasis only blocks; a treasure wins nothing
and is prey once placed. Cards of low value are played (and given) first."""


class Placement(NamedTuple):
    """A legal placement in an area: the move, the positions it wins, the top cards after it.

    >>> Placement(PLACE[VIZIER][0], (), (VIZIER, EMPTY, EMPTY, EMPTY)).won
    ()
    """

    move: DesertoMove
    won: tuple[int, ...]
    after: tuple[int, ...]


@cache
def placements(tops: tuple[int, ...]) -> tuple[Placement, ...]:
    """Every legal placement in an area with these top cards (kind order, then position).

    >>> [str(p.move) for p in placements((VIZIER, EMPTY, EMPTY, EMPTY))][:3]
    ['O2', 'O3', 'V2']
    """
    found = []
    for kind in range(4):
        for pos in range(4):
            if placement_fault(tops, kind, pos) is None:
                won = captures(tops, kind, pos)
                after = replace_at(tops, pos, kind)
                for q in won:
                    after = replace_at(after, q, EMPTY)
                found.append(Placement(PLACE[kind][pos], won, after))
    return tuple(found)


@cache
def _placement(tops: tuple[int, ...], move: DesertoMove) -> Placement:
    return next(p for p in placements(tops) if p.move == move)


@cache
def _exposed(tops: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The distinct (placed position, won positions) of the capturing placements."""
    return tuple(dict.fromkeys((p.move.pos, p.won) for p in placements(tops) if p.won))


def _won_cards(sizes: Sequence[int], pos: int, won: tuple[int, ...]) -> int:
    """Cards won by a placement at ``pos`` winning ``won`` (the placed card too when its own pile is won)."""
    return sum(sizes[q] for q in won) + (pos in won)


def gain(tops: tuple[int, ...], sizes: Sequence[int], move: DesertoMove) -> int:
    """The cards a legal placement wins now (0 for a gift).

    >>> from cardtable.games.deserto import GIFT
    >>> gain((VIZIER, VIZIER, VIZIER, OASIS), (1, 2, 1, 1), PLACE[VIZIER][3]), gain((EMPTY,) * 4, (0,) * 4, GIFT[0])
    (6, 0)
    """
    if move.pos == GIVE:
        return 0
    return _won_cards(sizes, move.pos, _placement(tops, move).won)


def threat(tops: tuple[int, ...], sizes: Sequence[int]) -> int:
    """The most cards one placement (of any kind) could win in this area: what the next player is offered.

    >>> threat((THIEF, EMPTY, EMPTY, EMPTY), (4, 0, 0, 0))
    4
    """
    return max((_won_cards(sizes, pos, won) for pos, won in _exposed(tops)), default=0)


def after(tops: tuple[int, ...], sizes: Sequence[int], move: DesertoMove) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The top cards and pile sizes after a legal placement (won piles emptied).

    >>> after((TREASURE, EMPTY, EMPTY, EMPTY), (2, 0, 0, 0), PLACE[THIEF][1])
    ((4, 2, 4, 4), (0, 1, 0, 0))
    """
    placed = _placement(tops, move)
    new = list(sizes)
    new[move.pos] += 1
    for q in placed.won:
        new[q] = 0
    return placed.after, tuple(new)


def greedy_key(tops: tuple[int, ...], sizes: Sequence[int], move: DesertoMove) -> tuple[int, int, int]:
    """How the greedy bot ranks a legal move (larger is better): cards won now, then
    minus the cards the next player could win at once, then how little the card is
    worth keeping. A gift ranks by the last alone.

    >>> k = lambda m: greedy_key((TREASURE, EMPTY, EMPTY, EMPTY), (2, 0, 0, 0), m)
    >>> k(PLACE[THIEF][1]) > k(PLACE[OASIS][1])  # capture first
    True
    >>> k(PLACE[OASIS][1]) > k(PLACE[VIZIER][1])  # the same offer, but keep the vizier
    True
    """
    worth = -KEEP_VALUE[move.kind]
    if move.pos == GIVE:
        return (0, 0, worth)
    new_tops, new_sizes = after(tops, sizes, move)
    return (gain(tops, sizes, move), -threat(new_tops, new_sizes), worth)


def best(moves: Sequence[DesertoMove], tops: tuple[int, ...], sizes: Sequence[int]) -> DesertoMove:
    """The first of ``moves`` (in their order) with the largest :func:`greedy_key`.

    >>> t = (TREASURE, EMPTY, EMPTY, EMPTY)
    >>> str(best([PLACE[OASIS][1], PLACE[THIEF][1]], t, (1, 0, 0, 0)))
    'T2'
    """
    chosen = moves[0]
    top = greedy_key(tops, sizes, chosen)
    for move in moves[1:]:
        key = greedy_key(tops, sizes, move)
        if key > top:
            chosen, top = move, key
    return chosen


def view_area(view: DesertoView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The top cards (``EMPTY`` for none) and pile sizes of a seat's view.

    >>> from cardtable.games.deserto import Deserto
    >>> view_area(Deserto().view(Deserto().deal(0), 0, ()))
    ((4, 4, 4, 4), (0, 0, 0, 0))
    """
    return tuple(EMPTY if p.top is None else p.top for p in view.area), tuple(p.size for p in view.area)


def state_area(area: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The top cards and pile sizes of a position's area (piles bottom first).

    >>> state_area(((1, 2), (), (3,), ()))
    ((2, 4, 3, 4), (2, 0, 1, 0))
    """
    return tuple(p[-1] if p else EMPTY for p in area), tuple(len(p) for p in area)

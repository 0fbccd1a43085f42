"""Proofs without search that a position can no longer be won.

Each game that has one declares it as its spec's ``lost``
(:attr:`~cardtable.core.spec.GameSpec.lost`): :func:`proved_lost` asks it at the root of
every solve, and the game's proving search space (its ``solver_space``) may ask it of every
position it reaches, leaving out the children it proves lost (a lost position leads to no
win, so a complete search that leaves them out still proves a deal lost).

Klondike (:func:`klondike_lost`): a *relaxed game* that forgets when things
happen. Every card of a winning line reaches its foundation at least once, and
in the real game:

- a card goes home only after the card below it in its suit, and only from
  where it can be reached: the stock and waste, a foundation, a face-up card;
- a face-down card is reached only after the card lying on it has left its pile.
  That card (the bottom of the face-up run, or the face-down card above) leaves
  either to its foundation, or onto a *parent* (a card one rank higher of the
  other colour) lying face up on the tableau at that moment, or, a king, into an
  empty pile;
- a card lies face up on the tableau only if it was dealt face up, was turned
  up, or was played there from the stock, the waste or a foundation, onto a
  parent lying there or, a king, into an empty pile;
- a pile is empty only if it was empty at the start or its last card (the
  bottom one) has left it.

The stock and waste count as one row, the *talon*: the waste from its bottom card, then
the stock in the order it is drawn. Draws and redeals never change the row's order, and a
card leaves it only as the waste's top, to its foundation or onto the tableau. With a draw
of ``d`` cards, a card of the row is the waste's top only when a draw ends on it, or once
every card after it up to the end of a draw has left the row. A pass (from an empty waste,
after a redeal) ends its draws on the ``d``-th, ``2d``-th, ... of the cards the row held when
it began, and on its last card: cards leaving during the pass were drawn before, so they
shift no later draw of the pass. So when card ``i`` (counted from 0, the waste's bottom) is
the top, every card from ``i + 1`` to the end of that draw has left, and in a later pass
the draw ended on a card whose place in the row at the pass's start is ``i + 1`` less
some of the cards before ``i`` that left earlier, plus some of those after it. The
relaxed game reaches card ``i`` of the row when the cards right after it that may leave
(a run of ``L``) reach a draw's end: the row's last card; or, in the pass under way (the
waste ``p`` cards), the waste's top (``i < p``) or card ``p - 1 + kd``; or, in a later pass,
a place from ``i + 1 - a`` to ``i + 1 + L`` that is a multiple of ``d``, where ``a`` counts the
cards before ``i`` that may leave. In draw 1 every card qualifies.

The relaxed game keeps these conditions and nothing else: once a card may be
reached, or may lie on the tableau, or a pile may be empty, it stays so for
good, and a card that went home may still serve as a parent. Its reachable cards, tableau cards and home
cards only grow, so it is worked out as a fixpoint, in time linear in the
moves of the fixpoint. Every event of a real winning line is allowed in the
relaxed game by the time it happens (by induction along the line), so if the
relaxed game cannot bring every card home, no real line can. The converse does
not hold: most lost deals pass the test and need the search.

Example: a pile holding, from the bottom, the 4 of hearts, the 4 of diamonds and
the 2 of spades face down under the 3 of spades. The 3 of spades can only leave
for its foundation (both its parents lie under it), which needs the 2 of spades,
which lies under it: no line wins. Of the first 12,000 Klondike draw 3 deals,
1,004 are proved lost this way, and the complete search of each wins none;
``bench/klondike_lost.py`` counts them (458 before a king had to wait for an
empty pile, deal 111 one of the 59 more; 517 before the stock's draws of three
counted, deal 25 one of the 487 more).

>>> from cardtable.games import rules_for
>>> klondike_lost(rules_for("klondike").deal(13), draw=3)
True
>>> klondike_lost(rules_for("klondike").deal(0), draw=3)
False
"""

from __future__ import annotations

from typing import Any

from ..core.rules import Rules
from ..core.spec import resolve
from ..games import spec_for
from ..games.desturado import DesturadoState, fits
from ..games.klondike import GOES_ON, KlondikeState

PARENTS: tuple[tuple[int, ...], ...] = tuple(tuple(t for t in range(52) if c in GOES_ON[t]) for c in range(52))
"""The cards a card may lie on in the tableau (one rank higher, the other colour), the
rules' ``GOES_ON`` turned round; none for a king, which goes into an empty pile instead."""


def klondike_lost(state: KlondikeState, draw: int = 1) -> bool:
    """Whether the relaxed game of the module docstring, with ``draw`` cards a draw,
    proves that ``state`` can no longer be won (False: not proved, the search must tell).
    ``draw`` 1 is sound for either draw (every card of the talon qualifies).

    >>> from cardtable.games import rules_for
    >>> klondike_lost(rules_for("klondike").deal(48)), klondike_lost(rules_for("klondike").deal(1))
    (True, False)
    >>> klondike_lost(rules_for("klondike").deal(111))  # no pile can be emptied for its kings
    True
    >>> d25 = rules_for("klondike").deal(25)  # its stock's draws of three never offer what it needs
    >>> klondike_lost(d25, draw=3), klondike_lost(d25, draw=1)
    (True, False)
    """
    home = [False] * 52
    for suit, height in enumerate(state.foundations):
        for rank in range(height):
            home[suit * 13 + rank] = True
    reached = home[:]  # a foundation's cards can be reached (from its top down)
    on_tableau = [False] * 52
    talon = [*state.waste, *reversed(state.stock)]
    in_waste = len(state.waste)
    # Each pile's blockers, top first: the bottom card of its face-up run, then its
    # face-down cards from the top down. Each must leave before the next is reached.
    blockers: list[list[int]] = []
    for pile, down in zip(state.tableau, state.down, strict=True):
        for c in pile[down:]:
            reached[c] = on_tableau[c] = True
        blockers.append([pile[down], *reversed(pile[:down])] if pile else [])
    cleared = [0] * len(blockers)
    heights = list(state.foundations)
    emptied = [not pile_blockers for pile_blockers in blockers]  # a pile may be empty

    def placeable(c: int) -> bool:
        """Whether ``c`` may be put on the tableau: a parent lies there, or, a king, a pile may be empty."""
        return any(emptied) if not PARENTS[c] else any(on_tableau[p] for p in PARENTS[c])

    changed = True
    while changed:
        changed = _reach_talon(talon, in_waste, draw, reached, home, on_tableau)
        for c in range(52):
            if reached[c] and not on_tableau[c] and placeable(c):
                on_tableau[c] = changed = True
        for suit in range(4):
            while heights[suit] < 13 and reached[suit * 13 + heights[suit]]:
                home[suit * 13 + heights[suit]] = True
                heights[suit] += 1
                changed = True
        for i, pile_blockers in enumerate(blockers):
            while cleared[i] < len(pile_blockers):
                c = pile_blockers[cleared[i]]
                if not (home[c] or placeable(c)):
                    break
                cleared[i] += 1
                changed = True
                if cleared[i] < len(pile_blockers):
                    below = pile_blockers[cleared[i]]
                    reached[below] = on_tableau[below] = True
                else:  # its bottom card left: the pile is empty
                    emptied[i] = True
    return sum(heights) < 52


def _reach_talon(
    talon: list[int], in_waste: int, draw: int, reached: list[bool], home: list[bool], on_tableau: list[bool]
) -> bool:
    """Mark reached the talon's cards the relaxed game lets be the waste's top (module
    docstring: the talon from the waste's bottom, ``in_waste`` cards of it in the waste);
    whether any was new. A card of the talon may leave it once reached and home-bound or
    placed on the tableau.

    >>> reached = [False] * 52; talon = [1, 2, 3, 4]
    >>> _reach_talon(talon, 0, 3, reached, [False] * 52, [False] * 52), [reached[c] for c in talon]
    (True, [False, False, True, True])
    """
    n = len(talon)
    leaves = [reached[c] and (home[c] or on_tableau[c]) for c in talon]
    run = [0] * (n + 1)  # run[i]: how many cards right after card i may leave
    for i in range(n - 2, -1, -1):
        run[i] = run[i + 1] + 1 if leaves[i + 1] else 0
    changed = False
    before = 0  # cards before card i that may leave
    for i, c in enumerate(talon):
        if not reached[c]:
            last = i + run[i]  # the farthest draw end every card between may clear
            if (
                last >= n - 1  # the talon's last card ends a draw
                or last >= in_waste - 1 >= i  # the waste's top, this pass
                or any((j - in_waste + 1) % draw == 0 for j in range(max(i, in_waste), last + 1))  # a draw of this pass
                or any(v % draw == 0 for v in range(max(1, i + 1 - before), i + 2 + run[i]))  # a draw of a later pass
            ):
                reached[c] = changed = True
        before += leaves[i]
    return changed


def desturado_lost(state: DesturadoState) -> bool:
    """Whether the *matching bound* proves that a Desturado position can no longer be won
    (False: not proved, the search must tell). Any mode: the hand spaces are the state's.

    Call *bottoms* (M) the cards that must still move as the bottom of what they lie in:
    every face-down card, the bottom card of every column's unit, the bottom card of every
    hand stack. Call *open* (T) the cards on which nothing lies for good: every face-down
    card, every column's top card, every hand stack's top card. A bottom ``x`` may *take*
    an open card ``t`` when ``x`` fits on ``t`` (:func:`~cardtable.games.desturado.fits`),
    ``t`` is not ``x`` and not in ``x``'s own unit or stack. The position is proved lost
    when no matching of bottoms to distinct open cards they may take covers all bottoms
    but at most as many as the hand spaces.

    Proof. Take a winning line and its last position: every card in the hand, in at most
    H stacks (H hand spaces). Two cards that lie one on the other, face up, in a unit or a
    hand stack stay so for good: units and stacks are never split and move whole, only
    ever put on top of something. (A face-up card on a face-down one is no such pair: the
    unit leaves, and the face-down card turns up.) So in the last position every card but
    the bottoms of M lies on the card it lies on now, and the bottom card of each of the at
    most H final stacks is in M. Every other bottom ``x`` of M lies on some card ``φ(x)``,
    put there when ``x``'s unit or stack moved with ``x`` at its bottom: ``x`` fits on
    ``φ(x)`` (rules 1-3), ``φ(x)`` is not in ``x``'s own unit or stack (those lie above
    ``x``), and ``φ(x)`` was open here (a card that something lies on for good here would
    bear two cards). A card bears at most one card, so ``φ`` is a matching that covers all
    of M but the at most H final bottoms. No such matching: no winning line.

    Example: the nine of clubs alone on the board, every hand space full, the stacks
    headed by the four tens and the other nines covered in them: the nine may take no
    card (its fits, the nines and the ten of clubs, all lie under others), nor may the
    tens (nothing open is a ten), so five bottoms are left for four hand spaces.

    At a deal the bound never fires: every card of a deal is open, so every bottom may
    take the three other cards of its rank. It pays inside the search: the solver's space
    (:class:`~cardtable.solve.spaces.DesturadoProofSpace`) asks it of every child and
    leaves out those it proves lost, which are about a third of the positions random
    lines reach in easy and medium mode (one in eight in hard mode). That prunes dead
    branches from the complete search and, more, from the solver's narrow first phases,
    whose two or three children a position are then the best ones still alive.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("desturado", mode="hard")
    >>> s = r.from_text("desturado\\na: 9C\\nb: \\nc: \\n1: TD 9D 8D 7D 6D 5D 4D 3D 2D AD\\n"
    ...     "2: TH 9H 8H 7H 6H 5H 4H 3H 2H AH\\n3: TS 9S 8S 7S 6S 5S 4S 3S 2S AS\\n4: TC 8C 7C 6C 5C 4C 3C 2C AC")
    >>> desturado_lost(s), desturado_lost(r.deal(0))
    (True, False)
    """
    columns, down, hand = state
    bottoms: list[tuple[int, int]] = []  # (card, the index in ``open_cards`` of its own top; -1: none)
    open_cards: list[int] = []
    for column, d in zip(columns, down, strict=True):
        if column:
            for card in column[:d]:
                bottoms.append((card, -1))
                open_cards.append(card)
            bottoms.append((column[d], len(open_cards)))
            open_cards.append(column[-1])
    for stack in hand:
        if stack:
            bottoms.append((stack[0], len(open_cards)))
            open_cards.append(stack[-1])
    need = len(bottoms) - len(hand)
    if need <= 0:
        return False
    takes = [[j for j, t in enumerate(open_cards) if j != own and t != x and fits(x, t)] for x, own in bottoms]
    return _matching(takes, len(open_cards), need) < need


def _matching(takes: list[list[int]], right: int, enough: int) -> int:
    """The size of a largest matching of the left items ``0..len(takes)-1`` to the right
    items ``0..right-1`` (left ``i`` may take right ``takes[i]``), by augmenting paths;
    it stops at ``enough``.

    >>> _matching([[0, 1], [0], [0]], 2, 3)
    2
    """
    owner = [-1] * right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in takes[i]:
            if not seen[j]:
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    size = 0
    for i in range(len(takes)):
        if augment(i, [False] * right):
            size += 1
            if size >= enough:
                break
    return size


def proved_lost(rules: Rules[Any, Any], state: Any) -> bool:
    """Whether a proof without search shows that ``state`` can no longer be won: the proof
    the game declares (:attr:`~cardtable.core.spec.GameSpec.lost`, given the options its
    ``lost_options`` name: the relaxed game, :func:`klondike_lost`, for Klondike, with its
    draw), False for a game without one.

    >>> from cardtable.games import rules_for
    >>> proved_lost(rules_for("klondike", draw=1), rules_for("klondike", draw=1).deal(13))
    True
    >>> proved_lost(rules_for("demonthief"), rules_for("demonthief").deal(0))
    False
    """
    spec = spec_for(rules.name)
    if spec.lost is None:
        return False
    return bool(resolve(spec.lost)(state, **{name: rules.options[name] for name in spec.lost_options}))

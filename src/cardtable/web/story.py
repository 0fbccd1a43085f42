"""What happened at a Deserto table, in words: the public move history told with names.

The rules give each move as a seat saw it, an event
(:class:`~cardtable.games.deserto.DesertoEvent`: a gift's kind only for the two
seats it concerns). :func:`tell` gives the event's sentence for the log a player
reads, and :func:`captured` collects the cards each seat won by capture, which
every seat sees. Both read the events' fields.

>>> from cardtable.games.deserto import THIEF, TREASURE, DesertoEvent
>>> tell(DesertoEvent(0, THIEF, 0, captures=((1, (TREASURE, THIEF)), (2, (TREASURE,)))), ["Ana", "Ben"])
'Ana put a thief at 1 and won 2 piles (3 cards)'
>>> tell(DesertoEvent(1, None, None, receiver=0), ["Ana", "Ben"])
'Ben could not play and gave a card to Ana'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.multiplayer import Event
from ..games.deserto import KINDS, DesertoEvent


def tell(event: Event, names: Sequence[str]) -> str:
    """A history event as a sentence with the seats' names (``event.told(names)``).

    >>> from cardtable.games.deserto import VIZIER, DesertoEvent
    >>> tell(DesertoEvent(1, VIZIER, None, receiver=0), ["You", "Ben"])
    'Ben could not play and gave a vizier to You'
    """
    return event.told(names)


def captured(history: Sequence[Event], players: int) -> list[str]:
    """The cards each seat won by capture (public), as kind letters, from a history.

    >>> from cardtable.games.deserto import THIEF, VIZIER, DesertoEvent
    >>> captured([DesertoEvent(0, THIEF, 0), DesertoEvent(1, VIZIER, 1, captures=((0, (VIZIER, THIEF)),))], 2)
    ['', 'VT']
    """
    won = [""] * players
    for event in history:
        if isinstance(event, DesertoEvent) and 0 <= event.seat < players:
            won[event.seat] += "".join(KINDS[c] for _, cards in event.captures for c in cards)
    return won

"""The card table in the browser: a web app served by cardtable itself.

One more layer on the library: the server owns every game, sends each player
only what that seat may see (:mod:`cardtable.web.table_json`), and every move
goes through the engine's ``play``: at a one-player table over HTTP
(:mod:`cardtable.web.solitaire_tables`), in a room of a multi-player game over
a WebSocket, against people or bots (:mod:`cardtable.web.rooms`). Both refuse
with one error vocabulary (:mod:`cardtable.web.errors`). Games, rooms and
statistics (:mod:`cardtable.web.statistics`) live in one SQLite file
(:mod:`cardtable.web.database`); the routes are in :mod:`cardtable.web.app`;
``cardtable serve`` starts it. What a stranger may do is bounded before any
route runs (:mod:`cardtable.web.guard`: headers, Host, Origin, body size) and
by caps (:mod:`cardtable.web.limits`); each socket has its own outbox
(:mod:`cardtable.web.peers`), bots search in a bounded pool
(:mod:`cardtable.web.botpool`), rooms keep a pace (:mod:`cardtable.web.clocks`).

>>> from cardtable.web import create_app
>>> create_app(":memory:").title
'cardtable'
"""

from .app import SERVER_OPTIONS, create_app, log_events

__all__ = ["SERVER_OPTIONS", "create_app", "log_events"]

"""The card table in the browser: a web app served by cardtable itself.

One more layer on the library: the server owns every game, sends each player
only what that seat may see (:mod:`cardtable.web.positions`), and every move
goes through the engine's ``play`` (:mod:`cardtable.web.tables`). Games and
statistics live in one SQLite file (:mod:`cardtable.web.store`); the routes
are in :mod:`cardtable.web.app`; ``cardtable serve`` starts it.

>>> from cardtable.web import create_app
>>> create_app(":memory:").title
'cardtable'
"""

from .app import create_app

__all__ = ["create_app"]

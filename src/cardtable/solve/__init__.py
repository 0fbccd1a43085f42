"""Solvers for the one-player games: :func:`solve` and its :class:`SolveResult`.

This package searches, and only searches: the deal levels (:mod:`cardtable.levels`)
and the hints (:mod:`cardtable.hints`) are built on it, never the reverse.

Full-information ("thoughtful") solving: the solver sees every card,
face-down cards and the stock order included: "solvable" means a win exists
with every card known. A solution is a list of real moves that the rules core
replays; every "solved" answer is replayed and checked before it is returned.

>>> import cardtable
>>> from cardtable.solve import solve
>>> result = solve(cardtable.new_game("klondike", deal=8), seconds=30)
>>> result.verdict
'solved'
>>> game = cardtable.new_game("klondike", deal=8)
>>> for move in result.moves:
...     _ = game.play(move)
>>> game.outcome.won
True
"""

from .solver import VERDICTS, SolveResult, solve

__all__ = ["VERDICTS", "SolveResult", "solve"]

"""The ``cardtable`` command line (click + rich), built on the library only.

:mod:`.main` parses the command line, :mod:`.play` runs the play loop and :mod:`.table`
the multi-player one, :mod:`.render` draws cards and positions, :mod:`.analyze` holds the
``analyze`` commands and :mod:`.common` what every command shares; the rules pages come
from :mod:`cardtable.rulebook`.

>>> from cardtable.cli.main import main
>>> callable(main)
True
"""

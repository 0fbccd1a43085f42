"""The ``cardtable`` command line (click + rich), built on the library only.

:mod:`.main` parses the command line, :mod:`.play` runs the play loop,
:mod:`.render` draws cards and positions, :mod:`.rulebook` writes the rules page.

>>> from cardtable.cli.main import main
>>> callable(main)
True
"""

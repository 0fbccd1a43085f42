"""Build of the optional compiled solver cores (``cardtable.solve.native``).

Everything else is in ``pyproject.toml``. The extensions are optional: one that does not
compile is left out, and the solver then uses its pure Python reference for that game.
"""

from setuptools import Extension, setup

CORES = ("klondike", "demonthief", "desturado", "devils_square")

setup(
    ext_modules=[
        Extension(
            f"cardtable.solve.native._{game}",
            [f"src/cardtable/solve/native/_{game}.c"],
            depends=["src/cardtable/solve/native/_core.h"],  # what the cores share: a change rebuilds them all
            optional=True,
            extra_compile_args=["-O3"],
        )
        for game in CORES
    ]
)

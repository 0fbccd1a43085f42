"""Types of the native Demonthief core (``_demonthief.c``); see :mod:`cardtable.solve.native.demonthief`."""

def search(
    stock: tuple[int, ...],
    waste: tuple[int, ...],
    reserve: tuple[int, ...],
    foundations: tuple[int, ...],
    tableau: tuple[tuple[int, ...], ...],
    base: int,
    redeals_used: int,
    redeals: int,
    scores: tuple[int, ...],
    eager: bool,
    k: int,
    max_nodes: int | None,
    max_seen: int | None,
    seconds: float | None,
    exact: bool = ...,
    /,
) -> tuple[str, int, list[tuple[int, int, int]]]: ...

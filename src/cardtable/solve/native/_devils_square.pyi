"""Types of the native Devil's Square core (``_devils_square.c``); see :mod:`cardtable.solve.native.devils_square`."""

def search(
    field: tuple[tuple[int, ...], ...],
    draw: tuple[int, ...],
    books: int,
    eager: bool,
    k: int,
    max_nodes: int | None,
    max_seen: int | None,
    seconds: float | None,
    /,
) -> tuple[str, int, bytes]: ...

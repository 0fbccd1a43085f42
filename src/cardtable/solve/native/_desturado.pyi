"""Types of the native Desturado core (``_desturado.c``); see :mod:`cardtable.solve.native.desturado`."""

def search(
    columns: tuple[tuple[int, ...], ...],
    down: tuple[int, ...],
    hand: tuple[tuple[int, ...], ...],
    fit: bytes,
    scores: tuple[int, int, int, int, int, int],
    eager: bool,
    k: int,
    max_nodes: int | None,
    max_seen: int | None,
    seconds: float | None,
    /,
) -> tuple[str, int, bytes]: ...

"""Types of the compiled Klondike core (``_klondike.c``); see :mod:`cardtable.solve.native.klondike`."""

from typing import Any

def search(
    stock: tuple[int, ...],
    waste: tuple[int, ...],
    foundations: tuple[int, ...],
    tableau: tuple[tuple[int, ...], ...],
    down: tuple[int, ...],
    redeals_used: int,
    draw: int,
    redeals: int | None,
    foundation_return: bool,
    classes: bool,
    mode: int,
    k: int,
    max_nodes: int | None,
    max_seen: int | None,
    seconds: float | None,
    /,
) -> tuple[str, int, list[tuple[int, int, int]]]: ...
def children(
    stock: tuple[int, ...],
    waste: tuple[int, ...],
    foundations: tuple[int, ...],
    tableau: tuple[tuple[int, ...], ...],
    down: tuple[int, ...],
    redeals_used: int,
    draw: int,
    redeals: int | None,
    foundation_return: bool,
    classes: bool,
    mode: int,
    k: int,
    /,
) -> list[tuple[list[tuple[int, int, int]], tuple[Any, ...], int | None]]: ...
def class_numbers(
    stock: tuple[int, ...],
    waste: tuple[int, ...],
    foundations: tuple[int, ...],
    tableau: tuple[tuple[int, ...], ...],
    down: tuple[int, ...],
    redeals_used: int,
    draw: int,
    redeals: int | None,
    foundation_return: bool,
    positions: list[tuple[Any, ...]],
    /,
) -> list[int] | None: ...

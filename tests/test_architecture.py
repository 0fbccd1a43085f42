"""The import graph between cardtable's packages, read from the code and checked against docs/architecture.md.

The graph is read from the syntax trees of src/cardtable: every ``import`` and
``from ... import`` statement, relative ones, ones inside functions and ones in
``TYPE_CHECKING`` blocks included. An import path in a string (a GameSpec's
``"cardtable.solve.spaces:KlondikeSpace"``) is not an import. The nodes are the
subpackages and top modules (core, games, solve, ..., api) and ``cardtable``, the
package root (``cardtable/__init__.py``).

docs/architecture.md keeps the graph in its one ``imports`` block: the layers,
lowest first, and a line per package of what it imports; a ``mermaid`` picture of it
follows. The code and the block must have the same arrows, every arrow must point to
a lower layer, and no packages, nor modules of one package, may import each other in
a circle. A failure prints the lines to put in the doc; ``python
tests/test_architecture.py`` prints the block and the picture read from the code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cardtable"
DOC = ROOT / "docs" / "architecture.md"
BLOCK = re.compile(r"^```imports\n(.*?)^```$", re.M | re.S)
PICTURE = re.compile(r"^```mermaid\n(.*?)^```$", re.M | re.S)

Graph = Mapping[str, frozenset[str]]

KNOWN_MODULE_CYCLES: dict[str, str] = {}
"""Packages whose modules still import each other in a circle (strict: the mark fails once the circle is gone)."""


def module_name(path: Path, src: Path = SRC) -> str:
    """The dotted name of a source file; a package's ``__init__.py`` is the package itself.

    >>> module_name(SRC / "solve" / "search.py"), module_name(SRC / "solve" / "native" / "__init__.py")
    ('cardtable.solve.search', 'cardtable.solve.native')
    """
    parts = path.relative_to(src.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    """The node of a module: its subpackage or top module, or ``cardtable`` for the package root.

    >>> package_of("cardtable.solve.native.klondike"), package_of("cardtable.api"), package_of("cardtable")
    ('solve', 'api', 'cardtable')
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported(source: str, module: str, is_package: bool, modules: Iterable[str]) -> frozenset[str]:
    """The modules of ``modules`` that the source of ``module`` imports (each import named by the
    longest module it reaches: ``from ..core import rules`` is ``cardtable.core.rules`` when that
    module exists, ``from ..core import Rules`` is ``cardtable.core``).

    >>> source = '''
    ... from typing import TYPE_CHECKING
    ... if TYPE_CHECKING:
    ...     from ..core import rules
    ... def space():
    ...     from . import spaces
    ...     import cardtable.games.klondike as klondike
    ...     return "cardtable.web.app:create_app", klondike
    ... '''
    >>> known = ["cardtable", "cardtable.core", "cardtable.core.rules", "cardtable.games.klondike",
    ...          "cardtable.solve.spaces", "cardtable.web.app"]
    >>> sorted(imported(source, "cardtable.solve.search", False, known))
    ['cardtable.core.rules', 'cardtable.games.klondike', 'cardtable.solve.spaces']
    """
    known = frozenset(modules)
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return frozenset(found)


@cache
def module_graph(src: Path = SRC) -> Graph:
    """What each module of the package imports of the package (from the source files under ``src``).

    >>> "cardtable.core.rules" in module_graph()["cardtable.core.game"]
    True
    """
    files = {module_name(path, src): path for path in sorted(src.rglob("*.py"))}
    return {
        name: imported(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", files)
        for name, path in files.items()
    }


def package_graph(modules: Graph) -> Graph:
    """The package graph of a module graph: an arrow where a module of one package imports one of another.

    >>> package_graph({"cardtable.api": frozenset({"cardtable.core.game"}), "cardtable.core.game": frozenset()})
    {'api': frozenset({'core'}), 'core': frozenset()}
    """
    arrows: dict[str, set[str]] = {package_of(m): set() for m in modules}
    for module, targets in modules.items():
        arrows[package_of(module)] |= {package_of(t) for t in targets} - {package_of(module)}
    return {p: frozenset(arrows[p]) for p in sorted(arrows)}


def cycles(graph: Graph) -> list[list[str]]:
    """The circles of a graph: each set of two or more nodes that all reach each other, sorted.

    >>> cycles({"a": frozenset("b"), "b": frozenset("ac"), "c": frozenset(), "d": frozenset("d")})
    [['a', 'b'], ['d']]
    """
    reach = {node: reachable(graph, node) for node in graph}
    found = {
        tuple(sorted(n for n in graph if n in reach[node] and node in reach[n]))
        for node in graph
        if node in reach[node]
    }
    return [list(c) for c in sorted(found)]


def reachable(graph: Graph, start: str) -> set[str]:
    """The nodes at the end of a path of one or more arrows from ``start``.

    >>> sorted(reachable({"a": frozenset("b"), "b": frozenset("c"), "c": frozenset()}, "a"))
    ['b', 'c']
    """
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo += graph.get(node, ())
    return seen


def layering(graph: Graph) -> list[list[str]]:
    """The lowest layers that fit an acyclic graph: a node one layer above the highest node it imports.

    >>> layering({"web": frozenset({"core", "games"}), "games": frozenset({"core"}), "core": frozenset()})
    [['core'], ['games'], ['web']]
    """
    level: dict[str, int] = {}

    def place(node: str) -> int:
        if node not in level:
            level[node] = 1 + max((place(t) for t in graph[node]), default=-1)
        return level[node]

    for node in graph:
        place(node)
    return [sorted(n for n in graph if level[n] == i) for i in range(max(level.values(), default=-1) + 1)]


def parse_block(text: str) -> tuple[list[list[str]], Graph]:
    """The layers (lowest first) and arrows of an ``imports`` block's text.

    >>> layers, arrows = parse_block("# a comment\\nlayer 0: core\\nlayer 1: games api\\napi -> core, games")
    >>> layers, sorted(arrows["api"]), arrows["core"]
    ([['core'], ['api', 'games']], ['core', 'games'], frozenset())
    """
    layers: list[list[str]] = []
    arrows: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if match := re.fullmatch(r"layer (\d+): *(.*)", line):
            assert int(match[1]) == len(layers), f"layers are numbered 0, 1, 2, ... in order: {line!r}"
            layers.append(sorted(match[2].split()))
        elif match := re.fullmatch(r"(\S+) *->(.*)", line):
            assert match[1] not in arrows, f"one line a package: {line!r}"
            arrows[match[1]] = frozenset(t.strip() for t in match[2].split(",") if t.strip())
        else:
            raise AssertionError(f"not a layer or an arrow line: {line!r}")
    nodes = sorted({n for layer in layers for n in layer} | set(arrows) | {t for ts in arrows.values() for t in ts})
    return layers, {n: arrows.get(n, frozenset()) for n in nodes}


def block_text(layers: list[list[str]], graph: Graph) -> str:
    """The ``imports`` block's text for these layers and arrows (a package that imports nothing has no line).

    >>> print(block_text([["core"], ["games"]], {"core": frozenset(), "games": frozenset({"core"})}), end="")
    layer 0: core
    layer 1: games
    games -> core
    """
    lines = [f"layer {i}: {' '.join(sorted(layer))}" for i, layer in enumerate(layers)]
    lines += [f"{node} -> {', '.join(sorted(graph[node]))}" for node in sorted(graph) if graph[node]]
    return "\n".join(lines) + "\n"


def reduced(graph: Graph) -> Graph:
    """The arrows of an acyclic graph that no longer path implies (the picture's arrows).

    >>> reduced({"a": frozenset("bc"), "b": frozenset("c"), "c": frozenset()})
    {'a': frozenset({'b'}), 'b': frozenset({'c'}), 'c': frozenset()}
    """
    return {
        node: frozenset(t for t in targets if not any(t in reachable(graph, other) for other in targets - {t}))
        for node, targets in graph.items()
    }


def picture(layers: list[list[str]], graph: Graph) -> str:
    """The Mermaid picture of the graph: packages by layer, top layer first, and the arrows no longer path implies.

    >>> print(picture([["core"], ["games"]], {"core": frozenset(), "games": frozenset({"core"})}), end="")
    flowchart TD
      games --> core
    """
    order = [n for layer in reversed(layers) for n in sorted(layer)]
    order += sorted(set(graph) - set(order))
    short = reduced(graph)
    lines = ["flowchart TD"] + [f"  {node} --> {t}" for node in order for t in sorted(short[node], key=order.index)]
    return "\n".join(lines) + "\n"


def doc_block(pattern: re.Pattern[str], doc: Path = DOC) -> str:
    """The text of the one block of docs/architecture.md that ``pattern`` finds.

    >>> "layer 0: core" in doc_block(BLOCK)
    True
    """
    found = pattern.findall(doc.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{doc} has {len(found)} blocks matching {pattern.pattern!r}; it must have exactly one"
    text: str = found[0]
    return text


def documented() -> tuple[list[list[str]], Graph]:
    """The layers and arrows written in docs/architecture.md.

    >>> documented()[0][0]
    ['core']
    """
    return parse_block(doc_block(BLOCK))


def code() -> Graph:
    """The package graph of the code.

    >>> code()["core"]
    frozenset()
    """
    return package_graph(module_graph())


def suggested() -> tuple[list[list[str]], Graph]:
    """The code's graph and its layers: the doc's where the code fits them, else the lowest that fit.

    >>> layers, graph = suggested()
    >>> layers[0], sorted(graph["games"])
    (['core'], ['core'])
    """
    real = code()
    layers, _ = documented()
    layers = [[n for n in layer if n in real] for layer in layers]
    layers = [layer for layer in layers if layer]
    level = {node: i for i, layer in enumerate(layers) for node in layer}
    fits = set(real) <= set(level) and all(level[t] < level[p] for p in real for t in real[p])
    return (layers if fits or cycles(real) else layering(real)), real


def _fix(what: str, lines: str, where: str = "the ```imports block of docs/architecture.md") -> str:
    return f"{what}\nPut these lines in {where}:\n\n{lines}"


def _comments(text: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if line.strip().startswith("#"))


def test_every_module_is_read() -> None:
    graph = module_graph()
    assert set(graph) == {module_name(path) for path in SRC.rglob("*.py")}
    assert {"cardtable", "cardtable.core", "cardtable.core.game", "cardtable.cli.main"} <= set(graph)


def test_the_rules_core_imports_no_layer() -> None:
    # A GameSpec names the solve, levels and research helpers by import paths, in strings: no import.
    assert code()["core"] == set() and code()["games"] == {"core"}


def test_the_documented_graph_is_the_code_graph() -> None:
    _, doc = documented()
    real = code()
    extra = sorted(f"{p} -> {t}" for p in real for t in real[p] - doc.get(p, frozenset()))
    gone = sorted(f"{p} -> {t}" for p in doc for t in doc[p] - real.get(p, frozenset()))
    unknown = sorted(set(doc) - set(real))
    message = (
        f"in the code, not in the doc: {extra or 'none'}; in the doc, not in the code: {gone or 'none'};"
        f" packages the code does not have: {unknown or 'none'}"
    )
    lines = _comments(doc_block(BLOCK)) + block_text(*suggested())
    assert not (extra or gone or unknown), _fix(message, lines)


def test_no_packages_import_each_other_in_a_circle() -> None:
    assert cycles(code()) == []


def test_every_arrow_points_to_a_lower_layer() -> None:
    layers, _ = documented()
    real = code()
    level = {node: i for i, layer in enumerate(layers) for node in layer}
    placed = [n for layer in layers for n in layer]
    assert sorted(placed) == sorted(set(placed)), f"a package in two layers: {layers}"
    unplaced = sorted(set(real) - set(level))
    upward = sorted(f"{p} -> {t}" for p in real for t in real[p] if p in level and t in level and level[t] >= level[p])
    if unplaced or upward:
        suggestion = block_text(*suggested()) if not cycles(real) else "(none: the packages import in a circle)\n"
        raise AssertionError(
            _fix(
                f"packages in no layer: {unplaced or 'none'}; arrows not pointing to a lower layer: {upward or 'none'}."
                " Change the code, or the layers if the design changed (the lowest layers the code fits are below)",
                _comments(doc_block(BLOCK)) + suggestion,
            )
        )


def test_the_picture_draws_the_documented_graph() -> None:
    layers, doc = documented()
    assert doc_block(PICTURE) == picture(layers, doc), _fix(
        "the picture is not the imports block's graph",
        picture(layers, doc),
        "the ```mermaid block of docs/architecture.md",
    )


def _module_cycle_cases() -> list[object]:
    packages = sorted({package_of(module_name(path)) for path in SRC.rglob("*.py")})
    return [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MODULE_CYCLES[p]))
        if p in KNOWN_MODULE_CYCLES
        else p
        for p in packages
    ]


@pytest.mark.parametrize("package", _module_cycle_cases())
def test_no_modules_of_a_package_import_each_other_in_a_circle(package: str) -> None:
    graph = module_graph()
    inside = {
        m: frozenset(t for t in ts if package_of(t) == package) for m, ts in graph.items() if package_of(m) == package
    }
    assert inside, f"no modules in {package}"
    assert cycles(inside) == []


def main(write: Callable[[str], object] = print) -> None:
    """Write the ``imports`` block and the picture of the code's graph.

    >>> out: list[str] = []
    >>> main(out.append)
    >>> out[0].startswith("```imports") and out[1].startswith("```mermaid")
    True
    """
    layers, real = suggested()
    write("```imports\n" + _comments(doc_block(BLOCK)) + block_text(layers, real) + "```\n")
    write("```mermaid\n" + picture(layers, real) + "```")


if __name__ == "__main__":
    main()

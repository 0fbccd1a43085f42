"""Peak memory of a solve: the process's largest resident size while it ran.

On Linux the kernel keeps the process's resident high-water mark (``VmHWM`` in
``/proc/self/status``) and lets the process reset it to the current size
(writing ``5`` to ``/proc/self/clear_refs``), so :func:`reset_peak` before a
solve and :func:`peak_mb` after it give that solve's own peak, in MB
(including the interpreter and whatever else the process holds). Elsewhere the
peak is the process's lifetime peak (``resource.getrusage``), an upper bound.

>>> _ = reset_peak(); peak_mb() > 0
True
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from . import native
from .spaces import EagerSpace
from .types import Pruned

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")
_HWM = re.compile(r"^VmHWM:\s+(\d+) kB", re.MULTILINE)


def reset_peak() -> bool:
    """Reset the process's resident high-water mark to its current size; False where the
    system does not allow it (then :func:`peak_mb` is the lifetime peak).

    >>> isinstance(reset_peak(), bool)
    True
    """
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_mb() -> float:
    """The process's largest resident size since the last :func:`reset_peak`, in MB
    (since it started where the reset is not available).

    >>> 1 < peak_mb() < 1_000_000
    True
    """
    try:
        found = _HWM.search(_STATUS.read_text())
    except OSError:
        found = None
    if found is not None:
        return int(found.group(1)) / 1024
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / 1024 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, kB elsewhere


MEMORY_SHARE = 0.25
"""The share of the machine's available memory a solve may fill by default."""
BYTES_PER_POSITION = 64
"""Memory per remembered position with the Klondike core, with room to spare (measured:
34 bytes at the cap of a Klondike proof of 4 million positions, whose table holds
16-byte slots and is at least half full). Each core declares its own figure
(:func:`position_bytes`)."""
PYTHON_BYTES_PER_POSITION = 2048
"""The same for the Python search of a space that declares no figure of its own (a space's
``POSITION_BYTES``): a position is a tuple in a set, and each position on the path
holds its children's positions."""
MIN_POSITIONS = 2_000_000
"""The default never remembers fewer positions than this (about 130 MB compiled)."""
_MEMINFO = Path("/proc/meminfo")


def available_mb() -> float:
    """The memory the machine has available now, in MB (Linux ``MemAvailable``; elsewhere
    the free physical pages; 4096 if neither is known).

    >>> available_mb() > 0
    True
    """
    try:
        found = re.search(r"^MemAvailable:\s+(\d+) kB", _MEMINFO.read_text(), re.MULTILINE)
    except OSError:
        found = None
    if found is not None:
        return int(found.group(1)) / 1024
    import os

    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (ValueError, OSError, AttributeError):
        return 4096.0


def position_bytes(space: Any, start: Any) -> int:
    """The most memory a remembered position takes, in bytes, in the search of ``space``
    from ``start`` (:func:`cardtable.solve.search.search`): the compiled core's figure when
    one searches (:func:`cardtable.solve.native.position_bytes`), else the Python
    search's: the space's ``POSITION_BYTES`` (under any ``Pruned`` or ``EagerSpace``), or
    :data:`PYTHON_BYTES_PER_POSITION`.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.spaces import space_for
    >>> r = rules_for("demonthief")
    >>> position_bytes(space_for(r), r.deal(0)) == (512 if native.available() else 8192)
    True
    """
    compiled = native.position_bytes(space, start)
    if compiled is not None:
        return compiled
    while isinstance(space, Pruned):
        space = space.space
    if isinstance(space, EagerSpace):
        space = space.inner
    size = getattr(space, "POSITION_BYTES", PYTHON_BYTES_PER_POSITION)
    return size if type(size) is int and size > 0 else PYTHON_BYTES_PER_POSITION


def default_memory(share: float = MEMORY_SHARE, compiled: bool | None = None, position_bytes: int | None = None) -> int:
    """The positions a solve remembers by default: ``share`` of the available memory
    (:func:`available_mb`) at ``position_bytes`` each (None: :data:`BYTES_PER_POSITION`,
    or with ``compiled`` False the Python search's :data:`PYTHON_BYTES_PER_POSITION`;
    ``compiled`` None: whichever searches here, :func:`cardtable.solve.native.available`),
    at least :data:`MIN_POSITIONS`. ``solve`` gives the figure of the search it runs
    (:func:`position_bytes`).

    >>> default_memory() >= MIN_POSITIONS, default_memory(0.0)
    (True, 2000000)
    >>> default_memory(position_bytes=8) >= default_memory(position_bytes=4096)
    True
    """
    if position_bytes is None:
        if compiled is None:
            compiled = native.available()
        position_bytes = BYTES_PER_POSITION if compiled else PYTHON_BYTES_PER_POSITION
    return max(MIN_POSITIONS, int(available_mb() * 2**20 * share / position_bytes))

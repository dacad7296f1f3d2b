"""Values derived from one immutable object, computed once and kept for the last few uses.

A weight change (every slider move, every weighting a report or a sweep tries) must not redo what depends on the
knowledge alone (the evidence behind each cell, what is ranked, the decision-tree path of a set of answers) or on
a matrix layout alone (its checked problem, the verdict's sampled matrices).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class PerObject:
    """The last `size` values computed from an immutable object and a plain, hashable key.

    Keyed by the object's identity (hashing a knowledge base or a matrix's cells would cost more than the value
    saves); the object is kept in its entries so that its id cannot be reused by another object while they live.
    Thread-safe (app sessions are threads): two threads asking for a missing value at once may both compute it,
    and the last is kept, which is harmless for the deterministic values kept here. Values are
    shared, so they must be read-only for callers; a computation that raises is not kept.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self._entries: OrderedDict[tuple, tuple[Any, Any]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, owner: Any, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept for (`owner`, `key`), or ``compute()`` kept and returned (the oldest entry goes)."""
        full = (id(owner), key)
        with self._lock:
            entry = self._entries.get(full)
            if entry is not None and entry[0] is owner:
                self._entries.move_to_end(full)
                return entry[1]
        value = compute()
        with self._lock:
            self._entries[full] = (owner, value)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)


class PerKnowledge(PerObject):
    """Values derived from one knowledge base object (immutable; an upload merged in makes a new one)."""

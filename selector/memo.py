"""Values derived from one knowledge base object, computed once and kept for the last few uses.

A weight change (every slider move, every weighting a report or a sweep tries) must not redo what depends on the
knowledge alone: the evidence behind each cell, what is ranked, the decision-tree path of a set of answers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from selector.models import KnowledgeBase

T = TypeVar("T")


class PerKnowledge:
    """The last `size` values computed from a knowledge base object and a plain, hashable key.

    Keyed by the knowledge base's identity (a knowledge base is immutable, and an upload merged in makes a new
    one); the knowledge base is kept in its entries so that its id cannot be reused by another object while
    they live. Thread-safe (app sessions are threads): two threads asking for a missing value at once may both
    compute it, and the last is kept, which is harmless for the deterministic values kept here. Values are
    shared, so they must be read-only for callers; a computation that raises is not kept.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self._entries: OrderedDict[tuple, tuple[KnowledgeBase, Any]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, kb: KnowledgeBase, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept for (`kb`, `key`), or ``compute()`` kept and returned (the oldest entry goes)."""
        full = (id(kb), key)
        with self._lock:
            entry = self._entries.get(full)
            if entry is not None and entry[0] is kb:
                self._entries.move_to_end(full)
                return entry[1]
        value = compute()
        with self._lock:
            self._entries[full] = (kb, value)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)

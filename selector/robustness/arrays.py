"""Read-only result arrays: the results are frozen dataclasses, and their arrays must not be writable either."""

from __future__ import annotations

from typing import Any

import numpy as np


def frozen(a: Any) -> np.ndarray:
    """A read-only float copy of ``a``."""
    arr = np.array(a, dtype=float, copy=True)
    arr.setflags(write=False)
    return arr


def frozen_ranks(a: np.ndarray) -> np.ndarray:
    """``a`` itself made read-only (built for the result alone, so it needs no copy)."""
    a.setflags(write=False)
    return a


def frozen_int(a: Any) -> np.ndarray:
    """A read-only int64 copy of ``a``."""
    arr = np.array(a, dtype=np.int64, copy=True)
    arr.setflags(write=False)
    return arr

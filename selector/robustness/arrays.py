"""Read-only copies of result arrays: the results are frozen dataclasses, and their arrays must be too."""

from __future__ import annotations

from typing import Any

import numpy as np


def frozen(a: Any) -> np.ndarray:
    arr = np.array(a, dtype=float, copy=True)
    arr.setflags(write=False)
    return arr


def frozen_ranks(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def frozen_int(a: Any) -> np.ndarray:
    arr = np.array(a, dtype=np.int64, copy=True)
    arr.setflags(write=False)
    return arr

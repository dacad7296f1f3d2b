"""Problems for tests that run every method: the value model needs each criterion's fixed scale, which a random
matrix does not come with, so these tests give it scales that enclose the data (tests/test_value.py checks the
model against its own references and properties)."""

from __future__ import annotations

from typing import Any

import numpy as np

from selector.decision.problem import DEFAULT_METHOD, Problem, resolve_method
from selector.value import ValueScales


def enclosing_scales(matrix: Any) -> ValueScales:
    """Linear scales a little wider than each column's values (finite even for a column holding 1e308)."""
    x = np.asarray(matrix, dtype=float)
    x = x.reshape(-1, x.shape[-1])
    lo = np.nanmin(x, axis=0)
    hi = np.nanmax(x, axis=0)
    lo = lo - 1.0 - np.abs(lo) * 0.5
    hi = hi + 1.0 + np.abs(hi) * 0.5
    return ValueScales.of(np.column_stack([lo, hi]), ["linear"] * x.shape[1], [f"C{j + 1}" for j in range(x.shape[1])])


def problem(matrix: Any, objectives: Any, weights: Any = None, method: str = "topsis", *args: Any, **kwargs: Any):  # noqa: ANN201
    """``Problem.of`` with the same arguments; a value-model problem without scales gets enclosing ones."""
    spec, _ = resolve_method(method or DEFAULT_METHOD, args[0] if args else kwargs.get("scaler"))
    if spec.name == "mavt" and kwargs.get("value_scales") is None:
        kwargs["value_scales"] = enclosing_scales(matrix)
    return Problem.of(matrix, objectives, weights, method, *args, **kwargs)

"""Criterion weights as a function of one dimension's share (performance / cost / ecosystem / risk), the other
dimensions keeping their proportions and each criterion its sub-weight inside its dimension."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from selector import scoring
from selector.scoring import ScoringError


class Dimensions:
    """Criterion weights as a function of one dimension's share, the others rescaled proportionally."""

    def __init__(
        self,
        dimension_of: Sequence[Any],
        dimension_weights: Mapping[Any, float],
        sub_weights: Sequence[float] | None,
        criteria: Sequence[str],
    ):
        n = len(criteria)
        if len(dimension_of) != n:
            raise ScoringError(f"dimension_of has {len(dimension_of)} entries for {n} criteria; give one per criterion")
        present = [str(d) for d in dimension_of]
        given = {str(k): v for k, v in dimension_weights.items()}
        for j, d in enumerate(present):
            if d not in given:
                raise ScoringError(
                    f"criterion {criteria[j]!r} belongs to dimension {d!r}, which dimension_weights does not weight; "
                    f"add it (dimensions weighted: {', '.join(given) or 'none'})"
                )
        # dimensions without any column drop out and the rest are renormalised
        self.names = tuple(d for d in given if d in present)
        dw = [given[d] for d in self.names]
        try:
            self.shares = scoring.validate_weights(dw, [f"dimension {d}" for d in self.names])
        except ScoringError as exc:
            raise ScoringError(f"dimension_weights: {exc}") from exc
        self.col_dim = np.array([self.names.index(d) for d in present])
        sub = np.ones(n) if sub_weights is None else np.asarray(sub_weights, dtype=float)
        if sub.shape != (n,):
            raise ScoringError(f"sub_weights has shape {sub.shape}; give one relative weight per criterion ({n})")
        for j in range(n):
            if not math.isfinite(sub[j]) or sub[j] < 0:
                raise ScoringError(f"sub-weight of criterion {criteria[j]!r} is {sub[j]}; give a finite number >= 0")
        within = np.zeros(len(self.names))
        np.add.at(within, self.col_dim, sub)
        for k, d in enumerate(self.names):
            if within[k] <= 0:
                raise ScoringError(f"every criterion of dimension {d!r} has sub-weight 0; give one a positive weight")
        self.sub = sub / within[self.col_dim]

    def index(self, dimension: Any) -> int:
        d = str(dimension)
        if d not in self.names:
            raise ScoringError(f"unknown dimension {d!r}; the matrix has {', '.join(self.names)}")
        return self.names.index(d)

    def at(self, d: int, t: np.ndarray) -> np.ndarray:
        """Criterion weights (len(t), n) when dimension ``d`` has share ``t``."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        p = len(self.names)
        rest = 1.0 - self.shares[d]
        # when the dimension held all the weight there is nothing to keep proportional: split the rest evenly
        others = self.shares / rest if rest > 1e-15 else np.full(p, 1.0 / max(p - 1, 1))
        dim_w = (1.0 - t)[:, None] * others[None, :]
        dim_w[:, d] = t
        return dim_w[:, self.col_dim] * self.sub[None, :]


def dimension_weights_at(
    dimension_of: Sequence[Any],
    dimension_weights: Mapping[Any, float],
    sub_weights: Sequence[float] | None,
    dimension: Any,
    share: float,
) -> np.ndarray:
    """Criterion weights when ``dimension`` takes ``share`` (0..1) and the other dimensions keep their proportions.

    Parameters
    ----------
    dimension_of : sequence
        Dimension id of each criterion (column).
    dimension_weights : mapping
        Dimension id -> weight (any non-negative scale).
    sub_weights : sequence of float or None
        Relative weight of each criterion within its dimension (None: equal).
    dimension : str
        The dimension to set.
    share : float
        Its share of the total weight.

    Returns
    -------
    numpy.ndarray
        (n,) weights summing to 1.
    """
    crits = scoring.default_names("C", len(dimension_of))
    dims = Dimensions(dimension_of, dimension_weights, sub_weights, crits)
    return dims.at(dims.index(dimension), np.array([share]))[0]

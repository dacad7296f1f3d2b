"""Weight sweeps: every alternative's score as one dimension's share runs from 0 to 1 (for charting)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector import scoring
from selector.robustness.arrays import frozen, frozen_int
from selector.robustness.dimensions import Dimensions
from selector.robustness.scorer import BatchScorer, validated_inputs
from selector.scoring import ScoringError, to_jsonable


@dataclass(frozen=True, eq=False)
class WeightSweep:
    """Scores of every alternative as one dimension's share runs over a grid (for charting)."""

    dimension: str
    method: str
    scaler: str
    higher_is_better: bool
    alternatives: tuple[str, ...]
    grid: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    leaders: tuple[str, ...]
    current_weight: float

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict."""
        return to_jsonable(
            {
                "dimension": self.dimension,
                "method": self.method,
                "scaler": self.scaler,
                "higher_is_better": self.higher_is_better,
                "alternatives": self.alternatives,
                "grid": self.grid,
                "scores": self.scores,
                "ranks": self.ranks,
                "leaders": self.leaders,
                "current_weight": self.current_weight,
            }
        )


def weight_sweep(
    matrix: Any,
    objectives: Sequence[Any],
    dimension_of: Sequence[Any],
    dimension_weights: Mapping[Any, float],
    sub_weights: Sequence[float] | None,
    dimension: Any,
    method: str = "topsis",
    scaler: str | None = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
    n_points: int = 101,
) -> WeightSweep:
    """Score every alternative while ``dimension``'s share runs from 0 to 1 (others kept proportional).

    Parameters
    ----------
    matrix, objectives, method, scaler, alternatives, criteria
        As in ``scoring.score``.
    dimension_of, dimension_weights, sub_weights
        As in ``tipping_points``.
    dimension : str
        The dimension to sweep.
    n_points : int
        Grid size (0 and 1 included).

    Returns
    -------
    WeightSweep
        ``scores`` and ``ranks`` have shape (n_points, m).
    """
    spec, scaler, x, alts, crits, signs = validated_inputs(matrix, objectives, method, scaler, alternatives, criteria)
    dims = Dimensions(dimension_of, dimension_weights, sub_weights, crits)
    d = dims.index(dimension)
    if len(dims.names) < 2:
        raise ScoringError(f"only one dimension ({dims.names[0]!r}) carries weight; there is nothing to trade off")
    if int(n_points) < 2:
        raise ScoringError(f"n_points is {n_points}; give at least 2")
    grid = np.linspace(0.0, 1.0, int(n_points))
    scorer = BatchScorer(x, signs, spec, scaler)
    scores = scorer.scores(dims.at(d, grid))
    ranks = scoring.rank_scores(scores, spec.higher_is_better)
    return WeightSweep(
        dimension=dims.names[d],
        method=spec.name,
        scaler=scaler,
        higher_is_better=spec.higher_is_better,
        alternatives=alts,
        grid=frozen(grid),
        scores=frozen(scores),
        ranks=frozen_int(ranks),
        leaders=tuple(alts[int(i)] for i in np.argmin(ranks, axis=1)),
        current_weight=float(dims.shares[d]),
    )

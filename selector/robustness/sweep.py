"""Weight sweeps: every alternative's score as one dimension's share runs from 0 to 1 (for charting)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from selector.arrays import read_only
from selector.decision import scoring
from selector.decision.problem import Problem, ScoringError
from selector.decision.scoring import to_jsonable
from selector.decision.vectorised import Scorer
from selector.decision.weights import Hierarchy


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


def weight_sweep(problem: Problem, hierarchy: Hierarchy, dimension: Any, n_points: int = 101) -> WeightSweep:
    """Score every alternative while ``dimension``'s share runs from 0 to 1 (others kept proportional).

    Parameters
    ----------
    problem, hierarchy
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
    spec, alts = problem.spec, problem.alternatives
    d = hierarchy.index(dimension)
    if len(hierarchy.dimensions) < 2:
        raise ScoringError(
            f"only one dimension ({hierarchy.dimensions[0]!r}) carries weight; there is nothing to trade off"
        )
    if int(n_points) < 2:
        raise ScoringError(f"n_points is {n_points}; give at least 2")
    grid = np.linspace(0.0, 1.0, int(n_points))
    scores = Scorer(problem).scores(hierarchy.at(d, grid))
    ranks = scoring.rank_scores(scores, spec.higher_is_better)
    return WeightSweep(
        dimension=hierarchy.dimensions[d],
        method=spec.name,
        scaler=problem.scaler,
        higher_is_better=spec.higher_is_better,
        alternatives=alts,
        grid=read_only(grid, float),
        scores=read_only(scores, float),
        ranks=read_only(ranks, np.int64),
        leaders=tuple(alts[int(i)] for i in np.argmin(ranks, axis=1)),
        current_weight=float(hierarchy.shares[d]),
    )

"""Scoring many weight vectors against one fixed matrix, through ``selector.batch`` (vectorised numpy, tested
equal to ``selector.scoring``): the engine of SMAA, tipping points, weight sweeps and the verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from selector import batch, scoring


def validated_inputs(
    matrix: Any,
    objectives: Sequence[Any],
    method: str,
    scaler: str | None,
    alternatives: Sequence[Any] | None,
    criteria: Sequence[Any] | None,
) -> tuple[scoring.MethodSpec, str, np.ndarray, tuple[str, ...], tuple[str, ...], np.ndarray]:
    """The method spec, scaler, matrix, names and signs of a complete matrix, checked as ``scoring.score`` does."""
    spec, scaler = scoring.resolve_method(method, scaler)
    x, alts, crits = scoring.as_matrix(matrix, alternatives, criteria)
    signs = scoring.parse_objectives(objectives, x.shape[1], crits)
    scoring.check_values(x, signs, spec, scaler, alts, crits)
    return spec, scaler, x, alts, crits, signs


class BatchScorer:
    """Scores weight batches against a fixed matrix, normalising it once.

    ``prepared`` arguments are matrices from :meth:`prepare` (e.g. sampled with uncertain cells drawn), one per
    weight vector; without them every weight vector scores the matrix given at construction.
    """

    def __init__(self, x: np.ndarray, signs: np.ndarray, spec: scoring.MethodSpec, scaler: str):
        self.signs, self.spec, self.scaler = signs, spec, scaler
        self.prepared = self.prepare(x)

    def prepare(self, x: np.ndarray) -> np.ndarray:
        """The part of scoring that does not depend on the weights, for one matrix (m, n) or a stack (k, m, n)."""
        if self.spec.name == "vikor":
            return batch.vikor_distances(x, self.signs)
        return batch.normalise(x, self.signs, self.spec, self.scaler)

    def scores(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """Scores (k, m) of the weight vectors ``w`` (k, n)."""
        p = self.prepared if prepared is None else prepared
        if self.spec.name == "vikor":
            return batch.scores_from_normalised(p, self.signs, w, self.spec, vikor_d=p)
        return batch.scores_from_normalised(p, self.signs, w, self.spec)

    def ranks(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """Ranks (k, m): 1 = best, ties share the lowest rank."""
        return scoring.rank_scores(self.scores(w, prepared), self.spec.higher_is_better)

    def first(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        """(k, m) booleans: which alternatives rank first (ties included) under each weight vector."""
        return scoring.first_ranked(self.scores(w, prepared), self.spec.higher_is_better)

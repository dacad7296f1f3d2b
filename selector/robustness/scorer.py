"""Scoring many weight vectors against one fixed matrix, through ``selector.batch`` (vectorised numpy, tested
equal to ``selector.scoring``): the engine of SMAA, tipping points, weight sweeps and the verdict."""

from __future__ import annotations

import numpy as np

from selector import batch, scoring


def validated_inputs(matrix, objectives, method, scaler, alternatives, criteria):
    spec, scaler = scoring.resolve_method(method, scaler)
    x, alts, crits = scoring.as_matrix(matrix, alternatives, criteria)
    signs = scoring.parse_objectives(objectives, x.shape[1], crits)
    scoring.check_values(x, signs, spec, scaler, alts, crits)
    return spec, scaler, x, alts, crits, signs


class BatchScorer:
    """Scores weight batches against a fixed matrix, normalising it once."""

    def __init__(self, x: np.ndarray, signs: np.ndarray, spec: scoring.MethodSpec, scaler: str):
        self.signs, self.spec, self.scaler = signs, spec, scaler
        self.prepared = self.prepare(x)

    def prepare(self, x: np.ndarray) -> np.ndarray:
        if self.spec.name == "vikor":
            return batch.vikor_distances(x, self.signs)
        return batch.normalise(x, self.signs, self.spec, self.scaler)

    def scores(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        p = self.prepared if prepared is None else prepared
        if self.spec.name == "vikor":
            return batch.scores_from_normalised(p, self.signs, w, self.spec, vikor_d=p)
        return batch.scores_from_normalised(p, self.signs, w, self.spec)

    def ranks(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        return scoring.rank_scores(self.scores(w, prepared), self.spec.higher_is_better)

    def first(self, w: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
        return scoring.first_ranked(self.scores(w, prepared), self.spec.higher_is_better)

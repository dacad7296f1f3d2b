"""Criterion weights from one dimension's share."""

from __future__ import annotations

import numpy as np

from selector.robustness.dimensions import dimension_weights_at
from tests.robustness.problems import DIM_WEIGHTS, DIMS


def test_dimension_weights_keep_the_other_proportions():
    w = dimension_weights_at(DIMS, DIM_WEIGHTS, [2, 1, 1, 1, 1, 1, 1, 1], "cost", 0.5)
    np.testing.assert_allclose(w.sum(), 1.0)
    np.testing.assert_allclose(w[3] + w[4], 0.5)
    # perf : eco : risk stay 40 : 20 : 15 and perf's sub-weights stay 2 : 1 : 1
    np.testing.assert_allclose([w[:3].sum(), w[5:7].sum(), w[7]], np.array([40, 20, 15]) / 75 * 0.5)
    np.testing.assert_allclose(w[:3] / w[:3].sum(), [0.5, 0.25, 0.25])
    # at its current share the weights are the current ones
    current = dimension_weights_at(DIMS, DIM_WEIGHTS, None, "perf", 0.4)
    np.testing.assert_allclose(current, [0.4 / 3] * 3 + [0.125] * 2 + [0.1] * 2 + [0.15])

"""Small decision problems shared by the robustness tests."""

from __future__ import annotations

import json

import numpy as np

from selector.decision.problem import METHODS

ALL_COMBOS = [(m, s) for m, spec in METHODS.items() for s in spec.scalers]
DIMS = ["perf", "perf", "perf", "cost", "cost", "eco", "eco", "risk"]
DIM_WEIGHTS = {"perf": 40, "cost": 25, "eco": 20, "risk": 15}
OBJ8 = ["max", "max", "min", "min", "min", "max", "max", "min"]


def random_problem(seed: int, m: int = 5, n: int = 8):
    rng = np.random.default_rng(seed)
    return rng.uniform(1, 10, size=(m, n)), rng.uniform(0.1, 1, size=n)


def json_roundtrip(obj):
    return json.loads(json.dumps(obj.to_dict(), allow_nan=False))

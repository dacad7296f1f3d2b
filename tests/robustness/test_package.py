"""What every module and result of the robustness package shares: no mutable globals, results that pickle."""

from __future__ import annotations

import importlib
import pkgutil

from selector import robustness
from selector.decision.weights import Hierarchy
from selector.robustness.agreement import method_agreement
from selector.robustness.reversal import rank_reversal
from selector.robustness.smaa import smaa
from selector.robustness.sweep import weight_sweep
from selector.robustness.tipping import tipping_points
from tests.problems import problem as make_problem
from tests.robustness.problems import DIM_WEIGHTS, DIMS, OBJ8, random_problem

MODULES = [importlib.import_module(f"selector.robustness.{m.name}") for m in pkgutil.iter_modules(robustness.__path__)]


def test_modules_have_no_mutable_globals():
    mutable = [
        f"{module.__name__}.{k}"
        for module in MODULES
        for k, v in vars(module).items()
        if isinstance(v, (list, dict, set)) and not k.startswith("__")
    ]
    assert mutable == []


def test_results_pickle():
    import pickle

    x, w = random_problem(2, m=3, n=8)
    for obj in (
        smaa(make_problem(x, OBJ8, w), n_samples=50),
        method_agreement(make_problem(x, OBJ8, w)),
        rank_reversal(make_problem(x, OBJ8, w)),
        weight_sweep(make_problem(x, OBJ8, None), Hierarchy.of(DIMS, DIM_WEIGHTS), "perf", n_points=5),
        *tipping_points(make_problem(x, OBJ8, None), Hierarchy.of(DIMS, DIM_WEIGHTS)),
    ):
        assert pickle.loads(pickle.dumps(obj)).to_dict() == obj.to_dict()

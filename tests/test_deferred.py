"""Deferred modules: the stand-in's dense ranking equals scipy's, and every other call goes to scipy itself.

That scoring leaves the deferred modules unloaded, and that they load when used, is checked in fresh processes by
tests/decision/test_scoring.py.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector import deferred
from tests.conftest import ROOT

finite = st.floats(allow_nan=False, allow_infinity=True, width=64)


@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 1e308, float("inf")]) | finite, max_size=80))
def test_the_deferred_dense_ranking_equals_scipys(values):
    from scipy import stats

    stand_in = deferred.DeferredStats("scipy.stats")
    for given_values in (values, np.array(values), np.array([int(v) for v in values if abs(v) < 1e15])):
        got, expected = stand_in.rankdata(given_values, "dense"), stats.rankdata(given_values, "dense")
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.parametrize(
    "args", [([1.0, float("nan"), 1.0], "dense"), ([3.0, 1.0, 3.0], "average"), ([[2.0, 1.0], [1.0, 1.0]], "dense")]
)
def test_the_deferred_ranking_hands_every_other_call_to_scipy(args):
    from scipy import stats

    got, expected = deferred.DeferredStats("scipy.stats").rankdata(*args), stats.rankdata(*args)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == expected.dtype


def test_a_deferred_package_and_submodule_load_together_package_first(tmp_path, monkeypatch):
    package = tmp_path / "deferred_probe"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import sys\nORDER = sys.modules.setdefault('probe_order', [])\nORDER.append('package')\n"
    )
    (package / "sub.py").write_text("import sys\nsys.modules['probe_order'].append('sub')\nVALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sys.modules, "probe_order", [])
    try:
        deferred.install(["deferred_probe", "deferred_probe.sub"])
        assert isinstance(sys.modules["deferred_probe"], deferred.Deferred)
        from deferred_probe import sub  # as skcriteria imports sklearn.preprocessing: nothing runs yet

        assert isinstance(sub, deferred.Deferred) and sys.modules["probe_order"] == []
        assert sub.VALUE == 42
        assert sys.modules["probe_order"] == ["package", "sub"]
        assert not isinstance(sys.modules["deferred_probe"], deferred.Deferred)
        assert not isinstance(sys.modules["deferred_probe.sub"], deferred.Deferred)
    finally:
        for name in ("deferred_probe.sub", "deferred_probe"):
            sys.modules.pop(name, None)


def test_install_leaves_imported_and_missing_modules_alone():
    before = sys.modules["numpy"]
    deferred.install(["numpy", "no_such_module_anywhere"])
    assert sys.modules["numpy"] is before and "no_such_module_anywhere" not in sys.modules


@pytest.mark.parametrize("size", [1, 5, 64, 65, 500])
def test_the_deferred_dense_ranking_of_short_and_long_rows(size):
    from scipy import stats

    values = np.random.default_rng(size).integers(0, 7, size=size) * 0.5 - 1.0  # ties, negatives, zero
    got, expected = deferred.DeferredStats("scipy.stats").rankdata(values, "dense"), stats.rankdata(values, "dense")
    assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.subprocess
def test_scikit_criteria_still_imports_every_deferred_module_and_ranks_with_rankdata():
    # The stand-ins are worth keeping only while scikit-criteria imports these modules at the top of what scoring
    # loads (the package and its scalers) and ranks with scipy.stats.rankdata(..., "dense"): when a release stops
    # importing one, drop it from BY_SKCRITERIA; when it ranks another way, DeferredStats answers nothing any more.
    code = (
        "import inspect, sys, skcriteria, skcriteria.utils.rank as rank; "
        "from skcriteria.preprocessing import scalers; "
        f"print([m for m in {deferred.BY_SKCRITERIA!r} if m in sys.modules], "
        "'stats.rankdata(arr, \"dense\")' in inspect.getsource(rank))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{list(deferred.BY_SKCRITERIA)} True", done.stdout

"""selector.decision.problem: Problem.of checks a decision problem once (shapes, names, numbers, objectives, weights,
method
and scaler, the values they can handle) and says what is wrong, where; METHODS declare each method."""

from __future__ import annotations

import numpy as np
import pytest

from selector.decision.problem import (
    DEFAULT_METHOD,
    METHODS,
    SCALERS,
    Problem,
    ScoringError,
    parse_objectives,
    resolve_method,
)

CELL = r"cell \(alternative '{}', criterion '{}'\) is {}"


def refusal(*args, **kwargs) -> str:
    with pytest.raises(ScoringError) as caught:
        Problem.of(*args, **kwargs)
    return str(caught.value)


# ----------------------------------------------------------------------------------------------------------
# Methods and scalers


def test_every_method_is_named_by_its_key_and_defaults_to_a_scaler_it_allows():
    for key, spec in METHODS.items():
        assert spec.name == key
        assert spec.default_scaler in spec.scalers
        assert set(spec.scalers) <= set(SCALERS)
        assert spec.rationale and spec.label


def test_method_specs_state_the_documented_defaults_and_treatments():
    defaults = {name: spec.default_scaler for name, spec in METHODS.items()}
    assert defaults == {
        "mavt": "value",
        "wsm": "sum",
        "wpm": "sum",
        "topsis": "vector",
        "vikor": "none",
        "moora": "vector",
    }
    assert METHODS["mavt"].scalers == ("value",)  # the value model's scales come from the domain, never the data
    assert DEFAULT_METHOD == "mavt"
    assert METHODS["vikor"].scalers == ("none",)  # VIKOR normalises by itself
    assert "minmax" not in METHODS["wpm"].scalers  # min-max makes zeros, and the product takes logarithms
    assert [n for n, s in METHODS.items() if s.inverts_cost] == ["wsm", "wpm"]
    assert [n for n, s in METHODS.items() if not s.higher_is_better] == ["vikor"]  # Q: lower is better


def test_a_method_splits_into_contributions_exactly_when_it_is_additive():
    for name, spec in METHODS.items():
        assert (spec.contributions is not None) == spec.additive, name
    assert METHODS["topsis"].intermediates == ("ideal", "anti_ideal", "d_ideal", "d_anti_ideal")
    assert "compromise_set" in METHODS["vikor"].intermediates


def test_resolve_method_reads_names_loosely_and_picks_the_default_scaler():
    spec, scaler = resolve_method(" TOPSIS ")
    assert (spec.name, scaler) == ("topsis", "vector")
    assert resolve_method("wsm", " MinMax ")[1] == "minmax"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "electre"}, "unknown method 'electre'; choose one of mavt, wsm, wpm, topsis, vikor, moora"),
        ({"method": "wpm", "scaler": "minmax"}, "method 'wpm' does not allow scaler 'minmax'; use one of sum, vector"),
        ({"method": "vikor", "scaler": "vector"}, "method 'vikor' does not allow scaler 'vector'; use one of none"),
        ({"scaler": "zscore"}, "unknown scaler 'zscore'; choose one of none, sum, vector, minmax"),
    ],
)
def test_unknown_or_disallowed_method_and_scaler(kwargs, message):
    assert message in refusal([[1, 2], [2, 3]], ["max", "max"], [1, 1], **kwargs)


def test_a_disallowed_scaler_is_told_the_default_and_why():
    message = refusal([[1, 2], [2, 3]], ["max", "max"], [1, 1], "wpm", "minmax")
    assert f"(default 'sum': {METHODS['wpm'].rationale})" in message


# ----------------------------------------------------------------------------------------------------------
# Shapes, names and numbers


def test_a_valid_problem_keeps_its_parts():
    p = Problem.of([[1, 2], [3, 4], [5, 6]], ["max", "min"], [1, 3], "moora", alternatives=["a", "b", "c"])
    assert p.values.tolist() == [[1, 2], [3, 4], [5, 6]]
    assert p.signs.tolist() == [1, -1] and p.objectives == ("max", "min")
    assert p.weights.tolist() == [0.25, 0.75]  # normalised to sum 1
    assert (p.spec.name, p.scaler) == ("moora", "vector")
    assert p.alternatives == ("a", "b", "c") and p.criteria == ("C1", "C2")
    assert p.complete


def test_a_problem_is_read_only_and_does_not_share_the_callers_arrays():
    matrix = np.array([[1.0, 2.0], [3.0, 4.0]])
    weights = np.array([1.0, 1.0])
    p = Problem.of(matrix, ["max", "max"], weights)
    matrix[0, 0] = 99
    weights[0] = 99
    assert p.values[0, 0] == 1 and p.weights.tolist() == [0.5, 0.5]
    for array in (p.values, p.signs, p.weights):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


def test_a_dataframe_gives_its_names_unless_names_are_given():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([[1, 2], [3, 4]], index=["h100", "mi300x"], columns=["perf", "cost"])
    p = Problem.of(frame, ["max", "min"], [1, 1])
    assert (p.alternatives, p.criteria) == (("h100", "mi300x"), ("perf", "cost"))
    q = Problem.of(frame, ["max", "min"], [1, 1], alternatives=["x", "y"])
    assert (q.alternatives, q.criteria) == (("x", "y"), ("perf", "cost"))


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        ([[1, "fast"], [2, 3]], "the decision matrix must hold numbers only"),
        ([1, 2, 3], r"must be 2-D \(alternatives x criteria\); got shape \(3,\)"),
        (np.zeros((0, 2)), r"the decision matrix is empty \(0 alternatives x 2 criteria\)"),
        (np.zeros((2, 0)), r"the decision matrix is empty \(2 alternatives x 0 criteria\)"),
    ],
)
def test_a_matrix_of_the_wrong_shape_or_kind_is_refused(matrix, message):
    with pytest.raises(ScoringError, match=message):
        Problem.of(matrix, ["max", "max"])


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"alternatives": ["x", "x"]}, "alternative name 'x' appears twice; names must be unique"),
        ({"alternatives": ["x"]}, "got 1 alternative names for 2 alternatives; give one name per alternative"),
        ({"criteria": ["a", "b", "c"]}, "got 3 criterion names for 2 criterions"),
    ],
)
def test_names_must_be_one_per_row_or_column_and_unique(names, message):
    assert message in refusal([[1, 2], [2, 3]], ["max", "max"], [1, 1], **names)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_a_non_finite_cell_is_named(value):
    message = refusal(
        [[1, value], [2, 3]], ["max", "min"], [1, 1], alternatives=["H200", "MI300X"], criteria=["perf", "cost"]
    )
    assert message.startswith(f"cell (alternative 'H200', criterion 'cost') is {value}")
    assert "impute missing values before scoring" in message


# ----------------------------------------------------------------------------------------------------------
# Objectives and weights


def test_objectives_accept_words_signs_builtins_and_a_comma_list():
    expected = [1, -1, 1]
    assert parse_objectives(["max", "min", "MAX "], 3).tolist() == expected
    assert parse_objectives([1, -1, 1.0], 3).tolist() == expected
    assert parse_objectives([max, min, max], 3).tolist() == expected
    assert parse_objectives(["+", "-", "+1"], 3).tolist() == expected
    assert parse_objectives("max,min,max", 3).tolist() == expected
    assert parse_objectives([np.int64(1), np.float64(-1), "1"], 3).tolist() == expected


@pytest.mark.parametrize("bad", ["benefit", 2, 0, True, None])
def test_an_objective_other_than_max_or_min_is_refused_naming_the_criterion(bad):
    message = refusal([[1, 2], [2, 3]], ["max", bad], [1, 1], criteria=["a", "b"])
    assert message == f"objective for criterion 'b' is {bad!r}; use 'max' (benefit) or 'min' (cost)"


def test_an_objective_without_criterion_names_is_named_by_position():
    with pytest.raises(ScoringError, match="objective for criterion '#2'"):
        parse_objectives(["max", "up"], 2)


def test_one_objective_per_criterion():
    assert "got 1 objectives for 2 criteria" in refusal([[1, 2], [2, 3]], ["max"], [1, 1])


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([0, 0, 0], "all weights are zero"),
        ([1, -0.5, 1], r"weight 2 \('cost'\) is negative"),
        ([1, float("nan"), 1], r"weight 2 \('cost'\) is nan"),
        ([1, 1, float("inf")], r"weight 3 \('risk'\) is inf"),
        ([1, 1], r"got 2 weights for 3 criteria \(perf, cost, risk\)"),
    ],
)
def test_bad_weights_are_refused_naming_the_weight(weights, message):
    with pytest.raises(ScoringError, match=message):
        Problem.of([[1, 2, 3], [2, 3, 4]], ["max", "min", "max"], weights, criteria=["perf", "cost", "risk"])


def test_a_problem_without_weights_says_so_when_scored():
    p = Problem.of([[1, 2], [2, 3]], ["max", "max"])
    assert p.weights is None
    with pytest.raises(ScoringError, match="this problem has no weights"):
        p.scorable_weights()


# ----------------------------------------------------------------------------------------------------------
# Values the method and scaler cannot handle


@pytest.mark.parametrize(
    ("method", "scaler", "matrix", "objectives", "cell", "message"),
    [
        ("topsis", "sum", [[1, -2], [2, 3]], ["max", "max"], ("A1", "C2", -2), "sum scaling divides by the column"),
        ("wpm", "sum", [[1, 0], [2, 3]], ["max", "max"], ("A1", "C2", 0), "the weighted product takes logarithms"),
        ("wsm", "sum", [[1, 0], [2, 3]], ["max", "min"], ("A1", "C2", 0), "wsm inverts cost criteria"),
        ("wsm", "vector", [[1, 2], [-2, 3]], ["max", "max"], ("A2", "C1", -2), "would add a negative value"),
        ("wsm", "none", [[1, 2], [-2, 3]], ["max", "max"], ("A2", "C1", -2), "would add a negative value"),
    ],
)
def test_values_the_method_cannot_handle_are_refused_naming_the_cell(method, scaler, matrix, objectives, cell, message):
    with pytest.raises(ScoringError, match=CELL.format(*cell) + ".*" + message):
        Problem.of(matrix, objectives, [1, 1], method, scaler)


@pytest.mark.parametrize("method", ["wpm", "wsm", "topsis"])
def test_a_subnormal_value_is_refused_by_name(method):
    x = np.array([[5.0e-324, 2.0], [1.0, 3.0]])
    with pytest.raises(ScoringError, match=CELL.format("A1", "C1", "4.94066e-324") + ".*subnormal.*give 0"):
        Problem.of(x, ["min", "max"], [1, 1], method)


@pytest.mark.parametrize(
    ("method", "scaler", "matrix", "objectives"),
    [
        ("wsm", "minmax", [[1, -2], [2, 3]], ["max", "max"]),  # min-max shifts negatives into 0..1
        ("topsis", "vector", [[1, -2], [2, 0]], ["max", "min"]),  # TOPSIS takes the minimum as a cost's ideal
        ("moora", "vector", [[1, 0], [2, 3]], ["max", "min"]),  # MOORA subtracts cost criteria
        ("vikor", "none", [[-1, 0], [2, 3]], ["max", "min"]),
    ],
)
def test_values_are_accepted_where_the_method_handles_them(method, scaler, matrix, objectives):
    assert Problem.of(matrix, objectives, [1, 1], method, scaler).values.tolist() == matrix


def test_a_problem_with_missing_cells_defers_the_checks_to_scoring():
    p = Problem.of([[1, np.nan], [-2, 3]], ["max", "max"], [1, 1], "topsis", "sum", allow_missing=True)
    assert not p.complete and np.isnan(p.values[0, 1])
    with pytest.raises(ScoringError, match=CELL.format("A1", "C2", "nan")):
        p.scorable_weights()
    negative = Problem.of([[1, 2], [-2, 3]], ["max", "max"], [1, 1], "topsis", "sum", allow_missing=True)
    with pytest.raises(ScoringError, match=CELL.format("A2", "C1", -2) + ".*sum scaling"):
        negative.scorable_weights()


def test_missing_cells_still_refuse_infinity():
    message = refusal([[1, np.inf], [2, 3]], ["max", "max"], [1, 1], allow_missing=True)
    assert message.startswith("cell (alternative 'A1', criterion 'C2') is inf")


# ----------------------------------------------------------------------------------------------------------
# Derived problems


def test_with_method_rechecks_the_values_for_the_new_method():
    p = Problem.of([[1, 0], [2, 3]], ["max", "min"], [1, 1], "topsis")
    assert p.with_method("moora").scaler == "vector"
    with pytest.raises(ScoringError, match="wsm inverts cost criteria"):
        p.with_method("wsm")
    with pytest.raises(ScoringError, match="inverts cost criteria"):
        p.with_method("wsm", "minmax")  # min-max does not help: 1/0 comes before any scaling
    assert p.spec.name == "topsis"  # the original is unchanged


def test_with_rows_takes_some_alternatives_and_can_rename_them():
    p = Problem.of([[1, 2], [3, 4], [5, 6]], ["max", "max"], [1, 1], alternatives=["a", "b", "c"])
    sub = p.with_rows([2, 0])
    assert sub.values.tolist() == [[5, 6], [1, 2]] and sub.alternatives == ("c", "a")
    assert not sub.values.flags.writeable
    twice = p.with_rows([1, 1], names=["b1", "b2"])
    assert twice.values.tolist() == [[3, 4], [3, 4]] and twice.alternatives == ("b1", "b2")
    with pytest.raises(ScoringError, match="alternative name 'b' appears twice"):
        p.with_rows([1, 1], names=["b", "b"])

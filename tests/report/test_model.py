"""selector.report.model: the report's frozen plain data, the two things it derives (cited ids, scaling in words)
and its error type."""

from __future__ import annotations

import dataclasses

import pytest

from selector.errors import SelectorError
from selector.report import model
from selector.report.model import Evidence, Point, Report, ReportError, RobustnessInfo


def report(**changes: object) -> Report:
    """A report with every required field empty (a string, tuple, number or flag as its type says)."""
    empty = {"str": "", "bool": False, "RobustnessInfo": RobustnessInfo(samples=0, seed=0)}
    required = [f for f in dataclasses.fields(Report) if f.default is dataclasses.MISSING]
    # The annotations are strings (postponed evaluation): "str", "bool", "RobustnessInfo" or "tuple[...]".
    values = {f.name: () if f.type.startswith("tuple") else empty[f.type] for f in required}
    return Report(**(values | changes))


def evidence(claim_id: str) -> Evidence:
    return Evidence(claim_id, "004", "Title", "", "", "", "text", "", "claimed", ())


def test_every_model_type_is_frozen():
    types = [t for t in vars(model).values() if dataclasses.is_dataclass(t) and t.__module__ == model.__name__]
    assert {t.__name__ for t in types} >= {"Report", "Evidence", "OptionRow", "CellInfo", "RobustnessInfo", "Point"}
    for kind in types:
        assert kind.__dataclass_params__.frozen, kind.__name__
    with pytest.raises(dataclasses.FrozenInstanceError):
        Point("good", "fast").verdict = "bad"


def test_evidence_ids_are_the_appendix_claims():
    built = report(evidence=(evidence("c2"), evidence("c1"), evidence("c2")))
    assert built.evidence_ids == frozenset({"c1", "c2"})
    assert report().evidence_ids == frozenset()


@pytest.mark.parametrize(("scaler", "words"), [("none", "no scaling"), ("vector", "vector scaling")])
def test_the_scaling_is_said_in_words(scaler, words):
    assert report(scaler=scaler).scaling == words


def test_robustness_not_run_is_zero_samples_and_nothing_else():
    robust = RobustnessInfo(samples=0, seed=0)
    assert robust.first_share == () and robust.methods == () and robust.leader_acceptability is None
    assert report().robustness == robust


def test_a_report_error_is_the_apps_error_and_a_runtime_error():
    error = ReportError("PDF needs WeasyPrint's system libraries; install libpango")
    assert isinstance(error, SelectorError) and isinstance(error, RuntimeError)
    with pytest.raises(SelectorError, match="install libpango"):
        raise error

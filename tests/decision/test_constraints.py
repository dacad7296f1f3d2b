"""Hard constraints: parsing, removal before weighting with the failing constraint and its evidence, unknown values,
vendors and single exclusions; the command line, the URL and the profile carry them."""

from __future__ import annotations

import json
import re

import pytest

from selector import profile
from selector.__main__ import main
from selector.decision import constraints, matrix, recommend
from selector.decision.preferences import PreferenceError, Preferences, from_query, to_query
from selector.knowledge import loading as knowledge
from tests.refusals import said_in_both

KB = knowledge.load()
EDGE = "edge-accelerators"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("power-w<=10", ("power-w", "<=", 10.0)),
        (" memory-capacity >= 80 ", ("memory-capacity", ">=", 80.0)),
        ("tops-int8>4", ("tops-int8", ">", 4.0)),
        ("power-w<2.5", ("power-w", "<", 2.5)),
        ("power-w=60", ("power-w", "=", 60.0)),
    ],
)
def test_parse_reads_every_operator(text, expected):
    c = constraints.parse(text)
    assert (c.criterion, c.op, c.value) == expected
    assert constraints.parse(c.text) == c


@pytest.mark.parametrize("text", ["power-w", "power-w<<10", "power-w<=ten", "power-w<=nan", "power-w<=inf", "<=10", ""])
def test_parse_refuses_malformed_constraints(text):
    with pytest.raises(constraints.ConstraintError, match="constraint"):
        constraints.parse(text)


def test_operators_hold_as_written():
    assert constraints.parse("power-w<=10").holds(10) and not constraints.parse("power-w<10").holds(10)
    assert constraints.parse("power-w>=10").holds(10) and not constraints.parse("power-w>10").holds(10)
    assert constraints.parse("power-w=10").holds(10.0) and not constraints.parse("power-w=10").holds(10.5)


def _power(alternative: str) -> float | None:
    cell = matrix._cell(KB, KB.criteria["power-w"], alternative, True)
    return cell.value


def test_a_failing_alternative_is_removed_with_the_constraint_and_its_evidence():
    rec = recommend.recommend(KB, Preferences(group=EDGE, constraints=["power-w<=10"]))
    removed = {e.id: e.reason for e in rec.matrix.excluded_alternatives}
    assert "jetson-orin" in removed
    power = _power("jetson-orin")
    assert power is not None and power > 10
    assert "power-w<=10" in removed["jetson-orin"] and f"{power:g} W" in removed["jetson-orin"]
    evidence = matrix._cell(KB, KB.criteria["power-w"], "jetson-orin", True).evidence
    assert all(claim in removed["jetson-orin"] for claim in evidence)
    for ranked in rec.ranking:
        value = _power(ranked.id)
        assert value is not None and value <= 10


def _tdp(alternative: str) -> float | None:
    return matrix._cell(KB, KB.criteria["tdp-w"], alternative, True).value


# Epoch AI's datasheets fill the datacenter group's memory column; its TDP column has a gap (TPU v5p).
def test_unknown_values_are_removed_as_unknown_unless_kept():
    group = "datacenter-accelerators"
    members = KB.groups[group].members
    unknown = [a for a in members if _tdp(a) is None]
    assert unknown, "the datacenter group has a member without a TDP figure"
    strict = recommend.recommend(KB, Preferences(group=group, constraints=["tdp-w<=800"]))
    reasons = {e.id: e.reason for e in strict.matrix.excluded_alternatives}
    for alt in unknown:
        assert "unknown" in reasons[alt]
    assert {r.id for r in strict.ranking} == {a for a in members if _tdp(a) is not None and _tdp(a) <= 800}
    kept = recommend.recommend(KB, Preferences(group=group, constraints=["tdp-w<=800"], keep_unknown=True))
    assert set(unknown) <= {r.id for r in kept.ranking}


def test_vendor_and_single_exclusions():
    rec = recommend.recommend(KB, Preferences(group="datacenter-accelerators", exclude_vendors=["nvidia"]))
    nvidia = {m for m in KB.groups["datacenter-accelerators"].members if KB.entities[m].vendor == "nvidia"}
    assert nvidia and not nvidia & {r.id for r in rec.ranking}
    assert all("vendor NVIDIA" in e.reason for e in rec.matrix.excluded_alternatives)
    rec = recommend.recommend(KB, Preferences(group="datacenter-accelerators", exclude=["mi300x"]))
    assert [e.id for e in rec.matrix.excluded_alternatives] == ["mi300x"]


def test_constraints_come_before_the_missing_value_policy():
    # removed alternatives are never ranked, and no figure of theirs fills a cell of those left
    prefs = Preferences(group="datacenter-accelerators", constraints=["tdp-w<=700"], keep_unknown=True)
    rec = recommend.recommend(KB, prefs)
    removed = {e.id for e in rec.matrix.excluded_alternatives}
    assert removed == {a for a in KB.groups["datacenter-accelerators"].members if (_tdp(a) or 0) > 700}
    assert removed.isdisjoint(rec.matrix.alternatives)
    filled = [c for row in rec.matrix.cells for c in row if c.imputed]
    assert filled
    for cell in filled:  # the default fills at the scale's worst end, whoever is left
        lo, hi = KB.criteria[cell.criterion].scale
        assert cell.value == (hi if KB.criteria[cell.criterion].objective == "min" else lo)
    # the column-worst policy takes the worst over the alternatives left, not over the removed ones
    rec = recommend.recommend(KB, prefs.model_copy(update={"missing": "impute-column-worst"}))
    m = rec.matrix
    for j, criterion in enumerate(m.criteria):
        known = [row[j].value for row in m.cells if not row[j].imputed]
        worst = max(known) if m.objectives[j] == "min" else min(known)
        assert all(row[j].value == worst for row in m.cells if row[j].imputed), criterion


def test_removing_everything_is_a_clear_error():
    with pytest.raises(PreferenceError, match="remove every alternative") as caught:
        matrix.build(KB, Preferences(group=EDGE, constraints=["power-w<=1"]))
    for member in KB.groups[EDGE].members:
        assert KB.entity_name(member) in str(caught.value)


def test_a_constraint_no_member_has_evidence_for_is_noted_not_applied():
    rec = recommend.recommend(KB, Preferences(group="training-frameworks", constraints=["power-w<=10"]))
    assert len(rec.ranking) == len(KB.groups["training-frameworks"].members)
    assert any("power-w<=10 not applied" in n for n in rec.matrix.notes)


def test_unknown_criterion_or_entity_is_refused():
    with pytest.raises(PreferenceError, match="unknown criterion `watts`"):
        Preferences(group=EDGE, constraints=["watts<=10"]).check(KB)
    with pytest.raises(PreferenceError, match="no entity has that id"):
        Preferences(group=EDGE, exclude=["no-such-chip"]).check(KB)


def test_url_and_profile_carry_the_constraints():
    prefs = Preferences(
        group=EDGE, constraints=["power-w<=10", "tops-int8>=2"], exclude_vendors=["nvidia"], keep_unknown=True
    )
    assert from_query(to_query(prefs), "x") == prefs
    saved = profile.load(profile.dump(profile.make(prefs)), knowledge.DEFAULT_KNOWLEDGE)
    assert saved.to_preferences() == prefs


@pytest.mark.slow
def test_command_line_lists_the_removed_alternatives(capsys):
    code = main(["rank", "--group", EDGE, "--constraint", "power-w<=10", "--format", "json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    got = json.loads(out.out)
    removed = {e["id"]: e["reason"] for e in got["excluded_alternatives"]}
    assert "jetson-orin" in removed and "power-w<=10" in removed["jetson-orin"]
    assert set(got["excluded_alternatives"][0]) == {"id", "reason"}
    code = main(["rank", "--group", EDGE, "--constraint", "power-w<=1"])
    out = capsys.readouterr()
    assert code == 2 and "remove every alternative" in out.err
    code = main(["rank", "--group", EDGE, "--constraint", "power-w<<1"])
    assert code == 2 and "not of the form" in capsys.readouterr().err


def test_a_limit_is_kept_as_written_not_rounded_to_six_digits() -> None:
    [text] = constraints.normalise(["tdp-w<700.0000001"])
    assert text == "tdp-w<700.0000001" and constraints.parse(text).holds(700.0)
    assert constraints.normalise(["power-w<=10.0"]) == ("power-w<=10",)  # the short form where nothing is lost
    assert not constraints.parse("tdp-w<700").holds(700.0)


def test_h100_and_h200_pass_a_limit_just_above_their_700_w() -> None:
    kb = knowledge.load()
    ranked = recommend.recommend(kb, Preferences(group="accelerator-datasheets", constraints=("tdp-w<700.0000001",)))
    ids = {r.id for r in ranked.ranking}
    assert {"h100", "h200"} <= ids
    ranked = recommend.recommend(kb, Preferences(group="accelerator-datasheets", constraints=("tdp-w<700",)))
    assert not {"h100", "h200"} & {r.id for r in ranked.ranking}


@pytest.mark.parametrize("limit", ["1e", ".", "1e400", "nan", "700,5"])
def test_a_limit_that_is_not_a_finite_number_is_refused(limit: str) -> None:
    with pytest.raises(constraints.ConstraintError, match="the limit"):
        constraints.parse(f"tdp-w<{limit}")


# ----------------------------------------------------------------------------------------------------------
# Limits typed with a unit (Recommend's picker, issue 34)


@pytest.mark.parametrize(
    ("text", "unit", "op", "expected"),
    [
        (">= 141 GB", "GB", ">=", "memory-capacity>=141"),
        ("141", "GB", ">=", "memory-capacity>=141"),
        ("141gb", "GB", "<=", "memory-capacity<=141"),
        ("10 W", "W", "<=", "memory-capacity<=10"),
        ("≤ 0.3 kW", "W", ">=", "memory-capacity<=300"),
        ("1.5 TB", "GB", ">=", "memory-capacity>=1500"),
        ("$2", "USD per million tokens", "<=", "memory-capacity<=2"),
    ],
)
def test_a_limit_is_read_in_its_criterions_unit(text, unit, op, expected) -> None:
    assert constraints.parse_limit(text, "memory-capacity", unit, op).text == expected


@pytest.mark.parametrize(
    ("text", "unit", "message"),
    [
        ("141 GiB", "GB", "write the number in GB or MB or TB"),
        ("700 GB", "W", "unit `GB` does not measure"),
        ("abc", "W", "is not a limit"),
        ("1,5", "W", "decimal comma"),
        ("1e400", "W", "1e400"),
        ("", "W", "is not a limit"),
    ],
)
def test_a_limit_that_cannot_be_read_says_what_is_allowed(text, unit, message) -> None:
    with pytest.raises(constraints.ConstraintError, match=re.escape(message)):
        constraints.parse_limit(text, "x", unit)


# ----------------------------------------------------------------------------------------------------------
# A refusal keeps its English text and is said in Chinese with the user's values (issue 36)


@pytest.mark.parametrize(
    ("call", "english", "values"),
    [
        (
            lambda: constraints.parse_limit("700 GB", "tdp-w", "W"),
            "`700 GB`: unit `GB` does not measure this criterion; write the number in W or mW or kW, or without a "
            "unit (then it is in W)",
            ("`700 GB`", "`GB`", "W 或 mW 或 kW"),
        ),
        (
            lambda: constraints.parse_limit("1,5 kW", "tdp-w", "W"),
            "`1,5 kW`: the number `1,5` has a comma; write a decimal point (700.5), no decimal comma",
            ("`1,5 kW`", "`1,5`", "700.5"),
        ),
        (
            lambda: constraints.parse("power-w<<3"),
            "constraint `power-w<<3` is not of the form CRITERION<=NUMBER (operators: <=, >=, <, >, =), e.g. "
            "power-w<=10",
            ("`power-w<<3`", "power-w<=10"),
        ),
        (
            lambda: constraints.normalise(["power-w<=1"] * 21),
            "21 constraints given; at most 20 are accepted",
            ("21", "20"),
        ),
    ],
)
def test_a_refusal_is_english_as_before_and_chinese_with_the_same_values(call, english, values):
    with pytest.raises(constraints.ConstraintError) as refused:
        call()
    said_in_both(refused.value, english, values)

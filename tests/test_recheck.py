"""Re-checking a decision (selector.recheck): the comparison of a record with today's ranking, as plain data."""

from __future__ import annotations

import pytest

from selector import profile, recheck, record
from selector.decision.preferences import Preferences
from selector.decision.recommend import recommend
from selector.knowledge import loading as knowledge
from selector.record import CellRecord, OptionRecord, RuleRecord

PREFS = Preferences(group="edge-accelerators")


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def then(kb):
    rec = recommend(kb, PREFS)
    return record.build(
        kb,
        rec,
        leader_first=record.leader_first(rec, 200, 1),
        samples=200,
        seed=1,
        generated_at="2026-01-01T00:00:00Z",
        app_version="test",
    )


def _with_cell(rec: record.DecisionRecord, alt: str, crit: str, **update) -> record.DecisionRecord:
    cells = {a: dict(row) for a, row in rec.cells.items()}
    cells[alt][crit] = cells[alt][crit].model_copy(update=update)
    return rec.model_copy(update={"cells": cells})


def test_the_same_knowledge_holds_with_the_same_robustness_and_nothing_changed(kb, then):
    result = recheck.recheck(then, kb, name="r.md", app_url="http://app:8501")
    assert result.holds and not result.evidence_changed
    assert result.exit_code() == 0 and result.exit_code(strict=True) == 0
    assert result.robustness_now == result.robustness_then is not None
    assert result.cells == result.rules == result.added == result.removed == ()
    assert result.link == "http://app:8501/?group=edge-accelerators" and result.query == "group=edge-accelerators"
    assert "The decision holds" in result.lines()[0] and "No ranked cell" in "\n".join(result.lines())


def test_a_changed_value_is_named_with_its_claims_and_both_values(then):
    alt, crit = "edge-tpu", "tops-int8"
    old = then.cells[alt][crit]
    now = _with_cell(then, alt, crit, value=old.value * 10)
    result = recheck.compare(then, now, "r.md")
    assert [(c.alternative, c.criterion, c.what) for c in result.cells] == [(alt, crit, ("value",))]
    sentence = result.cells[0].sentence
    assert f"{old.value:,.6g} (claims {', '.join(old.claims)}" in sentence
    assert f"{old.value * 10:,.6g} (claims" in sentence
    assert result.holds and result.exit_code() == 0 and result.exit_code(strict=True) == 1


def test_a_change_of_tier_or_claims_is_told_apart_from_a_change_of_value(then):
    alt, crit = "jetson-orin", "power-w"
    tier = recheck.compare(then, _with_cell(then, alt, crit, tier="measured"), "r").cells[0]
    claims = recheck.compare(then, _with_cell(then, alt, crit, claims=("mine-1",)), "r").cells[0]
    assert tier.what == ("tier",) and claims.what == ("claims",)
    assert "claims mine-1" in claims.sentence
    # the same number written twice (a rounding in the last bit) is no change
    same = then.cells[alt][crit].value * (1 + 1e-13)
    assert recheck.compare(then, _with_cell(then, alt, crit, value=same), "r").cells == ()


def test_a_new_leader_changes_the_decision_and_is_named(then):
    second = then.ranking[1]
    now = then.model_copy(update={"leader": second.id, "recommended": second.id})
    result = recheck.compare(then, now, "r")
    assert not result.holds and result.exit_code() == 1
    assert f"the new leader is {second.name}" in result.headline
    assert f"{second.name} is recommended now, not {then.name_of(then.recommended)}" in result.headline


def test_options_added_and_removed_are_listed_not_their_cells(then):
    gone = then.ranking[-1]
    new = OptionRecord(id="new-chip", name="New Chip", rank=9, score=0.1, shortlisted=False)
    cells = {a: row for a, row in then.cells.items() if a != gone.id}
    cells["new-chip"] = {c: CellRecord(value=1.0, tier="measured", claims=("m1",)) for c in then.criteria}
    now = then.model_copy(update={"ranking": (*then.ranking[:-1], new), "cells": cells})
    result = recheck.compare(then, now, "r")
    assert result.added == ("New Chip",) and result.removed == (gone.name,) and result.cells == ()
    assert result.headline.endswith("; 2 option(s) changed under it.")
    other = then.model_copy(update={"knowledge": then.knowledge.model_copy(update={"data_hash": "0" * 16})})
    assert recheck.compare(then, other, "r").headline.endswith("(other parts of the knowledge changed).")


def test_rules_added_removed_and_changed(then):
    a = RuleRecord(id="r-a", matched={"goal": "edge"}, recommend=("x",), exclude=())
    b = RuleRecord(id="r-b", matched={}, recommend=(), exclude=("y",))
    before = then.model_copy(update={"rules": (a, b)})
    after = then.model_copy(
        update={
            "rules": (
                a.model_copy(update={"exclude": ("z",)}),
                RuleRecord(id="r-c", matched={}, recommend=(), exclude=()),
            )
        }
    )
    changes = {r.id: r.change for r in recheck.compare(before, after, "r").rules}
    assert changes == {"r-a": "changed", "r-b": "removed", "r-c": "added"}
    text = [r.sentence for r in recheck.compare(before, after, "r").rules]
    assert any("excludes nothing then" in t and "excludes z now" in t for t in text)
    # a rule that fires alike but rests on other evidence has changed too
    cited = then.model_copy(update={"rules": (a.model_copy(update={"claims": ("c-new",)}),)})
    (change,) = recheck.compare(then.model_copy(update={"rules": (a,)}), cited, "r").rules
    assert change.change == "changed" and "(claims c-new) now" in change.sentence


def test_dataset_snapshots_and_uploads_that_differ_are_said(then):
    knowledge_now = then.knowledge.model_copy(
        update={"datasets": {**then.knowledge.datasets, "accelmark": "2027-01-01"}}
    )
    uploads_now = record.UploadsRecord(files=("mine.csv",), digest="abc")
    result = recheck.compare(then, then.model_copy(update={"knowledge": knowledge_now, "uploads": uploads_now}), "r")
    assert any(d.startswith("accelmark: snapshot ") and d.endswith("2027-01-01 now") for d in result.datasets)
    assert result.notes and "mine.csv" in result.notes[0] and "no files of yours" in result.notes[0]


def test_settings_that_no_longer_fit_the_knowledge_are_an_error_not_a_silent_pass(kb, then):
    gone = then.model_copy(update={"preferences": then.preferences.model_copy(update={"group": "no-such-group"})})
    with pytest.raises(Exception, match="no-such-group"):
        recheck.recheck(gone, kb, name="r")


def test_read_file_takes_a_profile_with_its_record_and_refuses_one_without(kb, then, bundled_knowledge):
    text = record.to_text(then)
    saved = profile.dump(profile.make(PREFS, record=text))
    found = recheck.read_file(saved.encode(), "p.yaml", bundled_knowledge)
    assert found.kind == "profile" and found.record == then
    assert profile.load(saved).record == text  # the record survives the YAML round trip byte for byte
    plain = profile.dump(profile.make(PREFS))
    assert "record" not in plain
    with pytest.raises(record.RecordError, match=r"p\.yaml: it carries no decision record"):
        recheck.read_file(plain.encode(), "p.yaml", bundled_knowledge)
    with pytest.raises(profile.ProfileError):
        recheck.read_file(b"version: 1\npreferences: 3\n", "bad.yaml", bundled_knowledge)


def test_a_file_over_the_size_limit_is_refused_before_it_is_searched(monkeypatch, bundled_knowledge):
    monkeypatch.setattr(recheck, "MAX_FILE_BYTES", 100)
    with pytest.raises(record.RecordError, match=r"big\.md: it is 101 bytes; .* at most 100"):
        recheck.read_file(b"x" * 101, "big.md", bundled_knowledge)

"""The spec explorer's data: one value per accelerator and column by the matrix's tier rule, with its provenance."""

from __future__ import annotations

import csv
import datetime as dt
import statistics

import pandas as pd
import pytest

from selector.decision import specs
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE, Upload
from selector.knowledge.models import TIERS
from selector.uploads import csv_claims

TODAY = dt.date(2026, 11, 30)
EPOCH_CSV = DEFAULT_KNOWLEDGE / "imports" / "raw" / "epoch-ml-hardware" / "ml_hardware.csv"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def values(kb):
    return specs.spec_values(kb, DEFAULT_KNOWLEDGE, TODAY)


def _row(values: pd.DataFrame, entity: str, column: str) -> pd.Series:
    found = values[(values["entity_id"] == entity) & (values["column"] == column)]
    assert len(found) == 1, (entity, column)
    return found.iloc[0]


def test_columns_are_the_knowledge_criteria_then_release_year(kb):
    columns = specs.spec_columns(kb)
    assert list(columns)[-1] == specs.RELEASE_YEAR
    for column, label in list(columns.items())[:-1]:
        assert label == kb.criteria[column].name_en


def test_each_value_is_the_median_of_the_strongest_tier_present(kb, values):
    checked = 0
    for _, row in values[values["column"] != specs.RELEASE_YEAR].iterrows():
        criterion = kb.criteria[row["column"]]
        ids = row["claims"].split(", ")
        used = [kb.claims[i] for i in ids]
        assert {c.tier for c in used} == {row["tier"]}
        assert all(c.metric == criterion.metric and row["entity_id"] in c.about for c in used)
        assert row["value"] == pytest.approx(statistics.median(c.value for c in used))
        stronger = TIERS[: TIERS.index(row["tier"])]
        rivals = [
            c
            for c in kb.claims.values()
            if c.metric == criterion.metric and c.subject_id == row["entity_id"] and c.tier in stronger
        ]
        assert not rivals, (row["name"], row["column"], [c.id for c in rivals])
        checked += 1
    assert checked > 50


def test_a_datasheet_value_names_its_dataset_row_and_dates(kb, values):
    row = _row(values, "a100", "memory-capacity")
    claim = kb.claims[row["claims"]]
    assert row["tier"] == "reference" and row["value"] == claim.value
    assert row["source"] == kb.sources["epoch-ml-hardware"].title_en
    assert row["rows"] == claim.locator.row
    assert row["retrieved"] == claim.locator.retrieved
    assert row["snapshot"] == kb.sources["epoch-ml-hardware"].snapshot_date
    assert row["footnote"] == claim.locator.footnote()


def test_a_value_resting_on_an_old_price_list_is_ageing_only_after_18_months(kb):
    price_list = kb.sources["fsdl-cloud-gpus"].snapshot_date  # 2025-04-21
    then = dt.date.fromisoformat(price_list)
    at_18 = then.replace(year=then.year + 1, month=then.month + 6)  # exactly 18 months: not yet ageing
    at_19 = then.replace(year=then.year + 1, month=then.month + 7)
    fresh = _row(specs.spec_values(kb, DEFAULT_KNOWLEDGE, at_18), "a100", "cloud-usd-per-gpu-hour")
    old = _row(specs.spec_values(kb, DEFAULT_KNOWLEDGE, at_19), "a100", "cloud-usd-per-gpu-hour")
    assert any(kb.claims[c].source == "fsdl-cloud-gpus" for c in old["claims"].split(", "))
    assert not fresh["ageing"] and old["ageing"]
    assert "median of" in old["note"]


def test_release_years_are_the_raw_epoch_rows_release_dates(kb, values):
    with EPOCH_CSV.open(encoding="utf-8-sig", newline="") as handle:
        raw = {row["Hardware name"]: row["Release date"] for row in csv.DictReader(handle)}
    dates = specs.release_dates(kb, DEFAULT_KNOWLEDGE)
    assert len(dates) >= 10
    for entity, date in dates.items():
        assert raw[date["rows"]] == date["date"]
        assert date["year"] == int(date["date"][:4])
        assert kb.claims[date["claims"]].locator.row == date["rows"]
        assert entity in kb.claims[date["claims"]].about
        row = _row(values, entity, specs.RELEASE_YEAR)
        assert row["value"] == date["year"] and row["rows"] == date["rows"]
    assert dates["a100"]["year"] == 2020  # NVIDIA's A100 launched in 2020


def test_no_raw_snapshot_gives_no_release_years_rather_than_an_error(kb, tmp_path):
    assert specs.release_dates(kb, tmp_path) == {}
    bare = specs.spec_values(kb, tmp_path, TODAY)
    assert not (bare["column"] == specs.RELEASE_YEAR).any()
    assert bare["release_year"].isna().all()


def test_a_users_measurement_outranks_the_datasheet():
    conversion = csv_claims.convert(
        b"id,entity,metric,value,unit,tier,text_en\n"
        b'u-h100-mem,h100,memory_capacity_gb,79.6,GB,measured,"H100: 79.6 GB usable, as nvidia-smi reports"\n',
        "mine.csv",
    )
    assert conversion.issues == [], [str(i) for i in conversion.issues]
    merged, issues = knowledge.collect(DEFAULT_KNOWLEDGE, extra=(Upload("mine.yaml", conversion.yaml),))
    assert merged is not None, [str(i) for i in issues]
    row = _row(specs.spec_values(merged, DEFAULT_KNOWLEDGE, TODAY), "h100", "memory-capacity")
    assert (row["tier"], row["value"], row["claims"]) == ("measured", 79.6, "u-h100-mem")
    assert row["footnote"] == "" and row["snapshot"] == "" and not row["ageing"]


def test_filters_by_segment_vendor_and_release_year(values):
    by_segment = specs.filter_values(values, segments=["workstation"])
    assert set(by_segment["segment"]) == {"workstation"}
    assert len(by_segment) == (values["segment"] == "workstation").sum()
    by_vendor = specs.filter_values(values, vendors=["AMD", "Google"])
    assert set(by_vendor["vendor"]) == {"AMD", "Google"}
    recent = specs.filter_values(values, years=(2023, 2024), include_unknown_year=False)
    assert recent["release_year"].between(2023, 2024).all() and len(recent)
    with_unknown = specs.filter_values(values, years=(2023, 2024))
    unknown = with_unknown[with_unknown["release_year"].isna()]
    assert len(unknown) == values["release_year"].isna().sum()
    assert len(specs.filter_values(values)) == len(values)


def test_axis_pairs_keep_accelerators_with_both_values(values):
    pairs = specs.axis_pairs(values, "memory-bandwidth", "tdp-w")
    with_x = set(values.loc[values["column"] == "memory-bandwidth", "entity_id"])
    with_y = set(values.loc[values["column"] == "tdp-w", "entity_id"])
    assert set(pairs["entity_id"]) == with_x & with_y
    for _, pair in pairs.iterrows():
        assert pair["x_value"] == _row(values, pair["entity_id"], "memory-bandwidth")["value"]
        assert pair["y_footnote"] == _row(values, pair["entity_id"], "tdp-w")["footnote"]
    assert list(pairs["name"]) == sorted(pairs["name"], key=str.casefold)
    with pytest.raises(ValueError, match="two different columns"):
        specs.axis_pairs(values, "tdp-w", "tdp-w")


def test_explorer_table_puts_each_values_provenance_beside_it(values):
    pairs = specs.axis_pairs(values, "cloud-usd-per-gpu-hour", "memory-capacity")
    table = specs.explorer_table(pairs, "price", "memory")
    assert len(table) == len(pairs)
    for column in ("price", "price: tier", "price: source", "price: as of", "price: ageing", "memory: footnote"):
        assert column in table.columns
    assert list(table["price"]) == list(pairs["x_value"])
    assert list(table["price: ageing"]) == list(pairs["x_ageing"])


def test_explore_filters_pairs_and_tables_once_per_choice(kb, values):
    filters = ((), ("NVIDIA",), None, True)
    explored = specs.explore(kb, DEFAULT_KNOWLEDGE, TODAY, filters, "memory-bandwidth", "tdp-w")
    shown = specs.filter_values(values, vendors=["NVIDIA"])
    pd.testing.assert_frame_equal(explored.shown, shown)
    pd.testing.assert_frame_equal(explored.pairs, specs.axis_pairs(shown, "memory-bandwidth", "tdp-w"))
    labels = specs.spec_columns(kb)
    expected = specs.explorer_table(explored.pairs, labels["memory-bandwidth"], labels["tdp-w"])
    pd.testing.assert_frame_equal(explored.table, expected)
    assert specs.explore(kb, DEFAULT_KNOWLEDGE, TODAY, filters, "memory-bandwidth", "tdp-w") is explored
    other = specs.explore(kb, DEFAULT_KNOWLEDGE, TODAY, ((), (), None, True), "memory-bandwidth", "tdp-w")
    assert len(other.pairs) > len(explored.pairs)
    with pytest.raises(ValueError, match="two different columns"):
        specs.explore(kb, DEFAULT_KNOWLEDGE, TODAY, filters, "tdp-w", "tdp-w")


def test_the_explorers_choices_are_those_its_accelerators_and_columns_hold(kb, values):
    choices = specs.explorer_choices(values)
    assert specs.explorer_choices(values) is choices, "kept per shared frame"
    rows = {e: values[values["entity_id"] == e].iloc[0] for e in values["entity_id"].unique()}
    assert set(choices.segments) == {row["segment"] for row in rows.values()}
    assert list(choices.vendors) == sorted({row["vendor"] for row in rows.values()}, key=str.casefold)
    known = values.dropna(subset=["release_year"])["release_year"]
    assert choices.years == (int(known.min()), int(known.max()))
    for column in specs.spec_columns(kb):
        held = values[values["column"] == column]
        assert (column in choices.columns) == (not held.empty), column
        if not held.empty:
            assert choices.units[column] == held["unit"].iloc[0]
    # a frame with one release year offers no year range; one without a column does not offer it
    one_year = values[values["release_year"].isna() | (values["release_year"] == known.max())]
    assert specs.explorer_choices(one_year).years is None
    assert specs.RELEASE_YEAR not in specs.explorer_choices(values[values["column"] != specs.RELEASE_YEAR]).columns

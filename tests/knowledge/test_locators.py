"""Locators: raw rows, unit conversions, and the loader's check that a stored value is the converted raw value."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge.locators import RawError, Snapshots, convert, read_table, row_key
from tests.conftest import KNOWLEDGE

UPSTREAM = "owner/repo@" + "a" * 40 + ":specs.csv"


def _dataset(root: Path, csv_text: str, claim: str) -> None:
    raw = root / "imports" / "raw" / "demo"
    raw.mkdir(parents=True)
    (raw / "specs.csv").write_text(csv_text, encoding="utf-8")
    (raw / "LICENSE").write_text("licence text", encoding="utf-8")
    (root / "datasets.yaml").write_text(
        textwrap.dedent(
            f"""\
            sources:
              - id: demo
                kind: dataset
                title_en: Demo specs
                language: en
                licence: CC-BY-4.0
                attribution: "Demo, CC BY 4.0"
                upstream: ["{UPSTREAM}"]
                snapshot_date: "2025-01-02"
                licence_files: [demo/LICENSE]
                tables:
                  - {{file: demo/specs.csv, key: [name]}}
            """
        ),
        encoding="utf-8",
    )
    (root / "demo_claims.yaml").write_text("claims:\n" + textwrap.indent(textwrap.dedent(claim), "  "), "utf-8")


CLAIM = """\
- id: r-h200-memory
  source: demo
  tier: reference
  kind: spec
  text_en: "NVIDIA H200: 141 GB."
  about: [h200]
  metric: memory_capacity_gb
  value: {value}
  unit: GB
  locator:
    dataset: demo
    upstream: "{upstream}"
    file: {file}
    row: {row}
    column: "memory (byte)"
    conversion: bytes_to_gb
    retrieved: "2025-01-02"
    licence: CC-BY-4.0
"""
CSV = "name,memory (byte)\nH200,141000000000\nA100,80000000000\n"


def _claim(value: str = "141.0", row: str = "H200", file: str = "demo/specs.csv", upstream: str = UPSTREAM) -> str:
    return CLAIM.format(value=value, row=row, file=file, upstream=upstream)


def _messages(issues) -> list[str]:
    return [f"{i.file} {i.record} {i.message}" for i in issues if i.level == "ERROR"]


def test_a_resolving_locator_with_the_converted_value_loads(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV, _claim())
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is not None, _messages(issues)
    assert kb.claims["r-h200-memory"].locator.row == "H200"
    assert kb.sources["demo"].kind == "dataset"


@pytest.mark.parametrize(
    ("claim", "fragment"),
    [
        (_claim(value="140.0"), "differs from the raw snapshot's 141.0"),
        (_claim(row="H100"), "no row with name = 'H100'"),
        (_claim(file="demo/other.csv"), "is not a raw file of dataset `demo`"),
        (_claim(upstream="owner/repo@" + "b" * 40 + ":specs.csv"), "is not one of dataset `demo`'s upstream"),
    ],
)
def test_a_broken_locator_is_an_error_naming_file_and_record(base_knowledge: Path, claim: str, fragment: str) -> None:
    _dataset(base_knowledge, CSV, claim)
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    found = _messages(issues)
    assert any("demo_claims.yaml r-h200-memory" in m and fragment in m for m in found), found


def test_a_locator_may_not_leave_the_raw_folder(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV, _claim(file="../../sources.yaml"))
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("locator.file" in m for m in _messages(issues)), _messages(issues)


def test_a_duplicate_row_key_does_not_resolve(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV + "H200,141000000000\n", _claim())
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("key not unique" in m for m in _messages(issues))


def test_a_benchmarked_record_needs_a_locator(base_knowledge: Path) -> None:
    claim = _claim().split("  locator:")[0].replace("tier: reference", "tier: benchmarked")
    _dataset(base_knowledge, CSV, claim)
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("needs a `value` and a `locator`" in m for m in _messages(issues))


def test_a_measured_record_may_not_carry_a_locator(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV, _claim().replace("tier: reference", "tier: measured"))
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("only `benchmarked` and `reference` records carry a `locator`" in m for m in _messages(issues))


def test_a_dataset_needs_its_licence_file_bundled(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV, _claim())
    (base_knowledge / "imports" / "raw" / "demo" / "LICENSE").unlink()
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("licence file `demo/LICENSE` is not bundled" in m for m in _messages(issues))


def test_a_dataset_source_needs_licence_and_attribution(base_knowledge: Path) -> None:
    _dataset(base_knowledge, CSV, _claim())
    text = (base_knowledge / "datasets.yaml").read_text(encoding="utf-8").replace('attribution: "Demo, CC BY 4.0"', "")
    (base_knowledge / "datasets.yaml").write_text(text, encoding="utf-8")
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    assert any("a dataset source needs `attribution`" in m for m in _messages(issues))


@pytest.mark.parametrize(
    ("conversion", "raw", "expected"),
    [
        ("none", "33600.0", 33600.0),
        ("flops_to_tflops", "989400000000000.0", 989.4),
        ("bytes_to_gb", "80000000000.0", 80.0),
        ("bytes_per_s_to_tb_per_s", "3350000000000.0", 3.35),
        # nvidia-smi reports an H200's 143,771 MiB; AccelMark writes 140.4 ("GB", really GiB): 150.754 GB.
        ("gib_to_gb", "140.4", 150.753352),
        ("gib_to_gb", str(143771 / 1024), 150.75482),  # = 143,771 x 2^20 bytes / 10^9
        # NVIDIA's Jetson AGX Orin 64GB: 275 INT8 TOPS with 2:4 sparsity; its datasheet's dense figure is 137.5.
        ("sparse_to_dense", "275", 137.5),
    ],
)
def test_conversions(conversion: str, raw: str, expected: float) -> None:
    assert convert({"x": raw}, "x", conversion, "here") == expected


def test_per_accelerator_divides_by_accelerators_and_nodes() -> None:
    row = {"Performance_Result": 62351.6, "a#": 8, "Nodes": 2}
    assert convert(row, "Performance_Result", "per_accelerator", "here") == pytest.approx(62351.6 / 16)


@pytest.mark.parametrize(
    ("row", "fragment"),
    [
        ({"x": "n/a"}, "expected a number"),
        ({"x": ""}, "is empty"),
        ({"y": "1"}, "no column `x`"),
        ({"x": "nan"}, "finite"),
    ],
)
def test_bad_raw_cells_are_refused_with_where(row: dict, fragment: str) -> None:
    with pytest.raises(RawError, match=fragment) as err:
        convert(row, "x", "none", "specs.csv, row 3")
    assert "specs.csv, row 3" in str(err.value)


def test_unknown_conversion_is_refused() -> None:
    with pytest.raises(RawError, match="unknown conversion"):
        convert({"x": "1"}, "x", "furlongs", "here")


def test_dotted_columns_walk_into_json(tmp_path: Path) -> None:
    path = tmp_path / "result.json"
    path.write_text('{"metrics": {"throughput": 12.5}}', encoding="utf-8")
    table = read_table(path)
    assert convert(table.rows[0], "metrics.throughput", "none", "here") == 12.5


def test_snapshots_read_each_file_once_and_key_rows(tmp_path: Path) -> None:
    raw = tmp_path / "imports" / "raw" / "d"
    raw.mkdir(parents=True)
    (raw / "t.csv").write_text("a,b,v\n1,x,5\n1,y,6\n", encoding="utf-8")
    snaps = Snapshots(tmp_path)
    assert snaps.row("d/t.csv", "1 | y", ("a", "b"))["v"] == "6"
    assert row_key({"a": "1", "b": "y"}, ("a", "b")) == "1 | y"
    with pytest.raises(RawError, match="not unique"):
        snaps.row("d/t.csv", "1", ("a",))


def test_datasets_and_footnotes_for_display(base_knowledge: Path) -> None:
    import datetime as dt

    from selector.knowledge import provenance

    _dataset(base_knowledge, CSV, _claim())
    kb = knowledge.load(base_knowledge)
    (info,) = provenance.datasets(kb)
    assert (info.id, info.licence, info.attribution, info.claims) == ("demo", "CC-BY-4.0", "Demo, CC BY 4.0", 1)
    note = provenance.footnote(kb.claims["r-h200-memory"])
    assert "row 'H200'" in note and "retrieved 2025-01-02" in note and "CC-BY-4.0" in note
    claim = kb.claims["r-h200-memory"]
    assert not provenance.is_ageing(claim, kb, today=dt.date(2026, 8, 1))
    assert provenance.is_ageing(claim, kb, today=dt.date(2026, 8, 2))


def test_a_kept_table_equals_a_fresh_parse_of_every_bundled_raw_file() -> None:
    from selector.knowledge import locators

    raw = KNOWLEDGE / locators.RAW_DIR
    files = sorted(p for p in raw.rglob("*") if p.suffix.lower() in {".csv", ".json"})
    assert files, "the bundled knowledge has raw snapshots"
    for path in files:
        for keyed in (False, True):
            try:
                fresh = locators._parse_table(str(path), path.suffix, path.read_bytes(), keyed)
            except RawError:
                # a list cannot be read as named records: the kept read refuses it the same way
                with pytest.raises(RawError):
                    read_table(path, str(path), keyed)
                continue
            first, again = read_table(path, str(path), keyed), read_table(path, str(path), keyed)
            assert first is again  # the second read is the kept table
            assert (first.path, first.rows, first.positions) == (fresh.path, fresh.rows, fresh.positions)


def test_an_edited_raw_file_is_parsed_afresh_and_a_refused_one_stays_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("id,v\na,1\n", encoding="utf-8")
    assert read_table(path).rows == ({"id": "a", "v": "1"},)
    path.write_text("id,v\na,2\n", encoding="utf-8")
    assert read_table(path).rows == ({"id": "a", "v": "2"},)
    path.write_text("id\na,1,2\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RawError, match="more cells than the header"):
            read_table(path)

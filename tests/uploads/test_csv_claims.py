"""Tests of selector/uploads/csv_claims.py: CSV converts to the knowledge schema, every cell problem names its line
and column, and any CSV converts without raising."""

from __future__ import annotations

import csv
import io

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from selector.io import limits
from selector.io.yamlio import parse_yaml
from selector.uploads import csv_claims, intake
from tests.conftest import KNOWLEDGE, ROOT
from tests.examples import examples
from tests.uploads.conftest import UPLOADS, errors, marked_lines


def test_csv_converts_to_schema_yaml_that_the_guarded_reader_accepts() -> None:
    conversion = csv_claims.convert((UPLOADS / "good_new_chip.csv").read_bytes(), "good_new_chip.csv")
    data = conversion.yaml
    assert data and conversion.issues == []
    parsed, problems = parse_yaml(data, "converted.yaml")
    assert problems == [] and parsed is not None
    content = parsed.data
    [source] = content["sources"]
    assert source["kind"] == "user" and source["id"] == "user-good-new-chip"
    [entity] = content["entities"]
    assert entity == {"id": "fixture-csv-npu", "name": "Fixture CSV NPU", "kind": "accelerator", "segment": "edge"}
    values = {c["metric"]: (c["value"], c["unit"], c["tier"]) for c in content["claims"]}
    assert values == {"tops_int8": (26.0, "TOPS", "measured"), "power_w": (2.5, "W", "measured")}


def test_csv_user_names_the_source() -> None:
    data = csv_claims.convert((UPLOADS / "good_orin_override.csv").read_bytes(), "orin.csv", user="Ada Lovelace").yaml
    source = yaml.safe_load(data)["sources"][0]
    assert source["id"] == "user-ada-lovelace-orin"
    assert source["author"] == "Ada Lovelace"


def test_every_formula_cell_is_an_error_on_its_line() -> None:
    issues = csv_claims.convert((UPLOADS / "formula_cells.csv").read_bytes(), "formula_cells.csv").issues
    assert {i.level for i in issues} == {"ERROR"}
    assert sorted(i.line for i in issues) == marked_lines(UPLOADS / "formula_cells.csv")


def test_csv_schema_errors_point_at_the_csv_line_and_column() -> None:
    csv_text = (
        "id,entity,metric,value,unit,entity_name,entity_kind\n"
        "u-ok,jetson-orin,power_w,40,W,,\n"
        "u-bad-kind,new-thing,tops_int8,5,TOPS,New thing,gizmo\n"
        "u-no-unit,edge-tpu,power_w,2,,,\n"
    )
    result = intake.validate_upload("mixed.csv", csv_text.encode(), KNOWLEDGE)
    assert result.kb is None
    by_line = {i.line: i for i in errors(result)}
    assert set(by_line) == {3, 4}, [str(i) for i in errors(result)]
    assert "kind" in by_line[3].message and by_line[3].record == "new-thing"
    assert "needs a `unit`" in by_line[4].message and by_line[4].record == "u-no-unit"


def test_csv_cell_errors_name_the_column_and_cell() -> None:
    csv_text = "entity,metric,value,unit\njetson-orin,tops_int8,twelve,TOPS\n"
    [issue] = intake.validate_upload("cells.csv", csv_text.encode(), KNOWLEDGE).issues
    assert issue.line == 2
    assert issue.message.startswith("column `value` (cell C2): `twelve` is not a number")


def test_csv_unknown_or_missing_columns_are_refused_with_the_list_of_columns() -> None:
    result = intake.validate_upload("typo.csv", b"entity,metric,vlaue,unit\njetson-orin,power_w,1,W\n", KNOWLEDGE)
    issue, *rows = result.issues
    assert issue.line == 1 and "`vlaue`" in issue.message and "value" in issue.message
    # the rows are still checked without the unknown column (one pass): this one lacks its value
    assert [(i.line, "only make sense with a `value`" in i.message) for i in rows] == [(2, True)]
    [issue] = intake.validate_upload("none.csv", b"metric,value\npower_w,1\n", KNOWLEDGE).issues
    assert "no `entity` column" in issue.message


def test_csv_duplicate_ids_and_conflicting_entity_declarations_are_refused() -> None:
    csv_text = (
        "id,entity,metric,value,unit,entity_name,entity_kind,segment\n"
        "u-a,chip-x,power_w,1,W,Chip X,accelerator,edge\n"
        "u-a,chip-x,power_w,2,W,,,\n"
        "u-b,chip-x,power_w,3,W,Chip Y,accelerator,edge\n"
    )
    found = errors(intake.validate_upload("dupes.csv", csv_text.encode(), KNOWLEDGE))
    assert [(i.line, i.record) for i in found] == [(3, "u-a"), (4, "chip-x")], [str(i) for i in found]
    assert "used on line 2" in found[0].message and "differently from line 2" in found[1].message


def test_csv_with_bom_semicolons_crlf_and_capitalised_words_is_read() -> None:
    csv_text = "\ufeffEntity;Metric;Value;Unit;Tier\r\njetson-orin;power_w;45,0;W;Measured\r\n".replace("45,0", "45.0")
    result = intake.validate_upload("excel.csv", csv_text.encode("utf-8"), KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    [claim] = [c for c in result.kb.claims.values() if c.source in result.source_ids]
    assert (claim.value, claim.unit, claim.tier, claim.subject_id) == (45.0, "W", "measured", "jetson-orin")


def test_csv_template_is_valid_and_lists_every_column() -> None:
    template = csv_claims.csv_template()
    header = template.decode().splitlines()[0].split(",")
    assert header == list(csv_claims.CSV_COLUMNS)
    result = intake.validate_upload("template.csv", template, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]


def test_the_template_validates_without_any_issue_and_its_new_chip_ranks_on_its_own_figures() -> None:
    from selector.decision.preferences import Preferences
    from selector.decision.recommend import recommend

    result = intake.validate_upload("template.csv", csv_claims.csv_template(), KNOWLEDGE)
    assert result.issues == ()  # not even a warning: the template is what a user copies
    rec = recommend(result.kb, Preferences(group="edge-accelerators"))
    assert "my-npu" in [r.id for r in rec.ranking]
    cells = {c.criterion: c for c in rec.matrix.cells[rec.matrix.alternatives.index("my-npu")]}
    assert (cells["tops-int8"].value, cells["tops-int8"].imputed) == (40.0, False)
    assert (cells["power-w"].value, cells["power-w"].imputed) == (8.0, False)
    assert cells["tops-int8"].evidence == ("my-npu-tops",)


def test_documented_csv_columns_are_the_real_ones() -> None:
    text = (ROOT / "docs" / "USER_DATA.md").read_text(encoding="utf-8")
    for column in csv_claims.CSV_COLUMNS:
        assert f"`{column}`" in text, f"docs/USER_DATA.md does not document column `{column}`"


def test_too_many_csv_rows_are_refused_at_the_first_extra_row() -> None:
    rows = ["entity,metric,value,unit"] + ["jetson-orin,power_w,40,W"] * (csv_claims.MAX_CSV_ROWS + 1)
    [issue] = intake.validate_upload("many.csv", "\n".join(rows).encode(), KNOWLEDGE).issues
    assert issue.line == csv_claims.MAX_CSV_ROWS + 2
    assert "at most 2,000" in issue.message


_cell_parts = [*'ab1-.=+@<>;,"\t\r\n é', "nan", "inf", "e5", "jetson-orin", "W"]
_cells = st.lists(st.sampled_from(_cell_parts), max_size=6).map("".join)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.sampled_from(list(csv_claims.CSV_COLUMNS)), min_size=1, max_size=6, unique=True),
    st.lists(st.lists(_cells, max_size=7), max_size=5),
)
def test_csv_conversion_never_raises_and_its_yaml_always_reads_back(header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out).writerows([header, *rows])
    conversion = csv_claims.convert(out.getvalue().encode("utf-8"), "fuzz.csv")
    assert all(i.file == "fuzz.csv" for i in conversion.issues)
    data = conversion.yaml
    if data:  # rows with errors are left out; what was converted reads back
        parsed, problems = parse_yaml(data, "fuzz.yaml")
        assert problems == [], [str(p) for p in problems]
        assert parsed.data["sources"][0]["kind"] == "user"


# Text a YAML reader could take for something else: YAML 1.1 booleans and numbers, nulls, comments, flow markers.
_tricky = st.sampled_from(
    ["no", "on", "Yes", "null", "~", "1e3", "017", "0x1F", "1_000", "1:20", "2024-01-01", "#x", "a: b", "[x]", "'q'"]
)
_text_cells = _tricky | st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(_text_cells, _text_cells, st.floats(-1e6, 1e6)), min_size=1, max_size=6))
def test_the_converted_rows_are_exactly_what_their_yaml_reads_back(cells: list[tuple[str, str, float]]) -> None:
    """The upload check uses the converted rows without reading their YAML back: both must be the same data."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["entity", "metric", "value", "unit", "text_en", "note", "workload", "based_on"])
    for index, (text, note, value) in enumerate(cells):
        writer.writerow([f"e-{index}", "power_w", repr(value), "W", text, note, note, f"{text};{note}"])
    conversion = csv_claims.convert(out.getvalue().encode("utf-8"), "fuzz.csv")
    if not conversion.yaml:
        return  # a cell the text policy refuses
    parsed, problems = parse_yaml(conversion.yaml, "fuzz.csv")
    assert problems == [], [str(p) for p in problems]
    assert parsed.data == conversion.parsed.data


def test_the_converted_rows_carry_their_csv_lines() -> None:
    text = (
        "entity,metric,value,unit,entity_name,entity_kind,segment\n"
        "jetson-orin,power_w,40,W,,,\n"
        "\n"
        "npu-x,power_w,2,W,NPU X,accelerator,edge\n"
    )
    conversion = csv_claims.convert(text.encode(), "lines.csv")
    assert conversion.parsed.line_of(("claims", 0, "value")) == 2
    assert conversion.parsed.line_of(("claims", 1)) == 4
    assert conversion.parsed.line_of(("entities", 0, "name")) == 4
    assert conversion.parsed.line_of(("sources", 0, "id")) == 1
    assert conversion.lines == {"user-lines": 1, "npu-x": 4, "user-lines-r2": 2, "user-lines-r4": 4}


# The front door every outside CSV shares (selector.io.rawtext, selector.io.numbers): the upload's own reader goes
# through it.
HEAD = "entity,metric,value,unit,note\n"


def convert_rows(rows: str) -> list:
    return csv_claims.convert((HEAD + rows).encode(), "lab.csv").issues


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("700,5", "has a comma"),
        ("1e400", "not a finite number"),
        ("9" * 45, "a number of 45 characters"),
        ("1e", "not a number"),
        (".", "not a number"),
        ("nan", "not a finite number"),
        ("-inf", "not a finite number"),
        ("1e22", "out of range"),
        ("=1+1", "formulas are not allowed"),
    ],
)
def test_a_value_cell_is_read_by_the_one_number_parser(value: str, fragment: str) -> None:
    [issue] = convert_rows(f'jetson-orin,power_w,"{value}",W,\n')
    assert issue.line == 2 and "cell C2" in issue.message and fragment in issue.message, issue.message


def test_a_signed_value_is_a_number_for_the_range_checks_not_a_formula() -> None:
    assert convert_rows("jetson-orin,power_w,-5,W,\njetson-orin,tops_int8,+5,TOPS,\n") == []
    result = intake.validate_upload("lab.csv", (HEAD + "jetson-orin,power_w,-5,W,\n").encode(), KNOWLEDGE)
    assert not result.ok and "formula" not in result.errors[0].message


@pytest.mark.parametrize("size", [110_000, 200_000])
def test_a_long_field_is_refused_with_its_line_and_the_rows_before_it_still_checked(size: int) -> None:
    rows = 'jetson-orin,power_w,abc,W,\njetson-orin,power_w,40,W,"' + "x" * size + '"\n'
    issues = convert_rows(rows)
    by_line = {i.line: i.message for i in issues}
    assert sorted(by_line) == [2, 3] and "`abc` is not a number" in by_line[2]
    assert f"a CSV field of {'over 131,072' if size > 131_072 else f'{size:,}'} characters" in by_line[3]
    assert "a field holds at most 100,000" in by_line[3]


def test_thousands_of_bad_cells_in_an_upload_are_capped_as_documented() -> None:
    rows = "".join(f"jetson-orin,power_w,{i}e,W,\n" for i in range(limits.MAX_CSV_ROWS))
    result = intake.validate_upload("lab.csv", (HEAD + rows).encode(), KNOWLEDGE)
    assert len(result.issues) == limits.MAX_ISSUES + 1
    assert result.issues[-1].message.startswith(f"and {limits.MAX_CSV_ROWS - limits.MAX_ISSUES:,} more problem(s)")


def test_blank_lines_do_not_hide_rows_past_the_cap() -> None:
    rows = "\n" * 5000 + "".join(f"jetson-orin,power_w,{i + 1},W,\n" for i in range(limits.MAX_CSV_ROWS + 1))
    issues = convert_rows(rows)
    assert [i.message for i in issues] == [
        f"{limits.MAX_CSV_ROWS + 1:,} data rows; an upload holds at most {limits.MAX_CSV_ROWS:,}: split the file"
    ]

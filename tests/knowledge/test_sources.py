"""selector.knowledge.sources: sections, sources (article and dataset rules, the table a raw file belongs to) and
locators
(the footnote a located number renders with)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from selector.knowledge.sources import Locator, RawTableSpec, Section, Source

SHA = "965182b03376a00fcae415c54e560e1c83937932"
UPSTREAM = f"mlcommons/inference_results_v5.1@{SHA}:summary_results.json"


def article(**changes: object) -> dict:
    fields = {
        "id": "004",
        "file": "004.txt",
        "title_zh": "人工智能工具",
        "title_en": "AI tools compared",
        "sections": [{"id": "2.1", "heading_zh": "框架", "heading_en": "Frameworks", "lines": [3, 9]}],
    }
    return fields | changes


def dataset(**changes: object) -> dict:
    fields = {
        "id": "mlperf",
        "kind": "dataset",
        "title_en": "MLPerf Inference v5.1 results summary",
        "licence": "Apache-2.0",
        "attribution": "MLPerf results, retrieved from mlcommons.",
        "upstream": [UPSTREAM],
        "snapshot_date": "2025-09-09",
        "licence_files": ["mlperf/LICENSE"],
        "tables": [{"file": "mlperf/summary_results.json", "key": ["Location"]}],
    }
    return fields | changes


def message(model: type, data: dict) -> str:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return "; ".join(error["msg"] for error in caught.value.errors())


@pytest.mark.parametrize("lines", [(1, 1), (3, 9)])
def test_a_section_covers_an_inclusive_line_range(lines):
    section = Section(id="2.1", heading_zh="框架", heading_en="Frameworks", lines=lines)
    assert section.lines == lines


@pytest.mark.parametrize("lines", [(0, 3), (5, 4), (-2, -1)])
def test_a_section_range_out_of_order_or_below_line_one_is_refused(lines):
    text = message(Section, {"id": "2", "heading_zh": "z", "heading_en": "e", "lines": lines})
    assert "lines must be [first, last] with 1 <= first <= last" in text


def test_a_section_id_is_digits_letters_and_dots():
    text = message(Section, {"id": "2 1", "heading_zh": "z", "heading_en": "e", "lines": (1, 2)})
    assert "pattern" in text


def test_an_article_with_its_text_title_and_sections_loads():
    source = Source.model_validate(article())
    assert source.kind == "article"  # the default kind
    assert source.language == "zh"
    assert source.sections[0].heading_en == "Frameworks"


@pytest.mark.parametrize("missing", ["file", "title_zh", "sections"])
def test_an_article_without_its_text_title_or_sections_is_refused(missing):
    data = article()
    del data[missing]
    assert "an article source needs `file`, `title_zh` and `sections`" in message(Source, data)


@pytest.mark.parametrize("kind", ["assessment", "user"])
def test_an_assessment_or_user_source_needs_only_an_english_title(kind):
    source = Source(id="ours", kind=kind, title_en="Our assessment")
    assert source.file is None and source.sections == ()


@pytest.mark.parametrize("file", ["../004.txt", "sub/004.txt", "004.md", ".004.txt", "/004.txt"])
def test_a_source_file_is_a_bare_txt_name_inside_the_sources_folder(file):
    assert "pattern" in message(Source, article(file=file))


def test_a_complete_dataset_source_loads():
    source = Source.model_validate(dataset())
    assert source.upstream == (UPSTREAM,)
    assert source.tables == (RawTableSpec(file="mlperf/summary_results.json", key=("Location",)),)


def test_a_dataset_source_names_every_missing_key_in_order():
    data = dataset()
    for key in ("attribution", "snapshot_date", "tables"):
        del data[key]
    assert "a dataset source needs `attribution`, `snapshot_date`, `tables`" in message(Source, data)


def test_a_dataset_source_with_an_empty_list_counts_it_missing():
    assert "a dataset source needs `licence_files`" in message(Source, dataset(licence_files=[]))


def test_table_for_finds_the_same_file_or_a_folder_above_it():
    source = Source.model_validate(
        dataset(
            tables=[
                {"file": "mlperf/summary_results.json", "key": ["Location"]},
                {"file": "accelmark/submissions"},  # one JSON file per row
            ]
        )
    )
    one, folder = source.tables
    assert source.table_for("mlperf/summary_results.json") is one
    assert source.table_for("accelmark/submissions/a100/result.json") is folder
    assert folder.key == ()


@pytest.mark.parametrize(
    "file",
    [
        "mlperf/summary_results.json.bak",  # a longer name, not the same file
        "accelmark/submissions-old/a.json",  # a folder whose name starts like the table's
        "mlperf",  # the folder above a table file
    ],
)
def test_table_for_does_not_match_a_mere_prefix(file):
    source = Source.model_validate(
        dataset(tables=[{"file": "mlperf/summary_results.json"}, {"file": "accelmark/submissions"}])
    )
    assert source.table_for(file) is None


def locator(**changes: object) -> Locator:
    fields = {
        "dataset": "mlperf",
        "upstream": UPSTREAM,
        "file": "mlperf/summary_results.json",
        "row": "closed/NVIDIA/results/H100",
        "column": "Result",
        "retrieved": "2025-09-09",
        "licence": "Apache-2.0",
    }
    return Locator.model_validate(fields | changes)


def test_a_bare_footnote_names_dataset_row_date_and_licence():
    assert locator().footnote() == "mlperf; row 'closed/NVIDIA/results/H100'; retrieved 2025-09-09; Apache-2.0"


def test_a_full_footnote_lists_every_benchmark_field_in_order_and_says_derived():
    note = locator(
        result_id="5.1-0042",
        round="v5.1",
        division="closed",
        category="datacenter",
        availability="available",
        verification="verified",
        derived=True,
    ).footnote()
    assert note.split("; ") == [
        "mlperf",
        "result 5.1-0042",
        "round v5.1",
        "division closed",
        "category datacenter",
        "availability available",
        "verification verified",
        "row 'closed/NVIDIA/results/H100'",
        "derived (per accelerator), not a verified result",
        "retrieved 2025-09-09",
        "Apache-2.0",
    ]


def test_a_locator_refuses_an_unknown_conversion():
    with pytest.raises(ValidationError) as caught:
        locator(conversion="flops_to_pflops")
    assert caught.value.errors()[0]["loc"] == ("conversion",)
    assert locator(conversion="bytes_to_gb").conversion == "bytes_to_gb"

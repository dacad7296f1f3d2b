"""selector.knowledge.crosscheck: the rules across records and files, each issue naming the file, the line of the field
at
fault, the record and what to fix; every problem is collected, none stops the others."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from selector.io.yamlio import parse_yaml
from selector.issues import Issue
from selector.knowledge.crosscheck import Checker, Loaded
from selector.knowledge.locators import RAW_DIR, Snapshots
from selector.knowledge.models import KnowledgeFile

SHA = "0123456789abcdef0123456789abcdef01234567"
UPSTREAM = f"owner/data@{SHA}:t.csv"
DOCUMENT = "intro: Orin is fast\nmore words\nresults: Orin is fast\n"  # the quote twice: lines 1 and 3

BASE = f"""\
sources:
  - id: "001"
    file: 001.txt
    title_zh: 文
    title_en: Article
    sections:
      - {{id: "1", heading_zh: 一, heading_en: One, lines: [1, 2]}}
      - {{id: "2", heading_zh: 二, heading_en: Two, lines: [3, 3]}}
  - {{id: ours, kind: assessment, title_en: Our assessment}}
  - {{id: mine, kind: user, title_en: My runs}}
  - id: ds
    kind: dataset
    title_en: A dataset
    licence: MIT
    attribution: By someone.
    upstream: ["{UPSTREAM}"]
    snapshot_date: "2025-01-01"
    licence_files: [ds/LICENSE]
    tables:
      - {{file: ds/t.csv, key: [name]}}
      - {{file: ds/runs}}
  - {{id: docs, kind: document, title_en: Datasheets, url: "https://example.org/", retrieved: "2026-01-01"}}
entities:
  - {{id: nvidia, name: NVIDIA, kind: organization, jurisdiction: US, fact_claims: [f-facts]}}
  - {{id: orin, name: Jetson Orin, kind: accelerator, vendor: nvidia, segment: edge, form_factor: edge-module,
     fact_claims: [f-facts]}}
  - {{id: pytorch, name: PyTorch, kind: framework, roles: [library], vendor: nvidia, fact_claims: [f-facts]}}
claims:
  - {{id: f-facts, source: docs, tier: reference, kind: fact, about: [nvidia, orin, pytorch], text_en: Facts.}}
metrics:
  - {{id: tflops, units: [TFLOPS], better: higher, bounds: non_negative}}
  - {{id: score, bounds: non_negative}}
  - {{id: latency_ms, units: [ms], better: lower, bounds: non_negative}}
  - {{id: rating_, family: true}}
"""


def loaded(name: str, text: str, user: bool = False) -> Loaded:
    raw = textwrap.dedent(text).encode()
    parsed, issues = parse_yaml(raw, name)
    assert not issues, issues
    return Loaded(name, raw, parsed, KnowledgeFile.model_validate(parsed.data), user)


@pytest.fixture
def raw_dir(tmp_path: Path) -> Path:
    """A knowledge directory whose raw snapshot holds dataset `ds`: a CSV table, a folder of runs and the licence."""
    root = tmp_path / RAW_DIR / "ds"
    (root / "runs" / "a100").mkdir(parents=True)
    (root / "LICENSE").write_text("MIT licence\n")
    (root / "t.csv").write_text("name,flops\nh100,2e15\nb200,4.5e15\n")
    (root / "runs" / "a100" / "result.json").write_text(json.dumps({"score": 5}))
    return tmp_path


def check(raw_dir: Path, *extra: Loaded, base: str = BASE) -> list[Issue]:
    files = [loaded("base.yaml", base), *extra]
    return Checker(files, {"001": DOCUMENT}, Snapshots(raw_dir)).run()


def line_of(text: str, fragment: str, occurrence: int = 1) -> int:
    """The 1-based line of the `occurrence`-th line of `text` holding `fragment`."""
    hits = [n for n, line in enumerate(textwrap.dedent(text).splitlines(), start=1) if fragment in line]
    return hits[occurrence - 1]


def only(issues: list[Issue]) -> Issue:
    assert len(issues) == 1, [str(i) for i in issues]
    assert issues[0].level == "ERROR"
    return issues[0]


def test_the_base_knowledge_has_no_issue(raw_dir):
    assert check(raw_dir) == []


# ----------------------------------------------------------------------------------------------------------
# Ids and references


def test_a_duplicate_id_in_another_file_points_at_the_first(raw_dir):
    text = """\
    entities:
      - {id: tensorrt, name: TensorRT, kind: tool}
      - {id: pytorch, name: PyTorch again, kind: tool}
    """
    issue = only(check(raw_dir, loaded("more.yaml", text)))
    first = line_of(BASE, "id: pytorch")
    assert (issue.file, issue.line, issue.record) == ("more.yaml", 3, "pytorch")
    assert issue.message == f"duplicate entity id (first at base.yaml:{first})"


def test_a_duplicate_criterion_is_called_a_criterion(raw_dir):
    text = """\
    dimensions:
      - {id: perf, name_en: Performance, name_zh: 性能, weight: 50, claims: [c-fast]}
    criteria:
      - {id: speed, dimension: perf, name_en: Speed, name_zh: 速度, objective: max, unit: TFLOPS, unit_zh: TFLOPS,
         metric: tflops}
      - {id: speed, dimension: perf, name_en: Speed 2, name_zh: 速度 2, objective: max, unit: TFLOPS, unit_zh: TFLOPS,
         metric: tflops}
    claims:
      - {id: c-fast, source: ours, tier: assessed, kind: observation, text_en: Fast, about: [orin],
         rationale: rests on outside facts}
    """
    issue = only(check(raw_dir, loaded("c.yaml", text)))
    assert issue.message == "duplicate criterion id (first at c.yaml:4)" and issue.line == 6


def test_an_entity_s_vendor_and_groups_must_exist(raw_dir):
    text = """\
    entities:
      - {id: thor, name: Jetson Thor, kind: accelerator, segment: edge, vendor: nvdia, groups: [edge-chips],
         form_factor: edge-module, fact_claims: [f-facts]}
    """
    issues = [i for i in check(raw_dir, loaded("e.yaml", text)) if "fact claim" not in i.message]
    assert [i.message for i in issues] == [
        "vendor `nvdia` is not defined in any entities file; add it or fix the id",
        "group `edge-chips` is not defined in any groups file; add it or fix the id",
    ]
    assert {(i.file, i.line, i.record) for i in issues} == {("e.yaml", 2, "thor")}


def test_every_reference_of_a_claim_is_checked(raw_dir):
    text = """\
    claims:
      - id: c-rated
        source: ours
        tier: assessed
        kind: observation
        text_en: Orin runs PyTorch.
        about: [orin, jetsn]
        conditions: {hardware: h1000, baseline_entity: pytorch}
        rationale: rests on outside facts
        based_on: [c-missing]
        overrides: c-gone
    """
    issues = check(raw_dir, loaded("c.yaml", text))
    assert [(i.line, i.message.split(" is not defined")[0]) for i in issues] == [
        (line_of(text, "about:"), "entity `jetsn`"),
        (line_of(text, "conditions:"), "conditions.hardware `h1000`"),
        (line_of(text, "based_on:"), "based_on claim `c-missing`"),
        (line_of(text, "overrides:"), "overridden claim `c-gone`"),
    ]
    assert all(i.record == "c-rated" for i in issues)


@pytest.mark.parametrize(
    ("tier", "source", "expected", "kind"),
    [
        ("claimed", "ours", "article", "assessment"),
        ("assessed", "001", "assessment", "article"),
        ("measured", "ours", "user", "assessment"),
    ],
)
def test_a_claim_cites_a_source_of_the_kind_its_tier_needs(raw_dir, tier, source, expected, kind):
    text = f"""\
    claims:
      - {{id: c1, source: "{source}", tier: {tier}, kind: observation, text_en: Fast, about: [orin],
         section: "1", quote: Orin is fast, rationale: rests on outside facts}}
    """
    issue = only(check(raw_dir, loaded("c.yaml", text)))
    assert issue.message == f"a `{tier}` claim must cite a source of kind `{expected}`, but `{source}` is `{kind}`"


def test_an_assessment_may_cite_a_users_source(raw_dir):
    text = """\
    claims:
      - {id: c1, source: mine, tier: assessed, kind: observation, text_en: Fast, about: [orin],
         rationale: rests on outside facts}
    """
    assert check(raw_dir, loaded("c.yaml", text)) == []


# ----------------------------------------------------------------------------------------------------------
# Quotes


def claimed(section: str, quote: str) -> Loaded:
    return loaded(
        "q.yaml",
        f"""\
        claims:
          - id: c-quote
            source: "001"
            kind: observation
            text_en: Orin is fast.
            about: [orin]
            section: "{section}"
            quote: {quote}
        """,
    )


def test_a_quote_found_twice_is_right_when_one_occurrence_lies_in_the_cited_section(raw_dir):
    assert check(raw_dir, claimed("1", "Orin is fast")) == []
    assert check(raw_dir, claimed("2", "Orin is fast")) == []


def test_a_quote_outside_its_section_names_the_section_and_its_lines(raw_dir):
    issue = only(check(raw_dir, claimed("1", "results")))
    assert issue.message == (
        "quote is in document `001` but not inside section `1` (lines 1-2); cite the section that contains it"
    )
    assert issue.line == 7  # the `section` field


def test_a_quote_not_in_the_document_says_copy_it_exactly(raw_dir):
    issue = only(check(raw_dir, claimed("1", "Orin is slow")))
    assert issue.message.startswith("quote is not a verbatim substring of document `001`")
    assert issue.line == 8  # the `quote` field


def test_an_unknown_section_lists_the_known_ones(raw_dir):
    issue = only(check(raw_dir, claimed("9", "Orin is fast")))
    assert issue.message == "section `9` is not a section of source `001` (known: 1, 2)"


# ----------------------------------------------------------------------------------------------------------
# Datasets and locators


def benchmarked(value: float, **locator: str) -> Loaded:
    fields = {
        "dataset": "ds",
        "upstream": UPSTREAM,
        "file": "ds/t.csv",
        "row": "h100",
        "column": "flops",
        "conversion": "flops_to_tflops",
        "retrieved": "2025-01-01",
        "licence": "MIT",
    } | locator
    claim = {
        "id": "c-bench",
        "source": "ds",
        "tier": "benchmarked",
        "kind": "spec",
        "text_en": "H100 peak",
        "about": ["orin"],
        "value": value,
        "unit": "TFLOPS",
        "metric": "tflops",
        "locator": fields,
    }
    return loaded("b.yaml", json.dumps({"claims": [claim]}, indent=1))


def test_a_located_value_equal_to_the_converted_raw_number_passes(raw_dir):
    assert check(raw_dir, benchmarked(2000)) == []  # 2e15 FLOP/s / 1e12
    run = benchmarked(5, file="ds/runs/a100/result.json", row="a100", column="score", conversion="none")
    assert check(raw_dir, run) == []


def test_a_located_value_that_differs_from_the_raw_number_says_re_run_the_importer(raw_dir):
    issue = only(check(raw_dir, benchmarked(2100)))
    assert issue.message == (
        "value 2100.0 differs from the raw snapshot's 2000.0 (column `flops`, conversion `flops_to_tflops`); "
        "re-run the importer"
    )
    assert issue.record == "c-bench"


def test_a_locator_must_match_its_datasets_upstream_and_licence(raw_dir):
    other = f"owner/data@{'f' * 40}:t.csv"
    issues = check(raw_dir, benchmarked(2000, upstream=other, licence="GPL-3.0"))
    assert [i.message for i in issues] == [
        f"locator upstream `{other}` is not one of dataset `ds`'s upstream snapshots",
        "locator licence `GPL-3.0` differs from dataset `ds`'s `MIT`",
    ]


def test_a_locator_file_must_be_one_of_the_datasets_tables(raw_dir):
    issue = only(check(raw_dir, benchmarked(2000, file="ds/other.csv")))
    assert issue.message == "`ds/other.csv` is not a raw file of dataset `ds` (its tables: ds/t.csv, ds/runs)"


def test_a_locator_row_that_is_not_there_does_not_resolve(raw_dir):
    issue = only(check(raw_dir, benchmarked(2000, row="h200")))
    assert issue.message == f"locator does not resolve: {RAW_DIR}/ds/t.csv: no row with name = 'h200'"


def test_a_row_of_a_folder_table_is_the_files_folder(raw_dir):
    run = benchmarked(5, file="ds/runs/a100/result.json", row="h100", column="score", conversion="none")
    issue = only(check(raw_dir, run))
    assert issue.message == (
        "locator does not resolve: ds/runs/a100/result.json: row must be the file's folder `a100`, not 'h100'"
    )


def test_a_datasets_licence_file_must_be_bundled(raw_dir):
    (raw_dir / RAW_DIR / "ds" / "LICENSE").unlink()
    issue = only(check(raw_dir))
    assert issue.message == "licence file `ds/LICENSE` is not bundled under knowledge/imports/raw/"
    assert (issue.record, issue.line) == ("ds", line_of(BASE, "licence_files:"))


# ----------------------------------------------------------------------------------------------------------
# Assessments


RATING = """\
criteria:
  - id: openness
    dimension: eco
    name_en: Openness
    name_zh: 开放性
    objective: max
    unit: rating 1-5
    unit_zh: 评分 1-5
    metric: rating_openness
    scale: [1, 5]
    {rubric}
dimensions:
  - {{id: eco, name_en: Ecosystem, name_zh: 生态, weight: 50, claims: [c-rating]}}
claims:
  - {{id: c-fact, source: ours, tier: assessed, kind: observation, text_en: PyTorch is open, about: [pytorch],
     rationale: rests on outside facts}}
  - {{id: c-rating, source: ours, tier: assessed, kind: rating, text_en: Orin is open, about: [orin],
     value: {value}, unit: rating 1-5, metric: rating_openness, rationale: {rationale}, based_on: [c-fact]}}
"""
RUBRIC = "rubric: [" + ", ".join(f"{{level: {n}, text_en: level {n}, text_zh: 第 {n} 级}}" for n in range(1, 6)) + "]"


def test_a_rating_on_its_scale_with_a_rubric_resting_on_its_subject_passes(raw_dir):
    text = RATING.format(rubric=RUBRIC, value=4, rationale="rests on outside facts")
    assert check(raw_dir, loaded("r.yaml", text)) == []


def test_a_rating_that_cites_no_claim_about_its_subject_is_refused(raw_dir):
    text = RATING.format(rubric=RUBRIC, value=4, rationale="open licence")
    issue = only(check(raw_dir, loaded("r.yaml", text)))
    assert issue.message.startswith("`based_on` cites no claim about `orin`, the entity this rating is about")
    assert (issue.record, issue.line) == ("c-rating", line_of(text, "id: c-rating") + 1)


def test_a_rating_outside_its_criterions_scale_and_a_rated_criterion_without_rubric(raw_dir):
    text = RATING.format(rubric="", value=6, rationale="rests on outside facts")
    issues = check(raw_dir, loaded("r.yaml", text))
    assert [(i.record, i.message.split(";")[0]) for i in issues] == [
        ("openness", "criterion `openness` is filled by assessed ratings but has no `rubric`"),
        ("c-rating", "value 6 lies outside the value scale [1, 5] (rating 1-5) of criterion `openness`"),
    ]


# ----------------------------------------------------------------------------------------------------------
# Decision data


def test_every_reference_of_the_decision_data_is_checked(raw_dir):
    text = """\
    dimensions:
      - {id: perf, name_en: Performance, name_zh: 性能, weight: 50, claims: [c-none]}
    criteria:
      - {id: price, dimension: cost, name_en: Price, name_zh: 价格, objective: min, unit: USD, unit_zh: 美元,
         metric: usd, conditions: {hardware: h1000}}
      - {id: tput, dimension: perf, name_en: Throughput, name_zh: 吞吐量, objective: max, unit: TFLOPS,
         unit_zh: TFLOPS, metric: tflops}
      - {id: per-token, dimension: perf, name_en: Per token, name_zh: 每 token, objective: min, unit: USD,
         unit_zh: 美元, metric: usd, derived: {formula: usd_per_million_tokens, price: price, throughput: tput}}
      - {id: twice, dimension: perf, name_en: Twice derived, name_zh: 两次推导, objective: min, unit: USD,
         unit_zh: 美元, metric: usd,
         derived: {formula: usd_per_million_tokens, price: per-token, throughput: nothing}}
    groups:
      - id: chips
        name_en: Chips
        name_zh: 芯片
        members: [orin, h1000]
        criteria: [{criterion: tput}, {criterion: speed}]
    questions:
      - id: goal
        text_en: Goal?
        text_zh: 目标？
        options: [{id: edge, label_en: Edge, label_zh: 边缘, groups: [chips]},
                  {id: cloud, label_en: Cloud, label_zh: 云, groups: [gpus]}]
    rules:
      - {id: r1, tree: t, when: {goal: [edge, space], budget: [low]}, recommend: [orin], exclude: [tpu],
         groups: [gpus], rationale_en: Because., rationale_zh: 因为。, claims: [c-none]}
    """
    issues = check(raw_dir, loaded("d.yaml", text, user=True))
    found = [(i.record, i.line, i.message.split(" is not defined")[0].split(";")[0]) for i in issues]
    rule = line_of(text, "- {id: r1,")  # `when`, `recommend` and `exclude`
    rest = line_of(text, "groups: [gpus], rationale_en")  # `groups` and `claims`
    derived = line_of(text, "price: per-token")
    assert found == [
        ("tput", line_of(text, "- {id: tput"), "criterion `tput` is ranked by a group but has no `scale`"),
        ("perf", 2, "claim `c-none`"),
        ("price", 4, "dimension `cost`"),
        ("price", line_of(text, "conditions: {hardware"), "hardware `h1000`"),  # the line of its conditions
        ("twice", derived, "derived.price `per-token` is itself derived"),
        ("twice", derived, "derived.throughput `nothing`"),
        ("chips", line_of(text, "members:"), "member `h1000`"),
        ("chips", line_of(text, "criteria: [{"), "criterion `speed`"),
        ("goal", line_of(text, "options:"), "group `gpus`"),
        ("r1", rest, "claim `c-none`"),
        ("r1", rule, "candidate `tpu`"),
        ("r1", rest, "group `gpus`"),
        ("r1", rule, "answer `space` is not an option of question `goal` (options: cloud, edge)"),
        ("r1", rule, "question `budget`"),
    ]


def test_a_scenario_link_names_a_known_entity_and_known_answers(raw_dir):
    text = """\
    questions:
      - {id: goal, text_en: Goal?, text_zh: 目标？, options: [{id: edge, label_en: Edge, label_zh: 边缘},
         {id: cloud, label_en: Cloud, label_zh: 云}]}
    scenario_links:
      - {entity: pytorch, serves: {goal: [cloud]}}
      - {entity: tensorflow, serves: {goal: [space]}}
      - {kind: technique, serves: {goal: [edge]}}
    """
    issues = check(raw_dir, loaded("s.yaml", text))
    assert [(i.record, i.line, i.message.split(";")[0]) for i in issues] == [
        ("tensorflow", 6, "entity `tensorflow` is not defined in any entities file"),
        ("tensorflow", 6, "answer `space` is not an option of question `goal` (options: cloud, edge)"),
    ]


# ----------------------------------------------------------------------------------------------------------
# Metric vocabulary


VOCABULARY = """\
criteria:
  - {id: lat, dimension: perf, name_en: Latency, name_zh: 延迟, objective: max, unit: ms, unit_zh: ms,
     metric: latency_ms}
dimensions:
  - {id: perf, name_en: Performance, name_zh: 性能, weight: 50, claims: [c1]}
claims:
  - {id: c1, source: mine, tier: measured, kind: spec, text_en: Peak, about: [orin], value: 5, unit: GOPS,
     metric: tflops}
  - {id: c2, source: mine, tier: measured, kind: spec, text_en: Peak, about: [orin], value: -5, unit: TFLOPS,
     metric: tflops}
  - {id: c3, source: mine, tier: measured, kind: spec, text_en: Peak, about: [orin], value: 5, unit: TFLOPS,
     metric: tflopz}
  - {id: c4, source: mine, tier: measured, kind: rating, text_en: Open, about: [orin], value: 3, unit: rating 1-5,
     metric: rating_openness}
"""


def test_the_bundled_files_use_the_vocabulary_in_its_units_direction_and_bounds(raw_dir):
    issues = check(raw_dir, loaded("v.yaml", VOCABULARY))
    assert [(i.record, i.message.split(";")[0]) for i in issues] == [
        ("c1", "unit `GOPS` is not a unit of metric `tflops` (TFLOPS)"),
        ("c2", "`tflops` cannot be negative (got -5)"),
        ("c3", "metric `tflopz` is not in the metric vocabulary (knowledge/metrics.yaml)"),
        ("lat", "objective `max` contradicts metric `latency_ms`, where lower is better"),
    ]  # c4: `rating_openness` belongs to the `rating_` family


def test_a_users_file_is_not_held_to_the_vocabulary(raw_dir):
    assert check(raw_dir, loaded("v.yaml", VOCABULARY, user=True)) == []

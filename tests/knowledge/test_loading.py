"""Tests of selector/knowledge/loading.py: broken files reported with file, line and record; immutability; the data
hash."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from selector.io.yamlio import MAX_BYTES
from selector.knowledge import loading as knowledge
from tests.conftest import BROKEN, FIXTURES, ROOT

MARKER = b"# expect-error"


def marked_lines(path: Path) -> list[int]:
    """The 1-based lines of `path` that carry the ``# expect-error`` marker: where the loader must point."""
    return [n for n, line in enumerate(path.read_bytes().split(b"\n"), start=1) if MARKER in line]


def errors(issues: list) -> list:
    return [i for i in issues if i.level == "ERROR"]


# (fixture file, fragment the message must contain, record id the issue must name: None for file-level problems)
CASES = [
    ("unknown_key.yaml", "unknown key `colour`", "fix-unknown-key"),
    ("wrong_type.yaml", "`value`: Value error, 'fast' is text, not a number", "cfix-wrong-type"),
    ("value_out_of_range.yaml", "`weight`: Input should be less than or equal to 100", "fix-dimension"),
    ("value_nan.yaml", "not a finite number", None),
    ("value_nan_text.yaml", "'nan' is text, not a number", "cfix-nan-text"),
    ("missing_unit.yaml", "a claim with a value needs a `unit`", "cfix-missing-unit"),
    ("duplicate_key.yaml", "duplicate key `kind` (first at line 5)", None),
    ("duplicate_id.yaml", "duplicate entity id (first at knowledge/entities/frameworks.yaml:", "pytorch"),
    ("duplicate_id_in_file.yaml", "duplicate entity id (first at", "fix-twice"),
    ("unresolved_entity.yaml", "entity `no-such-chip` is not defined in any entities file", "cfix-unresolved-entity"),
    ("unknown_source.yaml", "source `999` is not defined in any sources file", "cfix-unknown-source"),
    ("quote_not_in_document.yaml", "quote is not a verbatim substring of document `003`", "cfix-quote-not-in-document"),
    ("quote_outside_section.yaml", "not inside section `1.1` (lines 3-6)", "cfix-quote-outside-section"),
    ("unknown_section.yaml", "section `9.9` is not a section of source `003`", "cfix-unknown-section"),
    ("yaml11_no.yaml", "`no` is read by YAML 1.1 as the boolean False", None),
    ("yaml11_on.yaml", "`on` is read by YAML 1.1 as the boolean True", None),
    ("yaml11_1e3.yaml", "`1e3` is read by YAML 1.1 as text, not a number", None),
    ("alias_bomb.yaml", "more than 50 aliases", None),
    ("too_deep.yaml", "nesting deeper than 24 levels", None),
    ("very_deep.yaml", "nesting deeper than 24 levels", None),
    ("non_utf8.yaml", "not UTF-8 text", None),
    ("top_level_list.yaml", "top level must be a mapping", None),
    ("assessed_without_rationale.yaml", "an `assessed` record needs a `rationale`", "cfix-assessed-without-rationale"),
    ("assessed_off_subject.yaml", "`based_on` cites no claim about `jetson-orin`", "cfix-orin-ecosystem"),
    (
        "rating_outside_scale.yaml",
        "value 7 lies outside the value scale [1, 5] (rating 1-5) of criterion `fix-crit`",
        "cfix-scale-rating",
    ),
    ("criterion_without_rubric.yaml", "is filled by assessed ratings but has no `rubric`", "fix-crit"),
    ("rubric_incomplete.yaml", "a rubric describes each level 1, 2, 3, 4 and 5 exactly once", "fix-crit"),
    ("rule_unknown_option.yaml", "answer `maybe` is not an option of question `fix-q`", "fix-rule"),
    ("missing_document.yaml", "cannot read document `sources/no-such-document.txt`", "fix-missing-document"),
    ("scenario_link_unknown_entity.yaml", "entity `no-such-technique` is not defined", "no-such-technique"),
    ("scenario_link_unknown_option.yaml", "answer `maybe` is not an option of question `fix-q`", "lora"),
    ("scenario_link_unknown_question.yaml", "question `no-such-question` is not defined", "kind:technique"),
    ("scenario_link_entity_and_kind.yaml", "names either an `entity` or a `kind`", "lora"),
    # The two below name no message: how to refuse a path outside knowledge/sources/ is the loader's choice.
    ("document_path_traversal.yaml", "", "fix-path-traversal"),
    ("document_absolute_path.yaml", "", "fix-absolute-path"),
]


# Checked in the bundled files only (a user's file may bring a metric of its own: stored, not ranked).
VOCABULARY = [
    ("metric_unknown.yaml", "metric `tops_int_8` is not in the metric vocabulary", "cfix-metric-unknown"),
    ("metric_wrong_unit.yaml", "unit `GOPS` is not a unit of metric `tops_int8` (TOPS)", "cfix-metric-wrong-unit"),
    ("metric_negative.yaml", "`power_w` cannot be negative (got -5)", "cfix-metric-negative"),
    ("metric_share_over_100.yaml", "`utilisation_pct` is a share of a whole", "cfix-metric-share-over-100"),
    ("criterion_against_metric.yaml", "`max` contradicts metric `latency_ms`, where lower is better", "fix-latency"),
]

MULTI = {
    "three_schema_errors.yaml": ["unknown key `colour`", "missing required key `kind`", "'fast' is text"],
    "three_reference_errors.yaml": ["entity `no-such-chip`", "source `999`", "quote is not a verbatim substring"],
    "three_yaml_errors.yaml": ["duplicate key `name`", "`off` is read by YAML 1.1", "`1e3` is read by YAML 1.1"],
}


def test_every_broken_fixture_is_covered() -> None:
    """A fixture added to tests/fixtures/broken/ without a row in CASES would silently test nothing."""
    on_disk = {p.name for p in BROKEN.iterdir() if p.suffix == ".yaml"}
    covered = {name for name, _, _ in CASES + VOCABULARY} | set(MULTI) | {"alias_expansion.yaml"}
    assert on_disk == covered


def test_base_knowledge_is_valid(base_knowledge: Path) -> None:
    """The starting point of the broken-file tests must be clean, or their issue counts would mean nothing."""
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is not None, [str(i) for i in issues]
    assert errors(issues) == []


@pytest.mark.parametrize(("name", "fragment", "record"), CASES, ids=[c[0].removesuffix(".yaml") for c in CASES])
def test_broken_file_is_reported_where_it_is_broken(base_knowledge: Path, name: str, fragment: str, record) -> None:
    fixture = BROKEN / name
    [line] = marked_lines(fixture)
    kb, issues = knowledge.collect(base_knowledge, extra=[fixture])
    assert kb is None, "a knowledge base with an error must not load at all"
    found = errors(issues)
    assert len(found) == 1, [str(i) for i in found]
    issue = found[0]
    assert fragment in issue.message
    assert issue.file == str(fixture)
    assert issue.line == line, f"reported line {issue.line}, the fixture marks line {line}: {issue}"
    assert issue.record == record
    assert str(issue).startswith(f"ERROR {fixture}:{line}")


@pytest.mark.parametrize(
    ("name", "fragment", "record"), VOCABULARY, ids=[c[0].removesuffix(".yaml") for c in VOCABULARY]
)
def test_metric_vocabulary_is_enforced_in_the_bundled_files(
    base_knowledge: Path, name: str, fragment: str, record: str
) -> None:
    target = base_knowledge / "claims" / name
    target.parent.mkdir()
    shutil.copy(BROKEN / name, target)
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    [issue] = errors(issues)
    assert fragment in issue.message
    assert (issue.file, issue.line, issue.record) == (f"knowledge/claims/{name}", marked_lines(target)[0], record)


def test_a_users_file_may_bring_a_metric_of_its_own(base_knowledge: Path) -> None:
    kb, issues = knowledge.collect(base_knowledge, extra=[BROKEN / "metric_unknown.yaml"])
    assert kb is not None and errors(issues) == []
    assert kb.claims["cfix-metric-unknown"].metric == "tops_int_8"


@pytest.mark.parametrize("name", sorted(MULTI))
def test_all_problems_of_a_file_are_reported_at_once(base_knowledge: Path, name: str) -> None:
    fixture = BROKEN / name
    kb, issues = knowledge.collect(base_knowledge, extra=[fixture])
    assert kb is None
    found = errors(issues)
    assert len(found) == 3, [str(i) for i in found]
    assert sorted(i.line for i in found) == marked_lines(fixture)
    for fragment in MULTI[name]:
        assert sum(fragment in i.message for i in found) == 1, (fragment, [str(i) for i in found])


def test_problems_in_several_files_are_reported_together(base_knowledge: Path) -> None:
    broken = [BROKEN / "unknown_key.yaml", BROKEN / "unknown_source.yaml", BROKEN / "yaml11_no.yaml"]
    kb, issues = knowledge.collect(base_knowledge, extra=broken)
    assert kb is None
    assert sorted(i.file for i in errors(issues)) == sorted(str(p) for p in broken)


def test_an_error_in_the_bundled_directory_is_reported_with_its_relative_path(base_knowledge: Path) -> None:
    target = base_knowledge / "claims" / "broken.yaml"
    target.parent.mkdir()
    shutil.copy(BROKEN / "unknown_source.yaml", target)
    kb, issues = knowledge.collect(base_knowledge)
    assert kb is None
    [issue] = errors(issues)
    assert issue.file == "knowledge/claims/broken.yaml"
    assert issue.line == marked_lines(target)[0]


def test_upload_is_checked_like_a_file(base_knowledge: Path) -> None:
    fixture = BROKEN / "quote_outside_section.yaml"
    upload = knowledge.Upload("mine.yaml", fixture.read_bytes())
    _, from_file = knowledge.collect(base_knowledge, extra=[fixture])
    kb, from_upload = knowledge.collect(base_knowledge, extra=[upload])
    assert kb is None
    assert [(i.line, i.record, i.message) for i in from_upload] == [(i.line, i.record, i.message) for i in from_file]
    assert {i.file for i in from_upload} == {"mine.yaml"}


def test_oversize_upload_is_refused_before_parsing(base_knowledge: Path, tmp_path: Path) -> None:
    # Generated here rather than kept as a fixture: a 2 MB file has no place in the repository.
    big = tmp_path / "big.yaml"
    big.write_bytes(b"entities: []\n" + b"# padding\n" * (MAX_BYTES // 10 + 1))
    kb, issues = knowledge.collect(base_knowledge, extra=[big])
    assert kb is None
    [issue] = errors(issues)
    assert issue.file == str(big)
    assert f"the limit is {MAX_BYTES:,} bytes" in issue.message


def test_upload_size_cap_is_a_parameter(base_knowledge: Path) -> None:
    upload = knowledge.Upload("small.yaml", (FIXTURES / "valid_extra.yaml").read_bytes())
    kb, _ = knowledge.collect(base_knowledge, extra=[upload])
    assert kb is not None
    kb, issues = knowledge.collect(base_knowledge, extra=[upload], max_upload_bytes=100)
    assert kb is None
    assert "the limit is 100 bytes" in errors(issues)[0].message


def test_missing_extra_file_is_an_issue_not_a_crash(base_knowledge: Path, tmp_path: Path) -> None:
    kb, issues = knowledge.collect(base_knowledge, extra=[tmp_path / "nope.yaml"])
    assert kb is None
    assert "cannot read file" in errors(issues)[0].message


def test_empty_directory_is_an_issue(tmp_path: Path) -> None:
    kb, issues = knowledge.collect(tmp_path)
    assert kb is None
    assert "no *.yaml files found" in errors(issues)[0].message


@pytest.mark.subprocess
def test_alias_expansion_under_the_alias_cap_is_refused_quickly() -> None:
    # In a child process with a deadline: a loader that walks the expansion would otherwise stall the test run.
    code = (
        "import sys; from pathlib import Path; from selector.knowledge import loading as knowledge; "
        "kb, issues = knowledge.collect(Path(sys.argv[1]), extra=[Path(sys.argv[2])]); "
        "print(kb is None, len([i for i in issues if i.level == 'ERROR']))"
    )
    fixture = BROKEN / "alias_expansion.yaml"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(ROOT / "knowledge"), str(fixture)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{fixture.name} (a 1 kB file) kept the loader busy for more than 10 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "True"


def test_load_raises_with_every_issue(base_knowledge: Path) -> None:
    with pytest.raises(knowledge.KnowledgeError) as caught:
        knowledge.load(base_knowledge, extra=[BROKEN / "three_reference_errors.yaml"])
    assert len(caught.value.issues) == 3
    assert "3 problem(s)" in str(caught.value)


# ---------------------------------------------------------------------------------------------------------------
# A loaded knowledge base


@pytest.fixture
def loaded(base_knowledge: Path):
    return knowledge.load(base_knowledge, extra=[FIXTURES / "valid_extra.yaml"])


def test_extra_file_merges_into_the_knowledge(loaded) -> None:
    assert loaded.claims["cfix-valid"].value == 3958
    assert loaded.rules["fix-rule"].when == {"fix-q": ("opt-a",)}
    assert loaded.locations[("claims", "cfix-valid")] == f"{FIXTURES / 'valid_extra.yaml'}:3"
    assert loaded.locations[("entities", "pytorch")] == "knowledge/entities/frameworks.yaml:4"


def test_knowledge_base_attributes_cannot_be_assigned(loaded) -> None:
    with pytest.raises(ValidationError):
        loaded.data_hash = "0" * 16
    with pytest.raises(ValidationError):
        loaded.claims = {}


@pytest.mark.parametrize("table", ["sources", "entities", "claims", "questions", "rules", "texts", "locations"])
def test_knowledge_base_tables_cannot_be_changed(loaded, table: str) -> None:
    mapping = getattr(loaded, table)
    with pytest.raises(TypeError):
        mapping["new"] = None
    with pytest.raises(TypeError):
        del mapping[next(iter(mapping))]


def test_records_cannot_be_changed(loaded) -> None:
    claim = loaded.claims["cfix-valid"]
    with pytest.raises(ValidationError):
        claim.value = 1.0
    with pytest.raises(ValidationError):
        claim.conditions.precision = "fp16"
    with pytest.raises(AttributeError):
        claim.about.append("a100")  # tuples, not lists
    with pytest.raises(AttributeError):
        loaded.sources["003"].sections[0].lines.append(99)


def test_mappings_inside_records_cannot_be_changed(loaded) -> None:
    # Rule.when is the one mapping inside a record; the app caches the knowledge base for all users, so a page
    # that changed it would change every user's decision tree.
    when = loaded.rules["fix-rule"].when
    with pytest.raises(TypeError):
        when["fix-q"] = ("opt-b",)


def test_data_hash_is_stable(base_knowledge: Path, bundled_knowledge: Path, tmp_path: Path) -> None:
    first = knowledge.load(base_knowledge).data_hash
    assert knowledge.load(base_knowledge).data_hash == first
    elsewhere = tmp_path / "elsewhere" / "knowledge"
    shutil.copytree(base_knowledge, elsewhere)
    assert knowledge.load(elsewhere).data_hash == first, "the hash depends on the content, not on the location"


def test_data_hash_follows_the_files(base_knowledge: Path) -> None:
    before = knowledge.load(base_knowledge).data_hash
    entities = base_knowledge / "entities" / "frameworks.yaml"
    original = entities.read_text(encoding="utf-8")
    entities.write_text(original.replace("name: PyTorch,", "name: PyTorch 2,", 1), encoding="utf-8")
    changed = knowledge.load(base_knowledge).data_hash
    assert changed != before
    entities.write_text(original, encoding="utf-8")
    assert knowledge.load(base_knowledge).data_hash == before


def test_data_hash_follows_the_documents(base_knowledge: Path) -> None:
    before = knowledge.load(base_knowledge).data_hash
    document = next((base_knowledge / "sources").glob("003_*.txt"))
    document.write_text(document.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert knowledge.load(base_knowledge).data_hash != before


def test_data_hash_follows_extra_files(base_knowledge: Path) -> None:
    alone = knowledge.load(base_knowledge).data_hash
    assert knowledge.load(base_knowledge, extra=[FIXTURES / "valid_extra.yaml"]).data_hash != alone

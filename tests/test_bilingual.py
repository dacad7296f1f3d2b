"""selector.bilingual: every English text of the knowledge has its Chinese twin and the reverse; the bundled
knowledge refuses a missing one (ERROR, with file, line and record), a user's file is warned; every record is
checked, and no Chinese text drops or changes a number of its English twin."""

from __future__ import annotations

import re
import typing
from collections import Counter
from pathlib import Path

import pytest

from selector import bilingual, knowledge
from selector.crosscheck import Checker, Loaded
from selector.knowledge import Upload
from selector.locators import Snapshots
from selector.models import Criterion, Group, KnowledgeFile, Metric, RubricLevel
from selector.yamlio import parse_yaml

KNOWLEDGE = knowledge.DEFAULT_KNOWLEDGE


def model_of(section: str) -> type:
    """The record type of a knowledge file's section (``tuple[Entity, ...]`` -> Entity)."""
    return typing.get_args(KnowledgeFile.model_fields[section].annotation)[0]


def nested_model(section: str, field: str) -> type:
    return typing.get_args(model_of(section).model_fields[field].annotation)[0]


def bundled_files() -> list[Loaded]:
    files = []
    for path in sorted(KNOWLEDGE.rglob("*.yaml")):
        raw = path.read_bytes()
        parsed, issues = parse_yaml(raw, path.name, max_bytes=knowledge.MAX_KNOWLEDGE_FILE_BYTES)
        assert not issues, issues
        files.append(Loaded(path.name, raw, parsed, KnowledgeFile.model_validate(parsed.data)))
    return files


def errors(issues):
    return [i for i in issues if i.level == "ERROR"]


# ----------------------------------------------------------------------------------------------------------
# The table of twins


def test_every_twin_names_fields_of_its_record():
    for section, pairs in bilingual.TWINS.items():
        fields = model_of(section).model_fields
        for english, chinese in pairs:
            assert english in fields and chinese in fields, (section, english, chinese)
    for section, (field, pairs) in bilingual.NESTED.items():
        fields = nested_model(section, field).model_fields
        for english, chinese in pairs:
            assert english in fields and chinese in fields, (section, field, english, chinese)


def test_no_english_text_of_a_twinned_record_is_left_without_a_twin():
    """A new `*_en` field on a twinned record must be added to the table (claims and sources are not twinned: a
    claim quotes its Chinese article verbatim and renders it in English; a source keeps its own title)."""
    for section, pairs in bilingual.TWINS.items():
        english = {f for f in model_of(section).model_fields if f.endswith("_en")}
        assert english <= {e for e, _ in pairs}, (section, english)
    for section, (field, pairs) in bilingual.NESTED.items():
        english = {f for f in nested_model(section, field).model_fields if f.endswith("_en")}
        assert english <= {e for e, _ in pairs}, (section, field, english)


# ----------------------------------------------------------------------------------------------------------
# One record


def test_a_text_and_its_twin_pass():
    assert (
        bilingual.problems(RubricLevel(level=1, text_en="CPU only.", text_zh="只支持 CPU。"), [("text_en", "text_zh")])
        == []
    )


def test_an_english_text_without_its_chinese_twin_is_named():
    [(field, message)] = bilingual.problems(RubricLevel(level=1, text_en="CPU only."), [("text_en", "text_zh")])
    assert field == "text_en"
    assert message == "`text_en` has no Chinese twin: add `text_zh` beside it"


def test_a_chinese_text_without_its_english_twin_is_named():
    metric = Metric(id="latency_ms", label_zh="延迟")
    [(field, message)] = bilingual.problems(metric, bilingual.TWINS["metrics"])
    assert (field, message) == ("label_zh", "`label_zh` has no English twin: add `label_en` beside it")


def test_a_chinese_twin_must_hold_chinese_but_a_unit_may_be_a_symbol():
    metric = Metric(id="throughput", label_en="Throughput", label_zh="Throughput")
    [(field, message)] = bilingual.problems(metric, bilingual.TWINS["metrics"])
    assert (field, message) == ("label_zh", "`label_zh` holds no Chinese character: write the Chinese text")
    criterion = Criterion(
        id="power",
        dimension="cost",
        name_en="Power draw (W)",
        name_zh="功耗（W）",
        objective="min",
        unit="W",
        unit_zh="W",
        metric="power_w",
    )
    assert bilingual.problems(criterion, bilingual.TWINS["criteria"]) == []


def test_neither_language_is_no_problem():
    """An optional text left out in both languages is absent, not half-translated."""
    group = Group(id="g", name_en="Chips", name_zh="芯片", members=("a", "b"), criteria=({"criterion": "c"},))
    assert bilingual.problems(group, bilingual.TWINS["groups"]) == []


@pytest.mark.parametrize(
    ("text", "chinese"), [("算力", True), ("昇腾 910B", True), ("TFLOPS", False), ("（）、。", False), ("", False)]
)
def test_chinese_means_a_chinese_character(text, chinese):
    assert bilingual.is_chinese(text) is chinese


# ----------------------------------------------------------------------------------------------------------
# Every record checked


def raw_counts(files: list[Loaded]) -> Counter:
    """Records per kind counted from the parsed YAML, independently of the models and of the check."""
    counts: Counter = Counter()
    for loaded in files:
        for section in bilingual.TWINS:
            records = loaded.parsed.data.get(section) or []
            counts[section] += len(records)
            if section in bilingual.NESTED:
                field = bilingual.NESTED[section][0]
                counts[f"{section}.{field}"] += sum(len(r.get(field) or []) for r in records)
    return counts


def test_every_bundled_record_is_checked_none_skipped():
    files = bundled_files()
    checker = Checker(files, {}, Snapshots(KNOWLEDGE))
    checker.both_languages()
    assert checker.issues == []
    expected = raw_counts(files)
    assert checker.texts_checked == dict(expected)
    kb = knowledge.load()
    for section in bilingual.TWINS:
        assert checker.texts_checked[section] == len(getattr(kb, section)), section
    assert checker.texts_checked["criteria.rubric"] == sum(len(c.rubric) for c in kb.criteria.values())
    assert checker.texts_checked["questions.options"] == sum(len(q.options) for q in kb.questions.values())


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def numbers(text: str) -> Counter:
    return Counter(n.replace(",", "") for n in _NUMBER.findall(text))


def test_no_chinese_text_drops_or_changes_a_number_of_its_english_twin():
    """The numbers of an English text (figures, article numbers, model sizes) all appear in its Chinese twin: a
    translation says the same thing, so a figure that differs is a translation error. The Chinese may add numbers
    (April is 4 月)."""
    kb = knowledge.load()
    wrong = []
    for section, pairs in bilingual.TWINS.items():
        for record in getattr(kb, section).values():
            items = [(record, pairs)]
            if section in bilingual.NESTED:
                field, inner = bilingual.NESTED[section]
                items += [(item, inner) for item in getattr(record, field)]
            for item, twins in items:
                for english, chinese in twins:
                    en, zh = getattr(item, english), getattr(item, chinese)
                    if en and zh and numbers(en) - numbers(zh):
                        wrong.append((section, record.id, english, sorted((numbers(en) - numbers(zh)).elements())))
    assert wrong == []


# ----------------------------------------------------------------------------------------------------------
# The bundled knowledge refuses, a user's file is warned


def line_number(path: Path, fragment: str) -> int:
    return next(n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if fragment in line)


def test_a_bundled_record_without_its_chinese_twin_is_refused_at_its_line(knowledge_copy: Path):
    criteria = knowledge_copy / "criteria.yaml"
    text = criteria.read_text("utf-8")
    twin = re.search(r"(?m)^    description_zh: .*\n", text)
    criteria.write_text(text[: twin.start()] + text[twin.end() :], "utf-8")
    english = line_number(criteria, "    description_en: ")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    [issue] = errors(issues)
    assert (issue.file, issue.line, issue.record) == ("knowledge/criteria.yaml", english, "performance")
    assert str(issue) == (
        f"ERROR knowledge/criteria.yaml:{english} record `performance`: `description_en` has no Chinese twin: add "
        "`description_zh` beside it"
    )


def test_a_bundled_chinese_text_without_its_english_twin_is_refused(knowledge_copy: Path):
    entities = knowledge_copy / "entities" / "extra_000.yaml"
    text = entities.read_text("utf-8")
    english = re.search(r"(?m)^    description_en: .*\n", text)
    entities.write_text(text[: english.start()] + text[english.end() :], "utf-8")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    [issue] = errors(issues)
    assert (issue.file, issue.line) == ("knowledge/entities/extra_000.yaml", line_number(entities, "description_zh"))
    assert (issue.record, issue.message) == (
        "ai-framework-comparison-000",
        "`description_zh` has no English twin: add `description_en` beside it",
    )


def test_a_bundled_metric_label_missing_its_twin_is_refused(knowledge_copy: Path):
    metrics = knowledge_copy / "metrics.yaml"
    text = metrics.read_text("utf-8")
    metrics.write_text(text.replace(", label_zh: 延迟", "", 1), "utf-8")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    [issue] = errors(issues)
    assert (issue.file, issue.line, issue.record) == (
        "knowledge/metrics.yaml",
        line_number(metrics, "{id: latency_ms,"),
        "latency_ms",
    )
    assert "`label_en` has no Chinese twin" in issue.message


def test_a_rubric_level_in_english_only_is_refused(knowledge_copy: Path):
    criteria = knowledge_copy / "criteria.yaml"
    text = criteria.read_text("utf-8")
    changed = re.sub(r', text_zh: "只支持 CPU。"', "", text, count=1)
    assert changed != text
    criteria.write_text(changed, "utf-8")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    [issue] = errors(issues)
    assert (issue.record, issue.line) == ("rating-mobile-acceleration", line_number(criteria, '"CPU only."'))
    assert issue.message == "`text_en` has no Chinese twin: add `text_zh` beside it"


USER_FILE = b"""\
entities:
  - id: my-npu
    name: My NPU
    kind: accelerator
    segment: edge
    description_en: Our own accelerator.
"""


def test_a_users_file_without_chinese_is_warned_not_refused():
    kb, issues = knowledge.collect(KNOWLEDGE, [Upload("mine.yaml", USER_FILE)])
    assert kb is not None and "my-npu" in kb.entities
    [warning] = [i for i in issues if i.file == "mine.yaml"]
    assert (warning.level, warning.line, warning.record) == ("WARNING", 6, "my-npu")
    assert warning.message.startswith("`description_en` has no Chinese twin: add `description_zh` beside it")
    translated = USER_FILE + "    description_zh: 我们自己的加速器。\n".encode()
    kb, issues = knowledge.collect(KNOWLEDGE, [Upload("mine.yaml", translated)])
    assert kb is not None and not [i for i in issues if i.file == "mine.yaml"]

"""selector.knowledge.bilingual: every English text of the knowledge has its Chinese twin and the reverse; the bundled
knowledge refuses a missing one (ERROR, with file, line and record), a user's file is warned; every record is
checked, and no Chinese text drops or changes a number of its English twin."""

from __future__ import annotations

import re
import typing
from collections import Counter
from pathlib import Path

import pytest

from selector.knowledge import bilingual
from selector.knowledge import loading as knowledge
from selector.knowledge.crosscheck import Checker, Loaded
from selector.knowledge.loading import Upload
from selector.knowledge.locators import Snapshots
from selector.knowledge.models import Criterion, Group, KnowledgeFile, Metric, RubricLevel

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
        parsed, issues = knowledge.parse(path.name, raw, knowledge.MAX_KNOWLEDGE_FILE_BYTES, False)
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


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_every_bundled_record_is_checked_none_skipped(kb):
    files = bundled_files()
    checker = Checker(files, {}, Snapshots(KNOWLEDGE))
    checker.both_languages()
    assert checker.issues == []
    expected = raw_counts(files)
    assert checker.texts_checked == dict(expected)
    for section in bilingual.TWINS:
        assert checker.texts_checked[section] == len(getattr(kb, section)), section
    assert checker.texts_checked["criteria.rubric"] == sum(len(c.rubric) for c in kb.criteria.values())
    assert checker.texts_checked["questions.options"] == sum(len(q.options) for q in kb.questions.values())


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def numbers(text: str) -> Counter:
    return Counter(n.replace(",", "") for n in _NUMBER.findall(text))


def test_no_chinese_text_drops_or_changes_a_number_of_its_english_twin(kb):
    """The numbers of an English text (figures, article numbers, model sizes) all appear in its Chinese twin: a
    translation says the same thing, so a figure that differs is a translation error. The Chinese may add numbers
    (April is 4 月)."""
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


def remove(path: Path, pattern: str) -> None:
    """Remove the first match of ``pattern`` from the file (it must match)."""
    text = path.read_text("utf-8")
    changed = re.sub(pattern, "", text, count=1, flags=re.MULTILINE)
    assert changed != text, pattern
    path.write_text(changed, "utf-8")


def test_each_missing_twin_of_the_bundled_knowledge_is_refused_at_its_own_line(knowledge_copy: Path):
    """Four twins removed in a copy of the bundled knowledge (one load: each check reports on its own): a block
    field, a field inside a one-line record, a rubric level and, the reverse, an English text removed."""
    criteria = knowledge_copy / "criteria.yaml"
    metrics = knowledge_copy / "metrics.yaml"
    entities = knowledge_copy / "entities" / "extra_000.yaml"
    remove(criteria, r"^    description_zh: .*\n")  # the first: dimension `performance`
    remove(metrics, r", label_zh: 延迟")
    remove(criteria, r', text_zh: "只支持 CPU。"')
    remove(entities, r"^    description_en: .*\n")
    kb, issues = knowledge.collect(knowledge_copy)
    assert kb is None
    found = sorted((i.file, i.line, i.record, i.message) for i in errors(issues))
    assert found == sorted(
        [
            (
                "knowledge/criteria.yaml",
                line_number(criteria, "    description_en: "),
                "performance",
                "`description_en` has no Chinese twin: add `description_zh` beside it",
            ),
            (
                "knowledge/metrics.yaml",
                line_number(metrics, "{id: latency_ms,"),
                "latency_ms",
                "`label_en` has no Chinese twin: add `label_zh` beside it",
            ),
            (
                "knowledge/criteria.yaml",
                line_number(criteria, '"CPU only."'),
                "rating-mobile-acceleration",
                "`text_en` has no Chinese twin: add `text_zh` beside it",
            ),
            (
                "knowledge/entities/extra_000.yaml",
                line_number(entities, "description_zh"),
                "ai-framework-comparison-000",
                "`description_zh` has no English twin: add `description_en` beside it",
            ),
        ]
    )
    first = next(i for i in issues if i.record == "performance")
    assert str(first) == (
        f"ERROR knowledge/criteria.yaml:{first.line} record `performance`: `description_en` has no Chinese twin: "
        "add `description_zh` beside it"
    )


USER_FILE = """\
entities:
  - id: {id}
    name: My NPU
    kind: accelerator
    segment: edge
    description_en: Our own accelerator.
"""


def test_a_users_file_without_chinese_is_warned_not_refused():
    english = Upload("mine.yaml", USER_FILE.format(id="my-npu").encode())
    both = USER_FILE.format(id="my-other-npu") + "    description_zh: 我们自己的加速器。\n"
    kb, issues = knowledge.collect(KNOWLEDGE, [english, Upload("both.yaml", both.encode())])
    assert kb is not None and {"my-npu", "my-other-npu"} <= set(kb.entities)
    [warning] = [i for i in issues if i.file in ("mine.yaml", "both.yaml")]
    assert (warning.level, warning.file, warning.line, warning.record) == ("WARNING", "mine.yaml", 6, "my-npu")
    assert warning.message == (
        "`description_en` has no Chinese twin: add `description_zh` beside it (the app shows the other language's "
        "text meanwhile)"
    )

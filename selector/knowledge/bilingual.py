"""The knowledge's texts in both languages: which Chinese field twins each English one, and the rule that a record
carrying one carries the other (an ERROR in the bundled knowledge, a WARNING in a user's own file).

The Chinese stands next to the English in the same record (``description_en`` / ``description_zh``), so a reader of
either language sees the same record, and a missing twin is found where it is missing. Proper names are not twinned:
an entity's ``name`` is written as its vendor writes it, and ``name_zh`` is given only where a Chinese name exists.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from selector.issues import Issue, Level

Pair = tuple[str, str]

#: Section -> its (English field, Chinese twin) pairs.
TWINS: Mapping[str, tuple[Pair, ...]] = MappingProxyType(
    {
        "entities": (("description_en", "description_zh"),),
        "dimensions": (("name_en", "name_zh"), ("description_en", "description_zh")),
        "criteria": (("name_en", "name_zh"), ("description_en", "description_zh"), ("unit", "unit_zh")),
        "groups": (("name_en", "name_zh"), ("description_en", "description_zh"), ("rationale_en", "rationale_zh")),
        "questions": (("text_en", "text_zh"),),
        "rules": (("rationale_en", "rationale_zh"),),
        "metrics": (("label_en", "label_zh"),),
    }
)
#: Section -> (list field of records nested in each record, their pairs): a criterion's rubric levels, a question's
#: answers.
NESTED: Mapping[str, tuple[str, tuple[Pair, ...]]] = MappingProxyType(
    {
        "criteria": ("rubric", (("text_en", "text_zh"),)),
        "questions": ("options", (("label_en", "label_zh"),)),
    }
)
#: Twins that may be written without a Chinese character: a unit such as W, GB or tokens/s reads the same in both.
SYMBOLS_ALLOWED = frozenset({"unit_zh"})

_CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def is_chinese(text: str) -> bool:
    """True when ``text`` holds at least one Chinese (CJK unified ideograph) character."""
    return _CHINESE.search(text) is not None


def problems(record: Any, pairs: Iterable[Pair]) -> list[tuple[str, str]]:
    """(field at fault, what to do) for each pair of ``record`` with one text and not the other, or with a Chinese
    twin that holds no Chinese."""
    found = []
    for english, chinese in pairs:
        en, zh = getattr(record, english), getattr(record, chinese)
        if en is not None and zh is None:
            found.append((english, f"`{english}` has no Chinese twin: add `{chinese}` beside it"))
        elif zh is not None and en is None:
            found.append((chinese, f"`{chinese}` has no English twin: add `{english}` beside it"))
        elif zh is not None and chinese not in SYMBOLS_ALLOWED and not is_chinese(zh):
            found.append((chinese, f"`{chinese}` holds no Chinese character: write the Chinese text"))
    return found


def check(content: Any, line_of: Callable[[tuple], int | None], name: str, user: bool) -> tuple[list[Issue], Counter]:
    """Every record of one file's ``content`` (a :class:`selector.knowledge.models.KnowledgeFile`) with twinned texts,
    checked.

    Returns the issues, each on the line of the field at fault (``line_of``: path -> line), and the records checked
    by kind: the sections, plus ``criteria.rubric`` and ``questions.options`` for the nested records. A bundled
    file's missing twin is an ERROR; a user's (``user``) a WARNING, as the page then shows the other language's text.
    """
    level: Level = "WARNING" if user else "ERROR"
    why = " (the app shows the other language's text meanwhile)" if user else ""
    issues: list[Issue] = []
    checked: Counter = Counter()
    for section, pairs in TWINS.items():
        for index, record in enumerate(getattr(content, section)):
            checked[section] += 1
            found = [((section, index), field, message) for field, message in problems(record, pairs)]
            if section in NESTED:
                field, inner = NESTED[section]
                items = getattr(record, field)
                checked[f"{section}.{field}"] += len(items)
                for position, item in enumerate(items):
                    found += [((section, index, field, position), f, m) for f, m in problems(item, inner)]
            issues += [
                Issue(level, name, line_of((*path, at)), record.id, message + why) for path, at, message in found
            ]
    return issues, checked

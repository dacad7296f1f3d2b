"""The knowledge's texts in both languages: which Chinese field twins each English one, and the rule that a record
carrying one carries the other (an ERROR in the bundled knowledge, a WARNING in a user's own file).

The Chinese stands next to the English in the same record (``description_en`` / ``description_zh``), so a reader of
either language sees the same record, and a missing twin is found where it is missing. Proper names are not twinned:
an entity's ``name`` is written as its vendor writes it, and ``name_zh`` is given only where a Chinese name exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from selector.issues import Issue, Level

if TYPE_CHECKING:  # crosscheck imports this module
    from selector.crosscheck import Loaded

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


def check(files: Iterable[Loaded]) -> tuple[list[Issue], dict[str, int]]:
    """Every record of ``files`` with twinned texts, checked; returns the issues and the records checked by kind.

    Kinds are the sections, plus ``criteria.rubric`` and ``questions.options`` for the nested records. A bundled
    file's missing twin is an ERROR; a user's is a WARNING (the page then shows the other language's text).
    """
    issues: list[Issue] = []
    checked: dict[str, int] = {}
    for loaded in files:
        level: Level = "WARNING" if loaded.user else "ERROR"
        why = " (the app shows the other language's text meanwhile)" if loaded.user else ""
        for section, pairs in TWINS.items():
            for index, record in enumerate(getattr(loaded.content, section)):
                here: tuple = (section, index)
                found = [(here, f, m) for f, m in problems(record, pairs)]
                checked[section] = checked.get(section, 0) + 1
                if section in NESTED:
                    field, inner = NESTED[section]
                    kind = f"{section}.{field}"
                    for position, item in enumerate(getattr(record, field)):
                        found += [((*here, field, position), f, m) for f, m in problems(item, inner)]
                        checked[kind] = checked.get(kind, 0) + 1
                for path, at, message in found:
                    line = loaded.parsed.line_of((*path, at))
                    issues.append(Issue(level, loaded.name, line, record.id, message + why))
    return issues, checked

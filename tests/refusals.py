"""The check every refusal's unit test makes (issue 36): its English text is what it was, and said in Chinese it
is Chinese, with the user's values (names, numbers, ids) as they are and no English sentence left."""

from __future__ import annotations

import re
from collections.abc import Iterable

from selector import i18n

HAN = re.compile(r"[\u4e00-\u9fff]")
# four English words in a row: a sentence the catalog did not translate (ids, units and numbers are shorter)
ENGLISH_RUN = re.compile(r"(?<![\w/-])[A-Za-z]+(?: [A-Za-z]+){3,}")


def said_in_both(error: Exception, english: str, values: Iterable[str]) -> str:
    """Assert `error`'s text is `english` and its message said in Chinese keeps `values`; the Chinese."""
    assert str(error) == english
    chinese = i18n.stored(error.message, "zh")
    assert HAN.search(chinese), chinese
    assert not ENGLISH_RUN.search(chinese), chinese
    for value in values:
        assert value in chinese, (value, chinese)
    return chinese

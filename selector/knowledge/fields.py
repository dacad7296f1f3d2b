"""The field types every knowledge record is built from, and the base record: ids, texts, names, numbers, paths.

Each type carries its rule (an id's pattern, a name's plain-text policy, a number never written as text), so a
model declares what a field is and the rule follows.
"""

from __future__ import annotations

import re
import sys
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, StringConstraints

#: The smallest positive normal float: below it numbers are subnormal (5e-324 ...) and arithmetic on them fails.
SMALLEST_NORMAL = sys.float_info.min

ID_PATTERN = r"^[a-z0-9][a-z0-9_.\-]*$"
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=80)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]
ShortText = Annotated[str, StringConstraints(min_length=1, max_length=200)]


def _number_not_bool_or_text(value: object) -> object:
    # pydantic's lax mode reads `true` as 1 and '40' as 40: a weight or value must be written as a number.
    if isinstance(value, bool):
        raise ValueError(f"`{str(value).lower()}` is a boolean, not a number; write the number (1 or 0, if meant)")
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        raise ValueError(f"'{shown}' is text, not a number; write digits such as 40 or 0.5, without quotes")
    return value


#: A number as YAML writes one (int or float): never a boolean or quoted text.
Number = Annotated[float, BeforeValidator(_number_not_bool_or_text)]
Count = Annotated[int, BeforeValidator(_number_not_bool_or_text)]

# Names are shown in HTML, Markdown and spreadsheets; they are escaped there, but a name made of markup is
# almost certainly an attack or a paste accident, so it is refused at the door as well.
_MARKUP = re.compile(r"[<>]|javascript:", re.IGNORECASE)


class Record(BaseModel):
    """Base of every record: unknown keys are errors and a loaded record never changes."""

    # allow_inf_nan=False: YAML reads 1.0e+400 as infinity; no weight, scale or value may be infinite or NaN.
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, allow_inf_nan=False)


def _no_markup(value: str | None) -> str | None:
    if value is not None and _MARKUP.search(value):
        raise ValueError("must be plain text: remove '<', '>' and 'javascript:'")
    return value


# A name is shown in tables, terminals and spreadsheet exports, where a line break forges a row, an escape sequence
# rewrites a terminal and a leading `=`, `+`, `-` or `@` runs as a formula: every name is refused such characters.
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@")


def _plain_name(value: str) -> str:
    if _NAME_CONTROL.search(value):
        raise ValueError(
            "a name must be one line of plain text: remove line breaks, tabs and control characters "
            f"(found U+{ord(_NAME_CONTROL.search(value).group()):04X})"
        )
    if value.startswith(_FORMULA_START):
        raise ValueError(
            f"a name must not start with `{value[0]}`, which a spreadsheet runs as a formula; start it with a letter "
            "or digit"
        )
    _no_markup(value)
    return value


#: A name or title: one line, no markup, no formula prefix (entity, group, criterion, dimension, source, option).
Name = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_plain_name)]
#: A source's title: the same rule as a name, but as long as a text (a benchmark run's title says what ran).
Title = Annotated[str, StringConstraints(min_length=1, max_length=4000), AfterValidator(_plain_name)]


# `owner/name@<40 hex>:path`: where upstream a bundled raw file came from, pinned to a commit; or, for a service
# that has no commits (a package index's API), `https://host/path@YYYY-MM-DD`: the address, pinned to the day
# its answers were fetched.
UPSTREAM_PATTERN = (
    r"^(?:[A-Za-z0-9][A-Za-z0-9_.\-]*/[A-Za-z0-9][A-Za-z0-9_.\-]*@[0-9a-f]{40}:[^\s]+"
    r"|https://[A-Za-z0-9][A-Za-z0-9.\-]*/[^\s@]*@[0-9]{4}-[0-9]{2}-[0-9]{2})$"
)
Upstream = Annotated[str, StringConstraints(pattern=UPSTREAM_PATTERN, max_length=300)]
IsoDate = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
# A path inside knowledge/imports/raw/: relative, every part starting with a letter, digit or `_` (so no `..`
# and no absolute path), no backslashes, so a locator cannot point outside it.
RawPath = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*(/[A-Za-z0-9_][A-Za-z0-9_.\-]*)*$", max_length=300)
]

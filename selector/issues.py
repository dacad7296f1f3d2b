"""What is wrong and where: :class:`Issue` (level, file, line, record, message), and pydantic's schema errors as
issues, in one place for every file a user or the knowledge holds.

An issue says what to fix in words a user acts on; every reader (YAML, CSV, profiles, benchmark outputs, the
knowledge loader) returns them, collected rather than raised half-way, so a user sees every problem at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # every reader imports this module; pydantic is loaded only by those that validate
    from pydantic import ValidationError

Level = Literal["ERROR", "WARNING"]


@dataclass(frozen=True)
class Issue:
    """One problem found in the knowledge: where it is and what to do about it."""

    level: Level
    file: str
    line: int | None
    record: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        who = f" record `{self.record}`" if self.record else ""
        return f"{self.level} {where}{who}: {self.message}"


def schema_issues(
    exc: ValidationError,
    name: str,
    line_of: Callable[[tuple], int | None],
    unknown_key_hint: str,
    records: dict | None = None,
    whole: str = "",
    limit: int | None = None,
) -> list[Issue]:
    """A pydantic validation error of a parsed file as issues, each on the line of the value it concerns.

    Parameters
    ----------
    exc
        The error of ``Model.model_validate(parsed data)``.
    name
        The file name the issues carry.
    line_of
        Path (tuple of keys and list indexes) -> line (:meth:`selector.io.yamlio.Parsed.line_of`).
    unknown_key_hint
        What an unknown key's message says after naming it (which keys the file may hold).
    records
        The parsed data when it holds lists of records (a knowledge file): an issue then names the record's id and
        the field inside the record. Without it (a profile), the field is named by its whole path.
    whole
        How a value without a path is named (e.g. ``profile``).
    limit
        List at most this many, then one issue counting the rest (a file of thousands of broken records has
        thousands of errors); None lists all.
    """
    errors = exc.errors(include_url=False, include_input=False)
    found = []
    for err in errors[:limit]:
        loc = tuple(err["loc"])
        message = _message(err, records is not None, unknown_key_hint, whole)
        found.append(Issue("ERROR", name, line_of(loc), _record(records, loc), message))
    more = len(errors) - len(found)
    if more > 0:
        found.append(Issue("ERROR", name, None, None, f"and {more:,} more schema error(s) not listed"))
    return found


def _record(records: dict | None, loc: tuple) -> str | None:
    """The id of the record at ``loc[:2]`` (section, index) of a knowledge file, when it has one."""
    if not isinstance(records, dict) or len(loc) < 2:
        return None
    section = records.get(loc[0])
    if isinstance(section, list) and isinstance(loc[1], int) and loc[1] < len(section):
        item = section[loc[1]]
        # A scenario link is named by its entity: it has no id of its own.
        ident = item.get("id", item.get("entity")) if isinstance(item, dict) else None
        return ident if isinstance(ident, str) else None
    return None


def _message(err: dict, in_records: bool, unknown_key_hint: str, whole: str) -> str:
    loc = tuple(err["loc"])
    path = ".".join(str(p) for p in loc)
    if in_records:
        field, key = ".".join(str(p) for p in loc[2:]) or path, loc[-1] if loc else ""
    else:
        field = key = path or whole
    if err["type"] == "extra_forbidden":
        return f"unknown key `{key}`; {unknown_key_hint}"
    if err["type"] == "missing":
        return f"missing required key `{key}`"
    if err["type"] == "finite_number" and in_records:
        return f"`{field}` must be a finite number (not NaN or infinity; YAML reads 1.0e+309 and above as infinity)"
    return f"`{field}`: {err['msg']}"

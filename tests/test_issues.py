"""Tests of selector/issues.py: an issue's text, and pydantic's schema errors as issues on their lines."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from selector.io.yamlio import parse_yaml
from selector.issues import Issue, schema_issues


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    id: str
    value: float = 0.0


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[_Item] = []


def _error(text: str) -> tuple[ValidationError, object]:
    parsed, problems = parse_yaml(text.encode(), "f.yaml")
    assert parsed is not None, problems
    with pytest.raises(ValidationError) as caught:
        _File.model_validate(parsed.data)
    return caught.value, parsed


def test_an_issue_reads_level_place_record_and_message() -> None:
    assert str(Issue("ERROR", "f.yaml", 3, "r-1", "fix it")) == "ERROR f.yaml:3 record `r-1`: fix it"
    assert str(Issue("WARNING", "f.yaml", None, None, "look")) == "WARNING f.yaml: look"


def test_in_a_file_of_records_an_issue_names_the_record_and_the_field_inside_it() -> None:
    exc, parsed = _error("items:\n  - id: a\n    value: fast\n  - id: b\n    extra: 1\n  - value: 2\n")
    found = schema_issues(exc, "f.yaml", parsed.line_of, "see the schema", records=parsed.data)
    assert [(i.line, i.record, i.message) for i in found] == [
        (3, "a", "`value`: Input should be a valid number, unable to parse string as a number"),
        (5, "b", "unknown key `extra`; see the schema"),
        (6, None, "missing required key `id`"),
    ]


def test_in_a_single_document_an_issue_names_the_whole_path() -> None:
    exc, parsed = _error("items:\n  - id: a\n    extra: 1\nother: 2\n")
    found = schema_issues(exc, "p.yaml", parsed.line_of, "a file has items", whole="file")
    assert [(i.line, i.record, i.message) for i in found] == [
        (3, None, "unknown key `items.0.extra`; a file has items"),
        (4, None, "unknown key `other`; a file has items"),
    ]


def test_past_the_limit_one_issue_counts_the_rest() -> None:
    exc, parsed = _error("items:\n" + "  - {}\n" * 5)
    found = schema_issues(exc, "f.yaml", parsed.line_of, "", records=parsed.data, limit=2)
    assert len(found) == 3
    assert found[-1] == Issue("ERROR", "f.yaml", None, None, "and 3 more schema error(s) not listed")

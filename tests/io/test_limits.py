"""Tests of selector/io/limits.py and the caps it sets on a user's files: values, records, issues, checks at once, and
one parse per input (issue 19). The cost of the worst input within the caps is measured by
benchmarks/bench_limits.py, not here."""

from __future__ import annotations

import pytest

from selector import issues, profile
from selector.io import limits, yamlio
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.uploads import csv_claims, intake
from tests.check_slots import every_check_slot_held
from tests.conftest import KNOWLEDGE
from tests.full_csv import full_csv

SOURCE = "sources: [{id: user-x, kind: user, title_en: x}]\n"


def _values(data: bytes) -> int:
    parsed, issues = yamlio.parse_yaml(data, "x.yaml")
    assert parsed is not None, issues
    return len(parsed.lines)


def test_values_per_row_is_what_a_full_csv_row_becomes() -> None:
    ten, twenty = (csv_claims.convert(full_csv(n), "x.csv").yaml for n in (10, 20))
    assert (_values(twenty) - _values(ten)) / 10 == limits.VALUES_PER_ROW
    overhead = _values(ten) - 10 * limits.VALUES_PER_ROW  # the source record and the lists
    assert limits.MAX_CSV_ROWS * limits.VALUES_PER_ROW + overhead <= limits.MAX_UPLOAD_VALUES


@pytest.mark.slow
def test_a_file_with_more_values_than_the_cap_stops_while_it_is_composed() -> None:
    count = limits.MAX_UPLOAD_VALUES + 10
    data = (SOURCE + "claims:\n  - about: [" + "0, " * count + "0]\n").encode()
    parsed, issues = knowledge.parse("many.yaml", data, 2_000_000, True)
    assert parsed is None
    assert [(i.line, f"more than {limits.MAX_UPLOAD_VALUES:,} values" in i.message) for i in issues] == [(3, True)]
    # the bundled knowledge's own cap is larger: the same bytes read as a bundled file are parsed
    assert knowledge.parse("many.yaml", data, 2_000_000, False)[0] is not None


def test_a_list_with_more_records_than_the_cap_is_refused_before_the_schema() -> None:
    data = (SOURCE + "claims:\n" + "  - {}\n" * (limits.MAX_RECORDS + 1)).encode()
    result = intake.validate_upload("crowded.yaml", data, KNOWLEDGE)
    assert not result.ok
    assert [i.message for i in result.errors] == [
        f"`claims` holds {limits.MAX_RECORDS + 1:,} records; an upload holds at most "
        f"{limits.MAX_RECORDS:,} per list: split the file"
    ]
    kb, issues = knowledge.collect(KNOWLEDGE, extra=[Upload("crowded.yaml", data)])
    assert kb is None and any("holds 2,001 records" in i.message and i.line == 3 for i in issues)


def test_thousands_of_broken_records_list_the_first_issues_and_count_the_rest() -> None:
    data = (SOURCE + "claims:\n" + "  - {}\n" * limits.MAX_RECORDS).encode()
    result = intake.validate_upload("empty.yaml", data, KNOWLEDGE)
    assert not result.ok
    assert len(result.issues) == limits.MAX_ISSUES + 1
    assert result.issues[-1].message.startswith("and ") and "more problem(s) not listed" in result.issues[-1].message
    assert all(i.line is not None for i in result.issues[:-1])


def test_capped_keeps_short_lists_and_puts_errors_first() -> None:
    warn = issues.Issue("WARNING", "f", 1, None, "w")
    err = issues.Issue("ERROR", "f", 2, None, "e")
    assert limits.capped([warn, err]) == [warn, err]
    out = limits.capped([warn] * 3 + [err] * 3, limit=2)
    assert out[:2] == [err, err]
    assert (out[2].level, out[2].message) == ("ERROR", "and 4 more problem(s) not listed; fix those above first")


def test_checks_beyond_the_slots_wait_then_say_the_server_is_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    with every_check_slot_held(monkeypatch):  # an upload's check then waits 0.05 s (30 s in the app)
        with pytest.raises(limits.Busy, match="checking other files"), limits.checking():
            pass
        result = intake.validate_upload("x.csv", b"entity,metric,value,unit\njetson-orin,power_w,40,W\n", KNOWLEDGE)
        assert not result.ok and "try again" in result.errors[0].message
    with limits.checking(wait_s=0.05):
        pass


def test_an_upload_is_parsed_once_from_its_check_to_the_merged_knowledge(monkeypatch) -> None:
    calls: list[str] = []
    real = knowledge.parse_yaml

    def counting(raw, name, *args, **kwargs):  # noqa: ANN001, ANN202
        calls.append(name)
        return real(raw, name, *args, **kwargs)

    monkeypatch.setattr(knowledge, "parse_yaml", counting)
    data = (SOURCE.replace("user-x", "user-once") + "entities: [{id: once-npu, name: Once, kind: tool}]\n").encode()
    result = intake.validate_upload("once.yaml", data, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    knowledge.collect(KNOWLEDGE, extra=[result.upload])
    assert calls.count("once.yaml") == 1


def test_a_link_cannot_inflate_past_its_decompressed_cap() -> None:
    text = SOURCE + "claims: [" + "{}," * (profile.MAX_LINK_DECOMPRESSED_BYTES // 3) + "{}]\n"
    assert profile.encode_uploads((profile.EmbeddedUpload(name="x.yaml", text=text),)) is None
    import base64
    import json
    import zlib

    payload = json.dumps([{"name": "x.yaml", "text": text}]).encode()
    data = base64.urlsafe_b64encode(zlib.compress(payload, 9)).rstrip(b"=").decode()
    assert len(data) <= profile.MAX_LINK_DATA_CHARS, "a small link"
    with pytest.raises(profile.ProfileError, match=f"more than {profile.MAX_LINK_DECOMPRESSED_BYTES:,} bytes"):
        profile.decode_uploads(data)


def test_a_csv_upload_is_never_parsed_as_yaml_from_its_check_to_the_merged_knowledge(monkeypatch) -> None:
    calls: list[str] = []
    real = knowledge.parse_yaml

    def counting(raw, name, *args, **kwargs):  # noqa: ANN001, ANN202
        calls.append(name)
        return real(raw, name, *args, **kwargs)

    monkeypatch.setattr(knowledge, "parse_yaml", counting)
    data = b"id,entity,metric,value,unit\nc-0,jetson-orin,power_w,40,W\nc-1,edge-tpu,power_w,2,W\n"
    result = intake.validate_upload("never.csv", data, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    kb, issues = knowledge.collect(KNOWLEDGE, extra=[result.upload])
    assert kb is not None, [str(i) for i in issues]
    assert "never.csv" not in calls
    assert kb.locations[("claims", "c-1")] == "never.csv:3", "a converted record is located on its CSV line"

"""The one reader of ``key=value`` pairs: order kept, empty parts skipped, malformed pairs and repeated keys refused
with the caller's error, strict or lenient."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.io.pairs import parse_pairs


class Refused(ValueError):
    pass


def test_pairs_are_read_in_order_stripped_and_empty_parts_skipped() -> None:
    assert parse_pairs(" b = 2 ,, a=1,", "x", Refused) == {"b": "2", "a": "1"}
    assert list(parse_pairs("z=1,a=2", "x", Refused)) == ["z", "a"]
    assert parse_pairs(None, "x", Refused) == {} == parse_pairs("", "x", Refused)


@pytest.mark.parametrize("text", ["a", "=1", "a=", " = ", "a=1,b"])
def test_a_malformed_pair_is_refused_with_the_callers_error_and_form(text) -> None:
    with pytest.raises(Refused, match=r"^answers: `.*` is not of the form field=value$"):
        parse_pairs(text, "answers", Refused, form="field=value")


def test_a_repeated_key_is_read_once_when_lenient_and_refused_when_strict() -> None:
    assert parse_pairs("a=1,a=1", "x", Refused) == {"a": "1"}
    with pytest.raises(Refused, match=r"`a` is given twice \(`1` and `2`\); give each key once"):
        parse_pairs("a=1,a=2", "x", Refused)
    with pytest.raises(Refused, match=r"`a` is given twice .* give each field once"):
        parse_pairs("a=1,a=1", "x", Refused, strict=True, noun="field")


def test_the_key_function_decides_what_counts_as_the_same_key() -> None:
    read = {"key": lambda k: k.lower().replace("_", "-"), "strict": True}
    assert parse_pairs("Kv_Heads=8", "w", Refused, **read) == {"kv-heads": "8"}
    with pytest.raises(Refused, match="`kv-heads` is given twice"):
        parse_pairs("kv_heads=8,KV-HEADS=8", "w", Refused, **read)


@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True), st.from_regex(r"[a-z0-9.]{1,6}", fullmatch=True)
    )
)
def test_written_pairs_read_back(pairs) -> None:
    text = ",".join(f"{k}={v}" for k, v in pairs.items())
    assert parse_pairs(text, "x", Refused, strict=True) == pairs

"""Property tests of every reader on random and mutated input: a valid result or a list of issues, never an exception,
within bounded time and memory (knowledge loader, uploads as YAML and CSV, profiles, the shareable link's data)."""

from __future__ import annotations

import base64
import json
import time
import tracemalloc
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector import profile
from selector.io import yamlio
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE
from tests.examples import examples

SEEDS = {
    "yaml": (FIXTURES / "uploads" / "good_new_chip.yaml").read_bytes(),
    "csv": (FIXTURES / "uploads" / "good_orin_override.csv").read_bytes(),
    "profile": profile.dump(
        profile.make(
            profile.Preferences(group="edge-accelerators", dimension_weights={"performance": 50}),
            uploads=[Upload("orin.csv", (FIXTURES / "uploads" / "good_orin_override.csv").read_bytes())],
        )
    ).encode(),
}
# What hostile input is made of: YAML and CSV syntax, YAML 1.1 forms, hidden characters, broken UTF-8, big numbers.
PIECES = [
    b"\x00",
    b"\x1b[2J",
    "\u202e".encode(),
    "\u200b".encode(),
    b"\xff\xfe",
    b"\xe9",
    b"? [a, b]\n: 1\n",
    b"&a [1]",
    b"*a",
    b"!!binary aGk=",
    b"!!python/object:os.system",
    b"017",
    b"0x1F",
    b"1_000",
    b"1:20",
    b"1e3",
    b"1.0e+308",
    b".nan",
    b"true",
    b"no",
    b"~",
    b"<<: *a",
    b"[" * 40,
    b"{",
    b"'",
    b'"',
    b"\t",
    b"\r\n",
    b"\n  - ",
    b": ",
    b",",
    b";",
    b"=1+1",
    b"<script>",
    b"2024-01-01",
]
#: Per example: the heaviest reader (an upload checked against the whole knowledge) takes well under a second.
MAX_SECONDS = 30
MAX_PEAK_BYTES = 300_000_000


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    """`seed` with a few bytes replaced, deleted or inserted (pieces of hostile syntax or random bytes)."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        piece = draw(st.sampled_from(PIECES) | st.binary(min_size=1, max_size=8))
        op = draw(st.sampled_from(["insert", "replace", "delete"]))
        if op == "insert":
            data[at:at] = piece
        elif op == "replace":
            data[at : at + len(piece)] = piece
        else:
            del data[at : at + draw(st.integers(1, 20))]
    return bytes(data)


def _bounded(fn):  # noqa: ANN001, ANN202
    """Run `fn`, failing if it took longer than MAX_SECONDS or allocated more than MAX_PEAK_BYTES at its peak."""
    tracemalloc.start()
    start = time.monotonic()
    try:
        return fn()
    finally:
        elapsed = time.monotonic() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert elapsed < MAX_SECONDS, f"{elapsed:.1f} s"
        assert peak < MAX_PEAK_BYTES, f"{peak:,} bytes at the peak"


SETTINGS = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
any_bytes = st.binary(max_size=400)


@pytest.mark.parametrize("loader", yamlio.LOADERS)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.one_of(any_bytes, mutated(SEEDS["yaml"]), mutated(SEEDS["profile"])))
def test_the_yaml_reader_returns_data_or_issues(loader: str, data: bytes) -> None:
    parsed, issues = _bounded(lambda: yamlio.parse_yaml(data, "x.yaml", loader=loader))
    assert (parsed is None) == bool(issues)
    assert all(i.level == "ERROR" and i.file == "x.yaml" and i.message for i in issues)


@SETTINGS
@given(data=st.one_of(any_bytes, mutated(SEEDS["yaml"])), name=st.sampled_from(["x.yaml", "x.csv", "x"]))
def test_an_upload_is_accepted_or_refused_with_issues(data: bytes, name: str) -> None:
    result = _bounded(lambda: intake.validate_upload(name, data, KNOWLEDGE))
    assert result.ok or result.errors
    assert all(i.message and i.file for i in result.issues)


@SETTINGS
@given(data=st.one_of(any_bytes, mutated(SEEDS["csv"])))
def test_a_csv_upload_is_accepted_or_refused_with_issues(data: bytes) -> None:
    result = _bounded(lambda: intake.validate_upload("x.csv", data, KNOWLEDGE))
    assert result.ok or result.errors
    assert all(i.message and i.file == "x.csv" for i in result.issues)


@pytest.mark.slow
@SETTINGS
@given(data=st.one_of(any_bytes, mutated(SEEDS["yaml"])))
def test_the_knowledge_loader_returns_knowledge_or_issues(data: bytes) -> None:
    kb, issues = _bounded(lambda: knowledge.collect(KNOWLEDGE, extra=[Upload("x.yaml", data)]))
    assert kb is not None or any(i.level == "ERROR" for i in issues)


@SETTINGS
@given(data=st.one_of(any_bytes, mutated(SEEDS["profile"])))
def test_a_profile_loads_or_is_refused_with_issues(data: bytes) -> None:
    try:
        loaded = _bounded(lambda: profile.load(data, KNOWLEDGE, name="p.yaml"))
    except profile.ProfileError as exc:
        assert exc.issues and all(i.message for i in exc.issues)
        assert all("p.yaml" in i.file for i in exc.issues if i.file != profile.LINK_NAME)
    else:
        assert isinstance(loaded, profile.Profile)


def _link_data(payload: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(payload)).rstrip(b"=").decode()


@SETTINGS
@given(
    data=st.one_of(
        st.text(max_size=200),
        any_bytes.map(_link_data),
        mutated(SEEDS["csv"]).map(
            lambda b: _link_data(json.dumps([{"name": "x.csv", "text": b.decode("utf-8", "replace")}]).encode())
        ),
    )
)
def test_a_links_data_is_read_or_refused_with_issues(data: str) -> None:
    try:
        loaded = _bounded(lambda: profile.from_link_params({"group": "edge-accelerators", "data": data}))
    except profile.ProfileError as exc:
        assert exc.issues and all(i.message for i in exc.issues)
    else:
        assert isinstance(loaded, profile.Profile)

"""The parse cache: a bundled file that parsed cleanly is read back by the next process, exactly as parsed."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.io import parse_cache, yamlio
from selector.knowledge import loading as knowledge
from tests.conftest import KNOWLEDGE

CLAIMS = KNOWLEDGE / "claims" / "000.yaml"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SELECTOR_CACHE_DIR", str(folder))
    return folder


def test_a_kept_parse_is_the_parse(cache):
    raw = CLAIMS.read_bytes()
    parsed, issues = yamlio.parse_yaml(raw, "claims/000.yaml")
    assert parsed is not None and not issues
    assert parse_cache.load("claims/000.yaml", raw, 10**7, 10**6) is None
    parse_cache.store("claims/000.yaml", raw, 10**7, 10**6, parsed)
    kept = parse_cache.load("claims/000.yaml", raw, 10**7, 10**6)
    assert kept.data == parsed.data and kept.lines == parsed.lines
    assert kept.line_of(("claims", 3, "quote")) == parsed.line_of(("claims", 3, "quote"))
    assert [p.suffix for p in cache.iterdir()] == [".json"]  # JSON, one entry per file, no temporary left


def test_changed_bytes_or_limits_are_parsed_afresh(cache):
    raw = CLAIMS.read_bytes()
    parse_cache.store("claims/000.yaml", raw, 10**7, 10**6, yamlio.parse_yaml(raw, "claims/000.yaml")[0])
    assert parse_cache.load("claims/000.yaml", raw + b"\n", 10**7, 10**6) is None
    assert parse_cache.load("claims/000.yaml", raw, 10**7, 10) is None
    assert parse_cache.load("claims/001.yaml", raw, 10**7, 10**6) is None


def test_off_keeps_nothing_and_an_unwritable_folder_is_skipped(tmp_path, monkeypatch):
    raw = CLAIMS.read_bytes()
    parsed = yamlio.parse_yaml(raw, "x.yaml")[0]
    monkeypatch.setenv("SELECTOR_CACHE_DIR", "off")
    parse_cache.store("x.yaml", raw, 10**7, 10**6, parsed)
    assert parse_cache.load("x.yaml", raw, 10**7, 10**6) is None
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SELECTOR_CACHE_DIR", str(blocked / "cache"))
    parse_cache.store("x.yaml", raw, 10**7, 10**6, parsed)  # no error: the cache is an optimisation
    assert parse_cache.load("x.yaml", raw, 10**7, 10**6) is None


def test_a_corrupt_entry_is_a_miss(cache):
    raw = CLAIMS.read_bytes()
    parse_cache.store("c.yaml", raw, 10**7, 10**6, yamlio.parse_yaml(raw, "c.yaml")[0])
    (entry,) = cache.iterdir()
    entry.write_text('{"key": ', encoding="utf-8")
    assert parse_cache.load("c.yaml", raw, 10**7, 10**6) is None


@pytest.mark.slow
def test_the_next_process_loads_the_same_knowledge_without_parsing_yaml(cache, monkeypatch):
    knowledge.parse.cache_clear()
    first, issues = knowledge.collect(KNOWLEDGE)
    assert first is not None and not [i for i in issues if i.level == "ERROR"]
    knowledge.parse.cache_clear()  # as a new process would start

    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003
        raise AssertionError("parsed YAML although every bundled file was kept")

    monkeypatch.setattr(knowledge, "parse_yaml", refuse)
    again, _ = knowledge.collect(KNOWLEDGE)
    assert again.data_hash == first.data_hash
    assert again.claims == first.claims and again.groups == first.groups
    knowledge.parse.cache_clear()


def test_a_file_with_issues_is_not_kept(cache):
    bad = b"claims:\n  - id: x\n    value: 1e3\n"
    knowledge.parse.cache_clear()
    _, issues = knowledge.parse("bad.yaml", bad, 10**6, False)
    assert issues
    assert not cache.exists() or not list(cache.iterdir())
    knowledge.parse.cache_clear()

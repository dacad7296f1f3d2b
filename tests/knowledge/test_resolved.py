"""Kept locator answers: what a later process reads back equals resolving the raw snapshot afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge import locators, resolved
from selector.knowledge.locators import RawError, Snapshots, convert
from tests.conftest import KNOWLEDGE


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SELECTOR_CACHE_DIR", str(folder))
    resolved._IN_PROCESS.clear()
    yield folder
    resolved._IN_PROCESS.clear()


def _as_a_new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process resolved and refuse to read any snapshot: every answer must come from the disk."""
    resolved._IN_PROCESS.clear()

    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003
        raise AssertionError("read a raw snapshot although its answers were kept")

    monkeypatch.setattr(locators, "read_table", refuse)


def _dataset_locators(kb) -> list:  # noqa: ANN001
    return [(c, kb.sources[c.source]) for c in kb.claims.values() if c.locator is not None]


@pytest.mark.slow
def test_kept_answers_equal_a_fresh_resolution_of_every_bundled_locator(cache, monkeypatch):
    kb, issues = knowledge.collect(KNOWLEDGE)
    assert kb is not None and not [i for i in issues if i.level == "ERROR"]
    claims = _dataset_locators(kb)
    assert len(claims) > 500, "the bundled knowledge cites its raw snapshots"
    fresh = Snapshots(KNOWLEDGE)
    expected = {}
    for claim, source in claims:
        spec = source.table_for(claim.locator.file)
        loc = claim.locator
        row = fresh.row(loc.file, loc.row, spec.key)
        expected[claim.id] = convert(row, loc.column, loc.conversion, f"{loc.file} row {loc.row!r}")
        assert expected[claim.id] == claim.value
    _as_a_new_process(monkeypatch)
    kept = Snapshots(KNOWLEDGE)
    for claim, source in claims:
        loc = claim.locator
        answer = kept.resolve(loc.file, loc.row, source.table_for(loc.file).key, loc.column, loc.conversion)
        assert answer == expected[claim.id] and type(answer) is type(expected[claim.id]), claim.id
    again, issues_again = knowledge.collect(KNOWLEDGE)  # the whole check, from kept answers only
    assert again.data_hash == kb.data_hash and issues_again == issues


def _snapshot(root: Path, text: str) -> None:
    raw = root / locators.RAW_DIR / "demo"
    raw.mkdir(parents=True, exist_ok=True)
    (raw / "specs.csv").write_text(text, encoding="utf-8")


def test_an_edited_snapshot_or_changed_code_is_resolved_afresh(cache, tmp_path, monkeypatch):
    _snapshot(tmp_path, "name,memory\nh200,141000000000\n")
    first = Snapshots(tmp_path)
    assert first.resolve("demo/specs.csv", "h200", ("name",), "memory", "bytes_to_gb") == 141.0
    first.save()
    _snapshot(tmp_path, "name,memory\nh200,80000000000\n")
    resolved._IN_PROCESS.clear()
    edited = Snapshots(tmp_path)
    assert edited.resolve("demo/specs.csv", "h200", ("name",), "memory", "bytes_to_gb") == 80.0
    edited.save()
    resolved._IN_PROCESS.clear()
    monkeypatch.setattr(resolved, "code_version", lambda: "another reader")
    monkeypatch.setattr(locators, "convert", lambda *a: 1.5)  # what the changed code would compute
    assert Snapshots(tmp_path).resolve("demo/specs.csv", "h200", ("name",), "memory", "bytes_to_gb") == 1.5


def test_a_refusal_is_kept_as_the_same_refusal(cache, tmp_path, monkeypatch):
    _snapshot(tmp_path, "name,memory\nh200,700,5\n")
    with pytest.raises(RawError) as fresh:
        Snapshots(tmp_path).resolve("demo/specs.csv", "h200", ("name",), "memory", "none")
    snapshots = Snapshots(tmp_path)
    with pytest.raises(RawError):
        snapshots.resolve("demo/specs.csv", "h200", ("name",), "memory", "none")
    snapshots.save()
    _as_a_new_process(monkeypatch)
    with pytest.raises(RawError) as kept:
        Snapshots(tmp_path).resolve("demo/specs.csv", "h200", ("name",), "memory", "none")
    assert str(kept.value) == str(fresh.value)


def test_a_missing_snapshot_is_refused_and_nothing_is_kept(cache, tmp_path):
    snapshots = Snapshots(tmp_path)
    with pytest.raises(RawError, match="it does not exist"):
        snapshots.resolve("demo/none.csv", "x", ("name",), "memory", "none")
    snapshots.save()
    assert not cache.exists() or not list(cache.iterdir())

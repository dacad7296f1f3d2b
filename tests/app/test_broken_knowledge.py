"""A broken knowledge/ through the app and the CLI: one page (or exit 2) listing file, line and what to fix."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages._cached import bundled_kb
from app_pages._session import knowledge_problems
from selector.__main__ import main
from selector.knowledge import loading as knowledge
from tests.conftest import KNOWLEDGE, ROOT

APP = str(ROOT / "app.py")
CLAIM_FILE = "knowledge/claims/000.yaml"


def _damage(directory: Path, how: str) -> tuple[str, str]:
    """Break a copy of the knowledge; return (file as the issues name it, fragment of the message)."""
    claims = directory / "claims" / "000.yaml"
    text = claims.read_text(encoding="utf-8")
    if how == "complex-key":
        # Once a TypeError (unhashable type: 'list') out of the loader, on every page.
        claims.write_text(text.replace("claims:\n", "claims:\n  - ? [a, b]\n    : x\n", 1), encoding="utf-8")
        return CLAIM_FILE, "a key must be text, not a list"
    if how == "damaged-yaml":
        claims.write_text(text + "\n  - id: [unclosed\n", encoding="utf-8")
        return CLAIM_FILE, "not valid YAML"
    if how == "wrong-type":
        claims.write_text(text.replace("claims:\n", "claims:\n  - {id: cx, kind: spec, about: a, value: [1]}\n", 1))
        return CLAIM_FILE, "Input should be a valid"
    if how == "unreadable":
        # Running as root, file permissions do not stop a read; a directory where a file should be does.
        claims.unlink()
        claims.mkdir()
        return CLAIM_FILE, "is a directory, not a regular file"
    if how == "fifo":
        claims.unlink()
        os.mkfifo(claims)
        return CLAIM_FILE, "is a named pipe (FIFO), not a regular file"
    raise AssertionError(how)


HOW = ["complex-key", "damaged-yaml", "wrong-type", "unreadable", "fifo"]


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest):
    """A damaged copy of the knowledge that the app's bundled-knowledge loader reads instead of knowledge/."""
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, target)
    file, fragment = _damage(target, request.param)
    original = knowledge.load
    monkeypatch.setattr(knowledge, "load", lambda directory=target, extra=(): original(directory, extra))
    bundled_kb.clear()
    yield target, file, fragment
    bundled_kb.clear()


@pytest.mark.parametrize("broken", HOW, indirect=True)
def test_the_app_shows_one_page_saying_what_is_wrong_and_how_to_fix_it(broken) -> None:
    _, file, fragment = broken
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.title] == ["The knowledge base cannot be loaded"]
    [table] = at.dataframe
    rows = table.value.to_dict("records")
    assert any(r["file"] == file and fragment in r["problem"] for r in rows), rows
    assert all(r["file"] for r in rows)
    assert "python -m selector validate" in " ".join(m.value for m in at.markdown)
    assert not at.slider, "no ranking page runs on broken knowledge"


@pytest.mark.parametrize("broken", HOW, indirect=True)
def test_the_cli_exits_2_with_the_same_list(broken, capsys: pytest.CaptureFixture) -> None:
    directory, _, fragment = broken
    problems = [str(i) for i in knowledge_problems()]
    assert problems and any(fragment in p for p in problems)
    assert main(["validate", "--knowledge", str(directory)]) == 2
    out = capsys.readouterr().out
    assert all(p in out for p in problems), out
    assert main(["rank", "--group", "edge-accelerators", "--knowledge", str(directory)]) == 2
    err = capsys.readouterr().err
    assert all(p in err for p in problems), err


def test_the_app_recovers_once_the_files_are_fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, target)
    claims = target / "claims" / "000.yaml"
    good = claims.read_bytes()
    claims.write_bytes(good + b"\n  - id: [unclosed\n")
    original = knowledge.load
    monkeypatch.setattr(knowledge, "load", lambda directory=target, extra=(): original(directory, extra))
    bundled_kb.clear()
    try:
        at = AppTest.from_file(APP, default_timeout=60).run()
        assert [t.value for t in at.title] == ["The knowledge base cannot be loaded"]
        claims.write_bytes(good)
        at = AppTest.from_file(APP, default_timeout=60).run()
        assert not at.exception
        assert "The knowledge base cannot be loaded" not in [t.value for t in at.title]
        assert at.slider, "the Recommend page is back"
    finally:
        bundled_kb.clear()

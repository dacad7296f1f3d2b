"""Every page of the app runs under AppTest and has a title."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.app.helpers import PAGES, ok

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", PAGES)
def test_every_page_runs(app, name):
    ok(app.run())
    ok(app.switch_page(f"app_pages/{name}.py").run())
    assert app.title, f"page {name} has a title"


SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py"))]


def _bare_expressions(source: str) -> list[int]:
    # What Streamlit's magic would write to the page: an expression statement that is neither a call nor a string
    # (a docstring, which magic leaves alone)
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr)
        and not isinstance(node.value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)
        and not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))
    ]


def test_magic_is_off_and_no_page_needs_it():
    # .streamlit/config.toml turns magic off (it rewrites each page's syntax tree before compiling it): a page that
    # showed a value by leaving it on a line of its own would lose it silently
    assert tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["runner"]["magicEnabled"] is False
    found = {path.name: lines for path in SCRIPTS if (lines := _bare_expressions(path.read_text(encoding="utf-8")))}
    assert found == {}, f"bare expressions magic would have shown: {found}"


def test_the_check_finds_a_bare_expression():
    assert _bare_expressions('"""doc"""\nimport streamlit as st\nst.title("x")\nx = 1\nx\n') == [5]

"""The markers of the slow kinds of test (tests/conftest.py): which tests get them, the guard that fails a test doing
something slow without its marker, and `make check` selecting exactly the tests none of them marks."""

from __future__ import annotations

import multiprocessing
import re
import socket
import subprocess
import sys

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import FAST, ROOT, SLOW_KINDS, UnmarkedSlowTest, _refuse, kinds_of


@pytest.mark.parametrize(
    ("where", "fixtures", "kinds"),
    [
        ("tests/e2e/test_layout.py", ["app_url"], {"e2e"}),
        ("tests/app/test_pages.py", [], {"app"}),
        ("tests/test_hostile.py", ["page", "tmp_path"], {"e2e"}),  # pytest-playwright's page: a browser
        ("tests/knowledge/test_loading.py", ["browser_name"], {"e2e"}),
        ("tests/measure/test_compare.py", ["app", "kb"], {"app"}),
        ("tests/decision/test_matrix.py", ["tmp_path", "monkeypatch", "screen"], set()),
    ],
)
def test_a_tests_folder_and_fixtures_give_its_kinds(where, fixtures, kinds):
    assert kinds_of(ROOT / where, fixtures) == kinds


def test_make_check_runs_what_no_slow_marker_names():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    [selected] = re.findall(r"^FAST_TESTS := (.+)$", makefile, flags=re.MULTILINE)
    assert selected == FAST == " and ".join(f"not {kind}" for kind in SLOW_KINDS)
    declared = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert all(f'"{kind}: ' in declared for kind in SLOW_KINDS), "every kind is a declared marker"


def test_an_unmarked_test_may_not_start_a_process_listen_or_run_apptest():
    with pytest.raises(UnmarkedSlowTest, match=r"test_markers.py::\S+ starts a process .* @pytest.mark.subprocess"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)
    with pytest.raises(UnmarkedSlowTest, match="starts a process"):
        multiprocessing.get_context("spawn").Process(target=print).start()
    with socket.socket() as sock, pytest.raises(UnmarkedSlowTest, match=r"listens on a socket .*mark\.server"):
        sock.listen()
    with pytest.raises(UnmarkedSlowTest, match=r"runs the app under AppTest .*mark\.app"):
        AppTest.from_string("x = 1").run()


def test_a_process_a_library_starts_for_itself_is_let_through():
    refusal = _refuse("t", "starts a process", "subprocess", lambda: "started", anyone=False)
    library: dict = {}
    exec(compile("def call(f):\n    return f()\n", "/usr/lib/python3/some_library.py", "exec"), library)
    assert library["call"](refusal) == "started"
    with pytest.raises(UnmarkedSlowTest):
        refusal()  # asked for by this file, which is the project's
    apptest = _refuse("t", "runs the app under AppTest", "app", lambda: "ran", anyone=True)
    with pytest.raises(UnmarkedSlowTest):
        library["call"](apptest)  # AppTest is refused whoever asks


@pytest.mark.subprocess
def test_a_marked_test_may_start_a_process():
    assert subprocess.run([sys.executable, "-c", "pass"], check=False).returncode == 0

"""The markers of the slow kinds of test (tests/conftest.py): which tests get them, the guard that fails a test doing
something slow without its marker, and `make check` selecting exactly the tests none of them marks; and how
`make test` spreads every test over the cores (tests/browser_group.py)."""

from __future__ import annotations

import multiprocessing
import re
import socket
import subprocess
import sys
import types

import pytest
from streamlit.testing.v1 import AppTest

from tests.browser_group import BrowserGroupScheduling, in_browser_group
from tests.conftest import (
    FAST,
    ROOT,
    SLOW_KINDS,
    UnmarkedSlowTest,
    _refuse,
    kinds_of,
    pytest_collection_modifyitems,
    pytest_xdist_make_scheduler,
)


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


# `make test`'s scheduling (tests/browser_group.py): the browser tests on one worker, every test sent once.

EVERY_KIND_OF_ID = [
    "tests/e2e/test_layout.py::test_page_fits[chromium-recommend]",
    "tests/e2e/test_protocol_witness.py::test_the_comparison_ignores_order",  # in tests/e2e, no browser fixture
    "tests/test_i18n.py::test_the_first_visit_follows_the_browser_language[chromium-zh-CN-zh]",
    "tests/test_i18n.py::test_every_sentence_is_chinese",
    "tests/report/test_pdf.py::test_a_worker[chromiumish-x]",
    "tests/test_e2e_words.py::test_a_name_with_chromium",
]


def test_a_browser_test_is_known_by_its_folder_or_its_browser_parameter():
    assert [in_browser_group(nodeid) for nodeid in EVERY_KIND_OF_ID] == [True, True, True, False, False, False]


class _Worker:
    """What the scheduler sees of an xdist worker: the tests it is sent, and whether it was told to stop."""

    def __init__(self, name: str) -> None:
        self.gateway = types.SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.extend(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduled(ids: list[str], workers: int) -> list[list[str]]:
    """The tests of `ids` each of `workers` simulated workers runs, each worker finishing its tests in order."""
    config = types.SimpleNamespace(
        getvalue=lambda name: [f"{workers}*popen"] if name == "tx" else None,
        option=types.SimpleNamespace(loadscopereorder=True),
    )
    scheduler = BrowserGroupScheduling(config)
    nodes = [_Worker(f"gw{i}") for i in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, ids)
    scheduler.schedule()
    done = [0] * workers
    while not scheduler.tests_finished:
        # the worker furthest behind finishes its next test (a test that takes long keeps its worker busy)
        at = min((i for i in range(workers) if done[i] < len(nodes[i].sent)), key=lambda i: done[i])
        scheduler.mark_test_complete(nodes[at], nodes[at].sent[done[at]])
        done[at] += 1
    return [[ids[index] for index in node.sent] for node in nodes]


def test_make_tests_scheduler_sends_every_test_once_and_the_browser_tests_to_one_worker():
    ids = [f"tests/test_unit.py::test_{i}" for i in range(40)] + EVERY_KIND_OF_ID
    runs = _scheduled(ids, workers=2)
    assert sorted(nodeid for run in runs for nodeid in run) == sorted(ids), "every test runs once"
    browser = [nodeid for nodeid in ids if in_browser_group(nodeid)]
    assert sum(all(nodeid in run for nodeid in browser) for run in runs) == 1, "one worker runs every browser test"
    assert all(run for run in runs), "the other worker is not idle"


def test_make_test_asks_for_this_scheduler():
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\ntest: install\n", 1)[1].split("\n\n", 1)[0]
    [run] = [line for line in recipe.splitlines() if "/pytest" in line]
    assert run.endswith("/pytest -n auto --dist loadgroup"), "every test (no -m, no path), in one run"
    asked = types.SimpleNamespace(getvalue={"dist": "loadgroup", "tx": ["2*popen"]}.get)
    assert isinstance(pytest_xdist_make_scheduler(asked, None), BrowserGroupScheduling)
    plain = types.SimpleNamespace(getvalue={"dist": "load", "tx": ["2*popen"]}.get)
    assert pytest_xdist_make_scheduler(plain, None) is None, "make check keeps xdist's own load scheduling"


class _Item:
    """What the marking hook reads and writes of a collected test."""

    def __init__(self, nodeid: str, fixtures: list[str]) -> None:
        self.nodeid, self.fixturenames = nodeid, fixtures
        self.path = ROOT / nodeid.partition("::")[0]
        self.marks: list[str] = []

    def add_marker(self, name: str) -> None:
        self.marks.append(name)

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.marks else None


def test_a_test_the_scheduler_would_place_otherwise_than_its_marker_fails_the_collection():
    fine = [_Item("tests/test_i18n.py::test_x[chromium-zh]", ["page"]), _Item("tests/e2e/test_layout.py::test_y", [])]
    pytest_collection_modifyitems(None, fine)
    assert [item.marks for item in fine] == [["e2e"], ["e2e"]]
    # parametrized by a browser's name without a browser fixture: the scheduler would take it for a browser test
    odd = _Item("tests/test_i18n.py::test_z[chromium]", ["tmp_path"])
    with pytest.raises(pytest.UsageError, match=r"tests/test_i18n.py::test_z\[chromium\]"):
        pytest_collection_modifyitems(None, [odd])

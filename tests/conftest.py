"""Shared test fixtures: where the bundled knowledge and the test fixtures live, scratch copies of the knowledge, and
the markers that name the slow kinds of test (with the guard that keeps them honest)."""

from __future__ import annotations

import gc
import multiprocessing.process
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import settings
from streamlit.testing.v1 import AppTest

from tests.browser_group import BrowserGroupScheduling, in_browser_group

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BROKEN = FIXTURES / "broken"

# Property tests check results, not speed (speed lives in benchmarks/): a loaded CI machine must not fail them on
# hypothesis's default 200 ms per-example deadline. `make test` draws the same examples on every run (derandomize):
# a fresh clone cannot turn red on an input no earlier run saw. `make explore` draws new ones on every run (2,000
# per test where a test sets no count of its own); what it finds is fixed and kept as an explicit @example, which
# every later `make test` then checks.
settings.register_profile("project", deadline=None, derandomize=True)
settings.register_profile("explore", deadline=None, max_examples=2000)
# `make check`, the fast loop: examples drawn as under `make test` (derandomized), a tenth as many (tests/examples.py).
settings.register_profile("check", deadline=None, derandomize=True, max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))


def pytest_configure(config: pytest.Config) -> None:
    """Keep the parse cache of this run (selector.io.parse_cache) in a folder of its own: tests neither read a cache
    left by another run nor write into the user's; command-line runs started by tests inherit it."""
    os.environ["SELECTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="selector-parse-cache-")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker, once its tests are over, freeze what is alive out of the garbage collector.

    The controller gives a worker 5 s to end once it has reported its last test, then sends it SIGINT (execnet's
    exit); pytest's last full collection walks every object the tests left alive (the caches of the knowledge they
    loaded), so on a loaded machine the interrupt can land inside a finalizer, which pytest reports as a
    PytestUnraisableExceptionWarning about a KeyboardInterrupt. Frozen objects are not walked; the tests are over.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.freeze()


# ----------------------------------------------------------------------------------------------------------
# The slow kinds of test. Each is a marker (declared in pyproject.toml); `make check` runs the tests none of them
# marks (FAST below), `make test` runs them all. A marker comes from where a test lives or the fixtures it uses
# (pytest_collection_modifyitems), or is written on the test; the guard below fails a test that starts a process,
# listens on a socket or runs AppTest without its marker, so the fast set cannot quietly grow slow that way. `slow`
# has no guard: it is written on the tests (or modules) that take seconds of their own (pytest --durations shows
# them): whole-knowledge integration such as upload checks and the commands end to end.

SLOW_KINDS = {
    "e2e": "drives the app in a real browser (Debian chromium through Playwright)",
    "app": "runs the app's script under Streamlit's AppTest",
    "server": "starts a server (the app through serve.py, nginx) and talks to it",
    "subprocess": "starts another process (the command line, a PDF worker, poppler, nginx -t)",
    "slow": "takes seconds by design (whole-knowledge integration, a base three times the bundled one, a probe)",
}
#: The pytest -m expression of the fast tests: what `make check` runs.
FAST = " and ".join(f"not {kind}" for kind in SLOW_KINDS)

_BY_FOLDER = {ROOT / "tests" / "e2e": "e2e", ROOT / "tests" / "app": "app"}
# pytest-playwright's fixtures: a test asking for one drives a browser.
_BROWSER_FIXTURES = frozenset({"page", "context", "browser", "browser_name", "browser_type"})


def kinds_of(path: Path, fixtures: Iterable[str]) -> set[str]:
    """The slow kinds of a test at PATH whose fixture closure is FIXTURES: by its folder and the fixtures it uses."""
    kinds = {kind for folder, kind in _BY_FOLDER.items() if folder in path.parents}
    used = set(fixtures)
    if used & _BROWSER_FIXTURES:
        kinds.add("e2e")
    if "app" in used:  # tests/app/conftest.py's AppTest of app.py
        kinds.add("app")
    return kinds


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with the slow kinds its folder and fixtures say it is (see SLOW_KINDS); fail the collection of
    a test that `make test`'s scheduler would place by its node id otherwise than its ``e2e`` marker says."""
    misplaced = []
    for item in items:
        for kind in sorted(kinds_of(item.path, getattr(item, "fixturenames", ()))):
            item.add_marker(kind)
        if in_browser_group(item.nodeid) != bool(item.get_closest_marker("e2e")):
            misplaced.append(item.nodeid)
    if misplaced:
        raise pytest.UsageError(
            "tests/browser_group.py would place these tests by their node id otherwise than their e2e marker "
            f"says (a browser test lives in tests/e2e or uses pytest-playwright's fixtures): {misplaced}"
        )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under ``--dist loadgroup`` (`make test`), the scheduler that runs the browser tests on one worker."""
    if config.getvalue("dist") == "loadgroup":
        return BrowserGroupScheduling(config, log)
    return None


class UnmarkedSlowTest(Exception):
    """A test does something of a slow kind without that kind's marker."""


# The standard library's process, socket and thread machinery between a caller and the call the guard replaces.
_STDLIB = Path(subprocess.__file__).parent
_MACHINERY = ("subprocess.py", "socket.py", "threading.py", "multiprocessing", "concurrent", "asyncio")


def _called_by_the_project() -> bool:
    """Whether the code that asked for the process or socket is this project's (not a library's own doing).

    A library may start a process as a side effect (scikit-criteria's import asks `platform` for the processor,
    which runs `uname -p` once): that is the library's cost, the same in every run, not a slow kind of test.
    """
    frame = sys._getframe(2)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if not (
            path == Path(__file__) or (_STDLIB in path.parents and path.relative_to(_STDLIB).parts[0] in _MACHINERY)
        ):
            return ROOT in path.parents and ".venv" not in path.relative_to(ROOT).parts
        frame = frame.f_back
    return False


def _refuse(nodeid: str, what: str, kind: str, original: Callable[..., object], anyone: bool) -> Callable[..., object]:
    """ORIGINAL replaced by a refusal naming the missing marker; for a process or socket (not ANYONE) only when the
    project's own code asks."""

    def refuse(*args: object, **kwargs: object) -> object:
        if not anyone and not _called_by_the_project():
            return original(*args, **kwargs)
        raise UnmarkedSlowTest(
            f"{nodeid} {what} but is not marked `{kind}`: add @pytest.mark.{kind} (tests/conftest.py, SLOW_KINDS), "
            "so that `make check` leaves it to `make test`"
        )

    return refuse


@pytest.fixture(autouse=True)
def _slow_kinds_are_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail a test that starts a process, listens on a socket or runs AppTest without the marker that says so.

    A browser test may do all of these (it serves the app and launches chromium); a server test starts processes.
    """
    marked = {mark.name for mark in request.node.iter_markers()} & set(SLOW_KINDS)
    guarded = []
    if not marked & {"subprocess", "server", "e2e"}:
        guarded += [
            (subprocess.Popen, "__init__", "starts a process", "subprocess"),
            (multiprocessing.process.BaseProcess, "start", "starts a process", "subprocess"),
        ]
    if not marked & {"server", "e2e"}:
        guarded.append((socket.socket, "listen", "listens on a socket", "server"))
    if "app" not in marked:
        guarded.append((AppTest, "_run", "runs the app under AppTest", "app"))
    for owner, name, what, kind in guarded:
        refusal = _refuse(request.node.nodeid, what, kind, getattr(owner, name), anyone=kind == "app")
        monkeypatch.setattr(owner, name, refusal)


def default_sigint() -> None:
    """For ``preexec_fn``: a child started by a test takes Ctrl-C (SIGINT) the default way, however pytest started.

    A shell starts a background job (``make test &``, a CI step) with SIGINT ignored, children inherit that, and
    Python keeps an ignored SIGINT ignored: a test that interrupts its child must set the disposition itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def bundled_knowledge() -> Path:
    """The knowledge directory shipped with the app (read-only: copy it before changing anything)."""
    return KNOWLEDGE


@pytest.fixture
def base_knowledge(tmp_path: Path) -> Path:
    """A scratch knowledge directory with the sources, their documents, the entities and the metric vocabulary, but
    no claims or rules.

    Tests of the loader's error reporting start from this so that their expectations (exactly these issues)
    do not depend on the bundled claim and decision files, which change as the knowledge grows.
    """
    target = tmp_path / "knowledge"
    target.mkdir()
    shutil.copy2(KNOWLEDGE / "sources.yaml", target / "sources.yaml")
    shutil.copytree(KNOWLEDGE / "sources", target / "sources")
    shutil.copytree(KNOWLEDGE / "entities", target / "entities")
    shutil.copy2(KNOWLEDGE / "metrics.yaml", target / "metrics.yaml")
    return target


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    """A scratch copy of the whole bundled knowledge directory, free to edit."""
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, target)
    return target

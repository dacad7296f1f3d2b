"""serve.py, the server's launcher: it hands its arguments to `streamlit run app.py` untouched, and its warm-up
loads the bundled knowledge once, for the app's cache to take over."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

import serve
from selector.knowledge import loading as knowledge
from tests.conftest import ROOT


def test_the_launcher_forwards_every_argument_to_streamlit_run_app_py(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web import cli

    seen = {}
    monkeypatch.setattr(cli, "main", lambda prog_name: seen.update(argv=list(sys.argv), prog=prog_name) or 0)
    monkeypatch.setattr(serve, "start_warm_up", lambda: seen.setdefault("warmed", True))
    forwarded = ["--server.port", "8600", "--server.address=0.0.0.0", "--", "x"]
    monkeypatch.setattr(sys, "argv", ["serve.py", *forwarded])
    assert serve.main() == 0
    assert seen == {
        "argv": ["streamlit", "run", str(ROOT / "app.py"), *forwarded],
        "prog": "streamlit",
        "warmed": True,
    }
    assert serve.main(["--server.headless", "true"]) == 0
    assert seen["argv"][3:] == ["--server.headless", "true"]


def test_the_warm_up_imports_what_the_first_page_imports() -> None:
    names = {
        alias.name if statement.__class__.__name__ == "Import" else statement.module
        for statement in serve.first_page_imports()
        for alias in statement.names
    }
    # from app.py, then from the default page
    assert {"streamlit", "app_pages._session", "selector.views.recommend"} <= names
    assert "__future__" not in names


def test_the_warmed_page_is_the_default_page_of_app_py() -> None:
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    defaults = [
        call.args[0].value
        for call in ast.walk(tree)
        if isinstance(call, ast.Call)
        and getattr(call.func, "attr", None) == "Page"
        and any(k.arg == "default" and getattr(k.value, "value", False) is True for k in call.keywords)
    ]
    assert [ROOT / page for page in defaults] == list(serve.FIRST_PAGE[1:])


@pytest.fixture
def counted_loads(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """A fresh hand-over (as in a new server process) and the start time of every knowledge load; each load is
    slowed down so that the warm-up and a first page overlap."""
    loads: list[float] = []
    original = knowledge.load

    def load(directory=knowledge.DEFAULT_KNOWLEDGE, extra=()):  # noqa: ANN001, ANN202
        loads.append(time.monotonic())
        time.sleep(0.3)
        return original(directory, extra)

    monkeypatch.setattr(knowledge, "load", load)
    monkeypatch.setattr(knowledge, "_PRELOADED", knowledge._Preloaded())
    monkeypatch.setattr(gc, "freeze", lambda: None)  # the test process's objects are not the server's
    return loads


def test_a_first_page_during_the_warm_up_waits_for_its_load_instead_of_loading_again(counted_loads) -> None:
    warm = threading.Thread(target=serve.warm_up, kwargs={"imports": [], "runtime_started": lambda: False})
    warm.start()
    while not counted_loads:  # the warm-up's load has begun
        time.sleep(0.005)
    kb = knowledge.bundled()  # the first page, as app_pages/_cached.bundled_kb asks
    warm.join(timeout=60)
    assert not warm.is_alive()
    assert len(counted_loads) == 1
    assert kb.groups and knowledge.preload_bundled() is None, "taken over: the hand-over keeps nothing"
    assert knowledge.bundled_in_use()


def test_after_the_hand_over_the_app_loads_afresh(counted_loads) -> None:
    preloaded = knowledge.preload_bundled()
    assert not knowledge.bundled_in_use()
    assert knowledge.preload_bundled() is preloaded and len(counted_loads) == 1
    assert knowledge.bundled() is preloaded
    # the app's cache cleared (st.cache_resource.clear, or the broken-knowledge tests): a new load, not a stale one
    assert knowledge.bundled() is not preloaded
    assert len(counted_loads) == 2


def test_a_knowledge_base_that_fails_to_load_is_not_kept(counted_loads, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(directory=None, extra=()):  # noqa: ANN001, ANN202
        counted_loads.append(time.monotonic())
        raise knowledge.KnowledgeError([])

    monkeypatch.setattr(knowledge, "load", broken)
    assert knowledge.preload_bundled() is None
    with pytest.raises(knowledge.KnowledgeError):
        knowledge.bundled()
    assert len(counted_loads) == 2


@pytest.mark.server
def test_the_launcher_serves_the_app_on_the_port_it_is_given_and_warms_up_without_a_warning(tmp_path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import _serve

    port = _serve.free_port()
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "serve.py", "--server.port", str(port)], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        _serve.wait_healthy(f"http://127.0.0.1:{port}", server, "serve.py", 0.1, 90)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as reply:
            assert reply.status == 200
        deadline = time.monotonic() + 90
        while "Warm-up" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    output = log.read_text()
    assert f"127.0.0.1:{port}" in output
    assert "Warm-up done" in output, output
    assert "Traceback" not in output and "WARNING" not in output, output


@pytest.fixture
def collector_restored() -> None:
    yield
    gc.enable()


def test_the_collector_is_off_from_the_launch_until_the_warm_up_ends_failed_or_not(
    monkeypatch: pytest.MonkeyPatch, collector_restored
) -> None:
    import streamlit.web.cli  # noqa: F401 - start_warm_up refuses to start before it

    seen = []

    def warm_up(fail: bool) -> None:
        seen.append(gc.isenabled())
        if fail:
            raise RuntimeError("a broken warm-up")

    for fail in (False, True):
        gc.enable()
        monkeypatch.setattr(serve, "warm_up", lambda fail=fail: warm_up(fail))
        thread = serve.start_warm_up()
        thread.join(timeout=60)
        assert not thread.is_alive()
        assert gc.isenabled(), "the collector is back on after the warm-up"
    assert seen == [False, False]


def test_the_warm_up_freezes_what_is_alive_without_a_full_collection(
    counted_loads, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    serve.warm_up(imports=[], runtime_started=lambda: False)
    assert calls == ["freeze"]
    knowledge.bundled()  # the first page takes the knowledge over: a later warm-up leaves it to the page
    calls.clear()
    serve.warm_up(imports=[], runtime_started=lambda: False)
    assert calls == []


# In a fresh process: the first page's imports and one ranking (what the warm-up does before the list), then which
# of the listed modules are loaded, and which a first run of the app (AppTest) loads on top.
_LAZY_PROBE = """
import json, sys
import streamlit.web.cli
import serve
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from streamlit.testing.v1 import AppTest

kb = knowledge.preload_bundled()
statements = serve.first_page_imports()
serve._run([s for s in statements if not serve._needs_the_runtime(s)])
recommend.recommend(kb, Preferences(group=next(iter(kb.groups))))
app = AppTest.from_file(str(serve.APP), default_timeout=120)
serve._run([s for s in statements if serve._needs_the_runtime(s)])
before = set(sys.modules)
app.run()
assert not app.exception, app.exception
loaded = {"before": sorted(before & set(serve.FIRST_RUN_LAZY)), "first run": sorted(set(sys.modules) - before)}
print(json.dumps(loaded))
"""


@pytest.mark.subprocess
@pytest.mark.app
@pytest.mark.slow
def test_the_lazy_modules_the_warm_up_imports_are_those_a_first_page_imports() -> None:
    import json

    done = subprocess.run(
        [sys.executable, "-c", _LAZY_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["before"] == [], "imported by the page's own imports already: the warm-up need not name it"
    # A new session's agent detection runs in the server's session, which AppTest does not start.
    server_only = {"streamlit.web.skills"}
    assert set(serve.FIRST_RUN_LAZY) - server_only <= set(found["first run"])


def test_the_server_runs_its_event_loop_on_uvloop() -> None:
    # requirements.txt installs uvloop for the server's loop, which sends every element of every run; Streamlit
    # takes it when it can make a loop with it, and falls back to asyncio's own without a word otherwise.
    import uvloop
    from streamlit.web import bootstrap

    assert bootstrap._get_uvloop_loop_factory() is uvloop.new_event_loop
    loop = uvloop.new_event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()

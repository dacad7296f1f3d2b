"""Serve the app with its first page prepared: ``python serve.py [options]`` is ``streamlit run app.py [options]``
plus a warm-up in the background.

Streamlit runs app.py only when the first browser connects, after the browser has loaded Streamlit's JavaScript;
until then the server is idle, and the first page then pays for every import and for loading the knowledge. Here a
daemon thread does that work while Streamlit starts and the browser loads: it loads the bundled knowledge (handed
to the app's cache by :func:`selector.knowledge.loading.bundled`), imports what app.py and the default page import,
ranks
the default preferences once (scikit-criteria's lazy imports, the knowledge's memos), and lets :mod:`inspect`
resolve every loaded module's file (Streamlit's first element does, once per process). It also imports what
Streamlit itself loads only when the first page's elements ask for it (:data:`FIRST_RUN_LAZY`). A failed warm-up
only leaves that work to the first page.

The server's start and the warm-up are one process, so their Python work runs one thread at a time: what the first
page waits for is the sum of both, and the browser's files are served in the gaps. So the start does less of it:
the garbage collector is off from the launch until the warm-up ends (:func:`collector_off`).

Streamlit's own command line does the serving, so ``.streamlit/config.toml``, the ``STREAMLIT_*`` variables and
every ``--server.*`` flag apply as with ``streamlit run`` (which still works, without the warm-up), on the same
start-up path. Streamlit's ``st.App`` lifespan hook could host the warm-up too, but ``streamlit run`` starts an
``st.App`` by another path (uvicorn imports the script and the App sets Streamlit up), not the one the health
checks, the websocket tests and the sticky proxy were checked against. This file sits next to app.py rather than
in app_pages/ because it is an entry point, not part of a page, and ``python serve.py`` puts this folder on
``sys.path`` as ``streamlit run app.py`` does.
"""

from __future__ import annotations

import ast
import gc
import importlib
import inspect
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
APP = HERE / "app.py"
# What the first page runs: the entry script and the default page (app.py's `default=True`).
FIRST_PAGE = (APP, HERE / "app_pages" / "recommend.py")
RUNTIME_WAIT_S = 60.0
# What Streamlit imports on the first page's first use rather than at its start: the emoji catalog (the language
# switch's labels are not ASCII), the material icon names (the navigation's icons), PIL (the page icon), pyarrow's
# pandas conversion (every table) and the agent detection of a new session. tests/test_serve.py holds
# this list to what a first run imports.
FIRST_RUN_LAZY = (
    "streamlit.emojis",
    "streamlit.material_icon_names",
    "PIL.Image",
    "pyarrow.pandas_compat",
    "streamlit.web.skills",
)


def first_page_imports(scripts: Sequence[Path] = FIRST_PAGE) -> list[ast.Import | ast.ImportFrom]:
    """The import statements at the top level of `scripts`, in order (``from __future__`` left out)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for script in scripts:
        for node in ast.parse(script.read_text(encoding="utf-8"), filename=str(script)).body:
            if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.module != "__future__"):
                found.append(node)
    return found


def _needs_the_runtime(statement: ast.Import | ast.ImportFrom) -> bool:
    # Streamlit itself is imported by the server's start; the app's modules wait for it (see warm_up).
    names = [alias.name for alias in statement.names] if isinstance(statement, ast.Import) else [statement.module]
    return any(name and name.split(".")[0] in ("app_pages", "streamlit") for name in names)


def _run(statements: Sequence[ast.Import | ast.ImportFrom]) -> None:
    # Run as written, so that `from package import submodule` imports the submodule as the page will.
    exec(compile(ast.Module(body=list(statements), type_ignores=[]), "<warm-up>", "exec"), {})


def streamlit_argv(args: Sequence[str]) -> list[str]:
    """The command line Streamlit's CLI is handed: ``streamlit run <app.py> ARGS``, ARGS untouched."""
    return ["streamlit", "run", str(APP), *args]


def _runtime_started(timeout: float = RUNTIME_WAIT_S) -> bool:
    from streamlit import runtime

    deadline = time.monotonic() + timeout
    while not runtime.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def warm_up(
    imports: Sequence[ast.Import | ast.ImportFrom] | None = None,
    runtime_started: Callable[[], bool] = _runtime_started,
) -> None:
    """Do the first page's one-time work now: load the bundled knowledge, run `imports` (default: those of
    :func:`first_page_imports`) and rank the default preferences once.

    Streamlit and the app's own modules are imported once Streamlit's runtime exists (`runtime_started`): the
    server's start imports Streamlit anyway, and the app's ``st.cache_data`` functions, imported earlier, would log
    that no runtime was found.
    """
    from selector.decision import recommend
    from selector.decision.preferences import Preferences
    from selector.knowledge import loading as knowledge

    kb = knowledge.preload_bundled()
    statements = first_page_imports() if imports is None else list(imports)
    _run([s for s in statements if not _needs_the_runtime(s)])
    # Once the first page has begun (it has taken the knowledge), it ranks and collects by itself: doing it here
    # as well would only compete with it. Imports are never done twice (the page waits for the one under way).
    if kb is not None and not knowledge.bundled_in_use():
        recommend.recommend(kb, Preferences(group=next(iter(kb.groups))))
    if runtime_started():
        _run([s for s in statements if _needs_the_runtime(s)])
        for name in FIRST_RUN_LAZY:
            importlib.import_module(name)
    # Streamlit's first element of a process looks for a REPL with inspect.stack(), which resolves the file of
    # every loaded module (a realpath each); inspect keeps what it resolved, leaving the page the modules after.
    inspect.stack()
    if not knowledge.bundled_in_use():
        # What is alive now lives as long as the server (as app_pages/_cached.bundled_kb freezes it after its
        # load): frozen here, it spares the first page that full collection. Frozen without a collection first:
        # the start leaves little garbage (a few thousand objects, kept for good), and a collection of everything
        # alive would hold up the first page, which is often waiting by now.
        gc.freeze()


def collector_off() -> None:
    """Turn Python's garbage collector off until the warm-up ends (it turns it back on, having failed or not).

    The start creates objects by the hundred thousand (modules, classes, the knowledge) and frees almost none: each
    automatic collection on the way walks everything alive to find next to nothing. The warm-up then freezes what
    is alive, that little garbage included; where the first page has taken the knowledge over first,
    app_pages/_cached.bundled_kb collects and freezes instead.
    """
    gc.disable()


def _warm_up_in_background() -> None:
    from streamlit.logger import get_logger  # Streamlit's handler and level (config.toml's logger.level)

    log = get_logger("serve")
    start = time.perf_counter()
    try:
        warm_up()
    except Exception:  # the first page does the same work itself and reports what fails there
        log.warning("Warm-up stopped; the first page loads what it needs itself", exc_info=True)
        return
    finally:
        gc.enable()
    log.info("Warm-up done in %.2f s", time.perf_counter() - start)


def start_warm_up() -> threading.Thread:
    """Start :func:`warm_up` in a daemon thread (it never holds the process up) and return the thread; the garbage
    collector is off until it ends (:func:`collector_off`).

    Streamlit must be imported whole first: imported beside the warm-up, it finds pandas half imported in
    ``sys.modules`` (plotly's theme set-up checks for it there) and fails.
    """
    if "streamlit.web.cli" not in sys.modules:
        raise RuntimeError("import streamlit.web.cli before starting the warm-up")
    collector_off()
    thread = threading.Thread(target=_warm_up_in_background, name="warm-up", daemon=True)
    thread.start()
    return thread


def run_streamlit(args: Sequence[str]) -> int:
    """Hand over to Streamlit's command line as ``streamlit run app.py ARGS`` (it exits the process itself)."""
    from streamlit.web import cli

    sys.argv = streamlit_argv(args)
    return cli.main(prog_name="streamlit")


def main(args: Sequence[str] | None = None) -> int:
    """Serve the app with ARGS (default: this process's arguments) while it warms up."""
    collector_off()  # Streamlit's own import is part of the start
    import streamlit.web.cli  # noqa: F401 - see start_warm_up

    forwarded = sys.argv[1:] if args is None else list(args)
    start_warm_up()
    return run_streamlit(forwarded)


if __name__ == "__main__":
    sys.exit(main())

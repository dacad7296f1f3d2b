"""`streamlit` with every script run timed: what bench_browser.py starts instead of `python -m streamlit`, and,
given ``serve`` as its first argument, instead of ``python serve.py`` (the app as users get it, warmed up).

Each run of the script (a whole page or a fragment) appends one line to the file named by the environment variable
SELECTOR_RUN_LOG: the seconds ``ScriptRunner._run_script`` took, from the rerun request to the end of Streamlit's
own work after the script (the post-run garbage collection included), then ``page`` or ``fragment``.

Not a benchmark itself (the leading underscore keeps `make bench` from running it).

    SELECTOR_RUN_LOG=/tmp/runs.txt python benchmarks/_timed_streamlit.py run hello.py --server.port 8600
    SELECTOR_RUN_LOG=/tmp/runs.txt PYTHONPATH=. python benchmarks/_timed_streamlit.py serve --server.port 8600
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

if sys.argv[1:2] == ["serve"]:
    import serve  # the repository root's launcher (the repository root is on PYTHONPATH)

    serve.collector_off()  # before Streamlit's import, as serve.main does

from streamlit.runtime.scriptrunner import script_runner
from streamlit.web import cli

LOG = os.environ["SELECTOR_RUN_LOG"]
_run_script = script_runner.ScriptRunner._run_script


def _timed_run_script(self: Any, rerun_data: Any) -> None:
    start = time.perf_counter()
    try:
        _run_script(self, rerun_data)
    finally:
        kind = "fragment" if rerun_data.fragment_id_queue else "page"
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(f"{time.perf_counter() - start:.6f} {kind}\n")


script_runner.ScriptRunner._run_script = _timed_run_script

if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve.start_warm_up()
        sys.exit(serve.run_streamlit(sys.argv[2:]))
    sys.exit(cli.main(prog_name="streamlit"))

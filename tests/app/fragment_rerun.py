"""Rerun one fragment under AppTest, as the server does when a widget inside that fragment changes.

AppTest always reruns the whole script. In the browser, a change of a widget drawn inside an ``st.fragment``
sends the fragment's id with the rerun request, and the server's ScriptRunner runs that fragment alone; the
helper below sends the same request (``RerunData(fragment_id=...)``, what ``AppSession`` builds from the
browser's message) so that tests and benchmarks see what a user's slider move runs.

Why not public API: AppTest (streamlit 1.67) offers no way to rerun one fragment, so this sends the server's request.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from streamlit.testing.v1 import AppTest, local_script_runner


def fragment_ids(at: AppTest) -> list[str]:
    """Ids of the fragments the last full run of `at` registered."""
    return list(at._fragment_storage._fragments)


@contextlib.contextmanager
def fragment_reruns(at: AppTest) -> Iterator[str]:
    """Within the block, ``at.run()`` reruns only the page's fragment (the one fragment the page registered).

    After such a run, ``at`` holds only what the fragment drew, as the browser receives only that. The switch is
    process-wide (AppTest builds its request inside streamlit), so blocks for two apps cannot be nested.
    """
    original = local_script_runner.RerunData
    if getattr(original, "_fragment_rerun", False):
        raise RuntimeError("fragment_reruns blocks cannot be nested: finish one app's block before the next")
    ids = fragment_ids(at)
    if len(ids) != 1:
        raise AssertionError(f"expected the page to register one fragment, it registered {len(ids)}")

    def rerun_data(**kwargs):  # noqa: ANN202 - mirrors RerunData's keyword constructor
        return original(**kwargs, fragment_id=ids[0])

    rerun_data._fragment_rerun = True
    local_script_runner.RerunData = rerun_data
    try:
        yield ids[0]
    finally:
        local_script_runner.RerunData = original

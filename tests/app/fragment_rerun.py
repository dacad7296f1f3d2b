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
from streamlit.testing.v1.element_tree import Widget


def fragment_ids(at: AppTest) -> list[str]:
    """Ids of the fragments the last full run of `at` registered."""
    return list(at._fragment_storage._fragments)


def fragment_of(at: AppTest, widget: Widget) -> str:
    """The id of the fragment that drew `widget` (an element of the last run of `at`), as the server reads it from
    the session's widget metadata when that widget changes; an AssertionError when it was drawn outside every
    fragment."""
    metadata = at.session_state._state._state._new_widget_state.widget_metadata.get(widget.id)
    if metadata is None or not metadata.fragment_id:
        raise AssertionError(f"the widget {widget.key!r} is not drawn inside a fragment")
    if metadata.fragment_id not in fragment_ids(at):
        raise AssertionError(f"the fragment of {widget.key!r} is not one the last full run registered")
    return metadata.fragment_id


@contextlib.contextmanager
def fragment_reruns(at: AppTest, widget: Widget | str) -> Iterator[str]:
    """Within the block, ``at.run()`` reruns only the fragment that drew `widget` (e.g. ``at.slider(key=...)``, or
    the id :func:`fragment_of` gave for a widget drawn earlier).

    After such a run, ``at`` holds only what the fragment drew, as the browser receives only that. The switch is
    process-wide (AppTest builds its request inside streamlit), so blocks for two apps cannot be nested.
    """
    original = local_script_runner.RerunData
    if getattr(original, "_fragment_rerun", False):
        raise RuntimeError("fragment_reruns blocks cannot be nested: finish one app's block before the next")
    fragment_id = widget if isinstance(widget, str) else fragment_of(at, widget)

    def rerun_data(**kwargs):  # noqa: ANN202 - mirrors RerunData's keyword constructor
        return original(**kwargs, fragment_id=fragment_id)

    rerun_data._fragment_rerun = True
    local_script_runner.RerunData = rerun_data
    try:
        yield fragment_id
    finally:
        local_script_runner.RerunData = original

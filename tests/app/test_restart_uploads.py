"""A restart that cannot restore an upload says so (issue 35): files too large for the link leave their count in
it, and a session opened from that link without them warns instead of silently ranking the bundled knowledge."""

from __future__ import annotations

import random

from streamlit.testing.v1 import AppTest

from selector.knowledge.loading import Upload
from tests.app.helpers import APP, ROOT, ok


def _large_upload() -> Upload:
    # a valid file whose random comment no compression shrinks below the link's limit
    text = (ROOT / "tests" / "fixtures" / "valid_extra.yaml").read_text(encoding="utf-8")
    rng = random.Random(0)
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20_000))
    return Upload("large.yaml", (f"# {noise}\n" + text).encode())


def test_files_too_large_for_the_link_leave_their_count_and_a_new_session_says_they_are_missing() -> None:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["uploads"] = [_large_upload()]
    at = ok(at.run())
    assert at.query_params.get("files") in ("1", ["1"]) and "data" not in at.query_params
    assert not any("too large for a link to carry" in w.value for w in at.warning)

    fresh = AppTest.from_file(APP, default_timeout=90)
    for key, value in at.query_params.items():
        fresh.query_params[key] = value[-1] if isinstance(value, list) else value
    fresh = ok(fresh.run())
    [warning] = [w.value for w in fresh.warning if "too large for a link to carry" in w.value]
    assert "1 file of its own" in warning and "decision profile" in warning


def test_a_link_without_the_marker_warns_of_nothing() -> None:
    at = ok(AppTest.from_file(APP, default_timeout=90).run())
    assert not any("too large for a link" in w.value for w in at.warning)

"""The shareable link's `data` through AppTest: small uploads travel in the link, tampered or too-large ones do not."""

from __future__ import annotations

import pytest

from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from tests.app.helpers import UPLOADS, expected_ranking, ok, same_ranking, shown_ranking


def test_a_link_with_data_ranks_with_the_uploaded_files(app, kb):
    from selector import profile

    orin = Upload("orin.csv", (UPLOADS / "good_orin_power.csv").read_bytes())
    prefs = Preferences(group="edge-accelerators")
    shared = profile.make(prefs, uploads=[orin])
    for key, value in profile.to_link_params(shared).items():
        app.query_params[key] = value
    at = ok(app.run())
    assert not at.error
    assert [u.name for u in at.session_state["uploads"]] == ["orin.csv"]
    merged, issues = knowledge.collect(knowledge.DEFAULT_KNOWLEDGE, extra=profile.merge_uploads(shared))
    assert merged is not None, [str(i) for i in issues]
    expected = expected_ranking(merged, prefs)
    assert expected != expected_ranking(kb, prefs), "the upload changes the ranking's scores"
    same_ranking(shown_ranking(at), expected)
    assert at.query_params["data"] == profile.to_link_params(shared)["data"]
    at.query_params.clear()
    ok(at.switch_page("app_pages/robustness.py").run())
    assert at.query_params["data"] == profile.to_link_params(shared)["data"], "a page switch keeps the files"


@pytest.mark.parametrize("tamper", ["cut", "flip", "invalid-upload"])
def test_a_tampered_data_link_shows_an_error_and_the_bundled_ranking(app, kb, tamper):
    from selector import profile

    if tamper == "invalid-upload":
        bad = Upload("negative_tops.csv", (UPLOADS / "negative_tops.csv").read_bytes())
        data = profile.to_link_params(profile.make(Preferences(group="g"), uploads=[bad]))["data"]
        fragment = "negative_tops.csv"
    else:
        orin = Upload("orin.csv", (UPLOADS / "good_orin_override.csv").read_bytes())
        data = profile.to_link_params(profile.make(Preferences(group="g"), uploads=[orin]))["data"]
        data = data[: len(data) // 2] if tamper == "cut" else data[:20] + ("A" if data[20] != "A" else "B") + data[21:]
        fragment = "parameter"
    app.query_params["group"] = "edge-accelerators"
    app.query_params["data"] = data
    at = ok(app.run())
    messages = [e.value.replace("\\", "") for e in at.error]
    assert any("files in this link were not loaded" in m and fragment in m for m in messages), messages
    assert "uploads" not in at.session_state or not at.session_state["uploads"]
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group="edge-accelerators")))


def test_files_too_large_for_a_link_are_left_out_and_the_page_says_so(app):
    import os

    from selector import profile

    big = Upload("big.csv", os.urandom(4_000).hex().encode())
    assert profile.encode_uploads((profile.EmbeddedUpload.from_upload(big),)) is None
    app.session_state["uploads"] = [big]
    ok(app.run())
    at = ok(app.switch_page("app_pages/my_data.py").run())
    assert "data" not in at.query_params
    assert any("too large for a link" in i.value for i in at.info)

"""The Recommend page on the software groups of issue 32: a link to each shows the pure ranking of that group."""

from __future__ import annotations

import pytest

from selector.decision.preferences import Preferences
from tests.app.helpers import expected_ranking, ok, same_ranking, shown_ranking

NEW_GROUPS = (
    "llm-serving-engines",
    "model-servers",
    "ios-runtimes",
    "embedded-linux-runtimes",
    "apple-silicon-runtimes",
)


@pytest.mark.parametrize("group", [*NEW_GROUPS, "mobile-runtimes"])
def test_a_link_to_a_software_group_shows_its_ranking(app, kb, group: str) -> None:
    app.query_params["group"] = group
    at = ok(app.run())
    assert at.selectbox(key="group").value == group
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=group)))

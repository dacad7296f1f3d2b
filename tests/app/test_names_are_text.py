"""Names are text on every page (issue 35): an uploaded entity named like a link, an address, an icon and an emoji
is shown as typed, and nothing any page hands to Streamlit's Markdown becomes a link, icon or emoji there."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from selector.escape import WORD_JOINER
from selector.knowledge.loading import Upload
from tests.app.helpers import APP, PAGES, ROOT, ok
from tests.test_escape import _AUTOLINK_EMAIL, _AUTOLINK_URL, _SHORTCODE, _streamlit_text

HOSTILE = "www.evil.example :material/home: bob@evil.example https://evil.example :fire:"


def _upload() -> Upload:
    text = (ROOT / "tests" / "fixtures" / "uploads" / "good_new_chip.yaml").read_text(encoding="utf-8")
    return Upload("names.yaml", text.replace("name: Fixture NPU (test chip)", f'name: "{HOSTILE}"').encode())


def _markdown_texts(at: AppTest) -> list[str]:
    """Every text the run handed to Streamlit's Markdown: markdown, captions, titles, widget labels."""
    found = [e.value for kind in ("markdown", "caption", "title", "header", "subheader") for e in getattr(at, kind)]
    for kind in ("radio", "selectbox", "multiselect", "slider", "checkbox", "toggle", "number_input", "text_input"):
        for widget in getattr(at, kind):
            found.append(str(widget.label))
            if kind == "radio":  # a radio's options are Markdown; a select box's are plain text in a list
                found.extend(str(o) for o in widget.options)
    return [t for t in found if isinstance(t, str)]


def test_a_hostile_entity_name_is_text_on_every_page() -> None:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["uploads"] = [_upload()]
    at.query_params["group"] = "my-edge-accelerators"
    at = ok(at.run())
    seen_name = False
    for page in PAGES:
        at = ok(at.switch_page(f"app_pages/{page}.py").run())
        for text in _markdown_texts(at):
            if "evil" not in text:
                continue  # the pages' own links (a licence, a source) are links on purpose
            rendered = _streamlit_text(re.sub(r"\]\([^)]*\)", "]", text))
            live = [
                m.group()
                for pattern in (_AUTOLINK_URL, _AUTOLINK_EMAIL, _SHORTCODE)
                for m in pattern.finditer(rendered)
                # the pages' own icons (:material/balance:) are meant; none of the name's parts may be live
                if "evil" in m.group() or m.group() in (":material_home:", ":fire:")
            ]
            assert not live, (page, live, text[:300])
            seen_name |= "evil" in text and WORD_JOINER in text
    assert seen_name, "the hostile name was shown on no page"

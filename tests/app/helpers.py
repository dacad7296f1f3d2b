"""What the AppTest tests of the pages share: where the app is, its pages, and how a page's ranking, badge and
claims table are read, and the Markdown tables a page shows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from markdown_it import MarkdownIt
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from selector.decision import recommend
from selector.decision.preferences import Preferences

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
# Every page module the app may register (pages added by other parts of the project included); the broken-knowledge
# page is registered only when the knowledge does not load (tests/app/test_broken_knowledge.py).
PAGES = sorted(
    p.stem for p in (ROOT / "app_pages").glob("*.py") if not p.stem.startswith("_") and p.stem != "broken_knowledge"
)
DIMENSIONS = ("performance", "cost", "ecosystem", "risk")
UPLOADS = ROOT / "tests" / "fixtures" / "uploads"


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def opened(at: AppTest, key: str, tab: str | bool = True) -> AppTest:
    """`at` after the user opened what is drawn only while open (app_pages._widgets): the tab `tab` of the lazy
    tabs `key` (section_tabs), or, without a tab, the expander `key` (expander_drawn_when_open; Recommend's
    sub-criterion weights ``cw-box`` and must-haves ``must-box``)."""
    at.session_state[key] = tab
    return ok(at.run())


def downloads(at: AppTest, manager: MediaFileManager) -> dict[str, tuple[str, str, bytes]]:
    """The download buttons of the last run: key -> (file name, MIME type, bytes), as the button's address serves them.

    Every button must carry its file: a file that Streamlit makes on the click (a callable ``data``) is swept away by
    another session's run before a slow browser fetches it (app_pages/_cached.py).
    """
    found = {}
    for button in at.get("download_button"):
        assert button.proto.url and not button.proto.deferred_file_id, f"{button.proto.id} makes its file on the click"
        stored = manager.read_file(button.proto.url.rsplit("/", 1)[-1].split(".")[0])
        found[button.proto.id.rsplit("-", 1)[-1]] = (stored.filename, stored.mimetype, bytes(stored.content))
    return found


def markdown_tables(at: AppTest) -> list[pd.DataFrame]:
    """Every Markdown table the page shows, as the reader sees its cells (text, escapes resolved)."""
    found = []
    parser = MarkdownIt("commonmark").enable("table")
    for element in at.markdown:
        rows: list[list[str]] = []
        tokens = parser.parse(element.value)
        for i, token in enumerate(tokens):
            if token.type == "tr_open":
                rows.append([])
            elif token.type == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
                text = "".join(c.content for c in token.children or [] if c.type in ("text", "code_inline"))
                rows[-1].append(text.replace("\u2060", ""))  # the word joiner that keeps names from becoming links
        if rows:
            found.append(pd.DataFrame(rows[1:], columns=rows[0]))
    return found


def shown_ranking(at: AppTest) -> list[tuple[str, float]]:
    # rank, name and score, then the shortlist and filled-in counts when they say something (issue 34: a phone)
    tables = [t for t in markdown_tables(at) if list(t.columns)[:3] == ["rank", "name", "score"]]
    assert len(tables) == 1, "the Recommend page shows exactly one ranking table"
    return [(row["name"], float(row["score"])) for _, row in tables[0].iterrows()]


def expected_ranking(kb, prefs: Preferences) -> list[tuple[str, float]]:
    return [(r.name, r.score) for r in recommend.recommend(kb, prefs).ranking]


def same_ranking(shown: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    assert [n for n, _ in shown] == [n for n, _ in expected]
    # the page shows four decimals
    assert [s for _, s in shown] == pytest.approx([s for _, s in expected], rel=0, abs=5.1e-5)


def pref_params(at: AppTest) -> dict[str, str]:
    return {k: v for k, v in at.query_params.items() if k in ("group", "answers", "w", "cw", "method", "scaler")}


def shown_badges(at: AppTest) -> list:
    return [x for x in at.markdown if "weightings within ±10 points of yours" in x.value]


def shown_claims(at: AppTest):
    """The Evidence page's claims grid (every matching claim, every column), switched on if it is off."""
    if not any("quote_zh" in d.value.columns for d in at.dataframe):
        ok(at.toggle(key="ev-grid").set_value(True).run())
    (grid,) = [d.value for d in at.dataframe if "quote_zh" in d.value.columns]
    return grid


def markdown_table(at: AppTest, *columns: str) -> pd.DataFrame:
    """The one Markdown table of the page that has all of `columns`."""
    found = [t for t in markdown_tables(at) if set(columns) <= set(t.columns)]
    assert len(found) == 1, f"{len(found)} Markdown tables have the columns {columns}"
    return found[0]

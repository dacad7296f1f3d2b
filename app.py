"""Entry point of the Streamlit app: page setup, navigation and what every page shares (the session's knowledge,
the sidebar caption, the data-sources footer); every screen lives in app_pages/."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_pages import _lang
from app_pages._lang import _
from app_pages._session import knowledge_problems, load_session_kb
from app_pages._widgets import DATA_SOURCES_PAGE, data_sources_footer, knowledge_caption

# The page icon is a file of the app: a :material/...: or emoji icon would make the browser fetch it from a font server.
st.set_page_config(
    page_title="AI Stack Selector", page_icon=Path(__file__).parent / "app_pages" / "icon.svg", layout="wide"
)
_lang.settle()  # before any text: the link's `lang`, the session's or the browser's
if knowledge_problems():
    # Every page needs the knowledge: one page that says what is wrong beats an exception box on each of them.
    pages = [st.Page("app_pages/broken_knowledge.py", title=_("Knowledge cannot be loaded"), icon=":material/error:")]
    st.navigation(pages, position="top").run()
    st.stop()
page = st.navigation(
    [
        st.Page("app_pages/recommend.py", title=_("Recommend"), icon=":material/recommend:", default=True),
        st.Page("app_pages/frameworks.py", title=_("Frameworks"), icon=":material/view_module:"),
        st.Page("app_pages/accelerators.py", title=_("Accelerators"), icon=":material/memory:"),
        st.Page("app_pages/evidence.py", title=_("Evidence"), icon=":material/fact_check:"),
        st.Page("app_pages/techniques.py", title=_("Techniques and cases"), icon=":material/build:"),
        st.Page("app_pages/robustness.py", title=_("Robustness"), icon=":material/balance:"),
        st.Page("app_pages/my_data.py", title=_("My data"), icon=":material/upload_file:"),
        st.Page("app_pages/export.py", title=_("Export"), icon=":material/download:"),
        st.Page(DATA_SOURCES_PAGE, title=_("Data sources"), icon=":material/license:"),
    ],
    position="top",
)
# Before the page: the link is read and the uploads merged once per run, whichever page runs.
_lang.switch()
knowledge_caption(load_session_kb())
page.run()
data_sources_footer()

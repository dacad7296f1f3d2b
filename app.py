"""Entry point of the Streamlit app: page setup and navigation; every screen lives in app_pages/."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent

# (file, title, icon); pages another part of the project adds are listed only once their file exists.
PAGES = (
    ("app_pages/recommend.py", "Recommend", ":material/recommend:"),
    ("app_pages/frameworks.py", "Frameworks", ":material/view_module:"),
    ("app_pages/accelerators.py", "Accelerators", ":material/memory:"),
    ("app_pages/evidence.py", "Evidence", ":material/fact_check:"),
    ("app_pages/techniques.py", "Techniques and cases", ":material/build:"),
    ("app_pages/robustness.py", "Robustness", ":material/balance:"),
    ("app_pages/my_data.py", "My data", ":material/upload_file:"),
    ("app_pages/export.py", "Export", ":material/download:"),
)

st.set_page_config(page_title="AI Stack Selector", page_icon=":material/explore:", layout="wide")
pages = [
    st.Page(path, title=title, icon=icon, default=index == 0)
    for index, (path, title, icon) in enumerate(PAGES)
    if (HERE / path).is_file()
]
st.navigation(pages, position="top").run()

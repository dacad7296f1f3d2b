"""Entry point of the Streamlit app: page setup and navigation; every screen lives in app_pages/."""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="AI Stack Selector", page_icon=":material/explore:", layout="wide")
st.navigation(
    [
        st.Page("app_pages/recommend.py", title="Recommend", icon=":material/recommend:", default=True),
        st.Page("app_pages/frameworks.py", title="Frameworks", icon=":material/view_module:"),
        st.Page("app_pages/accelerators.py", title="Accelerators", icon=":material/memory:"),
        st.Page("app_pages/evidence.py", title="Evidence", icon=":material/fact_check:"),
        st.Page("app_pages/techniques.py", title="Techniques and cases", icon=":material/build:"),
        st.Page("app_pages/robustness.py", title="Robustness", icon=":material/balance:"),
        st.Page("app_pages/my_data.py", title="My data", icon=":material/upload_file:"),
        st.Page("app_pages/export.py", title="Export", icon=":material/download:"),
    ],
    position="top",
).run()

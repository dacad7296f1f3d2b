"""Shown instead of every page when the bundled knowledge does not load: what is wrong, where, and how to fix it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages._session import knowledge_problems

problems = knowledge_problems()
files = sorted({issue.file for issue in problems})
st.title("The knowledge base cannot be loaded")
st.error(
    f"{len(problems)} problem(s) in {len(files)} file(s) under knowledge/ stop the app: every page ranks, cites or "
    "lists what those files hold, so none is shown until they load."
)
st.dataframe(
    pd.DataFrame(
        [{"file": i.file, "line": i.line, "record": i.record or "", "problem": i.message} for i in problems],
        columns=["file", "line", "record", "problem"],
    ).astype({"line": "Int64"}),
    hide_index=True,
    width="stretch",
    key="broken-knowledge-problems",
)
st.subheader("How to fix it")
st.markdown(
    "1. Open each file at the line shown and change what the problem says (each message says what to write "
    "instead).\n"
    "2. Check the whole knowledge from a terminal: `python -m selector validate` prints the same list and exits "
    "with status 2 until it is empty.\n"
    "3. Reload this page: the app reads the files again."
)

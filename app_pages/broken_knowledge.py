"""Shown instead of every page when the bundled knowledge does not load: what is wrong, where, and how to fix it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages._lang import _
from app_pages._session import knowledge_problems

problems = knowledge_problems()
files = sorted({issue.file for issue in problems})
st.title(_("The knowledge base cannot be loaded"))
st.error(
    _(
        "{problems} problem(s) in {files} file(s) under knowledge/ stop the app: every page ranks, cites or lists what "
        "those files hold, so none is shown until they load."
    ).format(problems=len(problems), files=len(files))
)
# the columns in the reader's language; the messages themselves are the validator's (selector.knowledge)
columns = {"file": _("file"), "line": _("line"), "record": _("record"), "problem": _("problem")}
st.dataframe(
    pd.DataFrame(
        [{"file": i.file, "line": i.line, "record": i.record or "", "problem": i.message} for i in problems],
        columns=list(columns),
    )
    .astype({"line": "Int64"})
    .rename(columns=columns),
    hide_index=True,
    width="stretch",
    key="broken-knowledge-problems",
)
st.subheader(_("How to fix it"))
st.markdown(
    "\n".join(
        (
            _(
                "1. Open each file at the line shown and change what the problem says (each message says what to "
                "write instead)."
            ),
            _(
                "2. Check the whole knowledge from a terminal: `python -m selector validate` prints the same list and "
                "exits with status 2 until it is empty."
            ),
            _("3. Reload this page: the app reads the files again."),
        )
    )
)

"""Neutralising spreadsheet formulas in CSV output (CSV/formula injection).

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return can be run as a formula when the
file is opened in a spreadsheet; OWASP's advice is to prefix such cells with a single quote so they are shown as
text. Only strings are changed: numbers (a negative score) are written as numbers.
"""

from __future__ import annotations

from typing import Any

#: First characters that make a spreadsheet treat a cell as a formula.
FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """Return ``value`` with a leading single quote if it is a string a spreadsheet would run as a formula.

    Parameters
    ----------
    value : Any
        A cell value; anything that is not a ``str`` is returned unchanged.

    Returns
    -------
    Any
        ``"'" + value`` for a dangerous string, otherwise ``value`` itself.
    """
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def safe_frame(df: Any) -> Any:
    """Return a copy of a pandas DataFrame whose text cells, column labels and index labels are neutralised.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    pandas.DataFrame
        A new frame; numeric columns are left as they are, ``df`` is not modified.
    """
    import pandas as pd

    out = df.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]) and not pd.api.types.is_bool_dtype(out[column]):
            out[column] = out[column].map(neutralise)
    out.columns = out.columns.map(neutralise)
    out.index = out.index.map(neutralise)
    out.index.name = neutralise(df.index.name)
    return out

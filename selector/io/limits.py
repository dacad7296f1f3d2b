"""How much one user input may hold and cost: caps derived from the documented maximum upload, and a gate on checks.

The documented maximum is a CSV of ``MAX_CSV_ROWS`` rows (docs/USER_DATA.md). Every cap on what a user sends (an
upload, a file embedded in a profile or a link, an ``--extra`` file) follows from it, so that the worst input
within the caps costs a bounded time and memory (``benchmarks/bench_limits.py`` builds it and measures):

- values (YAML nodes): what that CSV becomes with every column filled, counted while the YAML is composed;
- records: at most ``MAX_CSV_ROWS`` per list (sources, entities, claims, groups), checked before the schema runs;
- issues: at most ``MAX_ISSUES`` listed per check, then one line saying how many more there are;
- checks at once: at most ``MAX_CONCURRENT_CHECKS`` per server process, so two tabs cannot double the peak.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from selector.errors import SelectorError
from selector.issues import Issue

#: Rows of the largest CSV upload (docs/USER_DATA.md).
MAX_CSV_ROWS = 2_000
#: Values one CSV row becomes in knowledge YAML when every column is filled and the row declares a new entity
#: (tests/io/test_limits.py converts such a CSV and checks this figure).
VALUES_PER_ROW = 37
#: Values (after alias expansion) a user's YAML file may hold: the largest CSV, converted, with a row to spare.
MAX_UPLOAD_VALUES = (MAX_CSV_ROWS + 1) * VALUES_PER_ROW
#: Records per list (sources, entities, claims, groups) in a user's file.
MAX_RECORDS = MAX_CSV_ROWS
#: Issues listed per check; a file with more says how many more (fixing the first ones usually fixes the rest).
MAX_ISSUES = 200
#: Checks of users' files running at once in one server process; the next waits up to ``CHECK_WAIT_S``.
MAX_CONCURRENT_CHECKS = 2
CHECK_WAIT_S = 30.0

_GATE = threading.BoundedSemaphore(MAX_CONCURRENT_CHECKS)


class Busy(SelectorError, RuntimeError):
    """Every check slot stayed taken for ``CHECK_WAIT_S``: the server is checking other users' files."""


@contextmanager
def checking(wait_s: float | None = None) -> Iterator[None]:
    """Hold one of the ``MAX_CONCURRENT_CHECKS`` slots while checking a user's files.

    Parameters
    ----------
    wait_s
        How long to wait for a slot (default ``CHECK_WAIT_S``, read at each call).

    Raises
    ------
    Busy
        When no slot frees within `wait_s` (the message says to try again).
    """
    if not _GATE.acquire(timeout=CHECK_WAIT_S if wait_s is None else wait_s):
        raise Busy(f"the server is checking other files ({MAX_CONCURRENT_CHECKS} at a time); try again in a moment")
    try:
        yield
    finally:
        _GATE.release()


def capped(issues: Sequence[Issue], limit: int = MAX_ISSUES) -> list[Issue]:
    """The first `limit` issues (errors before warnings, each in file order), then one saying how many more.

    Parameters
    ----------
    issues
        Every issue found.
    limit
        How many to list.

    Returns
    -------
    list of Issue
        At most ``limit + 1`` issues; the last, when some were left out, is an ERROR if any left out is one.
    """
    if len(issues) <= limit:
        return list(issues)
    ordered = [i for i in issues if i.level == "ERROR"] + [i for i in issues if i.level != "ERROR"]
    shown, rest = ordered[:limit], ordered[limit:]
    files = sorted({i.file for i in rest})
    level = "ERROR" if any(i.level == "ERROR" for i in rest) else "WARNING"
    where = files[0] if len(files) == 1 else f"{len(files)} files"
    return [
        *shown,
        Issue(level, where, None, None, f"and {len(rest):,} more problem(s) not listed; fix those above first"),
    ]


def too_many_records(data: object) -> list[tuple[str, int]]:
    """The lists of a parsed user file that hold more than ``MAX_RECORDS`` records: ``(list name, count)``."""
    if not isinstance(data, dict):
        return []
    return [
        (str(key), len(value)) for key, value in data.items() if isinstance(value, list) and len(value) > MAX_RECORDS
    ]

"""How `make test` spreads the tests over the cores (pytest-xdist, ``--dist loadgroup``): the real-browser tests form
one group that a single worker runs one after another, while the other workers share every other test one at a time.

The browser tests serve the app and launch chromium from fixtures that live once per process (tests/e2e/conftest.py,
pytest-playwright): in one worker they start one server and one browser, as in a serial run; spread over several
workers they would start one of each per worker and compete for the same cores. They wait on the served page most
of the time, so the other workers use the cores meanwhile.

xdist's own ``loadgroup`` reads ``xdist_group`` marks by appending the group to each test's node id, which pytest 9.2
no longer reads (a node keeps its id elsewhere); so the scheduler here recognises a browser test by its node id, and
tests/conftest.py fails the collection of any test whose node id and ``e2e`` marker disagree.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

#: The work unit that holds every browser test.
BROWSER_GROUP = "browser"
# pytest-playwright parametrizes every test that uses a browser fixture by the browser's name (tests/e2e/conftest.py
# launches Debian's chromium): the name is one of the test's parameter ids.
_BROWSER = "chromium"


def in_browser_group(nodeid: str) -> bool:
    """Whether the test `nodeid` is a browser test: it lives in tests/e2e or is parametrized by the browser."""
    path, _, rest = nodeid.partition("::")
    params = rest.partition("[")[2].removesuffix("]")
    return path.startswith("tests/e2e/") or _BROWSER in params.split("-")


class BrowserGroupScheduling(LoadScopeScheduling):
    """xdist's scheduling by work units, where a unit is either one test or :data:`BROWSER_GROUP`, every browser
    test together (sent first: the largest unit)."""

    def _split_scope(self, nodeid: str) -> str:
        return BROWSER_GROUP if in_browser_group(nodeid) else nodeid

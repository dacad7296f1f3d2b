"""Shared test fixtures: where the bundled knowledge and the test fixtures live, and scratch copies of the knowledge."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BROKEN = FIXTURES / "broken"

# Property tests check results, not speed (speed lives in benchmarks/): a loaded CI machine must not fail them on
# hypothesis's default 200 ms per-example deadline. `make test` draws the same examples on every run (derandomize):
# a fresh clone cannot turn red on an input no earlier run saw. `make explore` draws new ones on every run (2,000
# per test where a test sets no count of its own); what it finds is fixed and kept as an explicit @example, which
# every later `make test` then checks.
settings.register_profile("project", deadline=None, derandomize=True)
settings.register_profile("explore", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))


def pytest_configure(config: pytest.Config) -> None:
    """Keep the parse cache of this run (selector.parse_cache) in a folder of its own: tests neither read a cache
    left by another run nor write into the user's; command-line runs started by tests inherit it."""
    os.environ["SELECTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="selector-parse-cache-")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark everything under tests/e2e/ as `e2e`, so ``pytest -m "not e2e"`` skips the real-browser tests."""
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if e2e in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def bundled_knowledge() -> Path:
    """The knowledge directory shipped with the app (read-only: copy it before changing anything)."""
    return KNOWLEDGE


@pytest.fixture
def base_knowledge(tmp_path: Path) -> Path:
    """A scratch knowledge directory with the sources, their documents, the entities and the metric vocabulary, but
    no claims or rules.

    Tests of the loader's error reporting start from this so that their expectations (exactly these issues)
    do not depend on the bundled claim and decision files, which change as the knowledge grows.
    """
    target = tmp_path / "knowledge"
    target.mkdir()
    shutil.copy2(KNOWLEDGE / "sources.yaml", target / "sources.yaml")
    shutil.copytree(KNOWLEDGE / "sources", target / "sources")
    shutil.copytree(KNOWLEDGE / "entities", target / "entities")
    shutil.copy2(KNOWLEDGE / "metrics.yaml", target / "metrics.yaml")
    return target


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    """A scratch copy of the whole bundled knowledge directory, free to edit."""
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, target)
    return target

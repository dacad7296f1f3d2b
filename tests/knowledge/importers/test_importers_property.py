"""Every dataset importer under mutations of its real bundled raw snapshot (hypothesis): the import either gives
claims whose values are finite numbers within their metric's bounds, each claim id once, or refuses with an
ImportFailure naming the raw file; never another exception, never a hang.

Mutations are of two kinds: a number of the snapshot replaced by what hostile or broken files hold there (``1e``,
``.``, ``null``, ``700,5``, a 400-digit integer, ``1e400``, a negative or zero value, deep nesting), and a few
characters of the text replaced by such pieces or random text. The importers run end to end
(:func:`selector.knowledge.importers.run`) against a scratch copy of the knowledge, so the bundled files are never
touched.
"""

from __future__ import annotations

import functools
import math
import re
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from selector.knowledge import importers, vocabulary
from selector.knowledge.locators import RAW_DIR
from tests.conftest import KNOWLEDGE
from tests.examples import examples

# what a broken or hostile snapshot puts where a number belongs, or anywhere
PIECES = [
    "",
    "1e",
    ".",
    "abc",
    "null",
    "true",
    "-5",
    "0",
    "-0",
    "1e400",
    "1e296",
    "9" * 400,
    "700,5",
    "1,234",
    "NaN",
    "Infinity",
    "[" * 300,
    "{",
    '"',
    ",",
    "\n",
    "\x00",
    "\u202e",
]
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")
#: Per example: the slowest import (the 2 MB MLPerf JSON) takes about a second here.
MAX_SECONDS = 60


@functools.cache
def _spans(path: Path) -> tuple[str, tuple[tuple[int, int], ...]]:
    text = path.read_text(encoding="utf-8")
    return text, tuple(m.span() for m in _NUMBER.finditer(text))


@st.composite
def mutated(draw: st.DrawFn, path: Path) -> str:
    """The text of `path` with one to three numbers replaced, or a few characters replaced, by hostile pieces, or
    the whole wrapped in another shape."""
    text, spans = _spans(path)
    shape = draw(st.integers(0, 9))
    if shape == 0:  # the same data in another shape: a list where an object belongs, or the reverse
        return f"[{text}]" if text.lstrip().startswith("{") else '{"x": ' + text + "}"
    if spans and shape % 2:
        for start, end in sorted(draw(st.lists(st.sampled_from(spans), min_size=1, max_size=3, unique=True)))[::-1]:
            text = text[:start] + draw(st.sampled_from(PIECES)) + text[end:]
        return text
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=6))
        text = text[:start] + piece + text[start + draw(st.integers(0, 8)) :]
    return text


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the importers read (dataset records, metrics, entities, imports with their raw snapshots)."""
    root = tmp_path_factory.mktemp("knowledge")
    for name in ("datasets.yaml", "metrics.yaml"):
        shutil.copy2(KNOWLEDGE / name, root / name)
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copytree(KNOWLEDGE / "imports", root / "imports")
    return root


@pytest.fixture(scope="module", autouse=True)
def _records_read_once(scratch: Path) -> object:
    """The importers read the dataset records and entities of the knowledge at every run; the mutations never
    change them, so they are read once here (the raw snapshot, the alias table and the flags are read each time)."""
    real = importers._records
    patcher = pytest.MonkeyPatch()
    patcher.setattr(importers, "_records", functools.cache(real))
    yield
    patcher.undo()


def check_import(scratch: Path, dataset: str, raw: Path, text: str) -> None:
    """Import `dataset` with `raw` (a path under the scratch knowledge) replaced by `text`, then restore it."""
    original = raw.read_bytes()
    raw.write_text(text, encoding="utf-8", errors="surrogatepass")
    metrics = {m.id: m for m in importers._records(scratch, "metrics.yaml", "metrics")}
    start = time.monotonic()
    try:
        _, imported = importers.run(dataset, importers.bundled_raws(dataset, scratch), scratch)
    except importers.ImportFailure as exc:
        assert str(exc), "a refusal says why"
        event("refused")
        return
    finally:
        raw.write_bytes(original)
        assert time.monotonic() - start < MAX_SECONDS
    event("imported")
    ids = [c["id"] for c in imported.claims]
    assert len(ids) == len(set(ids))
    for claim in imported.claims:
        value = claim.get("value")
        if value is None:
            continue
        assert isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        assert vocabulary.bound_problem(metrics, claim["metric"], value, str(value)) is None, claim


def raw_file(scratch: Path, relative: str) -> Path:
    return scratch / RAW_DIR / relative


SMALL = {
    "epoch-ml-hardware": "epoch-ml-hardware/ml_hardware.csv",
    "fsdl-cloud-gpus": "fsdl-cloud-gpus/cloud-gpus.csv",
    "fsdl-cloud-gpus/dates": "fsdl-cloud-gpus/row-dates.csv",
    "accelmark/pricing": "accelmark/schema/cloud_pricing.json",
    "accelmark": next(
        p.relative_to(KNOWLEDGE / RAW_DIR).as_posix()
        for p in importers.bundled_raws("accelmark", KNOWLEDGE)
        if p.name == "result.json"
    ),
}
LARGE = {
    "mlperf-inference-v5.1": "mlperf-inference-v5.1/summary_results.json",
    "pypi-simple": "pypi-simple/projects.json",
}
HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]  # the scratch copy is restored per example


@pytest.mark.parametrize("case", sorted(SMALL))
@settings(max_examples=examples(40), deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_a_mutated_snapshot_imports_within_bounds_or_is_refused(scratch: Path, case: str, data: st.DataObject) -> None:
    raw = raw_file(scratch, SMALL[case])
    check_import(scratch, case.split("/")[0], raw, data.draw(mutated(KNOWLEDGE / RAW_DIR / SMALL[case])))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(LARGE))
@settings(max_examples=examples(15), deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_a_mutated_large_snapshot_imports_within_bounds_or_is_refused(
    scratch: Path, case: str, data: st.DataObject
) -> None:
    raw = raw_file(scratch, LARGE[case])
    check_import(scratch, case, raw, data.draw(mutated(KNOWLEDGE / RAW_DIR / LARGE[case])))


def test_the_unmutated_snapshots_import(scratch: Path) -> None:
    """The property above is not vacuous: every snapshot as bundled imports with claims."""
    for dataset in importers.MODULES:
        _, imported = importers.run(dataset, importers.bundled_raws(dataset, scratch), scratch)
        assert imported.claims, dataset

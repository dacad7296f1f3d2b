"""The Python Package Index's JSON simple API (bundled, trimmed) -> ``reference`` claims on software upkeep and reach.

Per project the alias table maps to an entity: final releases in the 12 months up to the fetch date, days since
the newest final release, and the operating systems and CPU architectures the newest release with platform wheels
covers (a project shipping source or pure-Python files only gets no platform claims: its files do not say where
it runs). Each number is re-read by validation through the same :mod:`selector.knowledge.releases` code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge import releases
from selector.knowledge.importers import Alias, Imported, ImportFailure, load_table, locator, value
from selector.knowledge.locators import ENTRY_KEY, RawError, read_table

DATASET = "pypi-simple"
COLUMN = "files"
# conversion -> (metric, unit, kind, claim id suffix)
FIGURES = {
    "pypi_releases_12m": ("releases_per_year", "releases", "trend", "releases-12m"),
    "pypi_days_since_release": ("days_since_release", "days", "trend", "days-since-release"),
    "pypi_os_count": ("platform_os_count", "operating systems", "spec", "os"),
    "pypi_arch_count": ("platform_arch_count", "architectures", "spec", "arch"),
}


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``projects.json`` (exactly one raw file: one member per project, ``_meta`` its notes).

    Raises
    ------
    ImportFailure
        On a project without ``versions``/``files``, a file without name or time, or a project without release.
    """
    if len(raws) != 1:
        raise ImportFailure(f"{DATASET} takes one raw file (projects.json), got {len(raws)}")
    _, file = load_table(raws[0], knowledge_dir)
    try:
        table = read_table(raws[0], str(raws[0]), key_of_entries=True)
    except RawError as exc:
        raise ImportFailure(str(exc)) from None
    imported = Imported()
    found = []
    for row, position in zip(table.rows, table.positions, strict=True):
        project = row[ENTRY_KEY]
        if project.startswith("_"):
            continue  # `_meta`: how the snapshot was taken, not a project
        entity = imported.entity(aliases, project)
        if entity is not None:
            found.append((entity, project, row, position))
    for entity, project, row, position in sorted(found, key=lambda f: (f[0], f[1])):
        imported.claims.extend(_claims(entity, project, row, position, table, file, dataset))
    return imported


def _claims(entity: str, project: str, row: Mapping, position: str, table: Any, file: str, dataset: Any) -> list:  # noqa: ANN401
    where = f"{table.path}, {position}"
    try:
        release, systems, arches = releases.platforms(row, where)
    except releases.ReleaseError:
        release, systems, arches = None, (), ()
    fetched = str(row.get("fetched"))
    words = {
        "pypi_releases_12m": lambda n: f"{n:g} final releases in the 12 months up to {fetched}",
        "pypi_days_since_release": lambda n: f"{n:g} days since its newest final release (as of {fetched})",
        "pypi_os_count": lambda n: f"release {release} has wheels for {n:g} operating systems ({', '.join(systems)})",
        "pypi_arch_count": lambda n: f"release {release} has wheels for {n:g} CPU architectures ({', '.join(arches)})",
    }
    claims = []
    for conversion, (metric, unit, kind, suffix) in FIGURES.items():
        if conversion in ("pypi_os_count", "pypi_arch_count") and release is None:
            continue
        number = value(row, COLUMN, conversion, table, position)
        claims.append(
            {
                "id": f"pypi-{entity}-{_slug(project)}-{suffix}",
                "source": DATASET,
                "tier": "reference",
                "kind": kind,
                "text_en": f"{project} on the Python Package Index: {words[conversion](number)} (JSON simple API).",
                "about": [entity],
                "metric": metric,
                "value": number,
                "unit": unit,
                "conditions": {"scope": "Python Package Index releases"},
                "locator": locator(dataset, dataset.upstream[0], file, project, COLUMN, conversion),
            }
        )
    return claims


def _slug(project: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in project.lower()).strip("-")

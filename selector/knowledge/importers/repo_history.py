"""Public repositories' history (one derived row per repository) -> ``reference`` claims on upkeep and community.

The raw table is what ``scripts/repo_history.py`` derives from a git snapshot of each repository, with the commit
it read: commits and distinct author addresses in the 12 months up to the snapshot date, days since the newest
commit, the top organisation's share of those commits (by e-mail domain), the age of the history and the licence
file's SPDX id. The licence is stated in the claims' text; the numbers are re-read by validation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge.importers import Alias, Imported, NamedTable, locator, named_rows, value

DATASET = "repo-history"
NAME = "repository"
# raw column -> (metric, unit, kind, claim id suffix, what the number is, in words)
COLUMNS: dict[str, tuple[str, str, str, str, str]] = {
    "commits_12m": ("repo_commits_12m", "commits", "trend", "commits-12m", "commits (merges left out) in 12 months"),
    "authors_12m": ("repo_authors_12m", "authors", "trend", "authors-12m", "distinct author addresses in 12 months"),
    "days_since_commit": (
        "repo_days_since_commit",
        "days",
        "trend",
        "days-since-commit",
        "days since the newest commit",
    ),
    "top_domain_share_pct": (
        "repo_top_org_share",
        "%",
        "trend",
        "top-org-share",
        "share of the 12 months' commits from the top organisation's e-mail domain",
    ),
    "age_years": ("repo_age_years", "years", "spec", "age", "years since the first commit"),
}
TEXT_COLUMNS = ("commit", "snapshot_date", "window_start", "top_domain", "top_domain_commits", "licence_spdx")
TABLE = NamedTable(DATASET, "history.csv", NAME, (*COLUMNS, *TEXT_COLUMNS), listed_as="repository")


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``history.csv`` (exactly one raw file, one row per repository).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric figure, or a repository listed twice.
    """
    imported = Imported()
    table, file, rows = named_rows(TABLE, raws, knowledge_dir, imported, aliases)
    upstream = dataset.upstream[0]
    for entity, name, row, position in sorted(rows, key=lambda r: (r[0], r[1])):
        for column, (metric, unit, kind, suffix, words) in COLUMNS.items():
            number = value(row, column, "none", table, position)
            imported.claims.append(
                {
                    "id": f"repo-{entity}-{suffix}",
                    "source": DATASET,
                    "tier": "reference",
                    "kind": kind,
                    "text_en": f"{name}: {words}: {number:g}{_detail(column, row)} (git history at commit "
                    f"{str(row['commit'])[:12]}, {row['window_start']} to {row['snapshot_date']}; licence "
                    f"{row['licence_spdx'] or 'not recognised'}).",
                    "about": [entity],
                    "metric": metric,
                    "value": number,
                    "unit": unit,
                    "conditions": {"scope": "public repository history"},
                    "locator": locator(dataset, upstream, file, name, column, "none"),
                }
            )
    return imported


def _detail(column: str, row: Mapping[str, Any]) -> str:
    if column != "top_domain_share_pct":
        return ""
    if not str(row["top_domain"]).strip():
        return " (no organisation domain used by two or more authors)"
    return f" ({row['top_domain']}, {row['top_domain_commits']} commits)"

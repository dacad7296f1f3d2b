"""The Accelerators page's spec explorer: each accelerator's datasheet columns, with where every number comes from.

One value per accelerator and column, chosen by the decision matrix's own rule (the strongest tier present, the
median of that tier's claims), so the explorer shows the number a ranking would use. Every value keeps its
provenance (tier, dataset, raw row key, retrieval and snapshot dates, footnote) for the chart's hover labels and
the table under it. The release year is read from the Epoch AI row an accelerator's datasheet claims point at.
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from selector import i18n
from selector.decision.matrix import claims_for_cell
from selector.knowledge import provenance
from selector.knowledge.locators import RawError, Snapshots, lookup
from selector.knowledge.models import TIERS, Claim, KnowledgeBase
from selector.memo import PerKnowledge, PerObject

# The spec columns the user picks axes among, as criteria of the knowledge (their metric, unit and conditions
# decide which claims count); a criterion the knowledge lacks is left out.
SPEC_CRITERIA = (
    "memory-capacity",
    "memory-bandwidth",
    "bf16-tflops",
    "int8-tops",
    "tdp-w",
    "release-price-usd",
    "cloud-usd-per-gpu-hour",
)
RELEASE_YEAR = "release-year"
# Where release dates are read: the dataset and its column (each row is named by an accelerator's locators).
RELEASE_DATASET = "epoch-ml-hardware"
RELEASE_COLUMN = "Release date"
UNKNOWN = "unknown"
# A value resting on several claims names this many of their rows, then how many more.
MAX_ROWS_NAMED = 3

COLUMNS = (
    "entity_id",
    "name",
    "vendor",
    "segment",
    "release_year",
    "column",
    "label",
    "unit",
    "value",
    "tier",
    "claims",
    "source",
    "rows",
    "retrieved",
    "snapshot",
    "ageing",
    "footnote",
    "note",
)

_YEAR = re.compile(r"^\s*(\d{4})(?:-\d{2}(?:-\d{2})?)?\s*$")
_VALUES = PerKnowledge(8)
_EXPLORED = PerKnowledge(64)


def spec_columns(kb: KnowledgeBase, lang: i18n.Language = "en") -> dict[str, str]:
    """The axes a user can pick: column id -> label with unit, in :data:`SPEC_CRITERIA` order, then release year;
    in `lang` where the knowledge has the criterion's name in it."""
    found = {
        c: i18n.pick(lang, kb.criteria[c].name_en, kb.criteria[c].name_zh) for c in SPEC_CRITERIA if c in kb.criteria
    }
    _ = i18n.translator(lang)
    found[RELEASE_YEAR] = _("Release year")
    return found


def _rows_text(claims: Sequence[Claim]) -> str:
    rows = [c.locator.row for c in claims if c.locator is not None]
    if not rows:
        return ""
    more = len(rows) - MAX_ROWS_NAMED
    return "; ".join(rows[:MAX_ROWS_NAMED]) + (f"; and {more} more" if more > 0 else "")


def _provenance(kb: KnowledgeBase, used: Sequence[Claim], today: dt.date | None) -> dict:
    """What a value rests on: its claims' sources, raw rows, dates and footnotes, joined when there are several."""
    sources = list(dict.fromkeys(c.source for c in used))
    retrieved = sorted({c.locator.retrieved for c in used if c.locator is not None})
    snapshots = sorted({provenance.snapshot_date(c, kb) for c in used} - {""})
    footnotes = list(dict.fromkeys(provenance.footnote(c) for c in used if c.locator is not None))
    footnote = footnotes[0] if footnotes else ""
    if len(footnotes) > 1:
        footnote = f"{len(footnotes)} rows; first: {footnote}"
    return {
        "claims": ", ".join(c.id for c in used),
        "source": "; ".join(
            kb.sources[s].title_en if s in kb.sources and kb.sources[s].kind == "dataset" else s for s in sources
        ),
        "rows": _rows_text(used),
        "retrieved": " / ".join(retrieved),
        "snapshot": " / ".join(snapshots),
        "ageing": any(provenance.is_ageing(c, kb, today) for c in used),
        "footnote": footnote,
    }


def release_dates(kb: KnowledgeBase, knowledge_dir: Path) -> dict[str, dict]:
    """Each accelerator's release date from the raw Epoch AI row its datasheet claims point at.

    Returns entity id -> ``{"date", "year", "claims", "source", "rows", "retrieved", "snapshot", "footnote"}``;
    accelerators without such a row, or whose row gives no date, are absent. A raw snapshot that cannot be read
    (a knowledge directory without ``imports/raw``) gives no dates rather than an error: the explorer then
    offers every accelerator without a release-year filter value.
    """
    source = kb.sources.get(RELEASE_DATASET)
    if source is None:
        return {}
    snapshots = Snapshots(knowledge_dir)
    by_entity: dict[str, Claim] = {}
    for claim in sorted(kb.claims.values(), key=lambda c: c.id):
        if claim.locator is not None and claim.locator.dataset == RELEASE_DATASET:
            by_entity.setdefault(claim.subject_id, claim)
    found = {}
    for entity_id, claim in by_entity.items():
        spec = source.table_for(claim.locator.file)
        if spec is None:
            continue
        try:
            row = snapshots.row(claim.locator.file, claim.locator.row, spec.key)
            raw = str(lookup(row, RELEASE_COLUMN, f"{claim.locator.file} row {claim.locator.row!r}"))
        except RawError:
            continue
        match = _YEAR.match(raw)
        if match is None:
            continue
        found[entity_id] = {
            "date": raw.strip(),
            "year": int(match.group(1)),
            "claims": claim.id,
            "source": source.title_en,
            "rows": claim.locator.row,
            "retrieved": claim.locator.retrieved,
            "snapshot": source.snapshot_date or "",
            "footnote": f"{RELEASE_DATASET}; row {claim.locator.row!r}; column {RELEASE_COLUMN!r}; "
            f"retrieved {claim.locator.retrieved}; {claim.locator.licence}",
        }
    return found


def _compute(kb: KnowledgeBase, today: dt.date | None, knowledge_dir: Path, use_flagged: bool) -> pd.DataFrame:
    dates = release_dates(kb, knowledge_dir)
    tier_rank = {t: i for i, t in enumerate(TIERS)}
    rows = []
    for entity in sorted(kb.entities.values(), key=lambda e: e.name.casefold()):
        if entity.kind != "accelerator":
            continue
        base = {
            "entity_id": entity.id,
            "name": entity.name,
            "vendor": kb.entity_name(entity.vendor) if entity.vendor else UNKNOWN,
            "segment": entity.segment,
            "release_year": float(dates[entity.id]["year"]) if entity.id in dates else float("nan"),
        }
        for column in SPEC_CRITERIA:
            criterion = kb.criteria.get(column)
            if criterion is None or criterion.derived is not None:
                continue
            claims = claims_for_cell(kb, criterion, entity.id, use_flagged)
            if not claims:
                continue
            used = [c for c in claims if tier_rank[c.tier] == tier_rank[claims[0].tier]]
            note = f"median of {len(used)} {used[0].tier} claims" if len(used) > 1 else ""
            rows.append(
                {
                    **base,
                    "column": column,
                    "label": criterion.name_en,
                    "unit": criterion.unit,
                    "value": float(statistics.median(c.value for c in used)),
                    "tier": used[0].tier,
                    **_provenance(kb, used, today),
                    "note": note,
                }
            )
        if entity.id in dates:
            date = dates[entity.id]
            rows.append(
                {
                    **base,
                    "column": RELEASE_YEAR,
                    "label": "Release year",
                    "unit": "year",
                    "value": float(date["year"]),
                    "tier": "reference",
                    **{k: date[k] for k in ("claims", "source", "rows", "retrieved", "snapshot", "footnote")},
                    "ageing": False,  # a release date does not go stale
                    "note": f"released {date['date']}",
                }
            )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame.astype({"value": "float64", "release_year": "float64", "ageing": "bool"})


def spec_values(
    kb: KnowledgeBase, knowledge_dir: Path, today: dt.date | None = None, use_flagged: bool = True
) -> pd.DataFrame:
    """Every accelerator's spec values, one row per (accelerator, column), with their provenance.

    Parameters
    ----------
    kb
        The knowledge (bundled, or merged with a user's uploads: a measured value outranks a datasheet's).
    knowledge_dir
        The knowledge directory whose ``imports/raw/`` holds the raw snapshots (for release dates).
    today
        The date ages are counted to (default: today, UTC); a value from a snapshot older than
        :data:`selector.knowledge.provenance.AGEING_MONTHS` is marked ``ageing``.
    use_flagged
        False leaves flagged claims out, as the ranking's toggle does.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`. Kept per knowledge base; the frame is shared, so callers must not change it.
    """
    today = today or dt.datetime.now(dt.UTC).date()
    key = (str(knowledge_dir), today, use_flagged)
    return _VALUES.get(kb, key, lambda: _compute(kb, today, Path(knowledge_dir), use_flagged))


@dataclass(frozen=True)
class ExplorerChoices:
    """What the spec explorer's filters and axes can offer for one frame of spec values (:func:`spec_values`)."""

    segments: tuple[str, ...]  # the segments some accelerator is in, in the frame's first-seen order
    vendors: tuple[str, ...]  # every vendor, sorted without regard to case
    years: tuple[int, int] | None  # the first and last known release year; None when fewer than two years are known
    columns: frozenset[str]  # the spec columns holding at least one value
    units: dict[str, str]  # column -> its unit


# Per shared frame of spec values: the page offers the same choices on every visit of every session.
_CHOICES = PerObject(8)


def explorer_choices(values: pd.DataFrame) -> ExplorerChoices:
    """The choices :func:`spec_values`'s frame offers: segments, vendors and release years among its accelerators,
    the columns with values and their units. Kept per frame (which is shared and unchanged); read-only."""
    return _CHOICES.get(values, None, lambda: _choices(values))


def _choices(values: pd.DataFrame) -> ExplorerChoices:
    first = values.drop_duplicates("entity_id")
    years = first["release_year"].dropna()
    return ExplorerChoices(
        segments=tuple(dict.fromkeys(first["segment"].dropna())),
        vendors=tuple(sorted(first["vendor"].unique(), key=str.casefold)),
        years=(int(years.min()), int(years.max())) if years.nunique() > 1 else None,
        columns=frozenset(values["column"]),
        units=dict(zip(values["column"], values["unit"], strict=False)),
    )


def filter_values(
    values: pd.DataFrame,
    segments: Sequence[str] = (),
    vendors: Sequence[str] = (),
    years: tuple[int, int] | None = None,
    include_unknown_year: bool = True,
) -> pd.DataFrame:
    """The rows of :func:`spec_values` of accelerators in `segments` and `vendors` (empty: all), released within
    `years` (inclusive; None: any year); accelerators without a known release year stay only with
    `include_unknown_year`."""
    keep = pd.Series(True, index=values.index)
    if segments:
        keep &= values["segment"].isin(list(segments))
    if vendors:
        keep &= values["vendor"].isin(list(vendors))
    if years is not None:
        known = values["release_year"].between(years[0], years[1])
        keep &= known | (values["release_year"].isna() & include_unknown_year)
    return values[keep]


_PAIR_FIELDS = ("value", "tier", "claims", "source", "rows", "retrieved", "snapshot", "ageing", "footnote", "note")


def axis_pairs(values: pd.DataFrame, x: str, y: str) -> pd.DataFrame:
    """One row per accelerator with both an `x` and a `y` value: name, vendor, segment, release year, and each
    axis's value and provenance as ``x_value``, ``x_tier``, ... ``y_note``; sorted by name.

    Raises
    ------
    ValueError
        When `x` and `y` are the same column.
    """
    if x == y:
        raise ValueError(f"pick two different columns for the axes (both are {x!r})")
    keys = ["entity_id", "name", "vendor", "segment", "release_year"]
    sides = []
    for axis, column in (("x", x), ("y", y)):
        part = values.loc[values["column"] == column, keys + list(_PAIR_FIELDS)]
        sides.append(part.rename(columns={f: f"{axis}_{f}" for f in _PAIR_FIELDS}))
    pairs = sides[0].merge(sides[1].drop(columns=keys[1:]), on="entity_id", how="inner")
    return pairs.sort_values("name", key=lambda s: s.str.casefold(), kind="stable").reset_index(drop=True)


def explorer_table(pairs: pd.DataFrame, x_label: str, y_label: str) -> pd.DataFrame:
    """The points of the chart as a readable table: each axis's value beside its tier, source, snapshot date,
    age and footnote (the same provenance the hover labels show)."""
    rows = []
    for _, row in pairs.iterrows():
        record = {"accelerator": row["name"], "vendor": row["vendor"], "segment": row["segment"]}
        for axis, label in (("x", x_label), ("y", y_label)):
            record[label] = row[f"{axis}_value"]
            record[f"{label}: tier"] = row[f"{axis}_tier"]
            record[f"{label}: source"] = row[f"{axis}_source"]
            record[f"{label}: as of"] = row[f"{axis}_snapshot"]
            record[f"{label}: ageing"] = bool(row[f"{axis}_ageing"])
            record[f"{label}: footnote"] = row[f"{axis}_footnote"] or row[f"{axis}_claims"]
        rows.append(record)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Explored:
    """What the explorer shows for one choice of filters and axes (shared: read-only for callers)."""

    shown: pd.DataFrame  # the rows of spec_values the filters keep
    pairs: pd.DataFrame  # axis_pairs of them: the chart's points
    table: pd.DataFrame  # explorer_table of the points


def explore(
    kb: KnowledgeBase,
    knowledge_dir: Path,
    today: dt.date,
    filters: tuple[tuple[str, ...], tuple[str, ...], tuple[int, int] | None, bool],
    x: str,
    y: str,
) -> Explored:
    """:func:`filter_values` (`filters`: segments, vendors, years, whether chips of unknown year stay),
    :func:`axis_pairs` on `x` and `y` and :func:`explorer_table` of :func:`spec_values`, kept per knowledge base
    and arguments: the page asks again on every visit and every move of another widget.

    Raises
    ------
    ValueError
        When `x` and `y` are the same column.
    """

    def compute() -> Explored:
        shown = filter_values(spec_values(kb, knowledge_dir, today), *filters)
        pairs = axis_pairs(shown, x, y)
        labels = spec_columns(kb)
        return Explored(shown, pairs, explorer_table(pairs, labels[x], labels[y]))

    return _EXPLORED.get(kb, (str(knowledge_dir), today, filters, x, y), compute)

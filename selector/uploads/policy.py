"""The upload policy beyond the schema: tiers, user sources, value ranges, text cells, units and overrides."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from selector.escape import FORMULA_PREFIXES
from selector.models import SECTIONS, Claim, Conditions, KnowledgeBase
from selector.yamlio import Issue, Parsed

USER_TIERS: tuple[str, ...] = ("measured", "assessed")
UPLOAD_SECTIONS: tuple[str, ...] = ("sources", "entities", "claims", "groups")

#: Metrics whose values cannot be below zero (compute, power, memory, throughput, time, counts, ratings).
#: Changes such as ``latency_reduction_pct``, ``growth_pct`` or ``accuracy_loss_pct`` may be negative.
NON_NEGATIVE_METRICS = frozenset(
    {
        "throughput",
        "images_per_second",
        "latency_ms",
        "gpu_memory_gb",
        "memory_capacity_gb",
        "utilisation_pct",
        "tops_int8",
        "tflops_fp8",
        "power_w",
        "efficiency_tops_per_w",
        "bandwidth_tbps",
        "speedup",
        "count",
        "parameters",
        "market_share_pct",
        "weight_pct",
        "doubling_months",
        "carbon_t_co2e",
        "consistency_pct",
        "sparsity_pct",
        "rating_stars",
    }
)
NON_NEGATIVE_PREFIXES: tuple[str, ...] = ("rating_",)
#: Shares of a whole: 0 to 100.
PERCENT_OF_WHOLE_METRICS = frozenset(
    {"utilisation_pct", "market_share_pct", "weight_pct", "consistency_pct", "sparsity_pct"}
)

# Tags and script URLs; a bare '<' as in "latency < 2 ms" is ordinary text.
_MARKUP = re.compile(r"<\s*[A-Za-z!/?]|javascript:", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Fields whose markup the schema itself refuses (the schema's message is enough).
_SCHEMA_CHECKED = frozenset({("entities", "name"), ("entities", "name_zh")})


def starts_formula(text: str) -> bool:
    # The schema strips surrounding whitespace, so " =1+1" would be stored (and later exported) as "=1+1".
    return text.startswith(FORMULA_PREFIXES) or text.strip().startswith(FORMULA_PREFIXES)


def _clip(value: Any) -> str:
    """A user's value quoted in a message, cut short (a message must not repeat a megabyte of input)."""
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _short(value: float) -> str:
    # YAML integers have no size limit; one too large for a float cannot be formatted with :g.
    text = str(value) if isinstance(value, int) else f"{value:g}"
    return text if len(text) <= 24 else text[:20] + "..."


def _non_negative(metric: str) -> bool:
    return metric in NON_NEGATIVE_METRICS or metric.startswith(NON_NEGATIVE_PREFIXES)


def text_problem(text: str) -> str | None:
    """What is wrong with a text cell/field of an upload, or None."""
    if _CONTROL.search(text):
        return "contains control characters; remove them"
    if starts_formula(text):
        return (
            f"starts with `{text.strip()[:1] or repr(text[:1])}`, which a spreadsheet runs as a formula; "
            "start the text with a letter or digit (or leave the cell empty)"
        )
    if _MARKUP.search(text):
        return "contains markup (`<tag` or `javascript:`); write plain text"
    return None


def _strings(data: Any, path: tuple = ()) -> Iterable[tuple[tuple, str]]:
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _strings(value, (*path, index))


def _record_id(data: dict, section: str, index: int) -> str | None:
    items = data.get(section)
    if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
        record = items[index].get("id")
        return record if isinstance(record, str) else None
    return None


def records(data: dict, section: str) -> list[tuple[int, dict]]:
    items = data.get(section)
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]


def check(parsed: Parsed, name: str, other_user_sources: set[str]) -> list[Issue]:
    """Upload rules on the raw parsed data (so they are reported even where the schema also complains)."""
    data = parsed.data
    issues: list[Issue] = []
    if not isinstance(data, dict):
        return issues

    def error(path: tuple, message: str, record: str | None = None) -> None:
        issues.append(Issue("ERROR", name, parsed.line_of(path), record, message))

    for section in data:
        if section in SECTIONS and section not in UPLOAD_SECTIONS:
            error(
                (section,),
                f"an upload may add {', '.join(UPLOAD_SECTIONS)}; `{section}` belong to the bundled knowledge "
                "(the articles' decision model) and cannot be uploaded",
            )
    own_sources = set()
    for index, item in records(data, "sources"):
        record = item.get("id") if isinstance(item.get("id"), str) else None
        if item.get("kind", "article") != "user":
            error(
                ("sources", index, "kind"),
                f"an upload's source must have `kind: user` (got `{_clip(item.get('kind', 'article'))}`): articles "
                "and the team's assessment are bundled, an upload cannot add or impersonate them",
                record,
            )
        elif record:
            own_sources.add(record)
    user_sources = own_sources | other_user_sources
    for index, item in records(data, "claims"):
        record = item.get("id") if isinstance(item.get("id"), str) else None
        tier = item.get("tier", "claimed")
        if tier not in USER_TIERS:
            given = f"tier `{_clip(tier)}`" if "tier" in item else "no tier (the default is `claimed`)"
            error(
                ("claims", index, "tier"),
                f"{given}: an upload may only hold `measured` claims (your own measurements) or `assessed` claims "
                "(your ratings, with rationale and based_on); `claimed` is reserved for verbatim quotes of the "
                "bundled articles",
                record,
            )
        source = item.get("source")
        if isinstance(source, str) and source not in user_sources:
            error(
                ("claims", index, "source"),
                f"cites source `{_clip(source)}`, which is not a `user` source of your uploads; define one in this "
                "file (sources: - {id: user-me, kind: user, title_en: ...}) and cite it",
                record,
            )
        metric, value = item.get("metric"), item.get("value")
        if isinstance(metric, str) and isinstance(value, int | float) and not isinstance(value, bool):
            if value < 0 and _non_negative(metric):
                error(
                    ("claims", index, "value"),
                    f"`{metric}` cannot be negative (got {_short(value)}); give the measured magnitude",
                    record,
                )
            elif value > 100 and metric in PERCENT_OF_WHOLE_METRICS:
                message = f"`{metric}` is a share of a whole: 0 to 100 (got {_short(value)})"
                error(("claims", index, "value"), message, record)
    for path, text in _strings(data):
        keys = tuple(p for p in path if isinstance(p, str))
        if keys[-1:] == ("comparator",) or (keys[:1] + keys[-1:]) in _SCHEMA_CHECKED:
            continue
        problem = text_problem(text)
        if problem:
            record = _record_id(data, path[0], path[1]) if len(path) > 1 and isinstance(path[1], int) else None
            field_name = ".".join(str(p) for p in path[2:]) or ".".join(str(p) for p in path)
            error(path, f"`{field_name}` {problem}", record)
    return issues


def _upload_claims(parsed: Parsed) -> list[tuple[int, Claim]]:
    found = []
    for index, item in records(parsed.data if isinstance(parsed.data, dict) else {}, "claims"):
        try:
            found.append((index, Claim.model_validate(item)))
        except ValidationError:
            continue  # the loader reports it
    return found


def against_knowledge(parsed: Parsed, name: str, reference: KnowledgeBase) -> list[Issue]:
    """Checks that need the knowledge: units and plausible ranges of the criteria, and what an override replaces."""
    issues: list[Issue] = []
    own = _upload_claims(parsed)
    claims = {**reference.claims, **{c.id: c for _, c in own}}
    overridden = {c.overrides: c.id for c in reference.claims.values() if c.overrides}
    for index, claim in own:
        here = ("claims", index)
        if claim.value is not None and claim.metric:
            criteria = [c for c in reference.criteria.values() if c.metric == claim.metric]
            units = {c.unit.casefold(): c.unit for c in criteria}
            if units and claim.unit.casefold() not in units:
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        parsed.line_of((*here, "unit")),
                        claim.id,
                        f"unit `{claim.unit}` differs from `{', '.join(sorted(units.values()))}`, the unit of "
                        f"criterion {', '.join(f'`{c.id}`' for c in criteria)} (metric `{claim.metric}`); "
                        "convert the value",
                    )
                )
            refused = claim.value < 0 and _non_negative(claim.metric)  # already an error; a range warning adds nothing
            for criterion in criteria:
                if not _holds_under(criterion.conditions, claim.conditions):
                    continue  # a figure measured under other conditions never fills this column
                if criterion.scale and not refused and not criterion.scale[0] <= claim.value <= criterion.scale[1]:
                    low, high = criterion.scale
                    issues.append(
                        Issue(
                            "WARNING",
                            name,
                            parsed.line_of((*here, "value")),
                            claim.id,
                            f"{claim.value:g} {claim.unit} is outside the plausible range {low:g}-{high:g} of "
                            f"criterion `{criterion.id}`; check the number and its unit",
                        )
                    )
        if claim.overrides:
            target = claims.get(claim.overrides)
            if target is not None and (target.metric, target.subject_id) != (claim.metric, claim.subject_id):
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        parsed.line_of((*here, "overrides")),
                        claim.id,
                        f"overrides `{target.id}` ({target.metric or 'no metric'} of `{target.subject_id}`) but gives "
                        f"{claim.metric or 'no metric'} of `{claim.subject_id}`; an override must give the same "
                        "metric for the same entity",
                    )
                )
            elif claim.overrides in overridden and overridden[claim.overrides] != claim.id:
                issues.append(
                    Issue(
                        "WARNING",
                        name,
                        parsed.line_of((*here, "overrides")),
                        claim.id,
                        f"`{claim.overrides}` is already overridden by `{overridden[claim.overrides]}`; both "
                        "replacements are used (their median)",
                    )
                )
    return issues


def _holds_under(wanted: Conditions, have: Conditions) -> bool:
    """True when `have` states every condition of `wanted` with the same value (as the decision matrix matches)."""
    given = have.model_dump()
    return all(
        str(given.get(k) or "").strip().lower() == str(v).strip().lower()
        for k, v in wanted.model_dump(exclude_none=True).items()
    )

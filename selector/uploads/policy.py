"""The upload policy beyond the schema: tiers, user sources, value ranges, text cells, units and overrides."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from selector import value as value_scale
from selector.escape import FORMULA_PREFIXES
from selector.io.yamlio import Parsed
from selector.issues import Issue, Level
from selector.knowledge import vocabulary
from selector.knowledge.models import SECTIONS, Claim, KnowledgeBase, Metric

USER_TIERS: tuple[str, ...] = ("measured", "assessed")
UPLOAD_SECTIONS: tuple[str, ...] = ("sources", "entities", "claims", "groups")

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


class _Report:
    """The issues found in one file, each located by its path in the parsed data."""

    def __init__(self, parsed: Parsed, name: str) -> None:
        self.parsed = parsed
        self.name = name
        self.issues: list[Issue] = []

    def add(self, level: Level, path: tuple, message: str, record: str | None = None) -> None:
        self.issues.append(Issue(level, self.name, self.parsed.line_of(path), record, message))


def _record_name(item: dict) -> str | None:
    return item.get("id") if isinstance(item.get("id"), str) else None


def check(parsed: Parsed, name: str, other_user_sources: set[str], metrics: Mapping[str, Metric]) -> list[Issue]:
    """Upload rules on the raw parsed data (so they are reported even where the schema also complains).

    `metrics` is the knowledge's metric vocabulary: it says which values a metric can take.
    """
    data = parsed.data
    if not isinstance(data, dict):
        return []
    report = _Report(parsed, name)
    _bundled_sections(data, report)
    user_sources = _own_sources(data, report) | other_user_sources
    for index, item in records(data, "claims"):
        _claim_rules(index, item, user_sources, metrics, report)
    _text_rules(data, report)
    return report.issues


def _bundled_sections(data: dict, report: _Report) -> None:
    for section in data:
        if section in SECTIONS and section not in UPLOAD_SECTIONS:
            report.add(
                "ERROR",
                (section,),
                f"an upload may add {', '.join(UPLOAD_SECTIONS)}; `{section}` belong to the bundled knowledge "
                "(the articles' decision model) and cannot be uploaded",
            )


def _own_sources(data: dict, report: _Report) -> set[str]:
    """The ids of the file's ``user`` sources; any other kind is an error."""
    own = set()
    for index, item in records(data, "sources"):
        record = _record_name(item)
        if item.get("kind", "article") != "user":
            report.add(
                "ERROR",
                ("sources", index, "kind"),
                f"an upload's source must have `kind: user` (got `{_clip(item.get('kind', 'article'))}`): articles "
                "and the team's assessment are bundled, an upload cannot add or impersonate them",
                record,
            )
        elif record:
            own.add(record)
    return own


def _claim_rules(
    index: int, item: dict, user_sources: set[str], metrics: Mapping[str, Metric], report: _Report
) -> None:
    """A claim's tier, the source it cites, and the range of its value."""
    record = _record_name(item)
    tier = item.get("tier", "claimed")
    if tier not in USER_TIERS:
        given = f"tier `{_clip(tier)}`" if "tier" in item else "no tier (the default is `claimed`)"
        report.add(
            "ERROR",
            ("claims", index, "tier"),
            f"{given}: an upload may only hold `measured` claims (your own measurements) or `assessed` claims "
            "(your ratings, with rationale and based_on); `claimed` is reserved for verbatim quotes of the "
            "bundled articles",
            record,
        )
    source = item.get("source")
    if isinstance(source, str) and source not in user_sources:
        report.add(
            "ERROR",
            ("claims", index, "source"),
            f"cites source `{_clip(source)}`, which is not a `user` source of your uploads; define one in this "
            "file (sources: - {id: user-me, kind: user, title_en: ...}) and cite it",
            record,
        )
    metric, value = item.get("metric"), item.get("value")
    if isinstance(metric, str) and isinstance(value, int | float) and not isinstance(value, bool):
        problem = vocabulary.bound_problem(metrics, metric, value, _short(value))
        if problem:
            report.add("ERROR", ("claims", index, "value"), problem, record)


def _text_rules(data: dict, report: _Report) -> None:
    """Every text of the file under the text policy (control characters, formula prefixes, markup)."""
    for path, text in _strings(data):
        keys = tuple(p for p in path if isinstance(p, str))
        if keys[-1:] == ("comparator",) or (keys[:1] + keys[-1:]) in _SCHEMA_CHECKED:
            continue
        problem = text_problem(text)
        if problem:
            record = _record_id(data, path[0], path[1]) if len(path) > 1 and isinstance(path[1], int) else None
            field_name = ".".join(str(p) for p in path[2:]) or ".".join(str(p) for p in path)
            report.add("ERROR", path, f"`{field_name}` {problem}", record)


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
    report = _Report(parsed, name)
    own = _upload_claims(parsed)
    claims = {**reference.claims, **{c.id: c for _, c in own}}
    overridden = {c.overrides: c.id for c in reference.claims.values() if c.overrides}
    for index, claim in own:
        if claim.metric and not _known_metric(index, claim, reference, report):
            continue
        if claim.value is not None and claim.metric:
            _unit_and_range(index, claim, reference, report)
        if claim.overrides:
            _override(index, claim, claims, overridden, report)
    return report.issues


def _known_metric(index: int, claim: Claim, reference: KnowledgeBase, report: _Report) -> bool:
    """Whether the claim's metric is in the vocabulary (knowledge/metrics.yaml); refused with what is allowed if not.

    The bundled knowledge's own metrics are all declared; an upload's unknown metric would be stored and never
    ranked, which reads as accepted while it changes nothing, so it is refused with the near names and the metrics
    that a criterion ranks.
    """
    if vocabulary.find(reference.metrics, claim.metric) is not None:
        return True
    near = difflib.get_close_matches(claim.metric, list(reference.metrics), n=3, cutoff=0.6)
    ranked = sorted({c.metric for c in reference.criteria.values() if c.metric})
    hint = f"did you mean {', '.join(f'`{m}`' for m in near)}? " if near else ""
    report.add(
        "ERROR",
        ("claims", index, "metric"),
        f"metric `{_clip(claim.metric)}` is not a known metric, so no criterion would ever rank it; {hint}the metrics "
        f"a criterion ranks: {', '.join(ranked)} (knowledge/metrics.yaml lists all {len(reference.metrics)})",
        claim.id,
    )
    return False


def _metric_unit(index: int, claim: Claim, reference: KnowledgeBase, report: _Report) -> bool:
    """Whether the claim's unit is one its metric allows (knowledge/metrics.yaml); refused with those if not."""
    metric = vocabulary.find(reference.metrics, claim.metric)
    if metric is None or not metric.units or claim.unit.casefold() in {u.casefold() for u in metric.units}:
        return True
    allowed = ", ".join(f"`{u}`" for u in metric.units)
    report.add(
        "ERROR",
        ("claims", index, "unit"),
        f"unit `{_clip(claim.unit)}` is not a unit of metric `{claim.metric}`; allowed: {allowed} (convert the value)",
        claim.id,
    )
    return False


def _unit_and_range(index: int, claim: Claim, reference: KnowledgeBase, report: _Report) -> None:
    """The claim's unit is one of its metric's and that of the criteria reading it; its value lies in their
    plausible range."""
    here = ("claims", index)
    if not _metric_unit(index, claim, reference, report):
        return  # the criteria's units say the same again
    criteria = [c for c in reference.criteria.values() if c.metric == claim.metric]
    units = {c.unit.casefold(): c.unit for c in criteria}
    if units and claim.unit.casefold() not in units:
        report.add(
            "ERROR",
            (*here, "unit"),
            f"unit `{claim.unit}` differs from `{', '.join(sorted(units.values()))}`, the unit of "
            f"criterion {', '.join(f'`{c.id}`' for c in criteria)} (metric `{claim.metric}`); "
            "convert the value",
            claim.id,
        )
    if vocabulary.bound_problem(reference.metrics, claim.metric, claim.value, "") is not None:
        return  # already an error; a range warning adds nothing
    for criterion in criteria:
        if not criterion.reads(claim):
            continue  # a figure measured under other conditions never fills this column
        if criterion.scale and value_scale.outside(claim.value, *criterion.scale):
            low, high = criterion.scale
            report.add(
                "ERROR",
                (*here, "value"),
                value_scale.outside_message(criterion.id, claim.value, low, high, criterion.unit),
                claim.id,
            )


def _override(
    index: int, claim: Claim, claims: Mapping[str, Claim], overridden: Mapping[str, str], report: _Report
) -> None:
    """An override gives the same metric of the same entity as the claim it replaces, and replaces it alone."""
    here = ("claims", index, "overrides")
    target = claims.get(claim.overrides)
    if target is not None and (target.metric, target.subject_id) != (claim.metric, claim.subject_id):
        report.add(
            "ERROR",
            here,
            f"overrides `{target.id}` ({target.metric or 'no metric'} of `{target.subject_id}`) but gives "
            f"{claim.metric or 'no metric'} of `{claim.subject_id}`; an override must give the same "
            "metric for the same entity",
            claim.id,
        )
    elif claim.overrides in overridden and overridden[claim.overrides] != claim.id:
        report.add(
            "WARNING",
            here,
            f"`{claim.overrides}` is already overridden by `{overridden[claim.overrides]}`; both "
            "replacements are used (their median)",
            claim.id,
        )

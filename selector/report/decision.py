"""The decision document's own parts (MADR 4): the requirement in words, the risks, how to re-check, the link.

:func:`selector.report.build.build_report` gathers the ranking; these functions turn it into what an architect
files: who decided and when to look again (:mod:`selector.adr`), the requirement as sentences, the risks that the
ranking cannot show by itself (missing prices, ageing data, flagged evidence, a leader that depends on filled-in
cells), and the commands that re-check the record later.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from selector import adr, display
from selector.decision import basis
from selector.decision.preferences import Preferences, to_query
from selector.decision.recommend import Recommendation
from selector.knowledge.models import KnowledgeBase
from selector.report.model import CriterionInfo, OptionRow, Point

#: Words that mark a criterion as a price or a running cost (its unit says USD).
_PRICE_UNITS = ("usd",)


def requirement_words(
    kb: KnowledgeBase, prefs: Preferences, rec: Recommendation, sentence: str = ""
) -> tuple[str, ...]:
    """The requirement as sentences: its own sentence first, then the group, the limits, the weights and the answers.

    ``sentence`` defaults to the requirement the preferences started from (``selector.decision.requirement``: what is
    chosen, for what, where and under which budget); the rest tells what the preferences hold, which is also what a
    reader needs to rebuild it.
    """
    group = kb.groups[rec.matrix.group]
    if not sentence.strip() and prefs.requirement is not None and not prefs.requirement.empty:
        sentence = prefs.requirement.words(kb)  # the requirement-first start's own sentence, its full stop included
    lines = [sentence.strip()] if sentence.strip() else []
    lines.append(f"Choosing among the {len(group.members)} candidates for {group.name_en}.")
    limits = [*prefs.constraints]
    limits += [f"vendor {kb.entity_name(v)} excluded" for v in prefs.exclude_vendors]
    limits += [f"{kb.entity_name(e)} excluded" for e in prefs.exclude]
    lines.append(
        "Must-have limits (applied before weighting): " + "; ".join(limits) + "."
        if limits
        else "No must-have limits: every candidate is ranked."
    )
    shares = rec.matrix.dimension_weights
    weights = ", ".join(
        f"{kb.dimensions[d].name_en} {display.percent(float(shares.get(d, 0.0)))}" for d in kb.dimensions
    )
    lines.append(f"Weights (share of the total): {weights}.")
    chosen = [(q, o) for q, o in rec.path.answers.items() if q in prefs.answers]
    if chosen:
        answered = "; ".join(f"{kb.questions[q].text_en} {_option(kb, q, o)}" for q, o in chosen if q in kb.questions)
        lines.append(f"Scenario answers: {answered}.")
    else:
        lines.append("Scenario answers: the defaults (none was changed).")
    return tuple(lines)


def drivers(dimensions: Sequence[basis.DimensionBasis]) -> tuple[str, ...]:
    """The decision drivers, short enough for the one- or two-page decision document: what each weighted dimension
    ranks, one line for the dimensions with nothing to rank, and how many columns are shown at weight 0.

    The full lines (with every weight-0 column by name) are the appendix's (``Report.dimension_basis``).
    """
    ranked = [d for d in dimensions if d.criteria]
    lines = [f"{d.name} ({display.percent(d.share)}) ranks " + d.equals.partition(" = ")[2] for d in ranked]
    empty = [d.name for d in dimensions if not d.criteria]
    if empty:
        names = " and ".join([", ".join(empty[:-1]), empty[-1]] if len(empty) > 1 else empty)
        lines.append(
            f"{names} {'have' if len(empty) > 1 else 'has'} no criterion in this group "
            f"({'their' if len(empty) > 1 else 'its'} weight was shared out proportionally)"
        )
    stored = sum(len(d.stored) for d in dimensions)
    if stored:
        lines.append(f"{stored} more column(s) shown, not ranked (weight 0): Appendix B")
    return tuple(lines)


def _option(kb: KnowledgeBase, question_id: str, option_id: str) -> str:
    question = kb.questions[question_id]
    return next((o.label_en for o in question.options if o.id == option_id), option_id)


def risks(
    kb: KnowledgeBase,
    rec: Recommendation,
    parts: Mapping[str, Any],
) -> tuple[Point, ...]:
    """What could make the decision wrong that the ranking itself does not show, worst first; one line each.

    ``parts`` holds the report's ``options``, ``criteria``, ``evidence`` and the verdict (``judged``).
    """
    options, criteria, judged = parts["options"], parts["criteria"], parts["judged"]
    chosen = next(o for o in options if o.id == rec.recommended)
    policy = rec.matrix.missing_policy
    found: list[Point] = []
    if judged.gaps is not None and judged.gaps.changes:
        found.append(
            Point(
                "bad",
                f"The leader depends on filled-in cells: with every cell without evidence at its worst plausible "
                f"value {judged.gaps.leader_at_worst} leads, at its best {judged.gaps.leader_at_best} "
                f"({'; '.join(judged.gaps.cells[:6])}). Measure these before committing.",
            )
        )
    gaps = [c.name for c, cell in zip(criteria, chosen.cells, strict=True) if cell.imputed]
    if gaps:
        found.append(Point("bad", f"{chosen.name} has no evidence for {', '.join(gaps)}: filled in ({policy})."))
    found.extend(_price_risks(kb, rec, options, criteria))
    found.extend(_evidence_risks(parts["evidence"]))
    if not found:
        found.append(Point("good", "No missing price, ageing snapshot, flagged claim or decisive filled-in cell."))
    return tuple(found)


def _evidence_risks(cited: Sequence[Any]) -> list[Point]:
    """Flagged claims among those cited, and numbers from dataset snapshots older than 18 months."""
    found = []
    flagged = [e for e in cited if e.flags]
    if flagged:
        ids = ", ".join(e.id for e in flagged[:5]) + (f" and {len(flagged) - 5} more" if len(flagged) > 5 else "")
        found.append(Point("bad", f"Flagged evidence: {len(flagged)} claim(s) cited carry flags: {ids}."))
    ageing = sorted(e.age for e in cited if "ageing" in e.age)
    if ageing:
        found.append(
            Point(
                "bad",
                f"Data age: {len(ageing)} number(s) cited come from dataset snapshots older than 18 months "
                f"(oldest {ageing[0]}).",
            )
        )
    return found


def _is_price(kb: KnowledgeBase, criterion_id: str) -> bool:
    criterion = kb.criteria.get(criterion_id)
    return criterion is not None and any(u in criterion.unit.lower() for u in _PRICE_UNITS)


def _price_risks(
    kb: KnowledgeBase, rec: Recommendation, options: Sequence[OptionRow], criteria: Sequence[CriterionInfo]
) -> list[Point]:
    """Prices and running costs the ranking cannot weigh: left out, weighted 0, or filled in for some options."""
    found = []
    for left in rec.matrix.excluded_criteria:
        if _is_price(kb, left.id):
            found.append(Point("bad", f"Missing prices: {kb.criteria[left.id].name_en} is not ranked: {left.reason}."))
    for j, crit in enumerate(criteria):
        if not _is_price(kb, crit.id):
            continue
        unknown = [o.name for o in options if o.cells[j].imputed]
        if crit.weight == 0:
            found.append(Point("neutral", f"Missing prices: {crit.name} is shown but weighted 0."))
        elif unknown:
            listed = ", ".join(unknown[:6]) + (f" and {len(unknown) - 6} more" if len(unknown) > 6 else "")
            found.append(
                Point(
                    "bad",
                    f"Missing prices: {crit.name} is unknown for {len(unknown)} of {len(options)} options "
                    f"({listed}), filled in ({rec.matrix.missing_policy}).",
                )
            )
    return found


def reproduce(prefs: Preferences, base_url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The link that reproduces the ranking and its parameters: absolute under `base_url`, else relative (``?...``)
    so that a report never points at an address the reader cannot reach."""
    params = to_query(prefs)
    query = urlencode(params)
    return (f"{base_url}/?{query}" if base_url else f"?{query}"), tuple(params.items())


def recheck_steps(review_by: str, data_hash: str, has_base: bool) -> tuple[str, ...]:
    """How to re-check the decision later (MADR's "Confirmation"), as steps."""
    where = "the link under More Information" + ("" if has_base else " (after the app's address)")
    return (
        "Run `python -m selector recheck FILE` on this file (Markdown, HTML or PDF): it reads the decision record "
        "inside and says which claims, values, datasets and ranks changed since this date.",
        'Or in the app: My data, "Re-check a decision", upload this file.',
        f"Open the same ranking with today's data: {where}.",
        f"Review by {review_by}, or sooner when the knowledge changes (this record: data hash {data_hash}).",
    )


def front_matter(meta: adr.DecisionMeta, moment: dt.datetime) -> dict[str, object]:
    """MADR 4's front matter for the report model: status, people, the date and the review-by date."""
    decided = moment.date()
    return {
        "status": meta.status,
        "deciders": meta.deciders,
        "consulted": meta.consulted,
        "informed": meta.informed,
        "decided_on": decided.isoformat(),
        "review_by": meta.review_date(decided).isoformat(),
    }

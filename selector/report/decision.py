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

from selector import adr, display, i18n
from selector.decision import basis
from selector.decision.preferences import Preferences, to_query
from selector.decision.recommend import Recommendation
from selector.knowledge.models import KnowledgeBase
from selector.report.model import CriterionInfo, OptionRow, Point

#: Words that mark a criterion as a price or a running cost (its unit says USD).
_PRICE_UNITS = ("usd",)


def requirement_words(
    kb: KnowledgeBase, prefs: Preferences, rec: Recommendation, sentence: str = "", *, lang: i18n.Language = "en"
) -> tuple[str, ...]:
    """The requirement as sentences: its own sentence first, then the group, the limits, the weights and the answers.

    ``sentence`` defaults to the requirement the preferences started from (``selector.decision.requirement``: what is
    chosen, for what, where and under which budget); the rest tells what the preferences hold, which is also what a
    reader needs to rebuild it.
    """
    _ = i18n.translator(lang)
    group = kb.groups[rec.matrix.group]
    if not sentence.strip() and prefs.requirement is not None and not prefs.requirement.empty:
        sentence = prefs.requirement.words(
            kb, lang
        )  # the requirement-first start's own sentence, its full stop included
    lines = [sentence.strip()] if sentence.strip() else []
    lines.append(
        _("Choosing among the {count} candidates for {group}.").format(
            count=len(group.members), group=i18n.pick(lang, group.name_en, group.name_zh)
        )
    )
    limits = [*prefs.constraints]
    limits += [_("vendor {name} excluded").format(name=kb.entity_name(v)) for v in prefs.exclude_vendors]
    limits += [_("{name} excluded").format(name=kb.entity_name(e)) for e in prefs.exclude]
    lines.append(
        _("Must-have limits (applied before weighting): {limits}.").format(limits="; ".join(limits))
        if limits
        else _("No must-have limits: every candidate is ranked.")
    )
    shares = rec.matrix.dimension_weights
    weights = ", ".join(
        f"{i18n.pick(lang, dim.name_en, dim.name_zh)} {display.percent(float(shares.get(d, 0.0)))}"
        for d, dim in kb.dimensions.items()
    )
    lines.append(_("Weights (share of the total): {weights}.").format(weights=weights))
    chosen = [(q, o) for q, o in rec.path.answers.items() if q in prefs.answers]
    if chosen:
        answered = "; ".join(
            f"{i18n.pick(lang, kb.questions[q].text_en, kb.questions[q].text_zh)} {_option(kb, q, o, lang)}"
            for q, o in chosen
            if q in kb.questions
        )
        lines.append(_("Scenario answers: {answers}.").format(answers=answered))
    else:
        lines.append(_("Scenario answers: the defaults (none was changed)."))
    return tuple(lines)


def drivers(dimensions: Sequence[basis.DimensionBasis], *, lang: i18n.Language = "en") -> tuple[str, ...]:
    """The decision drivers, short enough for the one- or two-page decision document: what each weighted dimension
    ranks, one line for the dimensions with nothing to rank, and how many columns are shown at weight 0.

    The full lines (with every weight-0 column by name) are the appendix's (``Report.dimension_basis``).
    """
    _ = i18n.translator(lang)
    ranked = [d for d in dimensions if d.criteria]
    lines = [
        _("{dimension} ({share}) ranks {what}").format(
            dimension=d.name, share=display.percent(d.share), what=d.equals.partition(" = ")[2]
        )
        for d in ranked
    ]
    empty = [d.name for d in dimensions if not d.criteria]
    if len(empty) == 1:
        lines.append(
            _("{name} has no criterion in this group (its weight was shared out proportionally)").format(name=empty[0])
        )
    elif empty:
        names = _("{first} and {last}").format(first=", ".join(empty[:-1]), last=empty[-1])
        lines.append(
            _("{names} have no criterion in this group (their weight was shared out proportionally)").format(
                names=names
            )
        )
    stored = sum(len(d.stored) for d in dimensions)
    if stored:
        lines.append(_("{count} more column(s) shown, not ranked (weight 0): Appendix B").format(count=stored))
    return tuple(lines)


def _option(kb: KnowledgeBase, question_id: str, option_id: str, lang: i18n.Language = "en") -> str:
    question = kb.questions[question_id]
    return next((i18n.pick(lang, o.label_en, o.label_zh) for o in question.options if o.id == option_id), option_id)


def risks(
    kb: KnowledgeBase,
    rec: Recommendation,
    parts: Mapping[str, Any],
    *,
    lang: i18n.Language = "en",
) -> tuple[Point, ...]:
    """What could make the decision wrong that the ranking itself does not show, worst first; one line each, in
    `lang`.

    ``parts`` holds the report's ``options``, ``criteria``, ``evidence`` and the verdict (``judged``).
    """
    _ = i18n.translator(lang)
    options, criteria, judged = parts["options"], parts["criteria"], parts["judged"]
    chosen = next(o for o in options if o.id == rec.recommended)
    policy = rec.matrix.missing_policy
    found: list[Point] = []
    if judged.gaps is not None and judged.gaps.changes:
        text = _(
            "The leader depends on filled-in cells: with every cell without evidence at its worst plausible value "
            "{worst} leads, at its best {best} ({cells}). Measure these before committing."
        ).format(
            worst=judged.gaps.leader_at_worst, best=judged.gaps.leader_at_best, cells="; ".join(judged.gaps.cells[:6])
        )
        found.append(Point("bad", text))
    gaps = [c.name for c, cell in zip(criteria, chosen.cells, strict=True) if cell.imputed]
    if gaps:
        text = _("{name} has no evidence for {criteria}: filled in ({policy}).")
        found.append(Point("bad", text.format(name=chosen.name, criteria=", ".join(gaps), policy=policy)))
    found.extend(_price_risks(kb, rec, options, criteria, lang))
    found.extend(_evidence_risks(parts["evidence"], lang))
    if not found:
        found.append(Point("good", _("No missing price, ageing snapshot, flagged claim or decisive filled-in cell.")))
    return tuple(found)


def _more(items: Sequence[str], shown: int, lang: i18n.Language) -> str:
    """The first `shown` of `items`, then how many more."""
    text = ", ".join(items[:shown])
    if len(items) > shown:
        _ = i18n.translator(lang)
        text += _(" and {count} more").format(count=len(items) - shown)
    return text


def _evidence_risks(cited: Sequence[Any], lang: i18n.Language = "en") -> list[Point]:
    """Flagged claims among those cited, and numbers from dataset snapshots older than 18 months."""
    _ = i18n.translator(lang)
    found = []
    flagged = [e for e in cited if e.flags]
    if flagged:
        ids = _more([e.id for e in flagged], 5, lang)
        text = _("Flagged evidence: {count} claim(s) cited carry flags: {ids}.").format(count=len(flagged), ids=ids)
        found.append(Point("bad", text))
    ageing = sorted(e.age for e in cited if "ageing" in e.age)
    if ageing:
        text = _(
            "Data age: {count} number(s) cited come from dataset snapshots older than 18 months (oldest {oldest})."
        ).format(count=len(ageing), oldest=ageing[0])
        found.append(Point("bad", text))
    return found


def _is_price(kb: KnowledgeBase, criterion_id: str) -> bool:
    criterion = kb.criteria.get(criterion_id)
    return criterion is not None and any(u in criterion.unit.lower() for u in _PRICE_UNITS)


def _price_risks(
    kb: KnowledgeBase,
    rec: Recommendation,
    options: Sequence[OptionRow],
    criteria: Sequence[CriterionInfo],
    lang: i18n.Language = "en",
) -> list[Point]:
    """Prices and running costs the ranking cannot weigh: left out, weighted 0, or filled in for some options."""
    _ = i18n.translator(lang)
    found = []
    for left in rec.matrix.excluded_criteria:
        if _is_price(kb, left.id):
            criterion = kb.criteria[left.id]
            name = i18n.pick(lang, criterion.name_en, criterion.name_zh)
            why = i18n.stored(left.reason, lang)
            text = _("Missing prices: {criterion} is not ranked: {why}.").format(criterion=name, why=why)
            found.append(Point("bad", text))
    for j, crit in enumerate(criteria):
        if not _is_price(kb, crit.id):
            continue
        unknown = [o.name for o in options if o.cells[j].imputed]
        if crit.weight == 0:
            found.append(
                Point("neutral", _("Missing prices: {criterion} is shown but weighted 0.").format(criterion=crit.name))
            )
        elif unknown:
            text = _(
                "Missing prices: {criterion} is unknown for {count} of {total} options ({listed}), "
                "filled in ({policy})."
            ).format(
                criterion=crit.name,
                count=len(unknown),
                total=len(options),
                listed=_more(unknown, 6, lang),
                policy=rec.matrix.missing_policy,
            )
            found.append(Point("bad", text))
    return found


def reproduce(prefs: Preferences, base_url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The link that reproduces the ranking and its parameters: absolute under `base_url`, else relative (``?...``)
    so that a report never points at an address the reader cannot reach."""
    params = to_query(prefs)
    query = urlencode(params)
    return (f"{base_url}/?{query}" if base_url else f"?{query}"), tuple(params.items())


def recheck_steps(review_by: str, data_hash: str, has_base: bool, *, lang: i18n.Language = "en") -> tuple[str, ...]:
    """How to re-check the decision later (MADR's "Confirmation"), as steps in `lang`."""
    _ = i18n.translator(lang)
    where = (
        _("the link under More Information")
        if has_base
        else _("the link under More Information (after the app's address)")
    )
    review = review_by
    if lang != i18n.SOURCE_LANGUAGE and review_by:
        review = i18n.format_date(dt.date.fromisoformat(review_by), lang)
    return (
        _(
            "Run `python -m selector recheck FILE` on this file (Markdown, HTML or PDF): it reads the decision record "
            "inside and says which claims, values, datasets and ranks changed since this date."
        ),
        _('Or in the app: My data, "Re-check a decision", upload this file.'),
        _("Open the same ranking with today's data: {where}.").format(where=where),
        _("Review by {date}, or sooner when the knowledge changes (this record: data hash {hash}).").format(
            date=review, hash=data_hash
        ),
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

"""Building the report model: rank a group under preferences and gather everything a reader needs to audit it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

import selector
from selector import display, i18n, record, verdict
from selector.adr import DecisionMeta
from selector.decision import basis, elicitation
from selector.decision.matrix import Cell
from selector.decision.preferences import MISSING_HELP, Preferences
from selector.decision.recommend import Recommendation, recommend
from selector.knowledge import facts
from selector.knowledge.models import Criterion, KnowledgeBase
from selector.measure import compare
from selector.report import decision, evidence, points, summary
from selector.report.model import (
    Answer,
    CellInfo,
    CriterionInfo,
    DimensionWeight,
    ElicitedWeights,
    MethodRanking,
    OptionRow,
    Report,
    RobustnessInfo,
    RuleInfo,
)
from selector.robustness import figure
from selector.value import SWING_WEIGHT_MEANING

#: No base address: the reproduce link is relative (``?group=...``) and its parameters are printed beside it; a
#: deployment sets its address (selector.adr.base_url: environment, --app-url, Streamlit secret).
DEFAULT_APP_URL = ""


def _answers(kb: KnowledgeBase, given: Mapping[str, str], resolved: Mapping[str, str]) -> tuple[Answer, ...]:
    rows = []
    for qid, option_id in resolved.items():
        question = kb.questions[qid]
        option = next(o for o in question.options if o.id == option_id)
        rows.append(
            Answer(
                question_id=qid,
                question=question.text_en,
                question_zh=question.text_zh or "",
                option_id=option_id,
                option=option.label_en,
                option_zh=option.label_zh or "",
                defaulted=qid not in given,
            )
        )
    return tuple(rows)


def _option_label(kb: KnowledgeBase, qid: str, option_id: str, lang: i18n.Language = "en") -> str:
    question = kb.questions.get(qid)
    option = next((o for o in question.options if o.id == option_id), None) if question else None
    return i18n.pick(lang, option.label_en, option.label_zh) if option else option_id


def _selection(where: dict | None, lang: i18n.Language = "en") -> tuple[str, ...]:
    """A rule's fact selection as one item of its list ("what matches: vendor's jurisdiction is CN")."""
    if not where:
        return ()
    _ = i18n.translator(lang)
    return (_("what matches: {facts}").format(facts=facts.describe(where)),)


def _question(kb: KnowledgeBase, qid: str, lang: i18n.Language) -> str:
    question = kb.questions.get(qid)
    return i18n.pick(lang, question.text_en, question.text_zh) if question else qid


def _rules(kb: KnowledgeBase, rec: Recommendation, lang: i18n.Language = "en") -> tuple[RuleInfo, ...]:
    rows = []
    either = " or " if lang == "en" else " 或 "
    for fired in rec.path.fired:
        rule = kb.rules.get(fired.id)
        conditions = "; ".join(
            f"{_question(kb, q, lang)} = "
            + either.join(_option_label(kb, q, o, lang) for o in (rule.when[q] if rule else (fired.matched[q],)))
            for q in fired.matched
        )
        rationale = fired.rationale
        if lang == "zh" and rule is not None and rule.rationale_zh:
            rationale = rule.rationale_zh
        rows.append(
            RuleInfo(
                id=fired.id,
                tree=fired.tree,
                conditions=conditions,
                recommends=(
                    *(kb.entity_name(e) for e in fired.recommend),
                    *_selection(fired.recommend_where, lang),
                ),
                excludes=(*(kb.entity_name(e) for e in fired.exclude), *_selection(fired.exclude_where, lang)),
                rationale=rationale,
                claims=tuple(fired.claims),
                recommend_ids=tuple(fired.recommend),
                exclude_ids=tuple(fired.exclude),
            )
        )
    return tuple(rows)


def _dimensions(kb: KnowledgeBase, prefs: Preferences, rec: Recommendation) -> tuple[DimensionWeight, ...]:
    given = prefs.checked(kb).dimension_weights
    return tuple(
        DimensionWeight(
            id=d,
            name=dim.name_en,
            name_zh=dim.name_zh,
            given=float(given[d]),
            default=float(dim.weight),
            share=float(rec.matrix.dimension_weights.get(d, 0.0)),
            claims=tuple(dim.claims),
        )
        for d, dim in kb.dimensions.items()
    )


def _scale_text(criterion: Criterion) -> str:
    """The criterion's value scale in words: "0-2,000, linear" (worst to best is set by the objective)."""
    if criterion.scale is None:
        return ""
    lo, hi = criterion.scale
    return f"{display.span(lo, hi)}, {criterion.shape}"


def _elicited(kb: KnowledgeBase, prefs: Preferences) -> ElicitedWeights | None:
    """The record of how the weights were elicited, in words; None when they were set by hand."""
    result = prefs.checked(kb).elicited
    if result is None:
        return None
    names = {d: dim.name_en for d, dim in kb.dimensions.items()}
    pairwise = isinstance(result, elicitation.PairwiseResult)
    return ElicitedWeights(
        method=prefs.elicitation.method,
        label=elicitation.METHOD_LABELS[prefs.elicitation.method],
        answers=elicitation.answer_sentences(result, names),
        shares=tuple((names[d], float(w)) for d, w in result.weights.items()),
        consistency=elicitation.consistency_sentence(result, names),
        consistency_ratio=result.consistency_ratio if pairwise else None,
    )


def _criteria(kb: KnowledgeBase, rec: Recommendation, lang: i18n.Language = "en") -> tuple[CriterionInfo, ...]:
    m = rec.matrix
    return tuple(
        CriterionInfo(
            id=c,
            name=i18n.pick(lang, kb.criteria[c].name_en, kb.criteria[c].name_zh),
            dimension=i18n.pick(lang, kb.dimensions[d].name_en, kb.dimensions[d].name_zh) if d in kb.dimensions else d,
            objective=o,
            unit=kb.criteria[c].unit,
            sub_weight=float(s),
            weight=float(w),
            scale=_scale_text(kb.criteria[c]),
        )
        for c, o, d, s, w in zip(m.criteria, m.objectives, m.dimension_of, m.sub_weights, m.weights, strict=True)
    )


def _options(rec: Recommendation) -> tuple[OptionRow, ...]:
    m = rec.matrix
    index = {a: i for i, a in enumerate(m.alternatives)}
    contributions = rec.result.contributions
    rows = []
    for ranked in rec.ranking:
        i = index[ranked.id]
        rows.append(
            OptionRow(
                id=ranked.id,
                name=ranked.name,
                rank=ranked.rank,
                score=ranked.score,
                shortlisted=ranked.shortlisted,
                cells=tuple(
                    CellInfo(float(c.value), tuple(c.evidence), c.imputed, c.flagged, c.note, c.tier == "measured")
                    for c in m.cells[i]
                ),
                contributions=None if contributions is None else tuple(float(v) for v in contributions[i]),
            )
        )
    return tuple(rows)


def _robustness(rec: Recommendation, samples: int, seed: int, lang: i18n.Language = "en") -> RobustnessInfo:
    """SMAA, tipping points, method agreement and rank reversal, as ``python -m selector sensitivity`` computes them.

    :func:`selector.robustness.analysis.analyse` decides what "plausible" means (dimension weights sampled over the
    whole simplex, imputed cells over their criterion's plausible range), so the report, the command line and
    the app agree. A ranking the analyses cannot handle is still reported, with the reason in ``unavailable``.
    """
    from selector.decision.problem import METHODS, ScoringError
    from selector.robustness import analysis
    from selector.robustness.agreement import kendall_tau

    _ = i18n.translator(lang)
    try:
        result = analysis.analyse(rec, samples=samples, seed=seed)
    except (ScoringError, ValueError) as exc:
        return RobustnessInfo(
            samples=samples, seed=seed, unavailable=(_("robustness analyses: {why}").format(why=exc),)
        )
    smaa, agreement = result.smaa, result.agreement
    names = [r.name for r in rec.ranking]
    order = [smaa.alternatives.index(n) for n in names]  # the analyses' order -> the report's (ranking) order
    acceptability = np.asarray(smaa.acceptability)[order]
    chosen = np.asarray(rec.result.ranks)[[rec.matrix.alternatives.index(r.id) for r in rec.ranking]]
    methods = []
    for k, method in enumerate(agreement.methods):
        ranks = np.asarray(agreement.ranks[k])[[agreement.alternatives.index(n) for n in names]]
        tau = kendall_tau(chosen, ranks)
        methods.append(
            MethodRanking(
                method=method,
                label=_(METHODS[method].label) if method in METHODS else method,
                scaler=agreement.scalers[k],
                ranks=tuple(int(r) for r in ranks),
                leader=agreement.leaders[k],
                tau=tau if math.isfinite(tau) else None,
            )
        )
    return RobustnessInfo(
        samples=smaa.n_samples,
        seed=smaa.seed,
        acceptability=tuple(tuple(float(v) for v in row) for row in acceptability),
        first_share=tuple(float(v) for v in acceptability[:, 0]),
        leader_acceptability=float(acceptability[0, 0]),
        recommended_acceptability=float(acceptability[names.index(rec.recommended_entry.name), 0]),
        confidence=tuple(float("nan") if smaa.confidence[i] is None else float(smaa.confidence[i]) for i in order),
        uncertain_cells=len(smaa.uncertain_cells),
        methods=tuple(methods),
        mean_tau=agreement.mean_tau,
        unavailable=tuple(f"{m}: {i18n.stored(why, lang)}" for m, why in agreement.skipped.items()),
        **_robustness_words(rec, result, lang),
    )


def _robustness_words(rec: Recommendation, result: Any, lang: i18n.Language) -> dict[str, Any]:  # noqa: ANN401
    """The robustness analyses' sentences in `lang`: how the weights were sampled, the confidence note, the tipping
    points, the methods' agreement and the rank reversal (``result``: selector.robustness.analysis.Robustness)."""
    from selector.robustness.agreement import agreement_summary
    from selector.robustness.smaa import CONFIDENCE_LIMIT

    _ = i18n.translator(lang)
    smaa = result.smaa
    space = _("dimension weights") if result.space == "dimensions" else _("criterion weights")
    within = (
        _("the whole simplex")
        if result.spread is None
        else _("+/- {spread} of the current shares").format(spread=display.number(result.spread))
    )
    # the tipping sentences name a dimension by its id in English (as they always did), by its name in Chinese
    dimension_names = {}
    if rec.kb is not None and lang != i18n.SOURCE_LANGUAGE:
        dimension_names = {d.id: i18n.pick(lang, d.name_en, d.name_zh) for d in rec.kb.dimensions.values()}
    note = ""
    if smaa.confidence_omitted:
        note = _(
            "Confidence factors are computed for the {limit} options most often ranked first; the other "
            "{omitted} that rank first in some sample show none."
        ).format(limit=CONFIDENCE_LIMIT, omitted=smaa.confidence_omitted)
    return {
        "confidence_note": note,
        "sampling": _("{space} sampled uniformly over {within}").format(space=space, within=within),
        "tipping_points": tuple(
            t.text(lang=lang, dimension=dimension_names.get(t.dimension)) for t in result.tipping_points
        ),
        "agreement_summary": agreement_summary(result.agreement, lang=lang),
        "rank_reversal": result.reversal.text(lang=lang),
    }


def _why(rec: Recommendation, chosen: OptionRow, lang: i18n.Language = "en") -> str:
    """Why the chosen option: the score sentence, or the shortlist when the tree overrides the score leader."""
    why = rec.why_in(lang)
    if chosen.id == rec.leader.id:
        return why
    preference = rec.preference_in(lang)
    if preference:
        return preference[0].lower() + preference[1:]  # follows "Chosen option: X, because"
    _ = i18n.translator(lang)
    return _(
        "it is the best-ranked option the decision trees shortlist for this scenario (rank {rank} of {count}); "
        "{leader} scores higher but is not shortlisted. On scores alone: {why}"
    ).format(rank=chosen.rank, count=len(rec.ranking), leader=rec.leader.name, why=why)


def _version() -> str:
    return selector.__version__


def _group(kb: KnowledgeBase, group_id: str, lang: i18n.Language = "en") -> dict[str, Any]:
    """The group ranked and the question the report answers."""
    group = kb.groups[group_id]
    _ = i18n.translator(lang)
    return {
        "group_id": group.id,
        "group_name": group.name_en,
        "group_name_zh": group.name_zh or "",
        "group_description": i18n.pick(lang, group.description_en, group.description_zh),
        "problem": _(
            "Which of the {count} candidates for {group} should we adopt for the scenario below? The options are "
            "ranked by weighted multi-criteria decision analysis (MCDA) on evidence quoted from the source articles; "
            "every number is cited and listed in the evidence appendix."
        ).format(count=len(group.members), group=i18n.pick(lang, group.name_en, group.name_zh)),
    }


def _scenario(kb: KnowledgeBase, prefs: Preferences, rec: Recommendation) -> dict[str, Any]:
    """The scenario answers and what the decision trees made of them."""
    advice = rec.path.group_advice(rec.matrix.group)
    return {
        "answers": _answers(kb, prefs.answers, rec.path.answers),
        "shortlist": tuple(kb.entity_name(e) for e in rec.path.shortlisted(rec.matrix.group)),
        "other_candidates": tuple(kb.entity_name(e) for e in rec.path.other_candidates),
        "tree_excluded": tuple(kb.entity_name(e) for e in rec.path.excluded_from(rec.matrix.group)),
        "tree_notes": tuple(n for n in (advice.conflict, *advice.notes) if n),
    }


def _settings(kb: KnowledgeBase, prefs: Preferences, rec: Recommendation, lang: i18n.Language = "en") -> dict[str, Any]:
    """How the ranking was made: method, scaler, missing-value policy, flagged claims and hard constraints."""
    from selector.decision.problem import METHODS

    _ = i18n.translator(lang)
    method = rec.result.method
    group = kb.groups[rec.matrix.group]
    help_text = MISSING_HELP.get(rec.matrix.missing_policy, "")
    dimensions = basis.dimension_basis(kb, rec.matrix, lang=lang)
    return {
        "method": method,
        "weight_meaning": _(SWING_WEIGHT_MEANING) if method == "mavt" else "",
        "dimension_basis": tuple(b.text for b in dimensions),
        "drivers": decision.drivers(dimensions, lang=lang),
        "group_rationale": i18n.pick(lang, group.rationale_en, group.rationale_zh),
        "method_label": _(METHODS[method].label) if method in METHODS else method,
        "scaler": rec.result.scaler,
        "missing": rec.matrix.missing_policy,
        "missing_help": _(help_text) if help_text else "",
        "use_flagged": prefs.use_flagged,
        "higher_is_better": bool(rec.result.higher_is_better),
        "constraints": (
            *prefs.constraints,
            *(_("vendor {name} excluded").format(name=kb.entity_name(v)) for v in prefs.exclude_vendors),
            *(_("{name} excluded").format(name=kb.entity_name(e)) for e in prefs.exclude),
            *((_("alternatives with unknown values kept"),) if prefs.keep_unknown else ()),
        ),
    }


def _left_out(
    kb: KnowledgeBase, rec: Recommendation, imputed_cells: Sequence[Cell], lang: i18n.Language = "en"
) -> dict[str, Any]:
    """Cells filled without evidence, alternatives and criteria left out, and the matrix's notes."""
    m = rec.matrix

    def named(criterion_id: str) -> str:
        c = kb.criteria.get(criterion_id)
        return i18n.pick(lang, c.name_en, c.name_zh) if c is not None else criterion_id

    return {
        "imputed": tuple(
            (kb.entity_name(c.alternative), named(c.criterion), float(c.value), i18n.stored(c.note, lang))
            for c in imputed_cells
        ),
        "excluded_alternatives": tuple(
            (kb.entity_name(e.id), i18n.stored(e.reason, lang)) for e in m.excluded_alternatives
        ),
        "excluded_criteria": tuple((named(e.id), i18n.stored(e.reason, lang)) for e in m.excluded_criteria),
        "notes": tuple(i18n.stored(n, lang) for n in m.notes),
    }


def _provenance(kb: KnowledgeBase, rec: Recommendation, moment: datetime, lang: i18n.Language = "en") -> dict[str, Any]:
    """Where the report comes from: data sources, knowledge hash, version, time, and the user's measurements beside
    the published figures."""
    return {
        "data_sources": evidence.data_sources(kb, moment.date(), lang=lang),
        "data_hash": rec.data_hash,
        "app_version": _version(),
        "generated_at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "measured_vs_published": tuple(
            (c.entity_name, c.metric, c.sentence_in(lang), c.warnings_in(lang))
            for c in compare.for_entities(compare.comparisons(kb), rec.matrix.alternatives)
        ),
    }


def _record(
    kb: KnowledgeBase, rec: Recommendation, robustness: RobustnessInfo, generated_at: str, uploads: Sequence
) -> str:
    """The decision record the report embeds (selector.record), with the robustness the report states."""
    sealed = record.build(
        kb,
        rec,
        leader_first=robustness.leader_acceptability,
        samples=robustness.samples,
        seed=robustness.seed,
        generated_at=generated_at,
        app_version=_version(),
        uploads=uploads,
    )
    return record.to_text(sealed)


def _decision(
    kb: KnowledgeBase,
    prefs: Preferences,
    rec: Recommendation,
    parts: dict[str, Any],
    adr_meta: DecisionMeta,
    app_url: str,
    requirement: str,
) -> dict[str, Any]:
    """The decision document's own parts: front matter, requirement, risks, how to re-check, the reproduce link."""
    moment, lang = parts["moment"], parts["lang"]
    url, params = decision.reproduce(prefs, app_url)
    front = decision.front_matter(adr_meta, moment)
    return {
        **front,
        "requirement": decision.requirement_words(kb, prefs, rec, requirement, lang=lang),
        "risks": decision.risks(kb, rec, parts, lang=lang),
        "recheck": decision.recheck_steps(str(front["review_by"]), rec.data_hash, bool(app_url), lang=lang),
        "reproduce_url": url,
        "reproduce_params": params,
    }


def _title(kb: KnowledgeBase, group_id: str, headline: str, lang: i18n.Language) -> str:
    """The default title: the group in `lang` and the verdict."""
    group = kb.groups[group_id]
    return f"{i18n.pick(lang, group.name_en, group.name_zh)}: {headline}"


def _points(
    rec: Recommendation, parts: dict[str, Any], rules: Sequence[RuleInfo], robustness: RobustnessInfo, method: str
) -> dict[str, Any]:
    """MADR's pros and cons of each option and the consequences of the choice, in the report's language."""
    options, criteria, lang = parts["options"], parts["criteria"], parts["lang"]
    return {
        "pros_cons": points.pros_cons(options, criteria, rules, lang=lang),
        "consequences": points.consequences(
            options, rec.recommended, criteria, robustness, method, rec.result.scaler, lang=lang
        ),
    }


def build_report(
    kb: KnowledgeBase,
    prefs: Preferences,
    *,
    samples: int = figure.SAMPLES,
    seed: int = 0,
    app_url: str = DEFAULT_APP_URL,
    now: datetime | None = None,
    uploads: Sequence[tuple[str, bytes]] = (),
    meta: DecisionMeta | None = None,
    requirement: str = "",
    lang: i18n.Language = "en",
) -> Report:
    """Rank ``prefs.group`` under ``prefs``; the :class:`Report` is the decision record (MADR 4) and its appendix.

    Parameters
    ----------
    kb, prefs
        The knowledge base; group, answers, weights, method, scaler, missing-value policy, flagged claims, limits.
    samples, seed
        Weight vectors sampled for SMAA (0 skips the robustness analysis) and the sampler's seed (same seed, same
        report).
    app_url
        Base URL of the app (:func:`selector.adr.base_url`); the report links to ``app_url/?<preferences>``. Empty:
        a relative link ``?<preferences>`` and the parameters printed, never a guessed address.
    now, uploads
        The record's date and time (default: now); the user's files merged into ``kb`` as (name, bytes), whose names
        and digest the decision record keeps.
    meta, requirement
        The front matter (:class:`selector.adr.DecisionMeta`) and the requirement's own sentence (printed first).
    lang
        The language of the headings and sentences (``en`` or ``zh``); names, ids and numbers stay as they are.

    Raises PreferenceError, ScoringError or ValueError (``app_url`` neither empty nor http(s)).
    """
    if app_url and not app_url.startswith(("http://", "https://")):
        raise ValueError(f"app_url {app_url!r} must start with http:// or https:// (it becomes a link in the report)")
    lang = i18n.check_language(lang)
    rec = recommend(kb, prefs)
    moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    criteria, rules, dimensions = _criteria(kb, rec, lang), _rules(kb, rec, lang), _dimensions(kb, prefs, rec)
    robustness = _robustness(rec, samples, seed, lang) if samples > 0 else RobustnessInfo(0, seed)
    options, robustness, imputed_cells, summarised = summary.summarise(
        _options(rec), rec.recommended, robustness, rec.matrix.imputed_cells
    )
    settings = _settings(kb, prefs, rec, lang)
    used = {"dimensions": dimensions, "rules": rules, "criteria": criteria, "options": options}
    appendix = evidence.claims(kb, evidence.uses(kb, used, lang), moment.date())
    recommended = next(o for o in options if o.id == rec.recommended)
    judged = verdict.judge(rec, lang=lang)
    parts = {"moment": moment, "judged": judged, "options": options, "criteria": criteria, "evidence": appendix}
    parts["lang"] = lang
    return Report(
        title=(meta and meta.title) or _title(kb, prefs.group, judged.headline, lang),
        **_group(kb, prefs.group, lang),
        **_scenario(kb, prefs, rec),
        rules=rules,
        dimensions=dimensions,
        criteria=criteria,
        **settings,
        options=options,
        recommended=recommended.name,
        recommended_id=recommended.id,
        leader=options[0].name,
        why=_why(rec, recommended, lang),
        **_left_out(kb, rec, imputed_cells, lang),
        **_points(rec, parts, rules, robustness, settings["method_label"]),
        robustness=robustness,
        evidence=appendix,
        flagged_used=tuple(e.id for e in appendix if e.flags),
        summarised=summarised,
        **_provenance(kb, rec, moment, lang),
        verdict=judged.headline,
        verdict_details=judged.details,
        verdict_badge=judged.badge,
        elicited=_elicited(kb, prefs),
        decision_record=_record(kb, rec, robustness, moment.strftime("%Y-%m-%dT%H:%M:%SZ"), uploads),
        **_decision(kb, prefs, rec, parts, meta or DecisionMeta(), app_url, requirement),
        lang=lang,
    )

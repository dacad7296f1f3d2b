"""Recommendation reports: one report model, rendered as a Markdown decision record, self-contained HTML and PDF.

:func:`build_report` gathers everything a reader needs to audit one ranking (scenario answers and the rules
they fired, weights, method, the ranking with per-criterion contributions, imputed cells and exclusions,
robustness, and every claim behind every number) into a frozen :class:`Report`. The renderers only format it:

- :func:`render_markdown`: an architecture decision record in MADR's shape;
- :func:`render_html`: one self-contained page (plotly.js embedded once, CSS inline, nothing fetched);
- :func:`render_pdf`: A4 through WeasyPrint from a print template, with page numbers, a table of contents and
  static SVG charts (kaleido).

Both templates escape by default: the HTML environment autoescapes, and the Markdown environment passes every
expression through :func:`md_escape` unless a filter marked it :class:`MdSafe`.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import functools
import html
import math
import re
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import numpy as np
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

import selector
from selector import provenance, verdict
from selector.locators import RAW_DIR
from selector.measure import compare
from selector.models import KnowledgeBase
from selector.preferences import MISSING_HELP, Preferences, to_query
from selector.recommend import Recommendation, recommend
from selector.views.labels import section_label, value_text

TEMPLATES = Path(__file__).resolve().parent / "templates"
DEFAULT_APP_URL = "http://127.0.0.1:8501"
FONT_FAMILY = '"Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", sans-serif'


class ReportError(RuntimeError):
    """A report that cannot be produced (e.g. PDF without WeasyPrint's system libraries), with what to do."""


# ----------------------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class Evidence:
    """One claim of the evidence appendix, with where it comes from and what in the report it supports."""

    id: str
    document_id: str
    document_title_en: str
    document_title_zh: str
    section: str
    quote_zh: str
    text_en: str
    value: str
    tier: str
    flags: tuple[str, ...]
    rationale: str = ""
    based_on: tuple[str, ...] = ()
    note: str = ""
    used_for: tuple[str, ...] = ()
    # For benchmarked and reference numbers: dataset, result id, round, division, category, availability, row,
    # retrieval date and licence (selector.provenance.footnote); empty for the articles' and our claims.
    footnote: str = ""
    # For a dataset's number: its snapshot date, marked ageing when older than 18 months at the report's date.
    age: str = ""


@dataclass(frozen=True)
class DataSource:
    """A bundled public dataset as the report's "Data sources and licences" section names it."""

    id: str
    title: str
    licence: str
    attribution: str
    snapshot_date: str
    upstream: str
    # The snapshot's age at the report's date (ageing past selector.provenance.AGEING_MONTHS), the licence's
    # canonical text, the unit conversions made on import (CC BY 4.0 asks to indicate changes) and the bundled
    # NOTICE files (Apache-2.0 asks to pass them on; the app's "Data sources" page shows their text).
    age: str = ""
    licence_url: str = ""
    changes: str = ""
    notices: str = ""


@dataclass(frozen=True)
class Answer:
    """One scenario question with the option chosen (``defaulted`` when the user left the default)."""

    question_id: str
    question: str
    question_zh: str
    option_id: str
    option: str
    option_zh: str
    defaulted: bool


@dataclass(frozen=True)
class FiredRule:
    """A decision-tree rule that fired, in readable form."""

    id: str
    tree: str
    conditions: str
    recommends: tuple[str, ...]
    excludes: tuple[str, ...]
    rationale: str
    claims: tuple[str, ...]
    recommend_ids: tuple[str, ...] = ()
    exclude_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class DimensionWeight:
    """A decision dimension: the weight given, the article's default and its share of the total after redistribution."""

    id: str
    name: str
    name_zh: str
    given: float
    default: float
    share: float
    claims: tuple[str, ...]


@dataclass(frozen=True)
class CriterionInfo:
    """A column of the decision matrix with its effective weight (share of the total, 0-1)."""

    id: str
    name: str
    dimension: str
    objective: str
    unit: str
    sub_weight: float
    weight: float


@dataclass(frozen=True)
class CellInfo:
    """One value of the matrix as scored, and the claims it rests on."""

    value: float
    evidence: tuple[str, ...]
    imputed: bool = False
    flagged: bool = False
    note: str = ""
    measured: bool = False  # filled by the user's own measurement (tier measured)


@dataclass(frozen=True)
class OptionRow:
    """One ranked alternative: cells and contributions aligned with :attr:`Report.criteria`."""

    id: str
    name: str
    rank: int
    score: float
    shortlisted: bool
    cells: tuple[CellInfo, ...]
    contributions: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Point:
    """A pro, con or neutral remark (MADR's "Good, because ..."), with the claims it rests on."""

    verdict: str  # "good", "bad" or "neutral"
    text: str
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProsCons:
    option: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class MethodRanking:
    """The ranks one method gives the options (aligned with :attr:`Report.options`)."""

    method: str
    label: str
    scaler: str
    ranks: tuple[int, ...]
    leader: str
    tau: float | None  # Kendall's tau against the chosen method


@dataclass(frozen=True)
class Summarised:
    """The ranked options a report lists without their matrix, robustness rows and evidence (large groups)."""

    detailed: int
    ranked: int
    rows: tuple[tuple[int, str, float, bool], ...]  # rank, name, score, shortlisted
    imputed_cells: int  # imputed cells among them, not itemised


@dataclass(frozen=True)
class Robustness:
    """How much the ranking depends on the weights, the method and the set of alternatives.

    ``acceptability`` is options x ranks (in :attr:`Report.options` order): the share of sampled weightings
    that put the option at each rank; ``first_share`` is its first column and ``leader_acceptability`` the
    leader's entry of it. ``samples == 0`` means the analysis was not run.
    """

    samples: int
    seed: int
    acceptability: tuple[tuple[float, ...], ...] = ()
    first_share: tuple[float, ...] = ()
    leader_acceptability: float | None = None
    confidence: tuple[float, ...] = ()
    sampling: str = ""
    uncertain_cells: int = 0
    tipping_points: tuple[str, ...] = ()
    methods: tuple[MethodRanking, ...] = ()
    mean_tau: float | None = None
    agreement_summary: str = ""
    rank_reversal: str = ""
    unavailable: tuple[str, ...] = ()  # parts that could not be computed, and why


@dataclass(frozen=True)
class Report:
    """Everything the three renderers show; plain data, no behaviour."""

    title: str
    group_id: str
    group_name: str
    group_name_zh: str
    group_description: str
    problem: str
    answers: tuple[Answer, ...]
    rules: tuple[FiredRule, ...]
    shortlist: tuple[str, ...]
    other_candidates: tuple[str, ...]
    tree_excluded: tuple[str, ...]
    dimensions: tuple[DimensionWeight, ...]
    criteria: tuple[CriterionInfo, ...]
    method: str
    method_label: str
    scaler: str
    missing: str
    missing_help: str
    use_flagged: bool
    higher_is_better: bool
    options: tuple[OptionRow, ...]
    recommended: str
    recommended_id: str
    leader: str
    why: str
    imputed: tuple[tuple[str, str, float, str], ...]  # option, criterion, value used, why
    excluded_alternatives: tuple[tuple[str, str], ...]  # name, why
    excluded_criteria: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    pros_cons: tuple[ProsCons, ...]
    consequences: tuple[Point, ...]
    robustness: Robustness
    evidence: tuple[Evidence, ...]
    data_hash: str
    app_version: str
    generated_at: str
    reproduce_url: str
    flagged_used: tuple[str, ...] = field(default=())
    summarised: Summarised | None = None
    # The user's measured figures about the options beside the published ones: (entity, metric, sentence, warnings).
    measured_vs_published: tuple[tuple[str, str, str, tuple[str, ...]], ...] = field(default=())
    verdict: str = ""  # selector.verdict's headline: the same words as the app and `rank`
    # Every bundled dataset with its licence and the attribution it requires (shown in every report).
    data_sources: tuple[DataSource, ...] = field(default=())
    verdict_details: tuple[str, ...] = ()
    verdict_badge: str = ""
    constraints: tuple[str, ...] = ()  # the hard constraints in force, as the user gave them

    @property
    def evidence_ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.evidence)

    @property
    def scaling(self) -> str:
        """``"sum scaling"``, or ``"no scaling"`` for the scaler ``none``."""
        return _scaling(self.scaler)


# ----------------------------------------------------------------------------------------------------------
# Building the model


def _scaling(scaler: str) -> str:
    return "no scaling" if scaler == "none" else f"{scaler} scaling"


def _fmt(value: float) -> str:
    """A number as the articles would write it: no trailing zeros, at most 4 significant digits."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{value:.4g}"


def _amount(value: float, unit: str) -> str:
    """``3200 img/s``, but ``4 (rating 1-5)`` for units that are descriptions rather than symbols."""
    return f"{_fmt(value)} {unit}" if " " not in unit else f"{_fmt(value)} ({unit})"


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


def _option_label(kb: KnowledgeBase, qid: str, option_id: str) -> str:
    question = kb.questions.get(qid)
    option = next((o for o in question.options if o.id == option_id), None) if question else None
    return option.label_en if option else option_id


def _rules(kb: KnowledgeBase, rec: Recommendation) -> tuple[FiredRule, ...]:
    rows = []
    for fired in rec.path.fired:
        rule = kb.rules.get(fired.id)
        conditions = "; ".join(
            f"{kb.questions[q].text_en if q in kb.questions else q} = "
            + " or ".join(_option_label(kb, q, o) for o in (rule.when[q] if rule else (fired.matched[q],)))
            for q in fired.matched
        )
        rows.append(
            FiredRule(
                id=fired.id,
                tree=fired.tree,
                conditions=conditions,
                recommends=tuple(kb.entity_name(e) for e in fired.recommend),
                excludes=tuple(kb.entity_name(e) for e in fired.exclude),
                rationale=fired.rationale,
                claims=tuple(fired.claims),
                recommend_ids=tuple(fired.recommend),
                exclude_ids=tuple(fired.exclude),
            )
        )
    return tuple(rows)


def _dimensions(kb: KnowledgeBase, prefs: Preferences, rec: Recommendation) -> tuple[DimensionWeight, ...]:
    given = prefs.resolved_dimension_weights(kb)
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


def _criteria(kb: KnowledgeBase, rec: Recommendation) -> tuple[CriterionInfo, ...]:
    m = rec.matrix
    return tuple(
        CriterionInfo(
            id=c,
            name=kb.criteria[c].name_en,
            dimension=kb.dimensions[d].name_en if d in kb.dimensions else d,
            objective=o,
            unit=kb.criteria[c].unit,
            sub_weight=float(s),
            weight=float(w),
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


def _pros_cons(
    options: Sequence[OptionRow], criteria: Sequence[CriterionInfo], rules: Sequence[FiredRule]
) -> tuple[ProsCons, ...]:
    """Per option: where it is best or worst of the group, where evidence is missing or flagged, what the tree says."""
    result = []
    for option in options:
        points: list[Point] = []
        for rule in rules:
            if option.id in rule.recommend_ids:
                points.append(Point("good", f"the decision trees recommend it: {rule.rationale}", rule.claims))
            if option.id in rule.exclude_ids:
                points.append(Point("bad", f"the decision trees exclude it: {rule.rationale}", rule.claims))
        for j, crit in enumerate(criteria):
            cell = option.cells[j]
            column = np.array([o.cells[j].value for o in options], dtype=float)
            amount = _amount(cell.value, crit.unit)
            if cell.imputed:
                how = cell.note.removeprefix("no evidence; ") or "imputed"
                points.append(Point("bad", f"there is no evidence for its {crit.name}; {how} ({amount})"))
                continue
            spread = np.ptp(column) > 1e-12 * max(1.0, float(np.abs(column).max()))
            best = column.max() if crit.objective == "max" else column.min()
            worst = column.min() if crit.objective == "max" else column.max()
            if not spread:
                points.append(Point("neutral", f"every option has the same {crit.name} ({amount})", cell.evidence))
            elif math.isclose(cell.value, best, rel_tol=1e-12, abs_tol=1e-12):
                points.append(Point("good", f"it has the best {crit.name} of the options ({amount})", cell.evidence))
            elif math.isclose(cell.value, worst, rel_tol=1e-12, abs_tol=1e-12):
                points.append(Point("bad", f"it has the worst {crit.name} of the options ({amount})", cell.evidence))
            else:
                points.append(
                    Point("neutral", f"its {crit.name} lies between the best and the worst ({amount})", cell.evidence)
                )
            if cell.flagged:
                points.append(Point("bad", f"its {crit.name} value rests on a flagged claim", cell.evidence))
        order = {"good": 0, "neutral": 1, "bad": 2}
        result.append(ProsCons(option.name, tuple(sorted(points, key=lambda p: order[p.verdict]))))
    return tuple(result)


def _consequences(
    options: Sequence[OptionRow],
    recommended_id: str,
    criteria: Sequence[CriterionInfo],
    robustness: Robustness,
    method_label: str,
    scaler: str,
) -> tuple[Point, ...]:
    chosen = next(o for o in options if o.id == recommended_id)
    leader = options[0]
    points: list[Point] = []
    if chosen.id == leader.id:
        points.append(Point("good", f"{chosen.name} has the best score under {method_label}, {_scaling(scaler)}."))
    else:
        points.append(
            Point(
                "neutral",
                f"{chosen.name} is the best-ranked option the decision trees shortlist; {leader.name} scores higher "
                f"(rank {leader.rank} vs {chosen.rank}) but was not recommended for this scenario.",
            )
        )
    index = next(i for i, o in enumerate(options) if o.id == chosen.id)
    if robustness.first_share:
        share = robustness.first_share[index]
        verdict = "good" if share >= 0.75 else "neutral" if share >= 0.5 else "bad"
        points.append(
            Point(
                verdict,
                f"{chosen.name} ranks first in {share:.0%} of {robustness.samples} randomly sampled weightings "
                "(SMAA rank acceptability).",
            )
        )
    gaps = [c.name for c, cell in zip(criteria, chosen.cells, strict=True) if cell.imputed]
    if gaps:
        points.append(
            Point("bad", f"there is no evidence for {chosen.name} on {', '.join(gaps)}; measure it before committing.")
        )
    flagged = sorted({e for c in chosen.cells if c.flagged for e in c.evidence})
    if flagged:
        points.append(
            Point("bad", f"part of {chosen.name}'s evidence is flagged as doubtful; check it.", tuple(flagged))
        )
    points.extend(Point("neutral", sentence.rstrip(".") + ".") for sentence in robustness.tipping_points[:3])
    disagree = [m for m in robustness.methods if m.leader != leader.name]
    if robustness.methods:
        if disagree:
            points.append(
                Point(
                    "bad",
                    "other MCDA methods crown another leader: "
                    + "; ".join(f"{m.label} picks {m.leader}" for m in disagree)
                    + ".",
                )
            )
        else:
            points.append(Point("good", f"all {len(robustness.methods)} MCDA methods compared agree on the leader."))
    return tuple(points)


def _uses(kb: KnowledgeBase, report_parts: dict[str, Any]) -> dict[str, list[str]]:
    """Claim id -> what in the report it supports, in first-use order."""
    uses: dict[str, list[str]] = {}

    def add(claim_id: str, use: str) -> None:
        uses.setdefault(claim_id, [])
        if use not in uses[claim_id]:
            uses[claim_id].append(use)

    for dim in report_parts["dimensions"]:
        for claim_id in dim.claims:
            add(claim_id, f"default weight of {dim.name}")
    for rule in report_parts["rules"]:
        for claim_id in rule.claims:
            add(claim_id, f"decision rule {rule.id}")
    criteria = report_parts["criteria"]
    for option in report_parts["options"]:
        for crit, cell in zip(criteria, option.cells, strict=True):
            for claim_id in cell.evidence:
                add(claim_id, f"{option.name}: {crit.name}")
    # Assessed claims rest on others; those are evidence too, so follow `based_on` to the bottom.
    queue = list(uses)
    while queue:
        claim = kb.claims.get(queue.pop(0))
        for basis in claim.based_on if claim else ():
            if basis not in uses:
                queue.append(basis)
            add(basis, f"basis of {claim.id}")
    return uses


def _evidence(kb: KnowledgeBase, uses: Mapping[str, list[str]], today: date | None = None) -> tuple[Evidence, ...]:
    rows = []
    for claim_id in sorted(uses):
        claim = kb.claims.get(claim_id)
        if claim is None:  # the loader refuses dangling references; keep the report honest if one slips through
            rows.append(Evidence(claim_id, "", "", "", "", "", "claim not found in the knowledge base", "", "", ()))
            continue
        source = kb.sources.get(claim.source)
        rows.append(
            Evidence(
                id=claim.id,
                document_id=claim.source,
                document_title_en=source.title_en if source else claim.source,
                document_title_zh=(source.title_zh or "") if source else "",
                section=section_label(kb, claim),
                quote_zh=claim.quote or "",
                text_en=claim.text_en,
                value=value_text(claim),
                tier=claim.tier,
                flags=tuple(
                    f"{f.kind}: {f.reason}" + (f" (ref: {f.reference})" if f.reference else "") for f in claim.flags
                ),
                rationale=claim.rationale or "",
                based_on=tuple(claim.based_on),
                note=claim.note or "",
                used_for=tuple(uses[claim_id]),
                footnote=provenance.footnote(claim),
                age=provenance.age_text(claim, kb, today),
            )
        )
    return tuple(rows)


def _data_sources(kb: KnowledgeBase, today: date | None = None) -> tuple[DataSource, ...]:
    return tuple(
        DataSource(
            d.id,
            d.title,
            d.licence,
            d.attribution,
            d.snapshot_date,
            "; ".join(d.upstream),
            age=provenance.dataset_age_text(d, today),
            licence_url=provenance.LICENCE_URLS.get(d.licence, ""),
            changes="; ".join(provenance.conversions_used(kb, d.id)),
            notices=", ".join(f"knowledge/{RAW_DIR}/{f}" for f in d.licence_files if "NOTICE" in f.upper()),
        )
        for d in provenance.datasets(kb)
    )


def _robustness(rec: Recommendation, samples: int, seed: int) -> Robustness:
    """SMAA, tipping points, method agreement and rank reversal, as ``python -m selector sensitivity`` computes them.

    :func:`selector.robustness.analysis.analyse` decides what "plausible" means (dimension weights sampled over the
    whole simplex, imputed cells over their criterion's plausible range), so the report, the command line and
    the app agree. A ranking the analyses cannot handle is still reported, with the reason in ``unavailable``.
    """
    from scipy.stats import kendalltau

    from selector import scoring
    from selector.robustness import analysis

    try:
        result = analysis.analyse(rec, samples=samples, seed=seed)
    except (scoring.ScoringError, ValueError) as exc:
        return Robustness(samples=samples, seed=seed, unavailable=(f"robustness analyses: {exc}",))
    smaa, agreement = result.smaa, result.agreement
    names = [r.name for r in rec.ranking]
    order = [smaa.alternatives.index(n) for n in names]  # the analyses' order -> the report's (ranking) order
    acceptability = np.asarray(smaa.acceptability)[order]
    chosen = np.asarray(rec.result.ranks)[[rec.matrix.alternatives.index(r.id) for r in rec.ranking]]
    methods = []
    for k, method in enumerate(agreement.methods):
        ranks = np.asarray(agreement.ranks[k])[[agreement.alternatives.index(n) for n in names]]
        tau = float(kendalltau(chosen, ranks).statistic) if len(names) > 1 else float("nan")
        methods.append(
            MethodRanking(
                method=method,
                label=scoring.METHODS[method].label if method in scoring.METHODS else method,
                scaler=agreement.scalers[k],
                ranks=tuple(int(r) for r in ranks),
                leader=agreement.leaders[k],
                tau=tau if math.isfinite(tau) else None,
            )
        )
    space = "dimension weights" if result.space == "dimensions" else "criterion weights"
    within = "the whole simplex" if result.spread is None else f"+/- {result.spread:g} of the current shares"
    return Robustness(
        samples=smaa.n_samples,
        seed=smaa.seed,
        acceptability=tuple(tuple(float(v) for v in row) for row in acceptability),
        first_share=tuple(float(v) for v in acceptability[:, 0]),
        leader_acceptability=float(acceptability[0, 0]),
        confidence=tuple(float("nan") if smaa.confidence[i] is None else float(smaa.confidence[i]) for i in order),
        sampling=f"{space} sampled uniformly over {within}",
        uncertain_cells=len(smaa.uncertain_cells),
        tipping_points=tuple(t.sentence for t in result.tipping_points),
        methods=tuple(methods),
        mean_tau=agreement.mean_tau,
        agreement_summary=agreement.summary,
        rank_reversal=result.reversal.summary,
        unavailable=tuple(f"{m}: {why}" for m, why in agreement.skipped.items()),
    )


# A report is read, and a PDF laid out, row by row: past this many options the matrix, the robustness tables and the
# evidence appendix (whose size grows with options x criteria, and options x ranks) cover the best-ranked ones and
# the recommended one; the rest are listed by rank and score, and the report says so.
DETAILED_OPTIONS = 12


def _detailed(options: tuple[OptionRow, ...], recommended_id: str) -> list[int]:
    shown = list(range(min(DETAILED_OPTIONS, len(options))))
    chosen = next(i for i, o in enumerate(options) if o.id == recommended_id)
    if chosen not in shown:
        shown[-1] = chosen
    return shown


def _trim_robustness(rb: Robustness, rows: list[int]) -> Robustness:
    """The robustness of the detailed options only: their rows, and the first len(rows) ranks of each."""
    if not rb.acceptability:
        return rb
    ranks = len(rows)
    return replace(
        rb,
        acceptability=tuple(rb.acceptability[i][:ranks] for i in rows),
        first_share=tuple(rb.first_share[i] for i in rows),
        confidence=tuple(rb.confidence[i] for i in rows),
        methods=tuple(replace(m, ranks=tuple(m.ranks[i] for i in rows)) for m in rb.methods),
    )


def _why(rec: Recommendation, chosen: OptionRow) -> str:
    """Why the chosen option: the score sentence, or the shortlist when the tree overrides the score leader."""
    if chosen.id == rec.leader.id:
        return rec.why
    return (
        f"it is the best-ranked option the decision trees shortlist for this scenario (rank {chosen.rank} of "
        f"{len(rec.ranking)}); {rec.leader.name} scores higher but is not shortlisted. On scores alone: {rec.why}"
    )


def _version() -> str:
    return selector.__version__


def build_report(
    kb: KnowledgeBase,
    prefs: Preferences,
    *,
    samples: int = 2000,
    seed: int = 0,
    app_url: str = DEFAULT_APP_URL,
    now: datetime | None = None,
) -> Report:
    """Rank ``prefs.group`` under ``prefs`` and gather everything a reader needs to audit the ranking.

    Parameters
    ----------
    kb
        The knowledge base.
    prefs
        Group, scenario answers, weights, method, scaler, missing-value policy and flagged-claims toggle.
    samples
        Weight vectors sampled for SMAA (0 skips the robustness analysis).
    seed
        Seed of the sampler, so a report can be reproduced exactly.
    app_url
        Base URL of the app; the report links to ``app_url/?<preferences>`` to reproduce the ranking.
    now
        Timestamp printed in the footer (default: the current time); pass one for reproducible output.

    Returns
    -------
    Report

    Raises
    ------
    selector.preferences.PreferenceError, selector.scoring.ScoringError
        When the preferences do not fit the knowledge or the method cannot score the matrix.
    ValueError
        When ``app_url`` is not an http(s) address.
    """
    from selector.scoring import METHODS

    if not app_url.startswith(("http://", "https://")):
        raise ValueError(f"app_url {app_url!r} must start with http:// or https:// (it becomes a link in the report)")
    rec = recommend(kb, prefs)
    group = kb.groups[prefs.group]
    moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    options = _options(rec)
    criteria = _criteria(kb, rec)
    rules = _rules(kb, rec)
    dimensions = _dimensions(kb, prefs, rec)
    robustness = _robustness(rec, samples, seed) if samples > 0 else Robustness(0, seed)
    imputed_cells = rec.matrix.imputed_cells
    summarised = None
    if len(options) > DETAILED_OPTIONS:
        rows = _detailed(options, rec.recommended)
        shown = {options[i].id for i in rows}
        others = [o for o in options if o.id not in shown]
        imputed_cells = tuple(c for c in imputed_cells if c.alternative in shown)
        summarised = Summarised(
            detailed=len(rows),
            ranked=len(options),
            rows=tuple((o.rank, o.name, o.score, o.shortlisted) for o in others),
            imputed_cells=len(rec.matrix.imputed_cells) - len(imputed_cells),
        )
        robustness = _trim_robustness(robustness, rows)
        options = tuple(options[i] for i in rows)
    method_label = METHODS[rec.result.method].label if rec.result.method in METHODS else rec.result.method
    uses = _uses(kb, {"dimensions": dimensions, "rules": rules, "criteria": criteria, "options": options})
    evidence = _evidence(kb, uses, moment.date())
    recommended = next(o for o in options if o.id == rec.recommended)
    m = rec.matrix
    judged = verdict.judge(rec)
    return Report(
        title=f"{group.name_en}: {judged.headline}",
        group_id=group.id,
        group_name=group.name_en,
        group_name_zh=group.name_zh or "",
        group_description=group.description_en or "",
        problem=(
            f"Which of the {len(group.members)} candidates for {group.name_en} should we adopt for the scenario "
            "below? "
            "The options are ranked by weighted multi-criteria decision analysis (MCDA) on evidence quoted from "
            "the source articles; every number is cited and listed in the evidence appendix."
        ),
        answers=_answers(kb, prefs.answers, rec.path.answers),
        rules=rules,
        shortlist=tuple(kb.entity_name(e) for e in rec.path.shortlisted(m.group)),
        other_candidates=tuple(kb.entity_name(e) for e in rec.path.other_candidates),
        tree_excluded=tuple(kb.entity_name(e) for e in rec.path.excluded),
        dimensions=dimensions,
        criteria=criteria,
        method=rec.result.method,
        method_label=method_label,
        scaler=rec.result.scaler,
        missing=m.missing_policy,
        missing_help=MISSING_HELP.get(m.missing_policy, ""),
        use_flagged=prefs.use_flagged,
        higher_is_better=bool(rec.result.higher_is_better),
        options=options,
        recommended=recommended.name,
        recommended_id=recommended.id,
        leader=options[0].name,
        why=_why(rec, recommended),
        imputed=tuple(
            (kb.entity_name(c.alternative), kb.criteria[c.criterion].name_en, float(c.value), c.note)
            for c in imputed_cells
        ),
        excluded_alternatives=tuple((kb.entity_name(e.id), e.reason) for e in m.excluded_alternatives),
        excluded_criteria=tuple(
            (kb.criteria[e.id].name_en if e.id in kb.criteria else e.id, e.reason) for e in m.excluded_criteria
        ),
        notes=tuple(m.notes),
        pros_cons=_pros_cons(options, criteria, rules),
        consequences=_consequences(options, recommended.id, criteria, robustness, method_label, rec.result.scaler),
        robustness=robustness,
        evidence=evidence,
        data_sources=_data_sources(kb, moment.date()),
        data_hash=rec.data_hash,
        app_version=_version(),
        generated_at=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        reproduce_url=app_url.rstrip("/") + "/?" + urlencode(to_query(prefs)),
        flagged_used=tuple(e.id for e in evidence if e.flags),
        summarised=summarised,
        measured_vs_published=tuple(
            (c.entity_name, c.metric, c.sentence, c.warnings)
            for c in compare.for_entities(compare.comparisons(kb), m.alternatives)
        ),
        verdict=judged.headline,
        verdict_details=judged.details,
        verdict_badge=judged.badge,
        constraints=(
            *prefs.constraints,
            *(f"vendor {kb.entity_name(v)} excluded" for v in prefs.exclude_vendors),
            *(f"{kb.entity_name(e)} excluded" for e in prefs.exclude),
            *(("alternatives with unknown values kept",) if prefs.keep_unknown else ()),
        ),
    )


# ----------------------------------------------------------------------------------------------------------
# Escaping and the template environments

# The sections of every rendering, in order (id, title); MADR's headings first, then the appendix.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("context", "Context and Problem Statement"),
    ("drivers", "Decision Drivers"),
    ("options", "Considered Options"),
    ("outcome", "Decision Outcome"),
    ("pros-cons", "Pros and Cons of the Options"),
    ("consequences", "Consequences"),
    ("evidence", "Evidence Appendix"),
    ("data-sources", "Data Sources and Licences"),
)
_VERDICTS = {"good": "Good", "bad": "Bad", "neutral": "Neutral"}


class MdSafe(str):
    """Markdown already built from escaped parts: the Markdown environment writes it unchanged."""

    __slots__ = ()


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#!|~])")
# What would start a list, a heading underline or an ordered list when a value opens a line.
_MD_BLOCK_START = re.compile(r"^(\d*)([-+=.)])(?=\s|[-+=]|$)")


def md_escape(value: object) -> MdSafe:
    """`value` as literal Markdown text that renders as itself and never as markup.

    Whitespace runs (newlines included) become one space, so a value cannot end a table row or start a block;
    ``&``, ``<`` and ``>`` become entities, so no HTML passes through a Markdown renderer; Markdown's inline
    specials (backslash, backtick, ``* _ { } [ ] # ! | ~``) are backslash-escaped, and a leading ``-``, ``+``,
    ``=`` or ``1.`` cannot start a list or a heading.

    Parameters
    ----------
    value
        Anything; it is shown as ``str(value)``. An :class:`MdSafe` value is returned unchanged.

    Returns
    -------
    MdSafe
        Text that is safe in a paragraph, a list item, a heading or a table cell.
    """
    if isinstance(value, MdSafe):
        return value
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _MD_BLOCK_START.sub(r"\1\\\2", text)
    return MdSafe(text)


def _anchor(claim_id: str) -> str:
    return "ev-" + quote(str(claim_id), safe="")


def _md_cite(ids: Sequence[str]) -> MdSafe:
    return MdSafe(" ".join(f"[[{md_escape(i)}]](#{_anchor(i)})" for i in ids))


def _html_cite(ids: Sequence[str]) -> Markup:
    return Markup(" ").join(Markup('<a class="cite" href="#{}">[{}]</a>').format(_anchor(i), i) for i in ids)


def _md_url(url: str) -> MdSafe:
    return MdSafe("<" + quote(url, safe=":/?&=%#,+;@!$'*()-._~") + ">")


def _pct(value: float | None, digits: int = 0) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    return f"{100 * value:.{digits}f}%"


def _score(value: float) -> str:
    return f"{value:.3f}" if math.isfinite(value) else "-"


def _tau(value: float | None) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.2f}"


_COMMON_FILTERS = {"num": _fmt, "pct": _pct, "score": _score, "tau": _tau, "verdict": lambda v: _VERDICTS[v]}


def _md_finalize(value: object) -> str:
    return "" if value is None else md_escape(value)


@functools.lru_cache(maxsize=2)
def _environment(markdown: bool) -> Environment:
    """The Jinja2 environment: Markdown escapes every expression by default, HTML autoescapes."""
    options: dict[str, Any] = {
        "loader": FileSystemLoader(TEMPLATES),
        "undefined": StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    if markdown:
        env = Environment(autoescape=False, finalize=_md_finalize, **options)
        env.filters.update(_COMMON_FILTERS, cite=_md_cite, url=_md_url, anchor=lambda i: MdSafe(_anchor(i)))
    else:
        env = Environment(autoescape=select_autoescape(["html", "j2"]), **options)
        env.filters.update(_COMMON_FILTERS, cite=_html_cite, anchor=_anchor)
    return env


# ----------------------------------------------------------------------------------------------------------
# Charts (data of the report in, plotly figures out)


def _figures(report: Report) -> dict[str, tuple[str, Any]]:
    """The report's charts by key, each with its caption: weights, scores (or contributions), SMAA acceptability.

    The caption is printed by the page, not inside the chart, so charts carry no title of their own.
    """
    import pandas as pd
    import plotly.graph_objects as go

    from selector import charts

    figures: dict[str, Any] = {}
    names = [o.name for o in report.options]
    if all(o.contributions is not None for o in report.options):
        frame = pd.DataFrame(
            [
                {"alternative": o.name, "criterion": c.name, "dimension": c.dimension, "contribution": v}
                for o in report.options
                for c, v in zip(report.criteria, o.contributions or (), strict=True)
            ]
        )
        figures["scores"] = charts.contribution_bars(frame, names, "")
    else:
        better = "higher" if report.higher_is_better else "lower"
        fig = go.Figure(
            go.Bar(
                orientation="h",
                y=[html.escape(n) for n in names],
                x=[o.score for o in report.options],
                text=[_score(o.score) for o in report.options],
                textposition="auto",
                marker={"color": charts.BASE_COLOUR},
            )
        )
        fig.update_yaxes(autorange="reversed")
        fig.update_xaxes(title=f"score ({better} is better)")
        fig.update_layout(
            template="plotly_white",
            height=200 + 40 * len(names),
            margin={"l": 10, "r": 10, "t": 60, "b": 10},
        )
        figures["scores"] = fig
    weights = go.Figure()
    for dimension in dict.fromkeys(c.dimension for c in report.criteria):
        part = [c for c in report.criteria if c.dimension == dimension]
        weights.add_trace(
            go.Bar(
                orientation="h",
                name=html.escape(dimension),
                y=[html.escape(c.name) for c in part],
                x=[100 * c.weight for c in part],
                text=[_pct(c.weight, 1) for c in part],
                textposition="auto",
                hovertemplate="%{y}: %{x:.1f}%<extra></extra>",
            )
        )
    weights.update_yaxes(autorange="reversed")
    weights.update_xaxes(title="effective weight (% of the total)")
    weights.update_layout(
        template="plotly_white",
        height=180 + 34 * len(report.criteria),
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        legend={"orientation": "h", "y": -0.25, "x": 0, "title": "dimension"},
    )
    figures["weights"] = weights
    if report.robustness.acceptability:
        figures["acceptability"] = charts.acceptability_heatmap(np.array(report.robustness.acceptability), names, "")
    contributions = all(o.contributions is not None for o in report.options)
    captions = {
        "weights": "Effective weight of each criterion, coloured by dimension",
        "scores": f"{'Contribution of each criterion to the score' if contributions else 'Score of each option'} "
        f"({report.method_label}, {report.scaling})",
        "acceptability": f"Rank acceptability: share of {report.robustness.samples} sampled weightings that put "
        "each option at each rank (SMAA)",
    }
    for key, fig in figures.items():
        charts.themed(fig).update_layout(
            title=None, font={"family": FONT_FAMILY}, margin={"t": 50 if key == "acceptability" else 20}
        )
    order = ("weights", "scores", "acceptability")
    return {key: (captions[key], figures[key]) for key in order if key in figures}


_PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}
_FIGURE = Markup('<figure class="chart-box"><figcaption>{}</figcaption>{}</figure>')


class _StaticImages:
    """Static chart images through kaleido, whose browser is started once (~2 s) and reused (~0.15 s a chart).

    The browser is a process-wide resource, so one instance serves every report; the lock keeps concurrent
    reports (Streamlit sessions are threads) from sharing a half-started server, and lets :meth:`warm_up` start
    it in the background while the caller does other work.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started = False
        self._warming: threading.Thread | None = None

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        try:
            import kaleido

            kaleido.start_sync_server(mathjax=False, silence_warnings=True)
            # Stop the browser before interpreter shutdown removes its profile directory under it.
            atexit.register(kaleido.stop_sync_server, silence_warnings=True)
        except Exception:  # without the server, fig.to_image still works, starting a browser per call
            pass

    def svg(self, fig: Any, width: int, height: int) -> bytes:
        with self._lock:
            self._start()
            with warnings.catch_warnings():
                # plotly warns that its kaleido options are ignored once the server runs: expected here.
                warnings.simplefilter("ignore")
                return fig.to_image(format="svg", width=width, height=height)

    def warm_up(self) -> None:
        """Start the browser in a background thread (once); a later :meth:`svg` waits for it through the lock."""
        if self._started or self._warming is not None:
            return

        def draw_nothing() -> None:
            import plotly.graph_objects as go

            # No browser: nothing to warm; render_pdf says so in place of each chart.
            with contextlib.suppress(Exception):
                self.svg(go.Figure(), 10, 10)

        self._warming = threading.Thread(target=draw_nothing, name="kaleido-warm-up", daemon=True)
        self._warming.start()


_IMAGES = _StaticImages()


def prepare_pdf() -> None:
    """Start the browser that draws the PDF's charts in the background, so the next :func:`render_pdf` need not
    wait ~2 s for it. Returns at once; calling it again does nothing."""
    _IMAGES.warm_up()


# ----------------------------------------------------------------------------------------------------------
# Renderers


def render_markdown(report: Report) -> str:
    """The report as a Markdown architecture decision record (MADR headings, evidence appendix, footer).

    Every value from the knowledge is escaped, so a name cannot inject Markdown or HTML.

    Parameters
    ----------
    report
        From :func:`build_report`.

    Returns
    -------
    str
        CommonMark with GitHub tables; numbers cite their claims as links to anchors of the appendix.
    """
    return _environment(markdown=True).get_template("report.md.j2").render(report=report, sections=SECTIONS)


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page: CSS inline, interactive charts with plotly.js embedded once.

    Opened offline it requests nothing: no script, stylesheet or image comes from another address.

    Parameters
    ----------
    report
        From :func:`build_report`.

    Returns
    -------
    str
        The page (about 5 MB, most of it plotly.js).
    """
    blocks = {}
    for k, (key, (caption, fig)) in enumerate(_figures(report).items()):
        # plotly.js (~4.6 MB) goes with the first chart only; the others use it from there.
        chart = fig.to_html(full_html=False, include_plotlyjs=k == 0, div_id=f"chart-{key}", config=_PLOTLY_CONFIG)
        blocks[key] = _FIGURE.format(caption, Markup(chart))
    css = Markup((TEMPLATES / "report.css").read_text(encoding="utf-8"))
    return (
        _environment(markdown=False)
        .get_template("report.html.j2")
        .render(report=report, sections=SECTIONS, charts=blocks, css=css)
    )


# Chart size in CSS pixels for print: the A4 text block is ~170 mm, about 640 px at 96 dpi.
_PRINT_WIDTH = 760


def render_pdf(report: Report) -> bytes:
    """The report as an A4 PDF: title block, table of contents with page numbers, static charts, page numbers.

    A chart that cannot be drawn (no browser for kaleido) is replaced by a line saying why.

    Parameters
    ----------
    report
        From :func:`build_report`.

    Returns
    -------
    bytes
        The PDF file.

    Raises
    ------
    ReportError
        When WeasyPrint or its system libraries (Pango) are not installed.
    """
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        raise ReportError(
            f"PDF output needs WeasyPrint and its system libraries ({exc}); install the Debian packages "
            "libpango-1.0-0 and libpangoft2-1.0-0 (make install does), or choose Markdown or HTML"
        ) from exc
    blocks = {}
    for key, (caption, fig) in _figures(report).items():
        # WeasyPrint's SVG renderer drops plotly's gradient colour bars; the cells print their values anyway.
        fig.update_traces(showscale=False, selector={"type": "heatmap"})
        try:
            svg = _IMAGES.svg(fig, _PRINT_WIDTH, int(fig.layout.height or 400))
        except Exception as exc:  # a report without one chart beats no report (e.g. no browser for kaleido)
            missing = Markup('<p class="chart-missing">Chart not available: {}</p>').format(exc)
            blocks[key] = _FIGURE.format(caption, missing)
            continue
        data = base64.b64encode(svg).decode("ascii")
        image = Markup('<img class="chart" alt="{}" src="data:image/svg+xml;base64,{}">').format(caption, data)
        blocks[key] = _FIGURE.format(caption, image)
    css = Markup(
        (TEMPLATES / "report.css").read_text(encoding="utf-8")
        + "\n"
        + (TEMPLATES / "report_print.css").read_text(encoding="utf-8")
    )
    page = (
        _environment(markdown=False)
        .get_template("report_pdf.html.j2")
        .render(report=report, sections=SECTIONS, charts=blocks, css=css)
    )
    return HTML(string=page, base_url=str(TEMPLATES)).write_pdf()

"""The report's document model: frozen plain data that the renderers only format (no behaviour).

:func:`selector.report.build.build_report` fills a :class:`Report`; :mod:`selector.report.render` (Markdown,
HTML) and :mod:`selector.report.pdf` show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from selector.errors import SelectorError
from selector.report import formats


class ReportError(SelectorError, RuntimeError):
    """A report that cannot be produced (e.g. PDF without WeasyPrint's system libraries), with what to do."""


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
    # retrieval date and licence (selector.knowledge.provenance.footnote); empty for the articles' and our claims.
    footnote: str = ""
    # For a dataset's number: its snapshot date, marked ageing when older than 18 months at the report's date.
    age: str = ""
    # For an assessed rating: the rubric level its value stands on (selector.views.labels.rubric_text).
    rubric: str = ""


@dataclass(frozen=True)
class DataSource:
    """A bundled public dataset as the report's "Data sources and licences" section names it."""

    id: str
    title: str
    licence: str
    attribution: str
    snapshot_date: str
    upstream: str
    # The snapshot's age at the report's date (ageing past selector.knowledge.provenance.AGEING_MONTHS), the licence's
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
class RuleInfo:
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
class ElicitedWeights:
    """How the dimension weights were elicited (selector.decision.elicitation): the method, every answer in words, the
    shares they give and, for pairwise comparisons, the consistency ratio."""

    method: str  # "swing" or "pairwise"
    label: str
    answers: tuple[str, ...]
    shares: tuple[tuple[str, float], ...]  # dimension name, share of the total
    consistency: str = ""  # the consistency ratio in words (pairwise only)
    consistency_ratio: float | None = None


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
    scale: str = ""  # the value scale, e.g. "0-2,000 (linear)"


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
class RobustnessInfo:
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
    recommended_acceptability: float | None = None  # the same share for the recommended option (the summary's)
    confidence: tuple[float, ...] = ()
    confidence_note: str = ""  # which options have no confidence factor computed, when some were left out
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
    rules: tuple[RuleInfo, ...]
    shortlist: tuple[str, ...]
    other_candidates: tuple[str, ...]
    tree_excluded: tuple[str, ...]
    tree_notes: tuple[str, ...]  # the rules' conflict and overrides for this group (deprecated, flagged, absent ids)
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
    robustness: RobustnessInfo
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
    weight_meaning: str = ""  # what a weight means under the method (a swing weight under the value model)
    dimension_basis: tuple[str, ...] = ()  # what each dimension ranks in this group (selector.decision.basis)
    drivers: tuple[str, ...] = ()  # the same, short, for the decision document (selector.report.decision.drivers)
    group_rationale: str = ""  # why the group ranks on these criteria and sub-weights
    elicited: ElicitedWeights | None = None  # how the dimension weights were elicited; None: set by hand
    # The machine-readable decision record (selector.record.to_text) every format embeds for `recheck`.
    decision_record: str = ""
    # MADR 4 front matter (selector.adr, selector.report.decision): status, who decides, the dates.
    status: str = "proposed"
    deciders: tuple[str, ...] = ()
    consulted: tuple[str, ...] = ()
    informed: tuple[str, ...] = ()
    decided_on: str = ""  # YYYY-MM-DD
    review_by: str = ""  # YYYY-MM-DD
    requirement: tuple[str, ...] = ()  # the requirement in words, one sentence a line
    risks: tuple[Point, ...] = ()
    recheck: tuple[str, ...] = ()  # how to re-check the decision later (MADR's "Confirmation")
    reproduce_params: tuple[tuple[str, str], ...] = ()  # the parameters of reproduce_url, printed beside it
    lang: str = "en"  # the language of its headings and sentences (selector.i18n); names, ids and numbers stay

    @property
    def evidence_ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.evidence)

    @property
    def scaling(self) -> str:
        """``"sum scaling"``, ``"no scaling"`` for the scaler ``none``, ``"fixed value scales"`` for ``value``."""
        return formats.scaling(self.scaler)

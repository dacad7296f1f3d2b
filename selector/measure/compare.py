"""Measured beside claimed: each of the user's measured figures next to the published figures of the same entity
and metric, with the ratio, both sets of conditions and a warning for every condition that differs.

"The article says 2,500 img/s; your run says 1,900 img/s (0.76x)" is only meaningful when both were measured on the
same model, precision, batch, hardware and scenario; a pair whose conditions differ is still listed (the user asked
how far apart they are) but carries a warning per differing condition, and a pair in different units has no ratio.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from selector import i18n
from selector.decision.matrix import claims_for_cell
from selector.i18n import N_, Phrase
from selector.knowledge.models import Claim, KnowledgeBase

#: The conditions whose difference makes a ratio suspect, with the words used in warnings (marked: translated there).
WATCHED: tuple[tuple[str, str], ...] = (
    ("workload", N_("model")),
    ("precision", N_("precision")),
    ("batch", N_("batch")),
    ("hardware", N_("hardware")),
    ("scenario", N_("scenario")),
)
#: Who publishes a figure, when it is not named by the data itself (an article's id, MLPerf, a dataset's title).
OUR_ASSESSMENT = N_("our assessment")
THE_ARTICLE = N_("the article ({source})")
#: A warning's wording (kept as a Phrase, said in the reader's language): ``{label}`` is who publishes, ``{word}`` a
#: condition.
DIFFERS = N_("{word} differs: {a} ({label}) vs {b} (yours)")
NOT_STATED_BY_THEM = N_("{word}: {label} does not state it (yours: {b})")
NOT_STATED_BY_YOU = N_("{word}: your run does not state it ({label}: {a})")
UNITS_DIFFER = N_("units differ: {a} vs {b}")
FLAGGED = N_("{label}'s figure is flagged: {reason}")
SAYS = N_("{label} says {published}; your run says {yours}{ratio}")
NO_RATIO = N_("units differ: no ratio")


@dataclass(frozen=True)
class Comparison:
    """One measured figure beside one published figure of the same entity and metric."""

    entity: str
    entity_name: str
    metric: str
    measured_claim: str
    measured_value: float
    measured_unit: str
    reference_claim: str
    reference_value: float
    reference_unit: str
    reference_tier: str
    reference_label: str  # "the article (004)" (a Phrase), "MLPerf", ...: label_in(lang) gives it in a language
    ratio: float | None  # measured / reference; None when units differ or the reference is 0
    conditions: tuple[tuple[str, str, str], ...]  # (condition, reference's, yours), every condition either states
    warnings: tuple[str, ...]  # Phrases: their English text; warnings_in(lang) gives them in a language
    criteria: tuple[str, ...]  # criteria whose cell for this entity the measured figure fills
    reference_flagged: bool = False

    @property
    def sentence(self) -> str:
        """``the article (004) says 2500 img/s; your run says 1900 img/s (0.76x)``."""
        return self.sentence_in("en")

    def label_in(self, lang: i18n.Language) -> str:
        """Who publishes the reference figure, in `lang` (a name such as MLPerf or a dataset's title stays)."""
        return i18n.said_in(self.reference_label, lang)

    def sentence_in(self, lang: i18n.Language) -> str:
        """:attr:`sentence` in `lang` (the numbers and units as they are)."""
        _ = i18n.translator(lang)
        ratio = f"{self.ratio:.2f}x" if self.ratio is not None else _(NO_RATIO)
        return _(SAYS).format(
            label=self.label_in(lang),
            published=f"{_num(self.reference_value)} {self.reference_unit}",
            yours=f"{_num(self.measured_value)} {self.measured_unit}",
            ratio=f" ({ratio})",
        )

    def warnings_in(self, lang: i18n.Language) -> tuple[str, ...]:
        """:attr:`warnings` in `lang` (conditions' values, units and flag reasons as the records write them)."""
        return tuple(i18n.said_in(warning, lang) for warning in self.warnings)

    def to_dict(self, *, lang: i18n.Language = "en") -> dict:
        """Plain data for tables and JSON (conditions as ``name: reference | yours`` text), its sentences in `lang`."""
        return {
            "entity": self.entity_name,
            "metric": self.metric,
            "comparison": self.sentence_in(lang),
            "ratio": self.ratio,
            "published": f"{_num(self.reference_value)} {self.reference_unit}",
            "published_by": self.label_in(lang),
            "yours": f"{_num(self.measured_value)} {self.measured_unit}",
            "conditions (published | yours)": "; ".join(f"{k}: {a or '-'} | {b or '-'}" for k, a, b in self.conditions),
            "warnings": "; ".join(self.warnings_in(lang)),
            "in ranking": ", ".join(self.criteria),
            "published claim": self.reference_claim,
            "your claim": self.measured_claim,
        }


def _num(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def reference_label(kb: KnowledgeBase, claim: Claim) -> str:
    """Who publishes `claim`: ``the article (004)`` or ``our assessment`` (Phrases), ``MLPerf`` or a dataset's
    title (names)."""
    source = kb.sources.get(claim.source)
    if claim.tier == "assessed":
        return Phrase(OUR_ASSESSMENT)
    if "mlperf" not in claim.source.lower() and source is not None and source.kind == "article":
        return Phrase(THE_ARTICLE, source=source.id)
    if "mlperf" in claim.source.lower():
        return "MLPerf"
    source = kb.sources.get(claim.source)
    return source.title_en[:60] if source is not None else claim.source


def _text(value: object) -> str:
    return str(value).strip() if value is not None else ""


def _stated(kb: KnowledgeBase, claim: Claim) -> dict[str, str]:
    """The watched conditions of `claim`; a figure about an accelerator was measured on that accelerator."""
    given = {key: _text(value) for key, value in claim.conditions.model_dump().items()}
    subject = kb.entities.get(claim.subject_id)
    if not given.get("hardware") and subject is not None and subject.kind == "accelerator":
        given["hardware"] = subject.id
    return given


def _warnings(kb: KnowledgeBase, reference: Claim, measured: Claim, label: str) -> list[str]:
    """Each condition that differs or one side does not state, a unit mismatch, a flagged reference: as Phrases."""
    found: list[str] = []
    ref, mine = _stated(kb, reference), _stated(kb, measured)
    for key, word in WATCHED:
        a, b = ref.get(key, ""), mine.get(key, "")
        if a and b and a.casefold() != b.casefold():
            if key == "hardware":
                a, b = kb.entity_name(a), kb.entity_name(b)
            found.append(Phrase(DIFFERS, word=Phrase(word), a=a, label=label, b=b))
        elif b and not a:
            found.append(Phrase(NOT_STATED_BY_THEM, word=Phrase(word), label=label, b=b))
        elif a and not b:
            found.append(Phrase(NOT_STATED_BY_YOU, word=Phrase(word), label=label, a=a))
    if reference.unit.strip().casefold() != measured.unit.strip().casefold():
        found.append(Phrase(UNITS_DIFFER, a=reference.unit, b=measured.unit))
    if reference.flagged:
        found.append(Phrase(FLAGGED, label=label, reason=reference.flags[0].reason[:120]))
    return found


def _filled_criteria(kb: KnowledgeBase, claim: Claim) -> tuple[str, ...]:
    """Criteria of groups the claim's entity ranks in whose cell this claim helps fill (its tier is the best)."""
    entity = claim.subject_id
    ranked_in = {g.id for g in kb.groups.values() if entity in g.members}
    entity_record = kb.entities.get(entity)
    if entity_record is not None:
        ranked_in |= set(entity_record.groups)
    found = []
    for group_id in sorted(ranked_in):
        group = kb.groups.get(group_id)
        if group is None:
            continue
        for gc in group.criteria:
            criterion = kb.criteria[gc.criterion]
            if criterion.metric != claim.metric or criterion.id in found:
                continue
            cell = claims_for_cell(kb, criterion, entity)
            if cell and cell[0].tier == claim.tier and claim.id in {c.id for c in cell if c.tier == cell[0].tier}:
                found.append(criterion.id)
    return tuple(found)


def user_source_ids(kb: KnowledgeBase) -> frozenset[str]:
    """The sources of kind ``user`` (uploads and measurement files)."""
    return frozenset(s.id for s in kb.sources.values() if s.kind == "user")


def comparisons(kb: KnowledgeBase, sources: Iterable[str] | None = None) -> list[Comparison]:
    """Every measured figure of the user's beside every published figure of the same entity and metric.

    Parameters
    ----------
    kb
        The merged knowledge (bundled and the user's files).
    sources
        The user's source ids (default: every source of kind ``user``).

    Returns
    -------
    list of Comparison
        By entity, metric and measured claim; within one measured claim, comparable pairs (no warning) first.
    """
    mine = frozenset(sources) if sources is not None else user_source_ids(kb)
    published: dict[tuple[str, str], list[Claim]] = {}
    for claim in kb.claims.values():
        if claim.value is not None and claim.source not in mine:
            published.setdefault((claim.metric, claim.subject_id), []).append(claim)
    found = []
    for claim in kb.claims.values():
        if claim.source not in mine or claim.tier != "measured" or claim.value is None:
            continue
        filled = _filled_criteria(kb, claim)
        for other in published.get((claim.metric, claim.subject_id), ()):
            label = reference_label(kb, other)
            warnings = tuple(_warnings(kb, other, claim, label))
            same_unit = other.unit.strip().casefold() == claim.unit.strip().casefold()
            ref, mine_c = other.conditions.model_dump(), claim.conditions.model_dump()
            conditions = tuple(
                (key, _text(ref.get(key)), _text(mine_c.get(key)))
                for key in ref
                if _text(ref.get(key)) or _text(mine_c.get(key))
            )
            found.append(
                Comparison(
                    entity=claim.subject_id,
                    entity_name=kb.entity_name(claim.subject_id),
                    metric=claim.metric,
                    measured_claim=claim.id,
                    measured_value=claim.value,
                    measured_unit=claim.unit,
                    reference_claim=other.id,
                    reference_value=other.value,
                    reference_unit=other.unit,
                    reference_tier=other.tier,
                    reference_label=label,
                    ratio=claim.value / other.value if same_unit and other.value else None,
                    conditions=conditions,
                    warnings=warnings,
                    criteria=filled,
                    reference_flagged=other.flagged,
                )
            )
    return sorted(found, key=lambda c: (c.entity, c.metric, c.measured_claim, bool(c.warnings), c.reference_claim))


def for_entities(found: Sequence[Comparison], entities: Iterable[str]) -> list[Comparison]:
    """The comparisons about `entities` (e.g. one group's members)."""
    wanted = set(entities)
    return [c for c in found if c.entity in wanted]

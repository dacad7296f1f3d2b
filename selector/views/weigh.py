"""The weighing flows' questions on Recommend: each dimension's swing from worst to best on the group's own scales
and evidence, and the pairs of dimensions to compare on Saaty's scale."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from selector import display, i18n
from selector.decision.elicitation import (
    HIGHEST,
    LOWEST,
    SAATY_SCALE,
    SAATY_WORDS,
    format_value,
    nearest_on_scale,
    percentages,
)
from selector.decision.matrix import DecisionMatrix
from selector.i18n import N_
from selector.knowledge.models import KnowledgeBase


@dataclass(frozen=True)
class CriterionSwing:
    """One criterion of a dimension, from the worst to the best end of its scale, and where the group's evidence
    lies on it."""

    name: str
    unit: str
    worst: float
    best: float
    evidence_worst: tuple[float, str] | None  # value, alternative: the group's worst value with evidence
    evidence_best: tuple[float, str] | None
    name_zh: str | None = None
    unit_zh: str | None = None

    @property
    def sentence(self) -> str:
        return self.sentence_in("en")

    def sentence_in(self, lang: i18n.Language) -> str:
        """``Memory: from 16 to 256 GB (this group's evidence: ...)`` in `lang` (names and numbers as they are)."""
        _ = i18n.translator(lang)
        unit = "" if self.unit.startswith("rating") else f" {i18n.pick(lang, self.unit, self.unit_zh)}"
        name = i18n.pick(lang, self.name, self.name_zh)
        text = _(SWING_FROM).format(name=name, worst=display.number(self.worst))
        text += " " + _(SWING_TO).format(best=display.number(self.best), unit=unit)
        if self.evidence_worst and self.evidence_best:
            (low, low_name), (high, high_name) = self.evidence_worst, self.evidence_best
            evidence = _(EVIDENCE_RANGE).format(
                low=display.number(low), low_name=low_name, high=display.number(high), high_name=high_name
            )
            text += f" ({evidence})"
        return text


# Two messages, not one: a catalog sentence shaped "{name}: from {worst} to {best}" would also match a title in the
# data ("...compared: from the lab to production"), which the language checks read as untranslated interface text.
SWING_FROM = N_("{name}: from {worst}")
SWING_TO = N_("to {best}{unit}")
EVIDENCE_RANGE = N_("this group's evidence: {low}, {low_name}, to {high}, {high_name}")
EQUAL_IMPORTANCE = N_("equal importance (1)")


@dataclass(frozen=True)
class DimensionSwing:
    """A dimension's swing: every ranked criterion of it in this group (none: the dimension does not count here)."""

    id: str
    name: str
    criteria: tuple[CriterionSwing, ...]


def _evidence_ends(kb: KnowledgeBase, m: DecisionMatrix, column: int) -> tuple[tuple, tuple] | tuple[None, None]:
    known = [(row[column].value, m.alternatives[i]) for i, row in enumerate(m.cells) if not row[column].imputed]
    if not known:
        return None, None
    low, high = min(known), max(known)
    low, high = (low[0], kb.entity_name(low[1])), (high[0], kb.entity_name(high[1]))
    return (high, low) if m.objectives[column] == "min" else (low, high)


def swing_questions(kb: KnowledgeBase, m: DecisionMatrix) -> tuple[DimensionSwing, ...]:
    """Each dimension's swing in this group: its criteria (those with a weight) from the worst to the best end of
    their `scale` in criteria.yaml (the plausible range the matrix samples when no scale is given), with the
    range the group's evidence covers.

    Parameters
    ----------
    kb
        The knowledge base.
    m
        The group's decision matrix (its cells say which values rest on evidence).
    """
    found = []
    for dim_id, dim in kb.dimensions.items():
        swings = []
        for k, criterion_id in enumerate(m.criteria):
            if m.dimension_of[k] != dim_id or m.sub_weights[k] <= 0:
                continue
            criterion = kb.criteria[criterion_id]
            low, high = criterion.scale if criterion.scale else (float(m.scales[k][0]), float(m.scales[k][1]))
            worst, best = (high, low) if m.objectives[k] == "min" else (low, high)
            ev_worst, ev_best = _evidence_ends(kb, m, k)
            swings.append(
                CriterionSwing(
                    criterion.name_en,
                    criterion.unit,
                    worst,
                    best,
                    ev_worst,
                    ev_best,
                    name_zh=criterion.name_zh,
                    unit_zh=criterion.unit_zh,
                )
            )
        found.append(DimensionSwing(dim_id, dim.name_en, tuple(swings)))
    return tuple(found)


@dataclass(frozen=True)
class Comparison:
    """A pair of dimensions to compare: the first named is A in ``A/B=V``."""

    a: str
    b: str
    a_name: str
    b_name: str

    @property
    def key(self) -> str:
        return f"{self.a}/{self.b}"


def comparisons(kb: KnowledgeBase) -> tuple[Comparison, ...]:
    """Every pair of dimensions once, in the knowledge's order (four dimensions: six comparisons)."""
    return tuple(
        Comparison(a, b, kb.dimensions[a].name_en, kb.dimensions[b].name_en)
        for a, b in itertools.combinations(kb.dimensions, 2)
    )


def choice_label(value: Fraction, a_name: str, b_name: str, *, lang: i18n.Language = "en") -> str:
    """A value of Saaty's scale for the pair (A, B) in words, the more important side named first: "equal",
    "Performance 3: moderately more important" (A/B = 3), "Cost 5: strongly more important" (A/B = 1/5)."""
    if value == 1:
        return i18n.stored(EQUAL_IMPORTANCE, lang)
    more, strength = (a_name, value) if value > 1 else (b_name, 1 / value)
    return f"{more} {format_value(strength)}: {i18n.stored(SAATY_WORDS[int(strength)], lang)}"


def choices() -> tuple[str, ...]:
    """The values the form offers for A/B, as typed on the command line, A's strongest side first (the slider's
    left end, where A is named): 9 ... 2, 1, 1/2 ... 1/9."""
    return tuple(format_value(v) for v in reversed(SAATY_SCALE))


def starting_ratings(weights: Mapping[str, float]) -> tuple[str, dict[str, int]]:
    """Swing ratings that give back `weights` (the sliders in force): the heaviest dimension first at 100, each
    other in proportion, so that the questions start from where the user stands."""
    first = max(weights, key=lambda d: weights[d])
    top = weights[first]
    return first, {d: round(100 * w / top) if top > 0 else 100 for d, w in weights.items()}


def starting_judgements(weights: Mapping[str, float], pairs: Sequence[Comparison]) -> dict[str, str]:
    """For each pair, the value of Saaty's scale nearest the ratio of the weights in force (1 when both are 0)."""
    found = {}
    for pair in pairs:
        a, b = weights.get(pair.a, 0.0), weights.get(pair.b, 0.0)
        if a <= 0 and b <= 0:
            value = Fraction(1)
        else:
            value = nearest_on_scale(a / b) if a > 0 and b > 0 else (HIGHEST if a > 0 else LOWEST)
        found[pair.key] = format_value(value)
    return found


def shares_text(weights: Mapping[str, float], names: Mapping[str, str]) -> str:
    """``Performance 48 %, Cost 29 %, ...``: the whole percentages the sliders will show (summing to 100)."""
    return ", ".join(f"{names.get(d, d)} {p:.0f} %" for d, p in percentages(weights).items())

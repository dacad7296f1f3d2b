"""Weights elicited from judgements: swing weighting (0-100 ratings) and pairwise comparisons (AHP, Saaty's 1-9).

Pure functions over plain data, shared by the command line (``python -m selector weights``), the Recommend page
and the preferences (:class:`Elicitation` is the record a link, a profile and the report keep of the answers).

Both methods give swing weights: a dimension's weight is what moving every option from the worst to the best end of
that dimension's scales is worth, relative to the others (Keeney & Raiffa 1976; Belton & Stewart 2002, ch. 5).

AHP follows Saaty (1977, 1980): the weights are the principal (Perron) eigenvector of the reciprocal comparison
matrix, CI = (lambda_max - n) / (n - 1), CR = CI / RI(n) with Saaty's random indices, CR <= 0.10 acceptable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from selector.errors import SelectorError, validation_refusals
from selector.i18n import N_, Phrase
from selector.io import pairs, textpolicy

#: Saaty's random consistency indices (Saaty 1980): the mean CI of random reciprocal matrices of order n.
RANDOM_INDEX: dict[int, float] = {
    1: 0.0,
    2: 0.0,
    3: 0.58,
    4: 0.90,
    5: 1.12,
    6: 1.24,
    7: 1.32,
    8: 1.41,
    9: 1.45,
    10: 1.49,
}
#: Saaty's threshold: a consistency ratio above it asks for the judgements to be revised.
CR_THRESHOLD = 0.10
LOWEST, HIGHEST = Fraction(1, 9), Fraction(9)
#: Saaty's fundamental scale and its reciprocals, smallest first: 1/9 ... 1/2, 1, 2 ... 9.
SAATY_SCALE: tuple[Fraction, ...] = (
    *(Fraction(1, k) for k in range(9, 1, -1)),
    *(Fraction(k) for k in range(1, 10)),
)
SAATY_WORDS = {
    1: N_("equally important"),
    2: N_("equally to moderately more important"),
    3: N_("moderately more important"),
    4: N_("moderately to strongly more important"),
    5: N_("strongly more important"),
    6: N_("strongly to very strongly more important"),
    7: N_("very strongly more important"),
    8: N_("very strongly to extremely more important"),
    9: N_("extremely more important"),
}
SWING_TOP = 100.0
MAX_ITEMS = max(RANDOM_INDEX)
Method = Literal["swing", "pairwise"]
METHOD_LABELS = {"swing": "swing weighting", "pairwise": "pairwise comparisons (AHP)"}


class ElicitationError(SelectorError, ValueError):
    """Answers that cannot give weights (missing, unknown, out of range or malformed), with what to fix."""


# ----------------------------------------------------------------------------------------------------------
# Reading answers


def format_value(value: Fraction) -> str:
    """A judgement's value as typed: ``3``, ``1/3`` or ``5/2``."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def parse_value(text: str, where: str = "value") -> Fraction:
    """Read a judgement's value: an integer, a fraction (``1/3``) or a decimal (``2.5``), within 1/9..9.

    Raises
    ------
    ElicitationError
        When the text is not a number or lies outside 1/9..9.
    """
    raw = text.strip()
    try:
        if len(raw) > 20:
            raise ValueError
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ElicitationError(
            Phrase(
                N_("{where}: `{text}` is not a number; write an integer (3), a fraction (1/3) or a decimal (2.5)"),
                where=where,
                text=text,
            )
        ) from None
    if not LOWEST <= value <= HIGHEST:
        raise ElicitationError(
            Phrase(
                N_(
                    "{where}: `{text}` is outside Saaty's scale 1/9..9 (1 = equally important, 9 = extremely more "
                    "important)"
                ),
                where=where,
                text=text,
            )
        )
    return value


@dataclass(frozen=True)
class Judgement:
    """``better/worse=value``: `better` is `value` times as important as `worse` (a value below 1 reverses it)."""

    better: str
    worse: str
    value: Fraction

    @property
    def text(self) -> str:
        return f"{self.better}/{self.worse}={format_value(self.value)}"

    def sentence(self, names: Mapping[str, str] | None = None) -> str:
        """The judgement in words, e.g. "Performance is moderately more important than Cost (3)"."""
        names = names or {}
        a, b = names.get(self.better, self.better), names.get(self.worse, self.worse)
        value = self.value
        if value < 1:
            a, b, value = b, a, 1 / value
        if value == 1:
            return f"{a} and {b} are equally important (1)"
        if value.denominator == 1:
            return f"{a} is {SAATY_WORDS[int(value)]} than {b} ({format_value(value)})"
        return f"{a} is {float(value):g} times as important as {b} ({format_value(value)})"


def parse_judgement(text: str) -> Judgement:
    """Read ``A/B=V`` (A is V times as important as B).

    Raises
    ------
    ElicitationError
        When the text is not of that form, compares a dimension with itself or V is outside 1/9..9.
    """
    pair, sep, value = text.partition("=")
    better, slash, worse = pair.partition("/")
    better, worse = better.strip(), worse.strip()
    if not sep or not slash or not better or not worse or not value.strip():
        raise ElicitationError(
            Phrase(N_("comparison `{text}` is not of the form A/B=V (e.g. performance/cost=3)"), text=text)
        )
    if better == worse:
        raise ElicitationError(
            Phrase(
                N_("comparison `{text}` compares `{better}` with itself; compare two dimensions"),
                text=text,
                better=better,
            )
        )
    return Judgement(better, worse, parse_value(value, Phrase(N_("comparison `{text}`"), text=text)))


def parse_ratings(texts: Sequence[str]) -> dict[str, float]:
    """Read swing ratings given as ``a=100,b=60`` (one or several texts).

    Raises
    ------
    ElicitationError
        When a pair is malformed, a rating is not a number or a dimension is given twice.
    """
    given = pairs.parse_pairs(
        ",".join(texts),
        Phrase(N_("swing rating")),
        ElicitationError,
        form=Phrase(N_("dimension=rating")),
        noun=_said("dimension"),
        strict=True,
    )
    ratings: dict[str, float] = {}
    for key, value in given.items():
        try:
            ratings[key] = float(value)
        except ValueError:
            raise ElicitationError(
                Phrase(N_("swing rating `{key}={value}`: `{value}` is not a number"), key=key, value=value)
            ) from None
    return ratings


#: The nouns a refusal names its items with, marked for the catalogs (said in the reader's language where shown).
_NOUNS = {
    "dimension": N_("dimension"),
    "criterion": N_("criterion"),
    "dimensions": N_("dimensions"),
    "criteria": N_("criteria"),
}


def _said(noun: str) -> str:
    """`noun` as a phrase when the catalog has it (``dimension``), else as it is."""
    return Phrase(_NOUNS[noun]) if noun in _NOUNS else noun


def _plural(noun: str) -> str:
    return _said("criteria" if noun == "criterion" else f"{noun}s")


def _known(items: Sequence[str], named: Sequence[str], what: str, noun: str) -> None:
    unknown = [n for n in dict.fromkeys(named) if n not in items]
    if unknown:
        raise ElicitationError(
            Phrase(
                N_("{what}: unknown {noun}(s) {unknown}; known: {known}"),
                what=what,
                noun=_said(noun),
                unknown=", ".join(f"`{u}`" for u in unknown),
                known=", ".join(items),
            )
        )


# ----------------------------------------------------------------------------------------------------------
# Swing weighting


@dataclass(frozen=True)
class SwingResult:
    """Weights from swing ratings: each rating divided by their sum."""

    items: tuple[str, ...]
    ratings: dict[str, float]
    weights: dict[str, float]

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(f"{k}={self.ratings[k]:g}" for k in self.items)


def swing(items: Sequence[str], ratings: Mapping[str, float], noun: str = "dimension") -> SwingResult:
    """Swing weights from 0-100 ratings: the swing one would take first is rated 100, each other relative to it.

    Parameters
    ----------
    items
        Every dimension, in order.
    ratings
        A rating in 0..100 for each of them; the largest must be 100.

    Raises
    ------
    ElicitationError
        When a dimension is unknown or not rated, a rating is outside 0..100 or none is 100.
    """
    _known(items, list(ratings), Phrase(N_("swing")), noun)
    missing = [i for i in items if i not in ratings]
    if missing:
        raise ElicitationError(
            Phrase(N_("swing: rate every {noun}; missing: {missing}"), noun=_said(noun), missing=", ".join(missing))
        )
    for key, value in ratings.items():
        if not math.isfinite(value) or not 0 <= value <= SWING_TOP:
            raise ElicitationError(
                Phrase(
                    N_("swing: `{key}={value}` is outside 0..100; rate each swing from 0 to 100"),
                    key=key,
                    value=f"{value:g}",
                )
            )
    if max(ratings.values()) != SWING_TOP:
        raise ElicitationError(
            Phrase(
                N_(
                    "swing: the swing you would take first is rated 100 and the others relative to it; none is 100 "
                    "(highest: {highest})"
                ),
                highest=f"{max(ratings.values()):g}",
            )
        )
    total = sum(ratings.values())
    ordered = {i: float(ratings[i]) for i in items}
    return SwingResult(tuple(items), ordered, {i: ordered[i] / total for i in items})


# ----------------------------------------------------------------------------------------------------------
# Pairwise comparisons (AHP)


def comparison_matrix(items: Sequence[str], judgements: Sequence[Judgement], noun: str = "dimension") -> np.ndarray:
    """The reciprocal matrix ``a[i, j]`` (item i against item j) of a complete set of judgements.

    Raises
    ------
    ElicitationError
        When an item is unknown, a pair is judged twice (in either order) or a pair is missing.
    """
    if len(items) < 2:
        raise ElicitationError(Phrase(N_("pairwise: compare at least two {nouns}"), nouns=_plural(noun)))
    if len(items) > MAX_ITEMS:
        raise ElicitationError(
            Phrase(
                N_("pairwise: at most {most} {nouns} can be compared (Saaty's random indices stop there)"),
                most=str(MAX_ITEMS),
                nouns=_plural(noun),
            )
        )
    _known(items, [n for j in judgements for n in (j.better, j.worse)], Phrase(N_("pairwise")), noun)
    index = {item: k for k, item in enumerate(items)}
    matrix = np.ones((len(items), len(items)))
    seen: dict[frozenset[str], Judgement] = {}
    for judgement in judgements:
        pair = frozenset((judgement.better, judgement.worse))
        if pair in seen:
            raise ElicitationError(
                Phrase(
                    N_("pairwise: `{given}` judges the pair already judged by `{earlier}`; give each comparison once"),
                    given=judgement.text,
                    earlier=seen[pair].text,
                )
            )
        seen[pair] = judgement
        i, j = index[judgement.better], index[judgement.worse]
        matrix[i, j], matrix[j, i] = float(judgement.value), float(1 / judgement.value)
    missing = [f"{a}/{b}" for k, a in enumerate(items) for b in items[k + 1 :] if frozenset((a, b)) not in seen]
    if missing:
        raise ElicitationError(
            Phrase(
                N_("pairwise: {count} comparison(s) missing: {missing}; {items} {nouns} need all {needed}"),
                count=str(len(missing)),
                missing=", ".join(missing),
                items=str(len(items)),
                nouns=_plural(noun),
                needed=str(len(items) * (len(items) - 1) // 2),
            )
        )
    return matrix


def principal_eigenvector(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """The Perron eigenvector of a positive matrix, scaled to sum to 1, and its eigenvalue lambda_max."""
    values, vectors = np.linalg.eig(matrix)
    k = int(np.argmax(values.real))
    vector = np.abs(vectors[:, k].real)  # a positive matrix's Perron vector has one sign; eig may return it negated
    return vector / vector.sum(), float(values[k].real)


@dataclass(frozen=True)
class Inconsistency:
    """The judgement furthest from the weights, in log terms, and the value those weights imply for it."""

    given: Judgement
    implied: float  # w_better / w_worse
    deviation: float  # |ln(given) - ln(implied)|
    suggestion: Fraction  # the value of Saaty's scale nearest the implied ratio, in log terms
    ratio_if_revised: float  # the consistency ratio once `given` takes the suggested value

    @property
    def revised(self) -> Judgement:
        return Judgement(self.given.better, self.given.worse, self.suggestion)

    def _oriented(self) -> tuple[Judgement, float, Judgement]:
        # the judgement as its sentence says it (the more important side first), with the ratio and revision
        given, implied, revised = self.given, self.implied, self.revised
        if given.value < 1:
            given = Judgement(given.worse, given.better, 1 / given.value)
            implied, revised = 1 / implied, Judgement(revised.worse, revised.better, 1 / revised.value)
        return given, implied, revised

    def revised_sentence(self, names: Mapping[str, str]) -> str:
        """The suggested revision in words, e.g. "Risk is moderately more important than Ecosystem (3)"."""
        return self._oriented()[2].sentence(names)

    def sentence(self, names: Mapping[str, str]) -> str:
        """The judgement, what the weights imply for it and the revision, worded in the judgement's own direction
        (the more important side first, as :meth:`Judgement.sentence` says it)."""
        given, implied, revised = self._oriented()
        a, b = names.get(given.better, given.better), names.get(given.worse, given.worse)
        return (
            f"{given.sentence(names)}, while the weights from all the judgements put {a} at {implied:.2f} times "
            f'{b}; revised to "{revised.sentence(names)}", the ratio would be {self.ratio_if_revised:.3f}'
        )


@dataclass(frozen=True)
class PairwiseResult:
    """What AHP derives from a complete set of judgements."""

    items: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    matrix: np.ndarray
    weights: dict[str, float]
    lambda_max: float
    consistency_index: float
    random_index: float
    consistency_ratio: float
    most_inconsistent: Inconsistency | None

    @property
    def acceptable(self) -> bool:
        return self.consistency_ratio <= CR_THRESHOLD

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(j.text for j in self.judgements)


def nearest_on_scale(ratio: float) -> Fraction:
    """The value of Saaty's scale (1/9 .. 9) nearest `ratio` in log terms."""
    return min(SAATY_SCALE, key=lambda v: abs(math.log(float(v)) - math.log(ratio)))


def _consistency(matrix: np.ndarray) -> tuple[np.ndarray, float, float, float, float]:
    n = len(matrix)
    weights, lambda_max = principal_eigenvector(matrix)
    ci = max(0.0, (lambda_max - n) / (n - 1))  # lambda_max >= n in exact arithmetic; -1e-16 is rounding
    ri = RANDOM_INDEX[n]
    return weights, lambda_max, ci, ri, ci / ri if ri else 0.0


def _most_inconsistent(
    items: Sequence[str], judgements: Sequence[Judgement], matrix: np.ndarray, weights: np.ndarray
) -> Inconsistency | None:
    index = {item: k for k, item in enumerate(items)}

    def deviation(j: Judgement) -> float:
        return abs(math.log(float(j.value)) - math.log(weights[index[j.better]] / weights[index[j.worse]]))

    worst = max(judgements, key=deviation)  # max keeps the first of equals: the order given decides ties
    if deviation(worst) < 1e-9:
        return None
    i, j = index[worst.better], index[worst.worse]
    implied = float(weights[i] / weights[j])
    suggestion = nearest_on_scale(implied)
    revised = matrix.copy()
    revised[i, j], revised[j, i] = float(suggestion), float(1 / suggestion)
    return Inconsistency(worst, implied, deviation(worst), suggestion, _consistency(revised)[4])


def pairwise(items: Sequence[str], judgements: Sequence[Judgement], noun: str = "dimension") -> PairwiseResult:
    """AHP weights, consistency index and ratio, and the most inconsistent judgement, from every comparison.

    Parameters
    ----------
    items
        The dimensions compared, in order (2 to 10).
    judgements
        One judgement per pair, in either direction.
    noun
        What the items are, in messages ("dimension", "criterion").

    Raises
    ------
    ElicitationError
        See :func:`comparison_matrix`.
    """
    matrix = comparison_matrix(items, judgements, noun)
    weights, lambda_max, ci, ri, cr = _consistency(matrix)
    return PairwiseResult(
        items=tuple(items),
        judgements=tuple(judgements),
        matrix=matrix,
        weights={item: float(w) for item, w in zip(items, weights, strict=True)},
        lambda_max=lambda_max,
        consistency_index=ci,
        random_index=ri,
        consistency_ratio=cr,
        most_inconsistent=_most_inconsistent(items, judgements, matrix, weights),
    )


# ----------------------------------------------------------------------------------------------------------
# Weights as the app's sliders hold them


def percentages(weights: Mapping[str, float], decimals: int = 0) -> dict[str, float]:
    """Shares as percentages with `decimals` decimals that sum to exactly 100 (largest remainder: each is off its
    share by under one unit of the last decimal); the sliders take whole ones, the command line prints one decimal."""
    units = 100 * 10**decimals
    total = sum(weights.values())
    exact = {k: units * v / total for k, v in weights.items()}
    whole = {k: math.floor(v) for k, v in exact.items()}
    order = sorted(exact, key=lambda k: (whole[k] - exact[k], list(exact).index(k)))
    for key in order[: units - sum(whole.values())]:
        whole[key] += 1
    return {k: v / 10**decimals for k, v in whole.items()}


# ----------------------------------------------------------------------------------------------------------
# The record a link, a profile and the report keep


class Elicitation(BaseModel):
    """How the dimension weights were elicited and the answers given, as the command line takes them:
    ``performance=100`` for a swing rating, ``performance/cost=3`` for a comparison."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Method
    answers: tuple[str, ...] = Field(min_length=1, max_length=64)

    @field_validator("answers")
    @classmethod
    def _readable(cls, v: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        # Written back in the canonical form (`1/3`, `60`), so a link and a profile spell an answer one way.
        if any(len(a) > 100 for a in v):
            raise ValueError("an answer is longer than 100 characters")
        for answer in v:
            # the same characters every reader refuses: an answer is echoed in messages, the page and the report
            problem = textpolicy.first_hidden(answer)
            if problem is not None:
                raise ValueError(f"answer `{answer.encode('unicode_escape').decode('ascii')}`: {problem}")
        if info.data.get("method") == "pairwise":
            return tuple(parse_judgement(a).text for a in v)
        return tuple(f"{k}={r:g}" for k, r in parse_ratings(v).items())

    def result(self, items: Sequence[str]) -> SwingResult | PairwiseResult:
        """The weights these answers give over `items`; raises :class:`ElicitationError` when they do not fit."""
        if self.method == "pairwise":
            return pairwise(items, [parse_judgement(a) for a in self.answers])
        return swing(items, parse_ratings(self.answers))

    def to_param(self) -> str:
        """The link's form: ``swing:performance=100,cost=60`` or ``pairwise:performance/cost=3,...``."""
        return f"{self.method}:{','.join(self.answers)}"

    @classmethod
    def from_param(cls, text: str) -> Elicitation:
        """Read :meth:`to_param`'s form; raises :class:`ElicitationError` with what is wrong."""
        method, sep, answers = text.partition(":")
        if not sep or method not in METHOD_LABELS:
            raise ElicitationError(
                Phrase(
                    N_("elicitation `{text}` starts with neither `swing:` nor `pairwise:`; copy the whole link"),
                    text=text[:60],
                )
            )
        try:
            return cls(method=method, answers=tuple(a for a in answers.split(",") if a.strip()))
        except ValidationError as exc:
            raise ElicitationError(Phrase(N_("elicitation: {errors}"), errors=validation_refusals(exc))) from None


def from_result(result: SwingResult | PairwiseResult) -> Elicitation:
    """The record of an elicitation's answers."""
    method: Method = "swing" if isinstance(result, SwingResult) else "pairwise"
    return Elicitation(method=method, answers=result.answers)


def matches(result: SwingResult | PairwiseResult, weights: Mapping[str, float]) -> bool:
    """Whether `weights` (relative) give the elicited shares, each within the 1 point the sliders round to."""
    total = sum(weights.values())
    return total > 0 and all(abs(100 * weights.get(k, 0.0) / total - 100 * w) < 1 for k, w in result.weights.items())


# ----------------------------------------------------------------------------------------------------------
# In words, for the page, the report and a reader asking where "performance 46 %" came from


def answer_sentences(result: SwingResult | PairwiseResult, names: Mapping[str, str]) -> tuple[str, ...]:
    """Each answer in words: "Performance: 100 (the swing taken first)" or "Performance is moderately more
    important than Cost (3)"."""
    if isinstance(result, PairwiseResult):
        return tuple(j.sentence(names) for j in result.judgements)
    top = max(result.ratings.values())
    return tuple(
        f"{names.get(k, k)}: {r:g}" + (" (the swing taken first)" if r == top else f" ({r:g} % of the first swing)")
        for k, r in result.ratings.items()
    )


def consistency_sentence(result: SwingResult | PairwiseResult, names: Mapping[str, str]) -> str:
    """The consistency ratio and, above 0.10, the judgement to revise; empty for swing weighting."""
    if not isinstance(result, PairwiseResult):
        return ""
    head = f"Consistency ratio {result.consistency_ratio:.3f}"
    if result.acceptable:
        return f"{head}: acceptable (at most {CR_THRESHOLD:.2f})."
    worst = result.most_inconsistent
    text = f"{head}: above {CR_THRESHOLD:.2f}, the judgements contradict each other."
    if worst is not None:
        text += f" The most inconsistent: {worst.sentence(names)}."
    return text

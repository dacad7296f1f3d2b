"""A user's preferences (group, answers, weights, method, scaler, missing-value policy) and their URL form."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from selector.decision import constraints as hard
from selector.decision import workload as stated_workload
from selector.decision.elicitation import Elicitation, ElicitationError, PairwiseResult, SwingResult, matches
from selector.decision.problem import DEFAULT_METHOD, ScoringError, resolve_method
from selector.decision.requirement import Requirement, RequirementError
from selector.errors import SelectorError
from selector.i18n import N_, Phrase, joined
from selector.io import numbers, pairs
from selector.knowledge import facts
from selector.knowledge.fields import Id, Number
from selector.knowledge.models import KnowledgeBase
from selector.memo import PerObject

MissingPolicy = Literal[
    "impute-worst", "impute-column-worst", "impute-median", "exclude-criterion", "exclude-alternative"
]
MISSING_POLICIES: tuple[str, ...] = MissingPolicy.__args__
DEFAULT_MISSING: MissingPolicy = "impute-worst"
#: Each policy in words (marked for the catalogs: translated where shown).
MISSING_HELP = {
    "impute-worst": N_(
        "a missing cell gets the worst end of its criterion's scale: no credit without evidence, whoever else is "
        "ranked (default)"
    ),
    "impute-column-worst": N_(
        "a missing cell gets the worst value of its column among the options ranked (depends on who is ranked)"
    ),
    "impute-median": N_("a missing cell gets the column's median: neutral, neither rewarded nor punished"),
    "exclude-criterion": N_("criteria with any missing cell are dropped for this group"),
    "exclude-alternative": N_("alternatives with any missing cell are dropped from the ranking"),
}
#: What the app's weight sliders can show (app_pages/recommend.py draws them with these). The command line takes
#: any non-negative finite weights; the app refuses a link or profile whose weights lie outside, with a message,
#: rather than hand a slider a value it cannot hold.
DIMENSION_WEIGHT_RANGE: tuple[int, int] = (0, 100)
CRITERION_WEIGHT_RANGE: tuple[float, float] = (0.0, 5.0)


class PreferenceError(SelectorError, ValueError):
    """A preference that cannot be used, with what to fix."""


#: Weights are relative (the sliders run 0-100); a cap far above that keeps sums and products finite.
MAX_WEIGHT = 1_000_000.0


#: What a link's or profile's weights are called in a refusal (said in the reader's language where shown).
DIMENSION_WEIGHTS = Phrase(N_("dimension weights"))
CRITERION_WEIGHTS = Phrase(N_("criterion weights"))
ANSWERS = Phrase(N_("answers"))


def _weight_named(what: str, key: str) -> Phrase:
    # "the weight `x`" (a model's own check) or "dimension weights weight `x`" (a link's, a command line's option)
    if what == "the":
        return Phrase(N_("the weight `{key}`"), key=key)
    return Phrase(N_("{what} weight `{key}`"), what=what, key=key)


def _finite_non_negative(weights: Mapping[str, float], what: str) -> dict[str, float]:
    clean = {}
    for key, value in weights.items():
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            raise PreferenceError(
                Phrase(
                    N_("{weight} must be a finite number, got {value}"),
                    weight=_weight_named(what, key),
                    value=repr(value),
                )
            )
        if value < 0:
            raise PreferenceError(
                Phrase(
                    N_("{weight} is negative ({value}); weights must be >= 0"),
                    weight=_weight_named(what, key),
                    value=str(value),
                )
            )
        if value > MAX_WEIGHT:
            raise PreferenceError(
                Phrase(
                    N_("{weight} is {value}; weights are relative (the sliders run 0-100), so write at most {most}"),
                    weight=_weight_named(what, key),
                    value=f"{value:g}",
                    most=f"{MAX_WEIGHT:,.0f}",
                )
            )
        clean[key] = float(value)
    return clean


class Preferences(BaseModel):
    """Everything that decides a ranking besides the knowledge itself. Empty mappings mean "use the defaults"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    group: Id
    answers: dict[Id, Id] = Field(default_factory=dict)
    dimension_weights: dict[Id, Number] = Field(default_factory=dict)
    criterion_weights: dict[Id, Number] = Field(default_factory=dict)
    method: Id = DEFAULT_METHOD
    scaler: Id | None = None
    missing: MissingPolicy = DEFAULT_MISSING
    use_flagged: bool = True
    # hard constraints, applied before any weighting (selector.decision.constraints, selector.decision.matrix)
    constraints: tuple[str, ...] = ()
    exclude_vendors: tuple[Id, ...] = ()
    exclude: tuple[Id, ...] = ()
    keep_unknown: bool = False
    # how the dimension weights were elicited and the answers given (selector.decision.elicitation); None: set by hand
    elicitation: Elicitation | None = None
    # the workload served (selector.decision.workload's compact form); None: the LLM groups rank on offline peaks
    workload: str | None = None
    # the requirement in plain words these preferences started from (selector.decision.requirement); None: set by hand
    requirement: Requirement | None = None

    @field_validator("dimension_weights", "criterion_weights")
    @classmethod
    def _weights(cls, v: dict[str, float]) -> dict[str, float]:
        return _finite_non_negative(v, "the")

    @field_validator("constraints")
    @classmethod
    def _constraints(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        try:
            return hard.normalise(v)
        except hard.ConstraintError as exc:
            raise PreferenceError(exc.message) from None

    @field_validator("workload")
    @classmethod
    def _workload(cls, v: str | None) -> str | None:
        try:
            return stated_workload.normalise(v)
        except stated_workload.WorkloadError as exc:
            raise PreferenceError(exc.message) from None

    @field_validator("exclude_vendors", "exclude")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(v) > 200:
            raise PreferenceError(
                Phrase(N_("{count} exclusions given; at most {most} are accepted"), count=str(len(v)), most="200")
            )
        return tuple(dict.fromkeys(v))

    def checked(self, kb: KnowledgeBase) -> Checked:
        """These preferences checked against `kb`, with the weights the check resolved.

        The one check of a ranking's preferences: the method and scaler, every id, the recorded elicitation, the
        four dimension weights (defaults filled in, not all zero) and the group's sub-weights. Kept per object and
        knowledge base, so that a slider's callback that checks its new preferences and the ranking drawn next
        check them once (the preferences are frozen and the knowledge base immutable).

        Raises
        ------
        PreferenceError
            What does not fit the knowledge, with what to fix.
        """
        found = _CHECKED.get(self, id(kb), lambda: _check(self, kb))
        # the entry keeps its knowledge base alive, so an equal id is the same object; a foreign one is re-checked
        return found if found.kb is kb else _check(self, kb)

    def check(self, kb: KnowledgeBase) -> Preferences:
        """Raise :class:`PreferenceError` unless these preferences fit `kb` (:meth:`checked`); return self."""
        self.checked(kb)
        return self


@dataclass(frozen=True, eq=False)
class Checked:
    """Preferences checked against one knowledge base, carrying what the check resolved; every ranking reads these
    weights (:func:`selector.decision.matrix.build`, the pages, the report) rather than resolving them again.

    Attributes
    ----------
    prefs : Preferences
    kb : KnowledgeBase
        The knowledge they were checked against.
    dimension_weights : Mapping[str, float]
        Every dimension's relative weight, defaults filled in, in knowledge order; at least one is positive.
    criterion_weights : Mapping[str, float]
        The group's sub-criterion weights, defaults filled in, in the group's order.
    elicited : SwingResult, PairwiseResult or None
        What the recorded elicitation gives (None when the weights were set by hand); it gives these weights.
    """

    prefs: Preferences
    kb: KnowledgeBase
    dimension_weights: Mapping[str, float]
    criterion_weights: Mapping[str, float]
    elicited: SwingResult | PairwiseResult | None


# The check of each preferences object per knowledge base (see Preferences.checked).
_CHECKED = PerObject(64)


def _check(prefs: Preferences, kb: KnowledgeBase) -> Checked:
    """Check `prefs` against `kb` once, resolving their weights (:meth:`Preferences.checked`)."""
    try:
        resolve_method(prefs.method, prefs.scaler)
    except ScoringError as exc:
        raise PreferenceError(exc.message) from None
    if prefs.group not in kb.groups:
        raise PreferenceError(
            Phrase(N_("unknown group `{group}`; known groups: {known}"), group=prefs.group, known=", ".join(kb.groups))
        )
    _check_answers(kb, prefs.answers)
    dimension_weights = _dimension_weights(kb, prefs.dimension_weights)
    elicited = _elicited(kb, prefs.elicitation, dimension_weights)
    criterion_weights = _criterion_weights(kb, prefs.group, prefs.criterion_weights)
    for text in prefs.constraints:
        criterion = hard.parse(text).criterion
        if criterion not in kb.criteria:
            raise PreferenceError(
                Phrase(
                    N_("constraint `{text}`: unknown criterion `{criterion}`; criteria: {known}"),
                    text=text,
                    criterion=criterion,
                    known=", ".join(kb.criteria),
                )
            )
    _check_vendors(kb, prefs.exclude_vendors)
    for entity_id in prefs.exclude:
        if entity_id not in kb.entities:
            raise PreferenceError(Phrase(N_("cannot exclude `{entity}`: no entity has that id"), entity=entity_id))
    return Checked(prefs, kb, MappingProxyType(dimension_weights), MappingProxyType(criterion_weights), elicited)


def _dimension_weights(kb: KnowledgeBase, given: Mapping[str, float]) -> dict[str, float]:
    """Dimension weights with defaults filled in, in knowledge order; unknown dimensions and all zero refused."""
    unknown = set(given) - set(kb.dimensions)
    if unknown:
        raise PreferenceError(
            Phrase(
                N_("unknown dimension(s) {unknown}; known: {known}"),
                unknown=", ".join(sorted(unknown)),
                known=", ".join(kb.dimensions),
            )
        )
    weights = {d: given.get(d, dim.weight) for d, dim in kb.dimensions.items()}
    if not any(w > 0 for w in weights.values()):
        raise PreferenceError(
            Phrase(N_("all dimension weights are zero; give at least one dimension a positive weight"))
        )
    return weights


def _elicited(
    kb: KnowledgeBase, recorded: Elicitation | None, weights: Mapping[str, float]
) -> SwingResult | PairwiseResult | None:
    """What the recorded elicitation gives over the knowledge's dimensions (None when the weights were set by hand);
    refused when its answers do not fit the dimensions or the weights are not the ones it gives (a record must
    never claim weights it did not produce)."""
    if recorded is None:
        return None
    try:
        result = recorded.result(list(kb.dimensions))
    except ElicitationError as exc:
        raise PreferenceError(
            Phrase(N_("the recorded elicitation cannot be used: {error}"), error=exc.message)
        ) from None
    if not matches(result, weights):
        total = sum(weights.values())
        given = ", ".join(f"{d} {100 * w / total:.0f} %" for d, w in weights.items())
        elicited = ", ".join(f"{d} {100 * w:.0f} %" for d, w in result.weights.items())
        raise PreferenceError(
            Phrase(
                N_(
                    "the dimension weights ({given}) are not those the recorded {method} answers give ({elicited}); "
                    "drop the record of the elicitation (`el` in a link, `elicitation` in a profile) or give the "
                    "weights it gives"
                ),
                given=given,
                method=recorded.method,
                elicited=elicited,
            )
        )
    return result


def _criterion_weights(kb: KnowledgeBase, group_id: str, given: Mapping[str, float]) -> dict[str, float]:
    """Sub-criterion weights of the group with defaults filled in; criteria outside the group refused."""
    defaults = {gc.criterion: gc.weight for gc in kb.groups[group_id].criteria}
    unknown = set(given) - set(defaults)
    if unknown:
        raise PreferenceError(
            Phrase(
                N_("criterion weight(s) for {unknown} not in group `{group}`; its criteria: {known}"),
                unknown=", ".join(sorted(unknown)),
                group=group_id,
                known=", ".join(defaults),
            )
        )
    return {c: given.get(c, w) for c, w in defaults.items()}


def _check_answers(kb: KnowledgeBase, answers: Mapping[str, str]) -> None:
    """Every question answered is one of the knowledge's, and every answer one of its options."""
    for question_id, answer in answers.items():
        question = kb.questions.get(question_id)
        if question is None:
            raise PreferenceError(
                Phrase(
                    N_("unknown question `{question}`; questions: {known}"),
                    question=question_id,
                    known=", ".join(kb.questions),
                )
            )
        options = [o.id for o in question.options]
        if answer not in options:
            listed = ", ".join(options)
            raise PreferenceError(
                Phrase(
                    N_("`{answer}` is not an answer to `{question}`; choose one of: {listed}"),
                    answer=answer,
                    question=question_id,
                    listed=listed,
                )
            )


def _check_vendors(kb: KnowledgeBase, vendors: Sequence[str]) -> None:
    """Every vendor to exclude makes a framework or an accelerator; an exclusion that could remove nothing is refused
    with the known vendors, and an entity id given as a vendor (which excluded nothing, silently) names what it is."""
    known = facts.vendors(kb.entities)
    for vendor in vendors:
        if vendor in known:
            continue
        listed = ", ".join(known)
        if vendor in kb.entities:
            raise PreferenceError(
                Phrase(
                    N_(
                        "cannot exclude vendor `{vendor}`: it is {kind} `{vendor}`, not the vendor of any entity; "
                        "exclude it as an alternative (--exclude / x=) or name a vendor: {listed}"
                    ),
                    vendor=vendor,
                    kind=kb.entities[vendor].kind,
                    listed=listed,
                )
            )
        raise PreferenceError(
            Phrase(
                N_(
                    "cannot exclude vendor `{vendor}`: no framework or accelerator is made by it; "
                    "known vendors: {listed}"
                ),
                vendor=vendor,
                listed=listed,
            )
        )


def check_slider_ranges(prefs: Preferences) -> Preferences:
    """Raise :class:`PreferenceError` unless every weight of `prefs` lies in the range of its slider in the app.

    Weights are relative (only their ratios count), so a link with ``performance=500`` means the same as one with
    every weight divided by 5; the message says so rather than silently clamping, which would change the ranking.

    Parameters
    ----------
    prefs
        Preferences read from a link, a profile or the widgets.

    Returns
    -------
    Preferences
        `prefs` itself.
    """
    problems = []
    for template, weights, (low, high) in (
        (
            N_("dimension weight `{key}` = {value} is outside {low}-{high}, the range of its slider"),
            prefs.dimension_weights,
            DIMENSION_WEIGHT_RANGE,
        ),
        (
            N_("criterion weight `{key}` = {value} is outside {low}-{high}, the range of its slider"),
            prefs.criterion_weights,
            CRITERION_WEIGHT_RANGE,
        ),
    ):
        problems.extend(
            Phrase(template, key=key, value=f"{value:g}", low=f"{low:g}", high=f"{high:g}")
            for key, value in sorted(weights.items())
            if not low <= value <= high
        )
    if problems:
        raise PreferenceError(
            Phrase(
                N_("{problems} (weights are relative: divide them all by the same number to bring them in range)"),
                problems=joined(problems),
            )
        )
    return prefs


def parse_pairs(text: str | None, what: str) -> dict[str, str]:
    """Parse ``a=1,b=2`` (command line and URL form) into a dict, with a clear error for a malformed pair; a key given
    twice with different values is refused, in the command line, a link and a profile alike (all read pairs here)."""
    return pairs.parse_pairs(text, what, PreferenceError)


def parse_weights(text: str | None, what: str) -> dict[str, float]:
    """Parse ``performance=40,cost=25`` into floats."""
    weights = {}
    for key, value in parse_pairs(text, what).items():
        try:
            # any finite value: the range a weight may take is checked after, with its own message
            weights[key] = numbers.parse_number(value, low=-math.inf, high=math.inf)
        except numbers.NumberRefused as exc:
            raise PreferenceError(
                Phrase(
                    N_("{what}: weight `{key}={value}` is not a number ({error})"),
                    what=what,
                    key=key,
                    value=value,
                    error=exc.message,
                )
            ) from None
    return _finite_non_negative(weights, what)


def _format_number(value: float) -> str:
    return f"{value:g}"


def to_query(prefs: Preferences) -> dict[str, str]:
    """The preferences as URL query parameters (only what differs from the defaults, so links stay short)."""
    query = {"group": prefs.group, **_choice_params(prefs), **_method_params(prefs), **_limit_params(prefs)}
    if prefs.elicitation is not None:
        query["el"] = prefs.elicitation.to_param()
    if prefs.requirement is not None and not prefs.requirement.empty:
        query["req"] = prefs.requirement.to_param()
    return query


def _choice_params(prefs: Preferences) -> dict[str, str]:
    """The answers and the weights set, as query parameters."""
    params = {}
    if prefs.answers:
        params["answers"] = ",".join(f"{k}={v}" for k, v in sorted(prefs.answers.items()))
    if prefs.dimension_weights:
        params["w"] = ",".join(f"{k}={_format_number(v)}" for k, v in sorted(prefs.dimension_weights.items()))
    if prefs.criterion_weights:
        params["cw"] = ",".join(f"{k}={_format_number(v)}" for k, v in sorted(prefs.criterion_weights.items()))
    return params


def _method_params(prefs: Preferences) -> dict[str, str]:
    """The method, scaler, missing-value policy and flagged-claims choice that differ from the defaults."""
    params = {}
    if prefs.method != DEFAULT_METHOD:
        params["method"] = prefs.method
    if prefs.scaler:
        params["scaler"] = prefs.scaler
    if prefs.missing != DEFAULT_MISSING:
        params["missing"] = prefs.missing
    if not prefs.use_flagged:
        params["flagged"] = "exclude"
    return params


def _limit_params(prefs: Preferences) -> dict[str, str]:
    """The hard constraints, the exclusions and whether unknown values are kept."""
    params = {}
    if prefs.constraints:
        params["must"] = ",".join(prefs.constraints)
    if prefs.exclude_vendors:
        params["xv"] = ",".join(prefs.exclude_vendors)
    if prefs.exclude:
        params["x"] = ",".join(prefs.exclude)
    if prefs.keep_unknown:
        params["unknown"] = "keep"
    if prefs.workload:
        params["wl"] = prefs.workload
    return params


def _list(text: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


def from_query(query: Mapping[str, str], default_group: str) -> Preferences:
    """Rebuild preferences from URL query parameters; raises :class:`PreferenceError` on malformed values."""
    missing = query.get("missing", DEFAULT_MISSING)
    if missing not in MISSING_POLICIES:
        raise PreferenceError(
            Phrase(
                N_("missing-value policy `{missing}` unknown; use one of {known}"),
                missing=missing,
                known=", ".join(MISSING_POLICIES),
            )
        )
    try:
        elicited = Elicitation.from_param(query["el"]) if query.get("el") else None
    except ElicitationError as exc:
        raise PreferenceError(exc.message) from None
    try:
        requirement = Requirement.from_param(query["req"]) if query.get("req") else None
    except RequirementError as exc:
        raise PreferenceError(exc.message) from None
    try:
        # the constraints and the workload read here first: inside the model, pydantic would wrap their refusal in
        # its own English report; read apart, the message is theirs (and said in the reader's language)
        constraints = hard.normalise(_list(query.get("must")))
        workload = stated_workload.normalise(query.get("wl") or None)
    except (hard.ConstraintError, stated_workload.WorkloadError) as exc:
        raise PreferenceError(exc.message) from None
    try:
        return Preferences(
            group=query.get("group", default_group),
            answers=parse_pairs(query.get("answers"), ANSWERS),
            dimension_weights=parse_weights(query.get("w"), DIMENSION_WEIGHTS),
            criterion_weights=parse_weights(query.get("cw"), CRITERION_WEIGHTS),
            method=query.get("method", DEFAULT_METHOD),
            scaler=query.get("scaler") or None,
            missing=missing,
            use_flagged=query.get("flagged", "include") != "exclude",
            constraints=constraints,
            exclude_vendors=_list(query.get("xv")),
            exclude=_list(query.get("x")),
            keep_unknown=query.get("unknown") == "keep",
            elicitation=elicited,
            workload=workload,
            requirement=requirement,
        )
    except ValueError as exc:
        if isinstance(exc, PreferenceError):
            raise
        raise PreferenceError(f"the link's parameters are not valid: {exc}") from None

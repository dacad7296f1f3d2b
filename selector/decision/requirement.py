"""A requirement in plain words ("serve a 70B LLM in the cloud, at most 2 USD per million tokens, >= 141 GB per
chip"): its model, its link form, the groups that answer it (by their `fits`), and the limits and sub-weights it
implies in the group chosen.

The requirement is kept beside the preferences it produced (``Preferences.requirement``), so that a link, a profile
and a report can say what was asked in words; the limits it implies become ordinary hard constraints that the user
can still edit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from selector import display, i18n
from selector.errors import SelectorError
from selector.i18n import N_, Phrase
from selector.io import numbers
from selector.io.pairs import parse_pairs
from selector.knowledge import facts
from selector.knowledge.fact_types import Jurisdiction
from selector.knowledge.fields import Id
from selector.knowledge.group_fits import Choosing, FitsPlatform, Task, Where
from selector.knowledge.models import Group, KnowledgeBase

CHOOSING_WORDS: dict[str, str] = {
    "accelerator": N_("an accelerator (chip)"),
    "training-framework": N_("a training framework"),
    "inference-engine": N_("an inference engine"),
    "llm-serving-engine": N_("an LLM serving engine"),
    "model-server": N_("a model server"),
    "on-device-runtime": N_("an on-device runtime"),
}
TASK_WORDS: dict[str, str] = {
    "train": N_("to train models"),
    "serve-llm": N_("to serve an LLM"),
    "serve-vision": N_("to serve vision models"),
    "generate-images": N_("to generate images"),
    "run-on-device": N_("to run models on a device"),
}
WHERE_WORDS: dict[str, str] = {
    "cloud": N_("in the cloud"),
    "datacenter": N_("in our own datacenter"),
    "edge": N_("at the edge (a module in a device or gateway)"),
    "device": N_("on a phone or embedded device"),
    "client": N_("on a laptop or desktop"),
}
#: What is chosen when the requirement does not say.
ANY = N_("an option")
PLATFORM_WORDS: dict[str, str] = {
    "linux": "Linux",
    "windows": "Windows",
    "macos": "macOS",
    "android": "Android",
    "ios": "iOS",
    "embedded-linux": N_("embedded Linux"),
}
#: The criterion metric a "memory per chip" answer limits, and the units a budget answer limits.
MEMORY_METRIC = "memory_capacity_gb"
PER_TOKEN_UNIT = "USD per million tokens"
PER_HOUR_UNIT = "USD per GPU-hour"
#: Bytes per parameter of a model's weights in BF16: what the note on memory per chip counts with.
BF16_BYTES = 2
# The model size a benchmark workload names: "llama2-70b-99" -> 70, "Qwen2.5-0.5B" -> 0.5 (billions of parameters)
_MODEL_SIZE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)b(?![a-z])")
# the link form's keys, in the order they are written
_KEYS = ("choosing", "task", "where", "platform", "model", "mtok", "hour", "mem", "avoid", "avoidj")

Positive = Annotated[float, Field(gt=0, le=1e6, allow_inf_nan=False)]


class RequirementError(SelectorError, ValueError):
    """A requirement that cannot be read, with what to write instead."""


class Requirement(BaseModel):
    """What the user needs, in the words of the requirement-first start; every field optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    choosing: Choosing | None = None
    task: Task | None = None
    where: Where | None = None
    platform: FitsPlatform | None = None
    model_b: Positive | None = None  # model size, billions of parameters
    usd_per_mtok: Positive | None = None  # most one would pay per million tokens
    usd_per_hour: Positive | None = None  # most one would pay per accelerator-hour
    memory_gb: Positive | None = None  # least memory per chip
    avoid_vendors: tuple[Id, ...] = ()
    avoid_jurisdictions: tuple[Jurisdiction, ...] = ()

    @field_validator("avoid_vendors", "avoid_jurisdictions")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(v) > 50:
            raise ValueError(f"{len(v)} values given; at most 50 are accepted")
        return tuple(dict.fromkeys(v))

    @property
    def empty(self) -> bool:
        return self == Requirement()

    def words(self, kb: KnowledgeBase | None = None, lang: i18n.Language = "en") -> str:
        """The requirement in plain words in `lang`, e.g. "Choosing an accelerator (chip) to serve an LLM of 70B
        parameters in the cloud; at most 2 USD per million tokens; at least 141 GB of memory per chip."; numbers,
        units, names and jurisdiction codes stay as they are."""
        _ = i18n.translator(lang)
        if self.empty:
            return _("No requirement stated.")
        parts = [self._head(lang)]
        if self.usd_per_mtok is not None:
            parts.append(_("at most {usd} USD per million tokens").format(usd=display.number(self.usd_per_mtok)))
        if self.usd_per_hour is not None:
            parts.append(_("at most {usd} USD per accelerator-hour").format(usd=display.number(self.usd_per_hour)))
        if self.memory_gb is not None:
            parts.append(_("at least {gb} GB of memory per chip").format(gb=display.number(self.memory_gb)))
        comma = "、" if lang == "zh" else ", "
        if self.avoid_vendors:
            names = comma.join(kb.entity_name(v) if kb is not None else v for v in self.avoid_vendors)
            parts.append(_("avoiding vendors {names}").format(names=names))
        if self.avoid_jurisdictions:
            places = comma.join(self.avoid_jurisdictions)
            parts.append(_("avoiding vendors based in {places}").format(places=places))
        return _("{parts}.").format(parts=("；" if lang == "zh" else "; ").join(parts))

    def _head(self, lang: i18n.Language) -> str:
        """What is chosen, for what, how large, where and on which platform, in `lang`."""
        _ = i18n.translator(lang)
        head = _("Choosing {choosing}").format(choosing=_(CHOOSING_WORDS[self.choosing] if self.choosing else ANY))
        if self.task:
            head = _("{head} {task}").format(head=head, task=_(TASK_WORDS[self.task]))
        if self.model_b is not None:
            head = _("{head} of {size}B parameters").format(head=head, size=display.number(self.model_b))
        if self.where:
            head = _("{head} {where}").format(head=head, where=_(WHERE_WORDS[self.where]))
        if self.platform:
            head = _("{head} on {platform}").format(head=head, platform=_(PLATFORM_WORDS[self.platform]))
        return head

    def to_param(self) -> str:
        """The link form: ``choosing=accelerator,task=serve-llm,model=70,mem=141,avoid=huawei:nvidia``."""
        values = {
            "choosing": self.choosing,
            "task": self.task,
            "where": self.where,
            "platform": self.platform,
            "model": self.model_b,
            "mtok": self.usd_per_mtok,
            "hour": self.usd_per_hour,
            "mem": self.memory_gb,
            "avoid": ":".join(self.avoid_vendors) or None,
            "avoidj": ":".join(self.avoid_jurisdictions) or None,
        }
        return ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items() if v)

    @classmethod
    def from_param(cls, text: str) -> Requirement:
        """Read the link form written by :meth:`to_param`.

        Raises
        ------
        RequirementError
            When a key is unknown or given twice, a number is not one, or a value is not among those allowed.
        """
        if len(text) > 2_000:
            raise RequirementError(Phrase(N_("the requirement (`req`) is longer than {most} characters"), most="2,000"))
        pairs = parse_pairs(
            text,
            REQUIREMENT,
            RequirementError,
            form=Phrase(N_("KEY=VALUE with KEY one of {keys}"), keys=", ".join(_KEYS)),
            strict=True,
        )
        unknown = next((k for k in pairs if k not in _KEYS), None)
        if unknown is not None:
            raise RequirementError(
                Phrase(
                    N_("requirement: `{key}` is not a KEY; give KEY one of {keys}"), key=unknown, keys=", ".join(_KEYS)
                )
            )
        data: dict[str, object] = {k: pairs[k] for k in ("choosing", "task", "where", "platform") if k in pairs}
        for key, name in (
            ("model", "model_b"),
            ("mtok", "usd_per_mtok"),
            ("hour", "usd_per_hour"),
            ("mem", "memory_gb"),
        ):
            if key in pairs:
                try:
                    data[name] = numbers.parse_number(pairs[key])
                except numbers.NumberRefused as exc:
                    raise RequirementError(
                        Phrase(
                            N_("requirement: `{key}={value}`: {error}"), key=key, value=pairs[key], error=exc.message
                        )
                    ) from None
        if "avoid" in pairs:
            data["avoid_vendors"] = tuple(filter(None, pairs["avoid"].split(":")))
        if "avoidj" in pairs:
            data["avoid_jurisdictions"] = tuple(filter(None, pairs["avoidj"].split(":")))
        try:
            return cls(**data)
        except ValueError as exc:
            raise RequirementError(Phrase(N_("requirement: {error}"), error=_first_message(exc))) from None


#: What a refusal of the link's `req` calls it (said in the reader's language where shown).
REQUIREMENT = Phrase(N_("requirement"))


def _first_message(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    found = errors()[0]
    where = ".".join(str(p) for p in found["loc"])
    return f"`{where}`: {found['msg'].removeprefix('Value error, ')}"


# ----------------------------------------------------------------------------------------------------------
# Which groups answer it


@dataclass(frozen=True)
class GroupFit:
    """How one group answers a requirement: whether every stated answer matches, why, and how closely."""

    group: str
    fits: bool
    reasons: tuple[str, ...]
    misses: tuple[str, ...]
    rank_key: tuple[float, ...] = field(repr=False)


def model_size(kb: KnowledgeBase, group: Group) -> float | None:
    """The largest model (billions of parameters) the group's ranked benchmark columns measure; None for none."""
    sizes = []
    for gc in group.criteria:
        if gc.weight <= 0:
            continue
        criterion = kb.criteria[gc.criterion]
        sources = [criterion]
        if criterion.derived is not None:
            sources += [kb.criteria[t] for _, t in criterion.derived.inputs if t in kb.criteria]
        for source in sources:
            workload = (source.conditions.workload if source.conditions else None) or ""
            workload = workload.lower()
            sizes += [float(m) for m in _MODEL_SIZE.findall(workload)]
    return max(sizes) if sizes else None


def _limits_answered(kb: KnowledgeBase, group: Group, req: Requirement) -> int:
    """How many of the requirement's numeric limits the group has a column for."""
    metrics = {kb.criteria[gc.criterion].metric for gc in group.criteria}
    units = {kb.criteria[gc.criterion].unit for gc in group.criteria}
    return sum(
        (
            req.memory_gb is not None and MEMORY_METRIC in metrics,
            req.usd_per_mtok is not None and PER_TOKEN_UNIT in units,
            req.usd_per_hour is not None and PER_HOUR_UNIT in units,
        )
    )


def _fit(kb: KnowledgeBase, group: Group, req: Requirement) -> GroupFit:
    fits = group.fits
    assert fits is not None
    reasons, misses = [], []
    for stated, allowed, words, what in (
        (req.choosing, (fits.choosing,), CHOOSING_WORDS, "it ranks {}"),
        (req.task, fits.tasks, TASK_WORDS, "it is made {}"),
        (req.where, fits.where, WHERE_WORDS, "for use {}"),
    ):
        if stated is None:
            continue
        ok = stated in allowed
        (reasons if ok else misses).append(what.format(words[stated]) if ok else f"{stated!r} ({words[stated]})")
    if req.platform is not None and fits.platforms:
        ok = req.platform in fits.platforms
        (reasons if ok else misses).append(f"it runs on {PLATFORM_WORDS[req.platform]}" if ok else req.platform)
    size = model_size(kb, group)
    closeness = 0.0
    if req.model_b is not None and size is not None:
        closeness = -abs(math.log(size / req.model_b))
        reasons.append(f"its benchmarks run a {size:g}B model")
    answered = _limits_answered(kb, group, req)
    if answered:
        reasons.append(f"it has a column for {answered} of your limits")
    chooses = float(req.choosing is None or req.choosing == fits.choosing)
    key = (
        float(not misses),
        chooses,
        -len(misses),
        closeness,
        float(answered),
        -float(len(fits.tasks)),
        -len(fits.where),
    )
    return GroupFit(group.id, not misses, tuple(reasons), tuple(misses), key)


def fitting_groups(kb: KnowledgeBase, req: Requirement) -> tuple[GroupFit, ...]:
    """Every group that says what it answers, best fit first (ties in the knowledge's order).

    Best: every stated answer matches, then the model size closest to the group's benchmark model, then the most of
    the requirement's limits that the group has a column for, then the most specific group (fewest tasks and places).
    """
    found = [_fit(kb, g, req) for g in kb.groups.values() if g.fits is not None]
    order = {g: i for i, g in enumerate(kb.groups)}
    return tuple(sorted(found, key=lambda f: (tuple(-x for x in f.rank_key), order[f.group])))


@dataclass(frozen=True)
class Pick:
    """The group a requirement leads to, or the two that fit equally well (``chosen`` None: the user picks)."""

    chosen: str | None
    offered: tuple[str, ...]
    why: str


def pick(kb: KnowledgeBase, req: Requirement) -> Pick:
    """The group that answers `req` best, or the two that answer it equally well.

    Raises
    ------
    RequirementError
        When no group says what it answers.
    """
    ranked = fitting_groups(kb, req)
    if not ranked:
        raise RequirementError("no group of the knowledge says what it answers (`fits`)")
    best = ranked[0]
    if not best.fits:
        missed = ", ".join(best.misses)
        why = (
            f"no group answers every part of it; the closest, {kb.groups[best.group].name_en}, does not fit {missed}: "
            "choose one of the two closest, or change the requirement"
        )
        return Pick(None, tuple(f.group for f in ranked[:2]), why)
    tied = [f for f in ranked[1:] if f.fits and f.rank_key == best.rank_key]
    if tied:
        names = " and ".join(kb.groups[f.group].name_en for f in (best, tied[0]))
        return Pick(None, (best.group, tied[0].group), f"{names} answer it equally well: choose one")
    return Pick(best.group, (best.group,), "; ".join(best.reasons) or "it is the first group")


# ----------------------------------------------------------------------------------------------------------
# What it implies in the group chosen


@dataclass(frozen=True)
class Implied:
    """The hard limits, sub-criterion weights and vendor exclusions a requirement sets in one group, with notes."""

    constraints: tuple[str, ...] = ()
    criterion_weights: dict[str, float] = field(default_factory=dict)
    exclude_vendors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def implied(kb: KnowledgeBase, req: Requirement, group_id: str) -> Implied:
    """The limits (``memory-capacity>=141``), sub-weights (a price column at weight 0 raised to 1, so that the
    budget ranks) and vendor exclusions that `req` implies in group `group_id`, and notes for what it cannot set."""
    group = kb.groups[group_id]
    criteria = [(kb.criteria[gc.criterion], gc.weight) for gc in group.criteria]
    constraints, weights, notes = [], {}, []
    for value, op, test, what in (
        (req.memory_gb, ">=", lambda c: c.metric == MEMORY_METRIC, "memory per chip"),
        (req.usd_per_mtok, "<=", lambda c: c.unit == PER_TOKEN_UNIT, "budget per million tokens"),
        (req.usd_per_hour, "<=", lambda c: c.unit == PER_HOUR_UNIT, "budget per accelerator-hour"),
    ):
        if value is None:
            continue
        matching = [(c, w) for c, w in criteria if test(c)]
        if not matching:
            notes.append(f"{group.name_en} has no column for the {what}: it is not a limit here")
        for criterion, weight in matching:
            constraints.append(f"{criterion.id}{op}{value:g}")
            if weight == 0 and op == "<=":
                weights[criterion.id] = 1.0
                notes.append(f"{criterion.name_en} now ranks (sub-weight 1; by default it is shown, not ranked)")
    if req.model_b is not None and req.task == "serve-llm" and req.memory_gb is None:
        need = req.model_b * BF16_BYTES
        notes.append(
            f"a {req.model_b:g}B model's weights take about {need:g} GB in BF16: on one chip that needs more than "
            f"{need:g} GB; give the memory per chip to make it a limit"
        )
    return Implied(tuple(constraints), weights, _vendors_to_avoid(kb, req, group), tuple(notes))


def _vendors_to_avoid(kb: KnowledgeBase, req: Requirement, group: Group) -> tuple[str, ...]:
    """The vendors named, and the vendors of the group's members based in the jurisdictions named."""
    known = set(facts.vendors(kb.entities))
    avoided = [v for v in req.avoid_vendors if v in known]
    for member in group.members:
        vendor = kb.entities[member].vendor
        place = kb.entities[vendor].jurisdiction if vendor in kb.entities else None
        if vendor and place in req.avoid_jurisdictions:
            avoided.append(vendor)
    return tuple(dict.fromkeys(avoided))


def check(kb: KnowledgeBase, req: Requirement) -> None:
    """Raise :class:`RequirementError` when a vendor to avoid makes nothing in the knowledge."""
    known = facts.vendors(kb.entities)
    unknown = [v for v in req.avoid_vendors if v not in known]
    if unknown:
        raise RequirementError(
            Phrase(
                N_("requirement: no framework or accelerator is made by {unknown}; known vendors: {known}"),
                unknown=", ".join(unknown),
                known=", ".join(known),
            )
        )

"""Frozen types of the knowledge base: the one schema every YAML record is checked against."""

from __future__ import annotations

import math
from functools import cached_property
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StringConstraints,
    field_validator,
    model_validator,
)

from selector.knowledge import fact_types
from selector.knowledge.fact_types import (
    ExportControl,
    FormFactor,
    Jurisdiction,
    Lifecycle,
    Platform,
    ReadOnlyWhere,
    YearMonth,
)
from selector.knowledge.fields import SMALLEST_NORMAL, Id, Name, Number, Record, ShortText, Text
from selector.knowledge.group_fits import Fits
from selector.knowledge.sources import Locator, Source
from selector.knowledge.workload_facts import LlmModel, Support

# ----------------------------------------------------------------------------------------------------------
# Entities

EntityKind = Literal[
    "framework",  # frameworks, runtimes, servers, compilers, libraries (see `roles`)
    "accelerator",
    "model",
    "tool",
    "dataset",
    "technique",
    "organization",
    "resource",  # courses, books, paper collections
    "system",  # named deployed systems of the case studies
    "concept",
]
Role = Literal["training_framework", "inference_runtime", "serving", "mobile_edge_runtime", "compiler", "library"]
Segment = Literal["datacenter", "workstation", "edge", "mobile_client", "emerging"]


class Entity(Record):
    """Anything the articles name: frameworks and runtimes carry roles, accelerators a segment."""

    id: Id
    name: Name
    kind: EntityKind
    name_zh: Name | None = None
    aliases: tuple[Name, ...] = ()
    roles: tuple[Role, ...] = ()
    segment: Segment | None = None
    vendor: Id | None = None
    description_en: Text | None = None
    description_zh: Text | None = None
    url: ShortText | None = None
    # Comparison groups the entity joins besides those that list it: how an upload ranks a new chip among the
    # bundled ones without redefining the group.
    groups: tuple[Id, ...] = ()
    # --- facts (see FormFactor above): sourced by `fact_claims`
    jurisdiction: Jurisdiction | None = None
    form_factor: FormFactor | None = None
    export_control: ExportControl | None = None
    lifecycle: Lifecycle = "active"
    successor: Id | None = None
    lifecycle_since: YearMonth | None = None
    platforms: tuple[Platform, ...] = ()
    fact_claims: tuple[Id, ...] = ()

    @model_validator(mode="after")
    def _kind_fields(self) -> Entity:
        if self.kind == "framework" and not self.roles:
            raise ValueError("a framework needs at least one role")
        if self.kind != "framework" and self.roles:
            raise ValueError("only frameworks have roles")
        if self.kind == "accelerator" and self.segment is None:
            raise ValueError("an accelerator needs a segment")
        if self.kind != "accelerator" and self.segment is not None:
            raise ValueError("only accelerators have a segment")
        return self

    @model_validator(mode="after")
    def _fact_fields(self) -> Entity:
        fact_types.check_facts(self)
        return self

    @property
    def fact_fields(self) -> tuple[str, ...]:
        """The fact fields this record states (each needs a fact claim): see :func:`fact_types.stated_facts`."""
        return fact_types.stated_facts(self)


# ----------------------------------------------------------------------------------------------------------
# Claims

# Precedence, strongest first: a user's own measurement, third-party runs with public logs (MLPerf, AccelMark),
# datasheet/spec databases, the articles' claims, our ratings.
Tier = Literal["measured", "benchmarked", "reference", "claimed", "assessed"]
TIERS: tuple[str, ...] = ("measured", "benchmarked", "reference", "claimed", "assessed")
LOCATED_TIERS = frozenset({"benchmarked", "reference"})
ClaimKind = Literal[
    "benchmark",
    "speedup",
    "saving",
    "spec",
    "utilisation",
    "market",
    "growth",
    "rating",
    "accuracy",
    "latency",
    "target",
    "weight",
    "capacity",
    "trend",
    "recommendation",
    "rule",
    "observation",
    # a fact about an entity (vendor, jurisdiction, form factor, lifecycle, platforms, export control): sourced by
    # an article quote or, tier `reference`, by a public document (a source of kind `document`)
    "fact",
]
# The phrase an assessed rationale uses to say that (part of) its evidence lies outside the articles.
OUTSIDE_FACTS = "outside facts"

Comparator = Literal["=", "<", "<=", ">", ">=", "~"]
FlagKind = Literal[
    "nonexistent_version",
    "unverifiable",
    "contradicts_datasheet",
    "implausible",
    "misattributed",
    "inconsistent",
    "ambiguous",
    # A thing presented as something it is not: a BLAS library as a framework, a text corpus as multimodal data,
    # a compatibility delegate as an efficiency mechanism. Neither a wrong author nor a wrong figure.
    "category_error",
]


class Flag(Record):
    """Why a claim is doubtful, with a public reference where one exists."""

    kind: FlagKind
    reason: Text
    reference: ShortText | None = None


class Conditions(Record):
    """Under what a number holds; two numbers are comparable only when their conditions agree."""

    workload: ShortText | None = None
    task: ShortText | None = None
    hardware: Id | None = None
    precision: ShortText | None = None
    batch: ShortText | None = None
    baseline: ShortText | None = None
    baseline_entity: Id | None = None
    version: ShortText | None = None
    scenario: ShortText | None = None
    scope: ShortText | None = None
    # Peak TOPS/TFLOPS are published either dense or with 2:4 structured sparsity (twice the dense figure); the two
    # must never share a column.
    sparsity: ShortText | None = None

    def key(self) -> tuple[tuple[str, str], ...]:
        """The conditions as a hashable, order-independent key (None fields left out)."""
        return tuple(sorted((k, str(v)) for k, v in self.model_dump().items() if v is not None))


class Claim(Record):
    """One statement: a number, rating, rule or recommendation, with where it came from and how far to trust it.

    ``claimed`` records quote an article verbatim; ``assessed`` records are our ratings and must say why and
    which claims they rest on; ``measured`` records come from a user's own measurements; ``benchmarked`` and
    ``reference`` records come from a bundled public dataset and carry a ``locator`` instead of a quote.
    """

    id: Id
    source: Id
    tier: Tier = "claimed"
    kind: ClaimKind
    section: Annotated[str, StringConstraints(pattern=r"^[0-9a-z.]+$", max_length=20)] | None = None
    quote: Text | None = None
    text_en: Text
    about: tuple[Id, ...] = Field(min_length=1)
    subject: Id | None = None
    metric: Id | None = None
    value: Number | None = None
    comparator: Comparator = "="
    unit: ShortText | None = None
    conditions: Conditions = Conditions()
    rationale: Text | None = None
    based_on: tuple[Id, ...] = ()
    overrides: Id | None = None
    flags: tuple[Flag, ...] = ()
    note: Text | None = None
    locator: Locator | None = None

    @field_validator("value")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number (not NaN or infinity)")
        if v is not None and v != 0 and abs(v) < SMALLEST_NORMAL:
            # A subnormal has lost its precision, and its reciprocal (cost criteria) or logarithm breaks the maths.
            raise ValueError(f"{v:g} is closer to zero than {SMALLEST_NORMAL:.1e}; write 0 or use a larger unit")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Claim:
        self._check_value()
        self._check_tier_needs()
        self._check_locator()
        return self

    def _check_value(self) -> None:
        """Raise ValueError unless a value comes with its unit, metric and (about several entities) subject."""
        if self.value is not None:
            if not self.unit:
                raise ValueError("a claim with a value needs a `unit`")
            if not self.metric:
                raise ValueError("a claim with a value needs a `metric`")
            if self.subject is None and len(self.about) > 1:
                raise ValueError("a numeric claim about several entities needs `subject` (whose value it is)")
        elif self.unit or self.metric:
            raise ValueError("`unit` and `metric` only make sense with a `value`")
        if self.subject is not None and self.subject not in self.about:
            raise ValueError(f"`subject` {self.subject!r} must be one of `about`")

    def _check_tier_needs(self) -> None:
        """Raise ValueError when a `claimed` record lacks its quote or an `assessed` one its rationale or basis."""
        if self.tier == "claimed" and (self.quote is None or self.section is None):
            raise ValueError("a `claimed` record needs a verbatim `quote` and its `section`")
        if self.tier == "assessed" and not self.rationale:
            raise ValueError("an `assessed` record needs a `rationale` and the claims it is `based_on`")
        if self.tier == "assessed" and not self.based_on and not self.rests_on_outside_facts:
            raise ValueError(
                "an `assessed` record needs the claims it is `based_on`, or a rationale that says it rests on "
                f"{OUTSIDE_FACTS!r}"
            )

    def _check_locator(self) -> None:
        """Raise ValueError unless the located tiers carry a value and a locator into their source, a reference
        fact without a locator states no value, and no other record carries a locator."""
        if self.tier == "reference" and self.kind == "fact" and self.locator is None:
            if self.value is not None:
                raise ValueError("a `fact` claim states a fact in `text_en`, without a `value`")
        elif self.tier in LOCATED_TIERS:
            if self.locator is None or self.value is None:
                raise ValueError(f"a `{self.tier}` record needs a `value` and a `locator` (where the raw number lies)")
            if self.locator.dataset != self.source:
                raise ValueError(f"`locator.dataset` {self.locator.dataset!r} must equal `source` {self.source!r}")
        elif self.locator is not None:
            raise ValueError("only `benchmarked` and `reference` records carry a `locator`")

    @property
    def rests_on_outside_facts(self) -> bool:
        """True when the rationale says the rating rests on facts from outside the articles."""
        return OUTSIDE_FACTS in (self.rationale or "").lower()

    @property
    def subject_id(self) -> str:
        """The entity whose value this is."""
        return self.subject or self.about[0]

    @property
    def flagged(self) -> bool:
        return bool(self.flags)


# ----------------------------------------------------------------------------------------------------------
# Criteria, groups and decision rules

Objective = Literal["max", "min"]


class Dimension(Record):
    """A top-level decision dimension (performance, cost, ecosystem, risk) with its default weight."""

    id: Id
    name_en: Name
    name_zh: Name
    weight: Number = Field(ge=0, le=100)
    claims: tuple[Id, ...] = Field(min_length=1)
    description_en: Text | None = None
    description_zh: Text | None = None


class RubricLevel(Record):
    """What one value of an assessed criterion's 1-5 scale means."""

    level: int = Field(ge=1, le=5)
    text_en: Text
    text_zh: Text | None = None


class Derivation(Record):
    """How a derived criterion's cell is computed from two other criteria's cells of the same alternative.

    ``usd_per_million_tokens``: ``price`` (USD per accelerator-hour) / (``throughput`` tokens/s x 3600) x 10^6.
    ``kwh_per_million_tokens``: ``power`` (W) / ``throughput`` (tokens/s) x 10^6 / 3.6 x 10^6: the energy one
    accelerator draws at that power to produce a million tokens (the electricity bill's share of the cost).
    ``joules_per_pflop``: ``power`` (W) / ``throughput`` (TFLOPS) x 1,000: the energy per peta-operation at peak.
    """

    formula: Literal["usd_per_million_tokens", "kwh_per_million_tokens", "joules_per_pflop"]
    price: Id | None = None
    power: Id | None = None
    throughput: Id

    @model_validator(mode="after")
    def _inputs(self) -> Derivation:
        wanted = "price" if self.formula == "usd_per_million_tokens" else "power"
        other = "power" if wanted == "price" else "price"
        if getattr(self, wanted) is None or getattr(self, other) is not None:
            raise ValueError(f"formula {self.formula} reads `{wanted}` and `throughput` (and no `{other}`)")
        return self

    @property
    def inputs(self) -> tuple[tuple[str, str], ...]:
        """(role, criterion id) of the two criteria the formula reads, the numerator first."""
        first = "price" if self.price is not None else "power"
        return ((first, getattr(self, first)), ("throughput", self.throughput))


class Criterion(Record):
    """A measurable sub-criterion: claims with `metric` (and matching `conditions`) fill its cells.

    Criteria filled by our own ratings (unit ``rating 1-5``) carry a `rubric`: what each level means, so that
    every rating of the column is scored on the same scale and on nothing else.

    A criterion with ``derived`` is computed from two other criteria's cells instead (its evidence is theirs).
    """

    id: Id
    dimension: Id
    name_en: Name
    name_zh: Name | None = None
    objective: Objective
    unit: ShortText
    # The unit as a Chinese reader sees it (`unit` is also the key claims and metrics are matched on, so it stays
    # as written): the same symbol for W or GB, words in Chinese for ``rating 1-5``.
    unit_zh: ShortText | None = None
    metric: Id
    conditions: Conditions = Conditions()
    # The value scale, fixed from the domain: v = 0 at the worst end, 1 at the best (selector.value). Required for
    # every criterion a group ranks; values outside it are refused. ``shape`` log suits a quantity spanning orders
    # of magnitude; ``scale_reason`` says where the bounds come from.
    scale: tuple[Number, Number] | None = None
    shape: Literal["linear", "log"] = "linear"
    scale_reason: Text | None = None
    description_en: Text | None = None
    description_zh: Text | None = None
    rubric: tuple[RubricLevel, ...] = ()

    def reads(self, claim: Claim) -> bool:
        """True when ``claim`` fills this criterion's cells: the same metric, stated under every one of its
        conditions with the same value (case and surrounding spaces aside)."""
        if claim.metric != self.metric:
            return False
        given = claim.conditions.model_dump()
        return all(
            str(given.get(k) or "").strip().lower() == str(v).strip().lower()
            for k, v in self.conditions.model_dump(exclude_none=True).items()
        )

    @property
    def scale_kind(self) -> str:
        """``rating`` for a 1-5 rating or star column, ``quantity`` for a measured or stated amount."""
        return "rating" if self.metric.startswith("rating_") else "quantity"

    @field_validator("rubric")
    @classmethod
    def _every_level_once(cls, v: tuple[RubricLevel, ...]) -> tuple[RubricLevel, ...]:
        if v and sorted(level.level for level in v) != [1, 2, 3, 4, 5]:
            raise ValueError("a rubric describes each level 1, 2, 3, 4 and 5 exactly once")
        return v

    derived: Derivation | None = None


class GroupCriterion(Record):
    criterion: Id
    weight: Number = Field(default=1.0, ge=0, le=1_000_000)  # relative, like the preferences' MAX_WEIGHT


class Group(Record):
    """Alternatives that may be compared with each other, and the criteria they are compared on."""

    id: Id
    name_en: Name
    name_zh: Name | None = None
    members: tuple[Id, ...] = Field(min_length=2)
    criteria: tuple[GroupCriterion, ...] = Field(min_length=1)
    description_en: Text | None = None
    description_zh: Text | None = None
    rationale_en: Text | None = None  # why these criteria and sub-weights: what each dimension ranks here
    rationale_zh: Text | None = None
    # what the group answers (the requirement-first start picks groups by it); crosscheck warns when it is missing
    fits: Fits | None = None


class Option(Record):
    """An answer to a scenario question; `groups` are the groups of alternatives the answer points at."""

    id: Id
    label_en: Name
    label_zh: Name | None = None
    groups: tuple[Id, ...] = ()


class Question(Record):
    """A scenario question of the decision tree."""

    id: Id
    text_en: ShortText
    text_zh: ShortText | None = None
    options: tuple[Option, ...] = Field(min_length=2)


# A rule's `when` is the one mapping inside a record; the app shares the loaded knowledge between all users, so it
# is made read-only like the knowledge base's own tables (and serialised back as a plain dict).
ReadOnlyAnswers = Annotated[
    dict[Id, tuple[Id, ...]],
    AfterValidator(MappingProxyType),
    PlainSerializer(lambda v: {k: list(t) for k, t in v.items()}, return_type=dict[str, list[str]]),
]


class Rule(Record):
    """If every `when` answer matches, the rule fires and shortlists `recommend` (and drops `exclude`).

    Besides ids, a rule selects by entity facts: `recommend_where` / `exclude_where` (``{vendor_jurisdiction:
    CN}``, ``{form_factor: [laptop, datacenter]}``), so that one rule acts correctly in every group. It speaks for
    the groups in `groups`; without any, for every group that holds one of the entities it names or selects.
    """

    id: Id
    tree: Id
    when: ReadOnlyAnswers = Field(min_length=1)
    recommend: tuple[Id, ...] = ()
    exclude: tuple[Id, ...] = ()
    recommend_where: ReadOnlyWhere = Field(default_factory=dict)
    exclude_where: ReadOnlyWhere = Field(default_factory=dict)
    groups: tuple[Id, ...] = ()
    rationale_en: Text
    rationale_zh: Text | None = None
    claims: tuple[Id, ...] = Field(min_length=1)


# ----------------------------------------------------------------------------------------------------------
# Vocabulary: the metric ids and the app's editorial scenario links

Better = Literal["higher", "lower"]
#: ``non_negative``: a magnitude; ``positive``: a magnitude that cannot be zero (a chip with 0 W TDP or a run at
#: 0 tokens/s is a wrong number); ``share``: a share of a whole, 0 to 100; ``any``: a change, may be negative.
Bounds = Literal["any", "non_negative", "positive", "share"]


class Metric(Record):
    """A metric id claims and criteria measure: its label, units, which way is better and which values it takes.

    With ``family`` the id is a prefix: every metric id that starts with it is this metric (``rating_``).
    """

    id: Id
    label_en: Name | None = None
    label_zh: Name | None = None
    units: tuple[ShortText, ...] = ()  # none: any unit (a count names what it counts)
    better: Better | None = None
    bounds: Bounds = "any"
    max: float | None = None  # the physical ceiling: no device or run reaches it (1e296 TOPS is a wrong number)
    family: bool = False


class ScenarioLink(Record):
    """The scenario answers (question -> options) an entity, or by default every entity of a kind, mainly serves.

    The app's editorial grouping for the Techniques & cases page, not a statement of the articles.
    """

    entity: Id | None = None
    kind: EntityKind | None = None
    serves: ReadOnlyAnswers = Field(min_length=1)

    @model_validator(mode="after")
    def _entity_or_kind(self) -> ScenarioLink:
        if (self.entity is None) == (self.kind is None):
            raise ValueError("a scenario link names either an `entity` or a `kind`, not both or neither")
        return self

    @property
    def id(self) -> str:
        """The entity id, or ``kind:<kind>`` for a kind's default (no entity id holds a colon)."""
        return self.entity or f"kind:{self.kind}"


# ----------------------------------------------------------------------------------------------------------
# The file shape and the loaded whole


class KnowledgeFile(Record):
    """What one YAML file may hold; the knowledge base is the union of all its files."""

    sources: tuple[Source, ...] = ()
    entities: tuple[Entity, ...] = ()
    claims: tuple[Claim, ...] = ()
    dimensions: tuple[Dimension, ...] = ()
    criteria: tuple[Criterion, ...] = ()
    groups: tuple[Group, ...] = ()
    questions: tuple[Question, ...] = ()
    rules: tuple[Rule, ...] = ()
    metrics: tuple[Metric, ...] = ()
    scenario_links: tuple[ScenarioLink, ...] = ()
    llm_models: tuple[LlmModel, ...] = ()  # architecture facts of open models (selector.decision.memory_fit)
    support: tuple[Support, ...] = ()  # engine x accelerator x precision, from the engines' documentation


SECTIONS = tuple(KnowledgeFile.model_fields)


class KnowledgeBase(Record):
    """The validated, immutable knowledge: records by id, the document texts and a hash of the data."""

    sources: MappingProxyType
    entities: MappingProxyType
    claims: MappingProxyType
    dimensions: MappingProxyType
    criteria: MappingProxyType
    groups: MappingProxyType
    questions: MappingProxyType
    rules: MappingProxyType
    metrics: MappingProxyType
    scenario_links: MappingProxyType
    # the workload facts (selector.knowledge.workload_facts); empty for a knowledge base built without them
    llm_models: MappingProxyType = Field(default_factory=lambda: MappingProxyType({}))
    support: MappingProxyType = Field(default_factory=lambda: MappingProxyType({}))
    texts: MappingProxyType  # source id -> document text
    locations: MappingProxyType  # (section, record id) -> "file:line"
    data_hash: str

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    def entity_name(self, entity_id: str) -> str:
        entity = self.entities.get(entity_id)
        return entity.name if entity else entity_id

    def claims_about(self, entity_id: str) -> list[Claim]:
        return [c for c in self.claims.values() if entity_id in c.about]

    @cached_property
    def numeric_claims(self) -> MappingProxyType:
        """(metric, subject) -> the numeric claims with that metric about that subject, overridden ones left out.

        Built once per knowledge base: the matrix asks for every cell, and scanning every claim per cell made a
        large upload quadratic.
        """
        overridden = {c.overrides for c in self.claims.values() if c.overrides}
        index: dict[tuple[str, str], list[Claim]] = {}
        for claim in self.claims.values():
            if claim.value is not None and claim.id not in overridden:
                index.setdefault((claim.metric, claim.subject_id), []).append(claim)
        return MappingProxyType({key: tuple(claims) for key, claims in index.items()})

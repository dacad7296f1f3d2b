"""The entity facts' field types (vendor's jurisdiction, form factor, export control, lifecycle, platforms), a
rule's fact selection, and the checks of one entity's facts that need no other record.

:mod:`selector.knowledge.models` declares them on the records; :mod:`selector.knowledge.facts` reads and selects by them
and checks the
facts against the other records (fact claims, vendors, successors).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, PlainSerializer, StringConstraints

from selector.knowledge.fields import Id, IsoDate, Record

# Entity facts (issue 31; the schema shared with the catalogue of issue 32): what decision rules select by. Each
# fact of a bundled entity is sourced by the claims in `fact_claims` (export control by its own `claims`).
FormFactor = Literal["phone", "laptop", "edge-module", "workstation", "datacenter"]
FORM_FACTORS: tuple[str, ...] = ("phone", "laptop", "edge-module", "workstation", "datacenter")
Lifecycle = Literal["active", "maintenance", "deprecated"]
Platform = Literal["linux", "windows", "macos", "android", "ios", "embedded-linux", "web"]
ExportStatus = Literal["unrestricted", "license-required-cn", "domestic-cn"]
#: ISO 3166-1 alpha-2, upper case (US, CN, GB, IL, KR, ...).
Jurisdiction = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
YearMonth = Annotated[str, StringConstraints(pattern=r"^(19|20)[0-9]{2}-(0[1-9]|1[0-2])$")]
#: The kinds whose entities must name their `vendor` (and may carry lifecycle facts).
VENDOR_KINDS = frozenset({"framework", "accelerator"})


class ExportControl(Record):
    """Whether a buyer in China can obtain the part, as of a date, with the claims that say so (not legal advice).

    ``unrestricted``: no US export licence is needed for China; ``license-required-cn``: exporting it to China
    needs a US licence (the part may be unobtainable there); ``domestic-cn``: made by a Chinese vendor for the
    Chinese market.
    """

    status: ExportStatus
    as_of: IsoDate
    claims: tuple[Id, ...] = Field(min_length=1)


#: The entity facts a rule selects by (selector.knowledge.facts reads them): ``vendor_jurisdiction`` is the vendor's
#: `jurisdiction`, ``export_control`` the status, ``platforms`` and ``roles`` match when one of them is listed.
FactKey = Literal[
    "vendor",
    "vendor_jurisdiction",
    "form_factor",
    "export_control",
    "lifecycle",
    "platforms",
    "segment",
    "kind",
    "roles",
]


def _one_or_many(value: object) -> object:
    # `{form_factor: phone}` and `{form_factor: [phone, laptop]}` both mean "one of these"
    if isinstance(value, dict):
        return {k: (v,) if isinstance(v, str) else v for k, v in value.items()}
    return value


# A fact selection: fact -> accepted values (an entity matches when every fact has one of its values).
ReadOnlyWhere = Annotated[
    dict[FactKey, tuple[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")], ...]],
    BeforeValidator(_one_or_many),
    AfterValidator(MappingProxyType),
    PlainSerializer(lambda v: {k: list(t) for k, t in v.items()}, return_type=dict[str, list[str]]),
]


def check_facts(entity: Any) -> None:
    """Raise ValueError when an entity's facts do not fit its kind or each other (a deprecated one without a
    successor, platforms on hardware, ...)."""
    _check_fields_fit_the_kind(entity)
    if len(set(entity.platforms)) != len(entity.platforms):
        raise ValueError("`platforms` lists each platform once")
    _check_lifecycle(entity)


def _check_fields_fit_the_kind(entity: Any) -> None:
    """Raise ValueError when an entity states the jurisdiction, form factor, export control or platforms that
    another kind has."""
    if entity.jurisdiction is not None and entity.kind != "organization":
        raise ValueError("only an organization has a `jurisdiction` (an entity's is its vendor's)")
    if entity.kind != "accelerator" and (entity.form_factor is not None or entity.export_control is not None):
        raise ValueError("only accelerators have a `form_factor` and an `export_control`")
    if entity.platforms and entity.kind != "framework":
        raise ValueError("only software (kind framework) has `platforms`")


def _check_lifecycle(entity: Any) -> None:
    """Raise ValueError when an entity's lifecycle, successor and lifecycle_since do not fit its kind or each
    other."""
    lifecycle_stated = entity.lifecycle != "active" or entity.successor or entity.lifecycle_since
    if entity.kind not in VENDOR_KINDS and lifecycle_stated:
        raise ValueError("only frameworks and accelerators have a `lifecycle`")
    if entity.lifecycle == "deprecated" and (entity.successor is None or entity.lifecycle_since is None):
        raise ValueError("a deprecated entity names its `successor` and `lifecycle_since` (YYYY-MM)")
    if entity.lifecycle != "deprecated" and (entity.successor is not None or entity.lifecycle_since is not None):
        raise ValueError("`successor` and `lifecycle_since` belong to a deprecated entity only")
    if entity.successor == entity.id:
        raise ValueError("an entity cannot be its own successor")


def stated_facts(entity: Any) -> tuple[str, ...]:
    """The fact fields an entity states, each of which needs a fact claim: the vendor of software and hardware,
    and the jurisdiction, form factor, lifecycle and platforms of any entity."""
    stated = []
    if entity.vendor and entity.kind in VENDOR_KINDS:
        stated.append("vendor")
    for key in ("jurisdiction", "form_factor", "successor", "lifecycle_since"):
        if getattr(entity, key) is not None:
            stated.append(key)
    if entity.lifecycle != "active":
        stated.append("lifecycle")
    if entity.platforms:
        stated.append("platforms")
    return tuple(stated)

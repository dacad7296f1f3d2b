"""The decision record's own fields (MADR 4 front matter): title, status, deciders, consulted, informed, review-by.

They say who decides and when to look again, not how the options rank, so they live beside the preferences
(:class:`selector.decision.preferences.Preferences`) rather than in them: changing a decider never re-ranks anything. A
profile keeps them (``decision:``); a link carries them while they stay short (:func:`to_params`); the reproduce
link's base address is a deployment setting (:func:`base_url`).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from selector.errors import SelectorError
from selector.i18n import N_
from selector.io import textpolicy

STATUSES = ("proposed", "accepted", "rejected", "deprecated", "superseded")
#: The statuses in words for people (the report translates them; the record keeps the status itself).
STATUS_WORDS = {
    "proposed": N_("proposed"),
    "accepted": N_("accepted"),
    "rejected": N_("rejected"),
    "deprecated": N_("deprecated"),
    "superseded": N_("superseded"),
}
#: Months from the record's date to its review-by date when none is given: hardware, prices and software releases
#: move within months, and a dataset snapshot counts as ageing at 18 (selector.knowledge.provenance.AGEING_MONTHS).
DEFAULT_REVIEW_MONTHS = 6
MAX_PEOPLE = 20
#: The link carries the fields only while their parameters stay this short (a profile file always keeps them).
MAX_LINK_CHARS = 400
#: The link's parameters for these fields (none of them is a preference parameter).
PARAMS = ("adr_title", "adr_status", "deciders", "consulted", "informed", "review_by")
#: Where the reproduce link's base address comes from: this environment variable, the command line's --app-url or
#: the Streamlit secret of the same name in lower case (app_url); unset, the report prints a relative link.
BASE_URL_ENV = "AI_STACK_SELECTOR_URL"


class MetaError(SelectorError, ValueError):
    """Decision fields that cannot be used, with what to fix."""


def _visible(value: str) -> str:
    problem = textpolicy.first_hidden(value)
    if problem is not None:
        raise ValueError(problem)
    if "\n" in value or "\r" in value:
        raise ValueError("one line, without line breaks")
    return value


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), AfterValidator(_visible)]


class DecisionMeta(BaseModel):
    """Who decides, and the record's status and review date; empty fields print as "not recorded"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200), AfterValidator(_visible)] = ""
    status: Literal["proposed", "accepted", "rejected", "deprecated", "superseded"] = "proposed"
    deciders: tuple[Name, ...] = Field(default=(), max_length=MAX_PEOPLE)
    consulted: tuple[Name, ...] = Field(default=(), max_length=MAX_PEOPLE)
    informed: tuple[Name, ...] = Field(default=(), max_length=MAX_PEOPLE)
    review_by: dt.date | None = None

    def review_date(self, decided: dt.date) -> dt.date:
        """The review-by date: the one given, else :data:`DEFAULT_REVIEW_MONTHS` after `decided`."""
        return self.review_by or add_months(decided, DEFAULT_REVIEW_MONTHS)

    @property
    def is_default(self) -> bool:
        return self == DecisionMeta()


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` moved `months` calendar months on (the 31st becomes the month's last day when the month is shorter)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable: every month has 28 days")


def people(text: str) -> tuple[str, ...]:
    """Names typed in one field, separated by commas or semicolons (``Ana, Bo; Chen``), blanks dropped."""
    return tuple(p.strip() for p in text.replace(";", ",").split(",") if p.strip())


def make(**fields: object) -> DecisionMeta:
    """A :class:`DecisionMeta`, or :class:`MetaError` naming each field that cannot be used and why."""
    try:
        return DecisionMeta.model_validate(fields)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'fields'}: {e['msg']}" for e in exc.errors())
        raise MetaError(f"the decision fields cannot be used: {problems}") from None


def to_params(meta: DecisionMeta) -> dict[str, str]:
    """The fields as link parameters (only those set); empty when they are the defaults or too long for a link."""
    params: dict[str, str] = {}
    if meta.title:
        params["adr_title"] = meta.title
    if meta.status != "proposed":
        params["adr_status"] = meta.status
    for key in ("deciders", "consulted", "informed"):
        if getattr(meta, key):
            params[key] = ", ".join(getattr(meta, key))
    if meta.review_by is not None:
        params["review_by"] = meta.review_by.isoformat()
    if sum(len(k) + len(v) + 2 for k, v in params.items()) > MAX_LINK_CHARS:
        return {}
    return params


def from_params(params: Mapping[str, str]) -> DecisionMeta | None:
    """The fields a link carries (None when it carries none); :class:`MetaError` when one cannot be used."""
    if not any(k in params for k in PARAMS):
        return None
    fields: dict[str, object] = {}
    if "adr_title" in params:
        fields["title"] = params["adr_title"]
    if "adr_status" in params:
        fields["status"] = params["adr_status"]
    for key in ("deciders", "consulted", "informed"):
        if key in params:
            fields[key] = people(params[key])
    if params.get("review_by"):
        fields["review_by"] = params["review_by"]
    return make(**fields)


def base_url(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The reproduce link's base address: `given` (command line, Streamlit secret), else the environment variable
    :data:`BASE_URL_ENV`, else ``""`` (the report then prints a relative link and the parameters).

    Raises
    ------
    MetaError
        When the address set is not an http(s) address.
    """
    env = os.environ if environ is None else environ
    url = (given or env.get(BASE_URL_ENV, "")).strip()
    if url and not url.startswith(("http://", "https://")):
        source = "the address given" if given else f"${BASE_URL_ENV}"
        raise MetaError(f"{source} {url!r} must start with http:// or https:// (it becomes the report's link)")
    return url.rstrip("/")

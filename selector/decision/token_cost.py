"""Cost at my load: what a million tokens cost on an accelerator at the stated utilisation, rented or owned, with
power at the stated electricity price, and where the API price breaks even. Every input names where it came from,
the user's own prices first.

Rent: ``price per accelerator-hour / (output tokens/s x utilisation x 3600) x 10^6`` per million output tokens
(the input tokens of those requests ride along: the measurements do not split prefill time from decode time).
A request's cost is that per-token cost x its output length; per million tokens of input and output together it
is the request's cost / (context + output). Power: ``TDP x electricity price``, drawn for every paid hour (an upper
bound: idle hours are counted at TDP). Owned: the release price spread over the stated years, plus power. Every
figure is inversely proportional to utilisation: half the load costs twice as much per token.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from selector.decision.workload import Workload
from selector.i18n import N_, Phrase
from selector.knowledge.models import TIERS, KnowledgeBase

PRICE_METRIC = "cloud_usd_per_gpu_hour"
# the bundled price basis the cost criteria use (every price of it dated alike; README "Price is a cost")
PRICE_VERSION = "AccelMark cloud prices 2026-04"
HOURS_PER_YEAR = 8760
_TIER = {tier: rank for rank, tier in enumerate(TIERS)}

# The figures in words, marked for the catalogs (a Phrase keeps its fields: a page says it in the reader's language)
YOUR_PRICE = N_("USD {price} per accelerator-hour (your workload's price)")
PRICE = N_("USD {price} per accelerator-hour ({basis}; {claims})")
OWN_PRICE = N_("your own price (My data)")
LISTED = N_("{version}, {scope}")
ON_DEMAND = N_("on demand")
AT = N_("at {utilisation} utilisation and {speed} output tokens/s")
RENT = N_(
    "rent: USD {per_output} per million output tokens, USD {per_token} per million tokens of input and output "
    "({price}, {at})"
)
NO_RENT = N_("rent: no price per accelerator-hour known (give `price=` or your own price in My data)")
POWER = N_(
    "power: USD {per_output} per million output tokens (TDP {tdp} W at USD {price} per kWh, every paid hour at TDP)"
)
OWNED = N_("owned: USD {per_output} per million output tokens (release price USD {release} over {years} years{power})")
PLUS_POWER = N_(" plus power")
NO_POWER_PRICE = N_(" (no electricity price stated)")
API = N_("API: USD {api} per request, rent USD {rent}")
API_CHEAPER = N_("{api}: renting costs more than the API even at {full} utilisation")
RENT_CHEAPER = N_("{api}: renting is cheaper than the API above {utilisation} utilisation")


@dataclass(frozen=True)
class Input:
    """A number the cost uses, and where it came from (claim ids, or the workload)."""

    value: float
    evidence: tuple[str, ...]
    said: str
    tier: str = "measured"  # the evidence's tier; a figure the workload states is the user's own


def per_million(usd_per_hour: float, tokens_per_s: float, utilisation: float) -> float:
    """USD per million tokens produced at `tokens_per_s` when `utilisation` of the paid hours do work."""
    return usd_per_hour / (tokens_per_s * utilisation * 3600) * 1e6


def rent(kb: KnowledgeBase, workload: Workload, accelerator: str) -> Input | None:
    """The price per accelerator-hour: the workload's own, else the user's measured price, else the bundled list."""
    if workload.price is not None:
        return Input(workload.price, (), Phrase(YOUR_PRICE, price=f"{workload.price:g}"))
    claims = [c for c in kb.numeric_claims.get((PRICE_METRIC, accelerator), ()) if c.tier == "measured"]
    own = bool(claims)
    if not own:
        claims = [
            c
            for c in kb.numeric_claims.get((PRICE_METRIC, accelerator), ())
            if (c.conditions.version or "") == PRICE_VERSION
        ]
    if not claims:
        return None
    value = float(statistics.median(c.value for c in claims))
    ids = tuple(sorted(c.id for c in claims))
    scope = claims[0].conditions.scope or Phrase(ON_DEMAND)
    basis = Phrase(OWN_PRICE) if own else Phrase(LISTED, version=PRICE_VERSION, scope=scope)
    said = Phrase(PRICE, price=f"{value:g}", basis=basis, claims=", ".join(ids))
    return Input(value, ids, said, claims[0].tier)


def _best(kb: KnowledgeBase, metric: str, accelerator: str) -> Input | None:
    claims = sorted(kb.numeric_claims.get((metric, accelerator), ()), key=lambda c: (_TIER[c.tier], c.id))
    if not claims:
        return None
    return Input(float(claims[0].value), (claims[0].id,), f"{claims[0].value:g} ({claims[0].id})", claims[0].tier)


@dataclass(frozen=True)
class CostAtLoad:
    """The cost of the workload on one accelerator at its latency-bounded throughput; None where an input lacks."""

    tokens_per_s: float
    utilisation: float
    rent: Input | None
    tdp_w: Input | None
    release_usd: Input | None
    rent_per_million_output: float | None
    power_per_million_output: float | None
    owned_per_million_output: float | None
    per_request: float | None
    per_million_tokens: float | None
    api_per_request: float | None
    break_even_utilisation: float | None

    def lines(self, workload: Workload) -> list[str]:
        """The figures in words, each with its inputs."""
        at = Phrase(AT, utilisation=f"{self.utilisation:.0%}", speed=f"{self.tokens_per_s:,.0f}")
        out: list[str] = []
        if self.rent_per_million_output is not None:
            per_output, per_token = f"{self.rent_per_million_output:,.3g}", f"{self.per_million_tokens:,.3g}"
            out.append(Phrase(RENT, per_output=per_output, per_token=per_token, price=self.rent.said, at=at))
        else:
            out.append(Phrase(NO_RENT))
        if self.power_per_million_output is not None:
            per_output, price = f"{self.power_per_million_output:,.3g}", f"{workload.power_price:g}"
            out.append(Phrase(POWER, per_output=per_output, tdp=self.tdp_w.said, price=price))
        if self.owned_per_million_output is not None:
            power = Phrase(PLUS_POWER if self.power_per_million_output is not None else NO_POWER_PRICE)
            per_output, years = f"{self.owned_per_million_output:,.3g}", f"{workload.years:g}"
            out.append(Phrase(OWNED, per_output=per_output, release=self.release_usd.said, years=years, power=power))
        if self.api_per_request is not None and self.per_request is not None:
            out.append(self._break_even_text())
        return out

    def _break_even_text(self) -> str:
        api = Phrase(API, api=f"{self.api_per_request:.4g}", rent=f"{self.per_request:.4g}")
        if self.break_even_utilisation is None or self.break_even_utilisation > 1:
            return Phrase(API_CHEAPER, api=api, full="100 %")  # a field: "% u" would read as a printf directive
        return Phrase(RENT_CHEAPER, api=api, utilisation=f"{self.break_even_utilisation:.0%}")


def api_per_request(workload: Workload) -> float | None:
    """What one request of the workload costs at the API price (input and output priced apart when both given)."""
    if workload.api_input_price is not None and workload.api_output_price is not None:
        return (workload.context * workload.api_input_price + workload.output * workload.api_output_price) / 1e6
    if workload.api_price is not None:
        return workload.tokens_per_sequence * workload.api_price / 1e6
    return None


def cost(kb: KnowledgeBase, workload: Workload, accelerator: str, tokens_per_s: float) -> CostAtLoad:
    """The cost of `workload` on `accelerator` producing `tokens_per_s` output tokens/s (latency-bounded)."""
    u = workload.utilisation
    hourly, tdp, release = rent(kb, workload, accelerator), _best(kb, "tdp_w", accelerator), None
    release = _best(kb, "release_price_usd", accelerator)
    rent_m = per_million(hourly.value, tokens_per_s, u) if hourly else None
    power_hour = tdp.value / 1000 * workload.power_price if tdp and workload.power_price is not None else None
    power_m = per_million(power_hour, tokens_per_s, u) if power_hour is not None else None
    owned_m = None
    if release is not None:
        owned_hour = release.value / (workload.years * HOURS_PER_YEAR) + (power_hour or 0.0)
        owned_m = per_million(owned_hour, tokens_per_s, u)
    request = rent_m * workload.output / 1e6 if rent_m is not None else None
    per_m_tokens = request / workload.tokens_per_sequence * 1e6 if request is not None else None
    api = api_per_request(workload)
    even = request * u / api if request is not None and api else None
    return CostAtLoad(tokens_per_s, u, hourly, tdp, release, rent_m, power_m, owned_m, request, per_m_tokens, api, even)

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
from selector.knowledge.models import TIERS, KnowledgeBase

PRICE_METRIC = "cloud_usd_per_gpu_hour"
# the bundled price basis the cost criteria use (every price of it dated alike; README "Price is a cost")
PRICE_VERSION = "AccelMark cloud prices 2026-04"
HOURS_PER_YEAR = 8760
_TIER = {tier: rank for rank, tier in enumerate(TIERS)}


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
        return Input(workload.price, (), f"USD {workload.price:g} per accelerator-hour (your workload's price)")
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
    basis = "your own price (My data)" if own else f"{PRICE_VERSION}, {claims[0].conditions.scope or 'on demand'}"
    return Input(value, ids, f"USD {value:g} per accelerator-hour ({basis}; {', '.join(ids)})", claims[0].tier)


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
        at = f"at {self.utilisation:.0%} utilisation and {self.tokens_per_s:,.0f} output tokens/s"
        out = []
        if self.rent_per_million_output is not None:
            out.append(
                f"rent: USD {self.rent_per_million_output:,.3g} per million output tokens, USD "
                f"{self.per_million_tokens:,.3g} per million tokens of input and output ({self.rent.said}, {at})"
            )
        else:
            out.append("rent: no price per accelerator-hour known (give `price=` or your own price in My data)")
        if self.power_per_million_output is not None:
            out.append(
                f"power: USD {self.power_per_million_output:,.3g} per million output tokens (TDP "
                f"{self.tdp_w.said} W at USD {workload.power_price:g} per kWh, every paid hour at TDP)"
            )
        if self.owned_per_million_output is not None:
            power = " plus power" if self.power_per_million_output is not None else " (no electricity price stated)"
            out.append(
                f"owned: USD {self.owned_per_million_output:,.3g} per million output tokens (release price USD "
                f"{self.release_usd.said} over {workload.years:g} years{power})"
            )
        if self.api_per_request is not None and self.per_request is not None:
            out.append(self._break_even_text())
        return out

    def _break_even_text(self) -> str:
        api = f"API: USD {self.api_per_request:.4g} per request, rent USD {self.per_request:.4g}"
        if self.break_even_utilisation is None or self.break_even_utilisation > 1:
            return f"{api}: renting costs more than the API even at 100 % utilisation"
        return f"{api}: renting is cheaper than the API above {self.break_even_utilisation:.0%} utilisation"


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

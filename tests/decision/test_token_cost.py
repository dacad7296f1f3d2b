"""selector.decision.token_cost: cost per million tokens at a utilisation (half the load costs twice as much per token),
the user's price first, power and ownership views, and the API break-even."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.decision import token_cost, workload
from selector.knowledge import loading as knowledge


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@given(
    price=st.floats(0.01, 100),
    rate=st.floats(1, 50_000),
    utilisation=st.floats(0.01, 1),
)
def test_cost_is_inversely_proportional_to_utilisation(price: float, rate: float, utilisation: float) -> None:
    full = token_cost.per_million(price, rate, 1.0)
    assert token_cost.per_million(price, rate, 0.5) == pytest.approx(2 * full)
    assert token_cost.per_million(price, rate, utilisation) == pytest.approx(full / utilisation)
    # USD 2.50 per hour at 1,000 tokens/s for every hour: 3.6 million tokens an hour -> USD 0.694 per million
    assert token_cost.per_million(2.5, 1000, 1.0) == pytest.approx(2.5 / 3.6)


def test_fifty_percent_costs_twice_a_hundred_on_every_view(kb) -> None:
    base = "model=llama-3.1-70b,power-price=0.12,price=3,api-price=0.6"
    half = token_cost.cost(kb, workload.parse(base + ",utilisation=0.5"), "h100", 2000.0)
    full = token_cost.cost(kb, workload.parse(base + ",utilisation=1"), "h100", 2000.0)
    for field in ("rent_per_million_output", "power_per_million_output", "per_request", "per_million_tokens"):
        assert getattr(half, field) == pytest.approx(2 * getattr(full, field)), field
    # the break-even utilisation does not depend on the utilisation stated
    assert half.break_even_utilisation == pytest.approx(full.break_even_utilisation)


def test_your_price_comes_first_and_every_input_is_named(kb) -> None:
    mine = token_cost.cost(kb, workload.parse("model=llama-3.1-8b,price=1.5"), "h100", 3600.0)
    assert mine.rent.value == 1.5 and "your workload's price" in mine.rent.said
    # USD 1.5 / (3,600 tokens/s x 0.5 x 3,600 s) x 10^6 = USD 0.2315 per million output tokens
    assert mine.rent_per_million_output == pytest.approx(1.5 / (3600 * 0.5 * 3600) * 1e6)
    bundled = token_cost.cost(kb, workload.parse("model=llama-3.1-8b"), "h100", 3600.0)
    assert bundled.rent.evidence == ("accelmark-price-h100",) and "2026-04" in bundled.rent.said
    assert token_cost.cost(kb, workload.parse("model=llama-3.1-8b"), "b200", 3600.0).rent is None


def test_power_and_owned_views_from_tdp_and_release_price(kb) -> None:
    w = workload.parse("model=llama-3.1-8b,power-price=0.1,utilisation=1,years=4")
    found = token_cost.cost(kb, w, "h100", 1000.0)
    tdp = found.tdp_w.value  # H100 SXM: 700 W (Epoch AI)
    assert found.power_per_million_output == pytest.approx(tdp / 1000 * 0.1 / 3600 * 1e6 / 1000)
    if found.release_usd is not None:
        hourly = found.release_usd.value / (4 * 8760) + tdp / 1000 * 0.1
        assert found.owned_per_million_output == pytest.approx(hourly / 3600 * 1e6 / 1000)


def test_api_break_even_is_shown(kb) -> None:
    # rent per request at 50 %: 8.0 / (1,000 x 0.5 x 3,600) x 10^6 x 1,000 / 10^6 = USD 0.004444; at the API a request
    # of 1,000 + 1,000 tokens costs 2,000 x 3 / 10^6 = USD 0.006: break-even at 0.004444 x 0.5 / 0.006 = 37 %
    w = workload.parse("model=llama-3.1-8b,context=1000,output=1000,price=8,api-price=3")
    found = token_cost.cost(kb, w, "h100", 1000.0)
    assert found.api_per_request == pytest.approx(0.006)
    assert found.break_even_utilisation == pytest.approx((8 / 3.6 / 1000) / 0.006)  # cost at 100 % / API
    assert any("cheaper than the API above 37% utilisation" in line for line in found.lines(w))
    dear = workload.parse(
        "model=llama-3.1-8b,context=1000,output=1000,price=8,api-input-price=0.1,api-output-price=0.2"
    )
    assert any(
        "more than the API even at 100 %" in line for line in token_cost.cost(kb, dear, "h100", 1000.0).lines(dear)
    )

"""selector.report.points: the pros and cons of each option (best, worst, in between, same for all, no evidence,
flagged, what the trees say) and the consequences of the decision."""

from __future__ import annotations

import pytest

from selector.report.model import CellInfo, CriterionInfo, MethodRanking, OptionRow, Point, RobustnessInfo, RuleInfo
from selector.report.points import consequences, pros_cons

SPEED = CriterionInfo("speed", "speed", "perf", "max", "img/s", 1.0, 0.5)
PRICE = CriterionInfo("price", "price", "cost", "min", "USD", 1.0, 0.5)


def option(oid: str, rank: int, speed: CellInfo, price: CellInfo) -> OptionRow:
    return OptionRow(oid, oid.upper(), rank, 1.0 / rank, True, (speed, price))


def cell(value: float, *evidence: str, **flags: object) -> CellInfo:
    return CellInfo(value, evidence, **flags)


OPTIONS = (
    option("a", 1, cell(300, "c-a-speed"), cell(10, "c-a-price")),  # fastest and cheapest
    option("b", 2, cell(200, "c-b-speed"), cell(20, "c-b-price", flagged=True)),
    option("c", 3, cell(100, "c-c-speed"), cell(30, imputed=True, note="no evidence; the column's median")),
)


def texts(points) -> list[tuple[str, str]]:
    return [(p.verdict, p.text) for p in points]


def test_best_and_worst_follow_each_criterions_objective():
    a, b, c = pros_cons(OPTIONS, (SPEED, PRICE), ())
    assert a.option == "A"
    assert texts(a.points) == [
        ("good", "it has the best speed of the options (300 img/s)"),
        ("good", "it has the best price of the options (10 USD)"),
    ]
    assert texts(c.points)[0] == ("bad", "it has the worst speed of the options (100 img/s)")
    assert b.points[0] == Point("neutral", "its speed lies between the best and the worst (200 img/s)", ("c-b-speed",))


def test_a_flagged_value_is_a_con_citing_its_claims():
    b = pros_cons(OPTIONS, (SPEED, PRICE), ())[1]
    assert Point("bad", "its price value rests on a flagged claim", ("c-b-price",)) in b.points


def test_a_missing_value_is_a_con_saying_how_it_was_filled_in_and_nothing_else():
    c = pros_cons(OPTIONS, (SPEED, PRICE), ())[2]
    price_points = [p for p in c.points if "price" in p.text]
    assert price_points == [Point("bad", "there is no evidence for its price; the column's median (30 USD)")]


def test_a_missing_value_without_a_note_says_imputed():
    options = (option("a", 1, cell(1, "x"), cell(5, imputed=True)), option("b", 2, cell(2, "y"), cell(6, "z")))
    first = pros_cons(options, (SPEED, PRICE), ())[0]
    assert Point("bad", "there is no evidence for its price; imputed (5 USD)") in first.points


def test_a_criterion_on_which_all_options_agree_is_neutral():
    options = (option("a", 1, cell(5, "x"), cell(1, "p")), option("b", 2, cell(5 * (1 + 1e-14), "y"), cell(2, "q")))
    a, b = pros_cons(options, (SPEED, PRICE), ())
    assert Point("neutral", "every option has the same speed (5 img/s)", ("x",)) in a.points
    assert Point("neutral", "every option has the same speed (5 img/s)", ("y",)) in b.points  # a rounding apart


def test_the_trees_recommendation_and_exclusion_are_points_citing_the_rules_claims():
    rules = (
        RuleInfo("r1", "t", "", ("A",), ("C",), "fits the edge", ("c-rule",), recommend_ids=("a",), exclude_ids=("c",)),
    )
    a, _, c = pros_cons(OPTIONS, (SPEED, PRICE), rules)
    assert a.points[0] == Point("good", "the decision trees recommend it: fits the edge", ("c-rule",))
    assert Point("bad", "the decision trees exclude it: fits the edge", ("c-rule",)) in c.points


def test_points_are_ordered_good_neutral_bad():
    order = {"good": 0, "neutral": 1, "bad": 2}
    for pc in pros_cons(OPTIONS, (SPEED, PRICE), ()):
        ranks = [order[p.verdict] for p in pc.points]
        assert ranks == sorted(ranks)
    b = pros_cons(OPTIONS, (SPEED, PRICE), ())[1]
    assert [p.verdict for p in b.points] == ["neutral", "neutral", "bad"]


# ----------------------------------------------------------------------------------------------------------
# Consequences


def ranking(method: str, leader: str) -> MethodRanking:
    return MethodRanking(method, method.upper(), "vector", (1, 2, 3), leader, 1.0)


def test_the_leader_chosen_with_a_strong_first_share_is_good_news():
    robust = RobustnessInfo(samples=1000, seed=1, first_share=(0.8, 0.15, 0.05), methods=(ranking("wsm", "A"),))
    points = consequences(OPTIONS, "a", (SPEED, PRICE), robust, "TOPSIS", "vector")
    assert texts(points) == [
        ("good", "A has the best score under TOPSIS, vector scaling."),
        (
            "good",
            "A is first in 80% of 1,000 weightings anywhere on the weight simplex: robust (SMAA rank acceptability; "
            "robust at 75% or more of first places, fragile from 50%, not robust below 50%).",
        ),
        ("good", "all 1 MCDA methods compared agree on the leader."),
    ]


@pytest.mark.parametrize(
    ("share", "verdict", "level"),
    [(0.75, "good", "robust"), (0.74, "neutral", "fragile"), (0.5, "neutral", "fragile"), (0.49, "bad", "not robust")],
)
def test_the_first_share_sets_the_verdict_at_three_quarters_and_a_half(share, verdict, level):
    robust = RobustnessInfo(samples=10, seed=1, first_share=(share, 1 - share, 0.0))
    second = consequences(OPTIONS, "a", (SPEED, PRICE), robust, "TOPSIS", "none")[1]
    assert second.verdict == verdict
    assert f"in {share:.0%} of 10 weightings anywhere on the weight simplex: {level} (" in second.text


def test_a_shortlisted_option_below_the_leader_is_explained_with_its_gaps_and_flags():
    robust = RobustnessInfo(
        samples=100,
        seed=1,
        first_share=(0.6, 0.3, 0.1),
        tipping_points=("Raising price to 60% makes B lead.", "two", "three", "four"),
        methods=(ranking("wsm", "A"), ranking("vikor", "B")),
    )
    points = consequences(OPTIONS, "c", (SPEED, PRICE), robust, "TOPSIS", "sum")
    assert texts(points) == [
        (
            "neutral",
            "C is the best-ranked option the decision trees shortlist; A scores higher (rank 1 vs 3) but was not "
            "recommended for this scenario.",
        ),
        (
            "bad",
            "C is first in 10% of 100 weightings anywhere on the weight simplex: not robust (SMAA rank acceptability; "
            "robust at 75% or more of first places, fragile from 50%, not robust below 50%).",
        ),
        ("bad", "there is no evidence for C on price; measure it before committing."),
        ("neutral", "Raising price to 60% makes B lead."),
        ("neutral", "two."),
        ("neutral", "three."),  # at most three tipping points
        ("bad", "other MCDA methods crown another leader: VIKOR picks B."),
    ]


def test_flagged_evidence_of_the_choice_is_named():
    points = consequences(OPTIONS, "b", (SPEED, PRICE), RobustnessInfo(samples=0, seed=0), "WSM", "sum")
    assert Point("bad", "part of B's evidence is flagged as doubtful; check it.", ("c-b-price",)) in points
    assert not any("SMAA" in p.text or "MCDA" in p.text for p in points)  # robustness not run: nothing claimed

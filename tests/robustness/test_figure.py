"""selector/robustness/figure.py: one sample count, one pair of thresholds and one wording, and every surface (the
Recommend badge, the Robustness page's analysis, the report and the command line) showing the same figure."""

from __future__ import annotations

import inspect
import math

import pytest

from selector import verdict
from selector.__main__ import build_parser, discover, main
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build
from selector.report.model import RobustnessInfo
from selector.report.points import consequences
from selector.robustness import analysis, figure, smaa
from selector.views.recommend import BADGE_HELP, badge_help, ranking_markdown

GROUP = "training-frameworks"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def rec(kb):
    return recommend.recommend(kb, Preferences(group=GROUP))


def _cli_default(command: str) -> int:
    parser = build_parser(discover())
    return parser.parse_args([command, "--group", "g", *(["-o", "-"] if command == "report" else [])]).samples


def test_every_default_sample_count_is_the_figures():
    assert verdict.SAMPLES == figure.SAMPLES
    assert verdict.SEED == figure.SEED
    assert verdict.LOCAL_SPREAD == figure.SPREAD
    assert analysis.DEFAULT_SAMPLES == figure.SAMPLES
    assert inspect.signature(smaa.smaa).parameters["n_samples"].default == figure.SAMPLES
    assert inspect.signature(build.build_report).parameters["samples"].default == figure.SAMPLES
    assert _cli_default("report") == figure.SAMPLES
    assert _cli_default("sensitivity") == figure.SAMPLES


@pytest.mark.parametrize(
    ("share", "expected"),
    [
        (1.0, "robust"),
        (0.75, "robust"),
        (0.7499, "fragile"),
        (0.5, "fragile"),
        (0.4999, "not robust"),
        (0.0, "not robust"),
    ],
)
def test_level_has_one_pair_of_thresholds(share, expected):
    assert figure.level(share) == expected
    assert figure.level(share, rests_on_flags=True) == "not robust"


def test_a_share_that_was_not_sampled_is_not_robust():
    assert figure.level(math.nan) == "not robust"


def test_the_levels_in_words_name_both_thresholds_in_each_language():
    english = "robust at 75% or more of first places, fragile from 50%, not robust below 50%"
    assert figure.levels() == figure.levels(lang="en") == english
    assert f"Levels (the badge's colour): {english}." in BADGE_HELP
    chinese = figure.levels(lang="zh")
    assert chinese != english and "75%" in chinese and "50%" in chinese
    assert badge_help(lang="zh").endswith(f"{chinese}。")  # the badge's help says the levels in Chinese too


def test_wording_names_the_count_and_the_region():
    assert figure.first_in(0.564, 2000, 0.1) == "first in 56% of 2,000 weightings within ±10 points of yours"
    assert figure.first_in(0.6, 300, None) == "first in 60% of 300 weightings anywhere on the weight simplex"
    assert figure.badge("X", 0.564, 2000, 0.6).endswith("yours · 60% anywhere on the weight simplex")


@pytest.mark.parametrize("share", [0.9, 0.75, 0.74, 0.5, 0.49, 0.1])
def test_the_badge_colour_and_the_report_tone_agree_with_the_verdict(rec, share):
    judged = verdict.judge(rec, local_share=share, global_share=None, compute=False)
    colour = next(c for c in ("green", "orange", "red") if f":{c}-background[" in ranking_markdown(rec, judged, "WSM"))
    options = build._options(rec)
    index = next(i for i, o in enumerate(options) if o.id == rec.recommended)
    shares = tuple(share if i == index else 0.0 for i in range(len(options)))
    robust = RobustnessInfo(samples=figure.SAMPLES, seed=figure.SEED, first_share=shares)
    criteria = build._criteria(rec.kb, rec)
    points = consequences(options, rec.recommended, criteria, robust, "WSM", "none")
    point = next(p for p in points if "weightings" in p.text)
    level = figure.level(share)
    assert (colour, point.verdict) == (figure.COLOURS[level], figure.TONES[level])
    # the verdict calls a lead too close to call exactly where the badge turns red
    if rec.recommended == rec.leader.id and not judged.is_tie:
        assert bool(judged.close) == (level == "not robust") or "score gap" in judged.close_reason


def test_badge_page_report_and_commands_show_one_figure(kb, rec, capsys):
    judged = verdict.judge(rec)
    local, whole = judged.local_share, judged.global_share
    name = judged.recommended_name
    # the Recommend badge (and `rank`'s Robustness line): both shares with the sample count
    assert judged.badge.startswith(figure.badge(name, local, figure.SAMPLES, whole))
    assert f"{figure.SAMPLES:,} weightings" in ranking_markdown(rec, judged, "WSM")
    assert main(["rank", "--group", GROUP]) == 0
    assert f"Robustness: {judged.badge}" in capsys.readouterr().out
    # the Robustness page's default analysis (whole simplex, the page's count and seed) is the badge's second figure
    page = analysis.analyse(rec, samples=figure.SAMPLES, seed=figure.SEED)
    assert page.smaa.n_samples == figure.SAMPLES
    assert page.smaa.first_rank_acceptability[list(page.smaa.alternatives).index(name)] == whole
    # the report: the same count, the same share, the same words, the same badge
    report = build.build_report(kb, Preferences(group=GROUP))
    index = next(i for i, o in enumerate(report.options) if o.id == rec.recommended)
    assert report.robustness.samples == figure.SAMPLES
    assert report.robustness.first_share[index] == whole
    assert report.verdict_badge == judged.badge
    assert any(figure.first_in(whole, figure.SAMPLES, None) in p.text for p in report.consequences)
    # `sensitivity` states the leader's share in the same words
    assert main(["sensitivity", "--group", GROUP]) == 0
    out = capsys.readouterr().out
    if rec.leader.id == rec.recommended:
        assert f"Leader {name}: {figure.first_in(whole, figure.SAMPLES, None)}." in out

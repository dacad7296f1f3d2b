"""selector/robustness/sample_counts.py: every user of a default sample count reads it from there."""

from __future__ import annotations

import inspect

from selector import verdict
from selector.__main__ import build_parser, discover
from selector.report import build
from selector.robustness import analysis, smaa
from selector.robustness.sample_counts import FULL_SAMPLES, QUICK_SAMPLES


def _cli_default(command: str) -> int:
    parser = build_parser(discover())
    return parser.parse_args([command, "--group", "g", *(["-o", "-"] if command == "report" else [])]).samples


def test_the_verdict_the_report_and_its_command_draw_the_quick_count():
    assert verdict.SAMPLES == QUICK_SAMPLES
    assert inspect.signature(build.build_report).parameters["samples"].default == QUICK_SAMPLES
    assert _cli_default("report") == QUICK_SAMPLES


def test_the_robustness_page_and_the_sensitivity_command_draw_the_full_count():
    assert analysis.DEFAULT_SAMPLES == FULL_SAMPLES
    assert inspect.signature(smaa.smaa).parameters["n_samples"].default == FULL_SAMPLES
    assert _cli_default("sensitivity") == FULL_SAMPLES
    assert QUICK_SAMPLES < FULL_SAMPLES

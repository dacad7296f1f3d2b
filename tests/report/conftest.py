"""Shared fixtures of the report tests: the knowledge, a ranking's preferences, its report and renderings."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build, render
from selector.report.model import Report

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
HOSTILE = "<img src=x onerror=alert(1)> | *bold* _it_ [link](javascript:alert(1)) `tick` & #1"
# MADR 4's headings of the decision document, with the risks and how to re-check (issue 34, point 7), in order.
ADR_HEADINGS = [
    "Context and Problem Statement",
    "Decision Drivers",
    "Considered Options",
    "Decision Outcome",
    "Consequences",
    "Risks",
    "Confirmation: How to Re-check",
    "More Information",
]
# The front matter every format states (MADR 4: status, date, decision-makers, consulted, informed) and review-by.
FRONT_MATTER = ["Status", "Date", "Review by", "Deciders", "Consulted", "Informed"]


@pytest.fixture(scope="package")
def kb():
    return knowledge.load()


@pytest.fixture(scope="package")
def prefs() -> Preferences:
    return Preferences(
        group="gpu-inference-runtimes",
        answers={"goal": "industrial"},
        dimension_weights={"performance": 40, "cost": 25, "ecosystem": 20, "risk": 15},
    )


@pytest.fixture(scope="package")
def built(kb, prefs) -> Report:
    return build.build_report(kb, prefs, samples=500, seed=1, now=NOW)


@pytest.fixture(scope="package")
def hostile(built) -> Report:
    """The built report with the first option renamed to markup: the schema refuses such a name, the renderer must
    still show it as text (a report model can come from elsewhere, e.g. a future upload path)."""
    first = dataclasses.replace(built.options[0], name=HOSTILE)
    pros = (dataclasses.replace(built.pros_cons[0], option=HOSTILE), *built.pros_cons[1:])
    return dataclasses.replace(
        built,
        options=(first, *built.options[1:]),
        pros_cons=pros,
        recommended=HOSTILE,
        leader=HOSTILE,
        title=HOSTILE,
        why=HOSTILE,
    )


@pytest.fixture(scope="package")
def markdown(built) -> str:
    return render.render_markdown(built)


@pytest.fixture(scope="package")
def html_page(built) -> str:
    return render.render_html(built)

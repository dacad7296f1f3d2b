"""Tests of selector/errors.py: every refusal the selector raises is a SelectorError, so one except clause catches
them all, and each keeps the built-in class it had (code catching ValueError or RuntimeError still does)."""

from __future__ import annotations

import pytest

from selector import profile
from selector.commands import _context
from selector.commands.score import InputError
from selector.decision import constraints, preferences, problem, weights
from selector.errors import SelectorError
from selector.io import limits
from selector.issues import Issue
from selector.knowledge import loading as knowledge
from selector.knowledge import locators
from selector.knowledge.importers import ImportFailure
from selector.measure.common import MeasureError
from selector.report.model import ReportError

ISSUE = Issue("ERROR", "f.yaml", 2, "r", "fix it")


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (problem.ScoringError("x"), ValueError),
        (weights.WeightError("x"), ValueError),
        (preferences.PreferenceError("x"), ValueError),
        (constraints.ConstraintError("x"), ValueError),
        (profile.ProfileError([ISSUE]), ValueError),
        (locators.RawError("x"), ValueError),
        (ImportFailure("x"), ValueError),
        (ReportError("x"), RuntimeError),
        (limits.Busy("x"), RuntimeError),
        (knowledge.KnowledgeError([ISSUE]), Exception),
        (MeasureError([ISSUE]), Exception),
        (InputError("x"), Exception),
        (_context.Refused("x"), Exception),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else value.__name__,
)
def test_every_refusal_is_a_selector_error_and_keeps_its_builtin_class(error: Exception, builtin: type) -> None:
    assert isinstance(error, SelectorError)
    assert isinstance(error, builtin)
    with pytest.raises(SelectorError):
        raise error


def test_refusals_with_located_problems_carry_them_and_others_carry_none() -> None:
    assert profile.ProfileError([ISSUE]).issues == (ISSUE,)
    assert knowledge.KnowledgeError([ISSUE]).issues == (ISSUE,)
    assert MeasureError([ISSUE]).issues == (ISSUE,)
    assert problem.ScoringError("x").issues == ()


def test_a_models_refusals_keep_the_selectors_phrases_and_pydantics_words():
    # issue 36: a refusal raised inside a validator is said in the reader's language; pydantic's own stay English
    from pydantic import ValidationError

    from selector.decision.preferences import Preferences
    from selector.errors import message_of, validation_refusals
    from selector.i18n import Phrase, stored

    with pytest.raises(ValidationError) as refused:
        Preferences(group="g", constraints=("power-w<<3",), missing="guess")
    said = validation_refusals(refused.value)
    assert isinstance(said, Phrase) and message_of(refused.value) == said
    assert said.startswith("Input should be 'impute-worst'")  # pydantic's, in the order pydantic reports them
    assert said.endswith(
        "; constraint `power-w<<3` is not of the form CRITERION<=NUMBER (operators: <=, >=, <, >, =), e.g. power-w<=10"
    )
    chinese = stored(said, "zh")
    assert chinese.startswith("Input should be 'impute-worst'") and "约束 `power-w<<3` 不符合" in chinese
    assert message_of(ValueError("plain")) == "plain"

"""The one base of every refusal the selector raises: the pages and the command line catch :class:`SelectorError`.

Each concern keeps its own subclass (``ScoringError``, ``PreferenceError``, ``ProfileError``, ...), whose message
says what is wrong, where and what to fix; a subclass that was a ``ValueError`` or ``RuntimeError`` stays one too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from selector.i18n import joined
from selector.issues import Issue

if TYPE_CHECKING:  # pydantic is loaded only by those that validate
    from pydantic import ValidationError


class SelectorError(Exception):
    """Input or a request the selector refuses, with a message that says what to fix.

    Attributes
    ----------
    issues
        Every located problem (file, line, record) when the refusal has them, as a profile's or a file's has;
        empty otherwise.
    """

    issues: tuple[Issue, ...] = ()

    @property
    def message(self) -> str:
        """What the refusal says: the :class:`selector.i18n.Phrase` it was raised with (which a report can say in
        its reader's language), else its text."""
        first = self.args[0] if len(self.args) == 1 else None
        return first if isinstance(first, str) else str(self)


def validation_refusals(exc: ValidationError) -> str:
    """A model's validation errors as one message (``"a; b"``): each refusal of the selector's own raised inside a
    validator keeps its phrase, so a page says it in its reader's language; pydantic's own stay English."""
    return joined(
        [
            e["ctx"]["error"].message
            if isinstance(e.get("ctx", {}).get("error"), SelectorError)
            else e["msg"].removeprefix("Value error, ")
            for e in exc.errors()
        ]
    )


def message_of(exc: Exception) -> str:
    """What any refusal says, keeping a phrase where there is one: a :class:`SelectorError`'s message, a model's
    validation errors (:func:`validation_refusals`), else the exception's text."""
    if isinstance(exc, SelectorError):
        return exc.message
    if callable(getattr(exc, "errors", None)) and type(exc).__name__ == "ValidationError":
        return validation_refusals(exc)  # type: ignore[arg-type]
    return str(exc)

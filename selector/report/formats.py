"""How the report writes numbers and settings: the words both the model's builder and the templates use."""

from __future__ import annotations

import math

from selector import display, i18n


def scaling(scaler: str, *, lang: i18n.Language = "en") -> str:
    """``"sum scaling"``, ``"no scaling"`` for the scaler ``none``, ``"fixed value scales"`` for ``value``, in
    `lang`."""
    _ = i18n.translator(lang)
    if scaler == "value":
        return _("fixed value scales")
    return _("no scaling") if scaler == "none" else _("{scaler} scaling").format(scaler=scaler)


def number(value: float) -> str:
    """A number for people (:func:`selector.display.number`): ``12,934``, ``2.5``; ``-`` when unknown."""
    return display.number(value)


def amount(value: float, unit: str) -> str:
    """``3,200 img/s``, but ``4 (rating 1-5)`` for units that are descriptions rather than symbols."""
    return display.quantity(value, unit)


def percent(value: float | None, digits: int = 0) -> str:
    """A share (0-1) as a percentage with `digits` decimals; ``-`` when unknown."""
    return display.percent(value, digits)


def score(value: float) -> str:
    """A score with three decimals; ``-`` when not finite."""
    return f"{value:.3f}" if math.isfinite(value) else "-"


def tau(value: float | None) -> str:
    """Kendall's tau with two decimals; ``-`` when undefined."""
    return "-" if value is None or not math.isfinite(value) else f"{value:.2f}"

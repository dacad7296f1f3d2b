"""The metric vocabulary of ``knowledge/metrics.yaml``: a metric id's label, which way is better, which values it takes.

The loader checks every claim and criterion of the bundled knowledge against it; the app's labels and chart
directions and the upload policy's range checks read it through these functions.
"""

from __future__ import annotations

from collections.abc import Mapping

from selector.knowledge.models import KnowledgeBase, Metric


def find(metrics: Mapping[str, Metric], metric_id: str) -> Metric | None:
    """The vocabulary's entry for `metric_id`: its own, else the family whose prefix it starts with, else None."""
    found = metrics.get(metric_id)
    if found is not None:
        return found
    families = [m for m in metrics.values() if m.family and metric_id.startswith(m.id)]
    return max(families, key=lambda m: len(m.id), default=None)


def label(kb: KnowledgeBase, metric_id: str) -> str:
    """A readable name for a metric id: its label, else the name of a criterion on it, else the id spaced."""
    found = find(kb.metrics, metric_id)
    if found is not None and found.label_en:
        return found.label_en
    for criterion in kb.criteria.values():
        if criterion.metric == metric_id and not criterion.conditions.key():
            return criterion.name_en
    return metric_id.replace("_", " ")


def lower_is_better(kb: KnowledgeBase, metric_id: str) -> bool:
    """Whether a smaller number of this metric is the better one (chart axis titles and sort order)."""
    found = find(kb.metrics, metric_id)
    return found is not None and found.better == "lower"


def bound_problem(metrics: Mapping[str, Metric], metric_id: str, value: float, shown: str) -> str | None:
    """Why `value` cannot be a value of `metric_id` (a negative or zero magnitude, a share over 100, a value above
    the metric's physical ceiling), or None.

    `shown` is the value as the message quotes it. Compared as stored, never rounded: 1e-300 W is not zero.
    """
    found = find(metrics, metric_id)
    if found is None:
        return None
    unit = f" {found.units[0]}" if found.units else ""
    if found.max is not None and value > found.max:
        return (
            f"`{metric_id}` of {shown}{unit} is above {found.max:g}{unit}, more than any device or run reaches "
            "(knowledge/metrics.yaml); check the number and its unit"
        )
    if found.bounds == "any":
        return None
    if value < 0:
        return f"`{metric_id}` cannot be negative (got {shown}); give the measured magnitude"
    if found.bounds == "positive" and value == 0:
        return f"`{metric_id}` cannot be zero (got {shown}); a zero here is a missing or mis-converted value"
    if found.bounds == "share" and value > 100:
        return f"`{metric_id}` is a share of a whole: 0 to 100 (got {shown})"
    return None

"""Count the calls that check preferences, resolve their weights, normalise weights and build a matrix, for the
tests that hold the hot path to checking once (a slider move, one ``rank``)."""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Iterator

import pytest

from selector.decision import matrix, preferences, weights

#: label -> (module, function name): the one home of each step a ranking takes once
COUNTED = {
    "check": (preferences, "_check"),
    "dimension weights": (preferences, "_dimension_weights"),
    "criterion weights": (preferences, "_criterion_weights"),
    "normalise": (weights, "normalise"),
    "matrix": (matrix, "_build"),
}


@contextlib.contextmanager
def counted_calls() -> Iterator[collections.Counter]:
    """Within the block, every call of a :data:`COUNTED` function adds one to its label in the counter yielded."""
    calls: collections.Counter = collections.Counter()
    with pytest.MonkeyPatch.context() as patch:
        for label, (module, name) in COUNTED.items():
            original = getattr(module, name)

            def spy(*args, _label=label, _original=original, **kwargs):  # noqa: ANN002, ANN003, ANN202
                calls[_label] += 1
                return _original(*args, **kwargs)

            patch.setattr(module, name, spy)
        yield calls


#: One ranking of preferences not seen before: one check (which resolves the four dimension weights and the
#: sub-weights, and tests the dimension weights for all zero), one matrix, and one normalisation per weight vector
#: (the dimension shares in ``Hierarchy.of``, the column weights in ``matrix.build``; the problem takes them as
#: they are).
ONCE = {"check": 1, "dimension weights": 1, "criterion weights": 1, "matrix": 1, "normalise": 2}

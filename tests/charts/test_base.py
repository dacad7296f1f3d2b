"""What every figure shares: ranks written as ordinals."""

from __future__ import annotations

import pytest

from selector.charts.base import ordinal


@pytest.mark.parametrize(
    ("rank", "label"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
    ],
)
def test_ordinal_labels_ranks_as_written_in_english(rank, label):
    assert ordinal(rank) == label

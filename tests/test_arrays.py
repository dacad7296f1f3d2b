"""selector/arrays.py: a read-only array is a copy (the caller's stays writable) unless told to take the array."""

from __future__ import annotations

import numpy as np
import pytest

from selector.arrays import read_only


def test_a_copy_is_read_only_and_the_callers_array_stays_writable_and_apart():
    mine = np.array([1.0, 2.0])
    kept = read_only(mine)
    with pytest.raises(ValueError, match="read-only"):
        kept[0] = 5.0
    mine[0] = 7.0
    assert kept.tolist() == [1.0, 2.0] and mine.flags.writeable


def test_the_type_is_the_inputs_unless_one_is_given():
    assert read_only([1, 2]).dtype == np.array([1, 2]).dtype
    assert read_only([1, 2], float).dtype == np.float64
    assert read_only([1.9, -2.9], np.int64).tolist() == [1, -2]


def test_without_a_copy_the_array_itself_is_made_read_only():
    built = np.arange(3)
    assert read_only(built, copy=False) is built and not built.flags.writeable

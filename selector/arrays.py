"""Read-only arrays: results are frozen dataclasses, and the arrays they hold must not be writable either."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike


def read_only(a: ArrayLike, dtype: DTypeLike | None = None, *, copy: bool = True) -> np.ndarray:
    """A read-only array of ``a``.

    Parameters
    ----------
    a
        The values (an array or anything numpy reads as one).
    dtype
        The element type of the result (``a``'s own when None).
    copy
        True: a new array, so the caller's stays writable and can never change the result. False: ``a`` itself made
        read-only when it already is an array of that type, for an array built for the result alone.
    """
    result = np.array(a, dtype=dtype, copy=True) if copy else np.asarray(a, dtype=dtype)
    result.setflags(write=False)
    return result

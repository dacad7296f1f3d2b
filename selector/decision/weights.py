"""Criterion weights from dimension shares and the sub-weights inside each dimension.

A ranking's weights are hierarchical: the dimension weights (performance, cost, ecosystem, risk) are shared out
to the criteria of each dimension in proportion to their sub-weights. :class:`Hierarchy` does this once, when
the decision matrix is built, and every later step reads it: the ranking's criterion weights, the weightings
SMAA samples (a batch of dimension shares) and the weights along a tipping-point or sweep line.

A dimension that has no criterion left in a group cannot carry weight: its share goes to the others in
proportion, and :attr:`Hierarchy.emptied` says so.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector.arrays import read_only
from selector.errors import SelectorError
from selector.i18n import N_, Phrase


class WeightError(SelectorError, ValueError):
    """Weights that cannot be shared out; the message says which and what to fix."""


def normalise(weights: Any, names: Sequence[str] | None = None) -> np.ndarray:
    """Check one weight vector and scale it to sum 1.

    Any non-negative finite weights are accepted (they need not sum to 1 or 100). They are divided by the
    largest before they are summed, so weights of 1e308 cannot overflow their sum.

    Parameters
    ----------
    weights : sequence of float
        One weight per criterion (or dimension).
    names : sequence of str, optional
        What each weight belongs to, used in error messages.

    Returns
    -------
    numpy.ndarray
        Float array summing to 1.

    Raises
    ------
    WeightError
        A weight that is not a number, NaN, infinite or negative (the message names it), or all weights zero.
    """
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError) as exc:
        raise WeightError(f"weights must be numbers; got {weights!r}") from exc
    if w.ndim != 1 or w.size == 0:
        raise WeightError(f"weights must be a flat, non-empty list of numbers; got shape {w.shape}")

    def _name(j: int) -> str:
        if names is not None and j < len(names):
            return Phrase(N_("weight {number} ({name})"), number=str(j + 1), name=repr(names[j]))
        return Phrase(N_("weight {number}"), number=str(j + 1))

    for j, value in enumerate(w):
        if not math.isfinite(value):
            raise WeightError(f"{_name(j)} is {value}; give a finite number >= 0")
        if value < 0:
            raise WeightError(
                Phrase(
                    N_("{weight} is negative ({value}); weights must be >= 0 (use 0 to ignore a criterion)"),
                    weight=_name(j),
                    value=f"{value:g}",
                )
            )
    largest = float(w.max())
    if largest <= 0:
        raise WeightError(Phrase(N_("all weights are zero; give at least one criterion a positive weight")))
    w = w / largest
    return w / float(w.sum())


def normalise_rows(weights: Any, n: int, names: Sequence[str] | None = None) -> np.ndarray:
    """Check a batch of weight vectors, (k, n) or one (n,), and scale each row to sum 1.

    Parameters
    ----------
    weights : array-like
        Non-negative finite weights, one row per weighting.
    n : int
        Number of criteria.
    names : sequence of str, optional
        Criterion names, used in error messages.

    Returns
    -------
    numpy.ndarray
        Shape (k, n), rows summing to 1.

    Raises
    ------
    WeightError
        A row :func:`normalise` refuses (the message names the row), or the wrong shape.
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2 or w.shape[1] != n or w.shape[0] == 0:
        raise WeightError(f"weights must have shape (n,) or (k, n) with n = {n} criteria; got {np.shape(weights)}")
    largest = w.max(axis=1)
    bad_rows = ~np.isfinite(w).all(axis=1) | (w < 0).any(axis=1) | ~(largest > 0)
    if bad_rows.any():
        k = int(np.argmax(bad_rows))
        try:
            normalise(w[k], names)
        except WeightError as exc:
            raise WeightError(f"weight vector {k}: {exc}") from exc
    w = w / largest[:, None]
    return w / w.sum(axis=1)[:, None]


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """Dimension shares times sub-weight shares: the criterion weights of a ranking and of any other weighting.

    Attributes
    ----------
    dimensions : tuple of str
        The dimensions that hold at least one criterion, in the order their weights were given.
    shares : numpy.ndarray
        (p,) their shares of the total weight, summing to 1.
    column_dimension : numpy.ndarray
        (n,) for each criterion, the index of its dimension in ``dimensions``.
    relative, relative_total : numpy.ndarray
        (n,) each criterion's sub-weight divided by the largest of its dimension, and the sum of those over its
        dimension: its share of the dimension is ``relative / relative_total``.
    emptied : tuple of str
        Dimensions given a positive weight that hold no criterion: their weight was shared out.
    """

    dimensions: tuple[str, ...]
    shares: np.ndarray
    column_dimension: np.ndarray
    relative: np.ndarray
    relative_total: np.ndarray
    emptied: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        dimension_of: Sequence[Any],
        dimension_weights: Mapping[Any, float],
        sub_weights: Sequence[float] | None = None,
        criteria: Sequence[str] | None = None,
    ) -> Hierarchy:
        """Share ``dimension_weights`` out to the criteria.

        Parameters
        ----------
        dimension_of : sequence
            The dimension of each criterion.
        dimension_weights : mapping
            Dimension -> weight (any non-negative scale). Dimensions without a criterion pass their weight on.
        sub_weights : sequence of float, optional
            Relative weight of each criterion inside its dimension (default equal).
        criteria : sequence of str, optional
            Criterion names, used in error messages.

        Raises
        ------
        WeightError
            A criterion whose dimension has no weight, a negative or non-finite weight, every dimension that
            holds a criterion at weight zero, or a dimension whose criteria all have sub-weight zero.
        """
        n = len(dimension_of)
        names = tuple(criteria) if criteria is not None else tuple(f"C{j + 1}" for j in range(n))
        if len(names) != n:
            raise WeightError(f"dimension_of has {n} entries for {len(names)} criteria; give one per criterion")
        of = [str(d) for d in dimension_of]
        given = {str(k): v for k, v in dimension_weights.items()}
        dimensions = _weighted_dimensions(of, given, names)
        shares = _shares(dimensions, [given[d] for d in dimensions])
        sub = np.ones(n) if sub_weights is None else np.asarray(sub_weights, dtype=float)
        if sub.shape != (n,):
            raise WeightError(f"sub_weights has shape {sub.shape}; give one relative weight per criterion ({n})")
        column_dimension, relative, relative_total = _within_dimensions(
            tuple(of), dimensions, tuple(sub.tolist()), names
        )
        emptied = tuple(d for d, w in given.items() if d not in dimensions and w > 0)
        return cls(dimensions, read_only(shares), column_dimension, relative, relative_total, emptied=emptied)

    @property
    def dimension_weights(self) -> dict[str, float]:
        """Dimension -> share (summing to 1), for the dimensions that hold criteria."""
        return {d: float(s) for d, s in zip(self.dimensions, self.shares, strict=True)}

    @property
    def weights(self) -> np.ndarray:
        """The criterion weights at the current shares, summing to 1."""
        return self.spread(self.shares[None, :])[0]

    def spread(self, shares: np.ndarray) -> np.ndarray:
        """Criterion weights (k, n), summing to 1 per row, for a batch of dimension shares (k, p)."""
        weights = self._columns(np.asarray(shares, dtype=float))
        # row sums as a product with ones: numpy's sum along a short last axis is several times slower
        return weights / (weights @ np.ones(weights.shape[1]))[:, None]

    def _columns(self, shares: np.ndarray) -> np.ndarray:
        # one matrix product with the (p, n) spreading matrix: a gather and two element-wise passes over a batch
        # of 2,000 weightings cost several times more (the verdict spreads one on every slider move)
        return shares @ self.spreading

    @functools.cached_property
    def spreading(self) -> np.ndarray:
        """(p, n): row d holds the share of dimension d that each of its criteria takes, 0 elsewhere."""
        spreading = np.zeros((len(self.dimensions), len(self.column_dimension)))
        spreading[self.column_dimension, np.arange(len(self.column_dimension))] = self.relative / self.relative_total
        return spreading

    def index(self, dimension: Any) -> int:
        """The position of ``dimension`` in :attr:`dimensions`."""
        d = str(dimension)
        if d not in self.dimensions:
            raise WeightError(f"unknown dimension {d!r}; the matrix has {', '.join(self.dimensions)}")
        return self.dimensions.index(d)

    def at(self, d: int, t: Any) -> np.ndarray:
        """Criterion weights (len(t), n) when dimension ``d`` has share ``t`` and the others keep their proportions."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        p = len(self.dimensions)
        rest = 1.0 - self.shares[d]
        # when the dimension held all the weight there is nothing to keep proportional: split the rest evenly
        others = self.shares / rest if rest > 1e-15 else np.full(p, 1.0 / max(p - 1, 1))
        shares = (1.0 - t)[:, None] * others[None, :]
        shares[:, d] = t
        return self._columns(shares)


def _weighted_dimensions(of: Sequence[str], given: Mapping[str, float], names: Sequence[str]) -> tuple[str, ...]:
    """The dimensions that hold a criterion, in the order `given` weights them; a criterion's unweighted dimension
    refused."""
    for j, d in enumerate(of):
        if d not in given:
            raise WeightError(
                f"criterion {names[j]!r} belongs to dimension {d!r}, which dimension_weights does not weight; "
                f"add it (dimensions weighted: {', '.join(given) or 'none'})"
            )
    return tuple(d for d in given if d in of)


def _shares(dimensions: tuple[str, ...], live: list[float]) -> np.ndarray:
    """The shares of the dimensions that hold criteria (`live`: their weights), normalised once."""
    try:
        return normalise(live, [f"dimension {d}" for d in dimensions])
    except WeightError as exc:
        if any(w != 0 for w in live):
            raise WeightError(f"dimension_weights: {exc}") from exc
        # normalise's own test of all zero, said in terms of dimensions (the one test on the way to a ranking)
        raise WeightError(
            Phrase(
                N_("every dimension with criteria left in this group has weight zero; raise one of {dimensions}"),
                dimensions=", ".join(sorted(dimensions)),
            )
        ) from None


@functools.lru_cache(maxsize=256)
def _within_dimensions(
    of: tuple[str, ...], dimensions: tuple[str, ...], sub: tuple[float, ...], names: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each criterion's dimension index and its share of that dimension (``relative / relative_total``), frozen.

    Kept per structure and sub-weights: a dimension-weight slider changes neither, and a Hierarchy is built on
    every move.
    """
    n = len(of)
    for j in range(n):
        if not math.isfinite(sub[j]) or sub[j] < 0:
            raise WeightError(f"sub-weight of criterion {names[j]!r} is {sub[j]}; give a finite number >= 0")
    column_dimension = np.array([dimensions.index(d) for d in of])
    values = np.array(sub, dtype=float)
    relative, relative_total = np.zeros(n), np.zeros(n)
    for k, d in enumerate(dimensions):
        idx = column_dimension == k
        top = values[idx].max()
        if top <= 0:
            raise WeightError(f"every criterion of dimension {d!r} has sub-weight 0; give one a positive weight")
        relative[idx] = values[idx] / top  # by the largest before summing, as in normalise
        relative_total[idx] = relative[idx].sum()
    return read_only(column_dimension), read_only(relative), read_only(relative_total)

"""Value functions on fixed scales: each criterion's worst end is worth 0, its best end 1, whoever else is ranked.

The additive value model (multi-attribute value theory; Keeney & Raiffa 1976, Belton & Stewart 2002) scores an
alternative as ``sum_j w_j * v_j(x_j)``. Each ``v_j`` maps the criterion's scale, fixed from the domain (a rating
1..5, a TDP between 1 W and 2,000 W), onto 0..1:

- ``linear``: ``v(x) = (x - lo) / (hi - lo)`` for a criterion to maximise, ``(hi - x) / (hi - lo)`` to minimise;
- ``log``: the same on ``log10(x)``, for a quantity that spans orders of magnitude (throughput across chip classes),
  where doubling counts the same anywhere on the scale.

Because the scale does not depend on the data, a score never changes when another alternative is added or removed,
and a weight has one meaning a user can state: it is the worth of moving that criterion from the worst to the best
end of its scale (a swing weight). Scaling all values and bounds of a criterion by the same factor (another unit)
leaves every value unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from selector.arrays import read_only
from selector.errors import SelectorError
from selector.i18n import N_

Shape = Literal["linear", "log"]
SHAPES: tuple[str, ...] = ("linear", "log")

#: One sentence that says what a weight means under the value model (page, CLI help and report share it).
SWING_WEIGHT_MEANING = N_(
    "A weight is how much moving from the worst to the best end of that dimension's scales is worth to you "
    "(a swing weight); each criterion's scale is fixed from the domain, not from the options ranked."
)


class ValueScaleError(SelectorError, ValueError):
    """A value scale that cannot map values onto 0..1, or a value outside its scale."""


def check_bounds(lo: float, hi: float, shape: str, where: str) -> None:
    """Raise ``ValueScaleError`` unless ``[lo, hi]`` is a usable scale of this shape (``where`` names it)."""
    if shape not in SHAPES:
        raise ValueScaleError(f"{where}: scale shape {shape!r} is not one of {', '.join(SHAPES)}")
    if not (np.isfinite(lo) and np.isfinite(hi)) or not lo < hi:
        raise ValueScaleError(f"{where}: scale [{lo:g}, {hi:g}] needs two finite bounds, the lower one first")
    if shape == "log" and lo <= 0:
        raise ValueScaleError(f"{where}: a logarithmic scale needs a lower bound above 0; got [{lo:g}, {hi:g}]")


def outside(value: float, lo: float, hi: float) -> bool:
    """True when ``value`` lies outside ``[lo, hi]`` (the bounds as written, no tolerance)."""
    return not lo <= value <= hi


def outside_message(criterion: str, value: float, lo: float, hi: float, unit: str = "") -> str:
    """The words every reader uses for a value outside its criterion's scale."""
    u = f" ({unit})" if unit else ""
    return (
        f"value {value:g} lies outside the value scale [{lo:g}, {hi:g}]{u} of criterion `{criterion}`; check the "
        "number and its unit, or widen the criterion's `scale` in criteria.yaml if the domain allows it"
    )


@dataclass(frozen=True, eq=False)
class ValueScales:
    """The fixed scale of every column of a matrix: bounds and shape, checked once.

    Attributes
    ----------
    lo, hi : numpy.ndarray
        (n,) lower and upper bounds, read-only.
    log : numpy.ndarray
        (n,) True where the value function is logarithmic.
    """

    lo: np.ndarray
    hi: np.ndarray
    log: np.ndarray

    @classmethod
    def of(cls, bounds: Sequence[Sequence[float]], shapes: Sequence[str], criteria: Sequence[str]) -> ValueScales:
        """Check one ``(lo, hi)`` and one shape per criterion.

        Raises
        ------
        ValueScaleError
            A missing or reversed bound, an unknown shape, or a logarithmic scale that reaches 0.
        """
        if len(bounds) != len(criteria) or len(shapes) != len(criteria):
            raise ValueScaleError(
                f"got {len(bounds)} scales and {len(shapes)} shapes for {len(criteria)} criteria; give one of each"
            )
        for (lo, hi), shape, name in zip(bounds, shapes, criteria, strict=True):
            check_bounds(float(lo), float(hi), str(shape), f"criterion `{name}`")
        b = np.array(bounds, dtype=float).reshape(len(criteria), 2)
        log = np.array([s == "log" for s in shapes], dtype=bool)
        return cls(read_only(b[:, 0]), read_only(b[:, 1]), read_only(log))

    @property
    def bounds(self) -> np.ndarray:
        """(n, 2) the bounds as ``[lo, hi]`` rows."""
        return np.column_stack([self.lo, self.hi])

    def worst(self, signs: np.ndarray) -> np.ndarray:
        """(n,) the worst end of each scale: the lower bound to maximise, the upper one to minimise."""
        return np.where(np.asarray(signs) > 0, self.lo, self.hi)

    def best(self, signs: np.ndarray) -> np.ndarray:
        """(n,) the best end of each scale."""
        return np.where(np.asarray(signs) > 0, self.hi, self.lo)

    def first_outside(self, x: np.ndarray) -> tuple[int, ...] | None:
        """The index of the first cell of ``x`` ((..., m, n)) outside its column's scale, or None."""
        bad = (x < self.lo) | (x > self.hi)
        if not bad.any():
            return None
        return tuple(int(v) for v in np.argwhere(bad)[0])

    def values(self, x: np.ndarray, signs: np.ndarray) -> np.ndarray:
        """``v_j(x)`` for a (..., m, n) matrix: 0 at each scale's worst end, 1 at its best, linear or logarithmic.

        Values are expected inside the scales (``first_outside`` finds those that are not); they are clipped to
        0..1 so that a rounding error at a bound cannot leave the unit interval.
        """
        x = np.asarray(x, dtype=float)
        lo, hi = self.lo, self.hi
        if self.log.any():
            with np.errstate(divide="ignore", invalid="ignore"):
                x = np.where(self.log, np.log10(np.where(self.log, np.maximum(x, lo), 1.0)), x)
            lo = np.where(self.log, np.log10(np.where(self.log, lo, 1.0)), lo)
            hi = np.where(self.log, np.log10(np.where(self.log, hi, 1.0)), hi)
        up = (x - lo) / (hi - lo)
        v = np.where(np.asarray(signs) > 0, up, 1.0 - up)
        return np.clip(v, 0.0, 1.0)

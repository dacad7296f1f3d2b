"""Tipping points: the dimension shares at which the leader changes (exact for additive methods, bisection
otherwise)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector import i18n
from selector.decision import scoring
from selector.decision.problem import Problem
from selector.decision.scoring import to_jsonable
from selector.decision.vectorised import Scorer
from selector.decision.weights import Hierarchy

#: Methods whose score is linear in the weights (wpm in the logarithm), so crossings are solved exactly.
_LINEAR_IN_WEIGHTS = frozenset({"mavt", "wsm", "wpm", "moora"})


@dataclass(frozen=True)
class TippingPoint:
    """A dimension share at which the leader changes.

    ``before`` leads just below ``weight`` and ``after`` just above it.
    """

    dimension: str
    weight: float
    current_weight: float
    before: str
    after: str
    method: str
    scaler: str
    exact: bool

    @property
    def direction(self) -> str:
        """``"exceeds"`` when the tipping share is above the current share, else ``"falls below"``."""
        return "exceeds" if self.weight >= self.current_weight else "falls below"

    @property
    def sentence(self) -> str:
        """E.g. "MI300X overtakes H200 when cost weight exceeds 34.0%"."""
        return self.text()

    def text(self, *, lang: i18n.Language = "en", dimension: str | None = None) -> str:
        """:attr:`sentence` in `lang`, naming the dimension `dimension` (default: :attr:`dimension`)."""
        _ = i18n.translator(lang)
        pct = f"{100 * self.weight:.1f}%"
        named = self.dimension if dimension is None else dimension
        if self.direction == "exceeds":
            return _("{after} overtakes {before} when {dimension} weight exceeds {share}").format(
                after=self.after, before=self.before, dimension=named, share=pct
            )
        return _("{before} overtakes {after} when {dimension} weight falls below {share}").format(
            after=self.after, before=self.before, dimension=named, share=pct
        )

    def to_dict(self, *, lang: i18n.Language = "en") -> dict[str, Any]:
        """Return a JSON-safe dict (with the sentence, in `lang`)."""
        return to_jsonable(
            {
                "dimension": self.dimension,
                "weight": self.weight,
                "current_weight": self.current_weight,
                "before": self.before,
                "after": self.after,
                "direction": self.direction,
                "sentence": self.text(lang=lang),
                "method": self.method,
                "scaler": self.scaler,
                "exact": self.exact,
            }
        )


def _linear_utilities(scorer: Scorer) -> np.ndarray:
    """(m, n) matrix G with score = G @ w, for the methods whose score is linear in the weights."""
    p = scorer.prepared
    if scorer.spec.name == "wpm":
        return np.log10(p)
    if scorer.spec.name == "moora":
        return p * scorer.signs
    return p


def _linear_tips(a: np.ndarray, b: np.ndarray) -> list[tuple[float, int, int]]:
    """Leader changes of the lines a_i + t b_i on [0, 1] (upper envelope), exactly."""
    scale = max(1.0, float(np.abs(a).max() + np.abs(b).max()))
    tol = scoring.TIE_RTOL * scale

    def leader_right_of(t: float) -> int:
        s = a + t * b
        tied = np.nonzero(s >= s.max() - tol)[0]
        # the leader just to the right of t is the tied one rising fastest (first in input order on equal slope)
        return int(tied[np.argmax(b[tied])])

    events: list[tuple[float, int, int]] = []
    t = 0.0
    lead = leader_right_of(t)
    for _ in range(len(a) * len(a) + 1):
        rise = b - b[lead]
        cand = rise > tol
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = np.where(cand, (a[lead] - a) / np.where(cand, rise, 1.0), np.inf)
        cross[cross <= t] = np.inf
        t_next = float(cross.min())
        if not t_next < 1.0:
            break
        new = leader_right_of(t_next)
        if new != lead:
            events.append((t_next, lead, new))
        t, lead = t_next, new
    return events


def _grid_tips(leader_at, grid_points: int, tol: float) -> list[tuple[float, int, int]]:
    """Leader changes found on a grid and refined by bisection; changes closer than a grid step may be missed."""
    grid = np.linspace(0.0, 1.0, grid_points)
    leaders = leader_at(grid)
    events: list[tuple[float, int, int]] = []

    def refine(lo: float, hi: float, l_lo: int, l_hi: int) -> None:
        while hi - lo > tol:
            mid = 0.5 * (lo + hi)
            l_mid = int(leader_at(np.array([mid]))[0])
            if l_mid == l_lo:
                lo = mid
            elif l_mid == l_hi:
                hi = mid
            else:  # a third leader in between: two changes inside this interval
                refine(lo, mid, l_lo, l_mid)
                refine(mid, hi, l_mid, l_hi)
                return
        events.append((0.5 * (lo + hi), l_lo, l_hi))

    for g in range(grid_points - 1):
        if leaders[g] != leaders[g + 1]:
            refine(float(grid[g]), float(grid[g + 1]), int(leaders[g]), int(leaders[g + 1]))
    return events


def tipping_points(
    problem: Problem,
    hierarchy: Hierarchy,
    *,
    dimensions: Sequence[Any] | None = None,
    grid_points: int = 201,
    tol: float = 1e-9,
) -> list[TippingPoint]:
    """Find, for each dimension, every share (0..1) at which the leader changes.

    The dimension's share varies from 0 to 1 while the other dimensions keep their relative proportions and
    criteria keep their relative sub-weights within each dimension. For wsm, wpm and moora the score is linear
    in the weights, so the crossings are solved exactly (``exact=True``); for topsis and vikor the leader is
    evaluated on a grid of ``grid_points`` and every change is bisected to ``tol`` (two changes closer than a
    grid step, e.g. A -> B -> A, can be missed).

    Parameters
    ----------
    problem : Problem
        The decision problem (its weights are not read: the hierarchy's shares are the current weighting).
    hierarchy : Hierarchy
        How the dimension shares reach the problem's criteria, and the current shares.
    dimensions : sequence, optional
        Only these dimensions (default all, in the hierarchy's order).
    grid_points : int
        Grid size for topsis/vikor.
    tol : float
        Bisection tolerance on the share.

    Returns
    -------
    list of TippingPoint
        Ordered by dimension, then share.
    """
    spec, alts, dims = problem.spec, problem.alternatives, hierarchy
    if len(dims.dimensions) < 2:
        return []
    scorer = Scorer(problem)
    exact = spec.name in _LINEAR_IN_WEIGHTS
    chosen = dims.dimensions if dimensions is None else [dims.dimensions[dims.index(d)] for d in dimensions]
    out: list[TippingPoint] = []
    for name in chosen:
        d = dims.index(name)
        events = _exact_events(scorer, dims, d) if exact else _bisected_events(scorer, dims, d, grid_points, tol)
        current = float(dims.shares[d])
        out.extend(
            TippingPoint(
                dimension=name,
                weight=float(t),
                current_weight=current,
                before=alts[before],
                after=alts[after],
                method=spec.name,
                scaler=problem.scaler,
                exact=exact,
            )
            for t, before, after in events
        )
    return out


def _exact_events(scorer: Scorer, dims: Hierarchy, d: int) -> list[tuple[float, int, int]]:
    """Leader changes along dimension ``d`` of a method whose score is linear in the weights."""
    g = _linear_utilities(scorer)
    w0, w1 = dims.at(d, np.array([0.0, 1.0]))
    return _linear_tips(g @ w0, g @ (w1 - w0))


def _bisected_events(
    scorer: Scorer, dims: Hierarchy, d: int, grid_points: int, tol: float
) -> list[tuple[float, int, int]]:
    """Leader changes along dimension ``d`` found on a grid and bisected (topsis, vikor)."""

    def leader_at(ts: np.ndarray) -> np.ndarray:
        return np.argmax(scorer.first(dims.at(d, ts)), axis=1)

    return _grid_tips(leader_at, max(2, int(grid_points)), tol)

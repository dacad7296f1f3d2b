"""MCDA scoring of a numeric decision matrix: the only module that talks to scikit-criteria.

Every result states its method and scaler, because the normalisation decides the answer: the same matrix can
crown a different winner under vector and min-max scaling.

Methods (``METHODS``) and why each default scaler was chosen:

``wsm``  weighted sum. Cost criteria are inverted (1/x) exactly as scikit-criteria's ``InvertMinimize`` does,
         then scaled. Default ``sum``: proportional scaling keeps ratios (an alternative twice as good on a
         criterion gets twice the share), as in scikit-criteria's documented pipeline
         (InvertMinimize + SumScaler + WeightedSumModel); ``minmax`` is allowed but inflates tiny spreads to the
         full 0..1 range, and ``none`` adds raw units ("apples and oranges").
``wpm``  weighted product (score = sum w_j log10 x_j, as scikit-criteria). Cost criteria inverted (1/x).
         Default ``sum``; the ranking is identical under ``none``/``sum``/``vector`` (any per-column factor
         cancels in ratios of products). ``minmax`` is refused: it produces zeros and log(0).
``topsis`` closeness to the ideal (Hwang & Yoon 1981). Default ``vector`` (the original method). Cost criteria
         are handled by the method itself (ideal = column minimum).
``vikor`` compromise ranking (Opricovic & Tzeng 2004), v = 0.5. Only ``none``: VIKOR normalises internally by the
         distance between the best and worst value of each criterion. Score = Q, LOWER is better. Ranks come
         from Q alone (the compromise set and the two acceptance conditions are reported in ``extra``).
``moora`` ratio system (Brauers & Zavadskas 2006). Default ``vector`` (the original ratio normalisation); cost
         criteria are subtracted instead of added.

Ties: ``rank_scores`` gives equal scores (within a relative 1e-12, to absorb floating-point noise) the same,
lowest rank ("min" ranking: 1, 1, 3); the leader among tied alternatives is the first in input order.

Degenerate input (documented, never NaN):
- A column without spread (constant, or all zero) gives every alternative the same normalised value
  (sum: 1/m, vector: 1/sqrt(m), minmax: 0 as scikit-learn does), so it cannot change the ranking.
- TOPSIS where every weighted column is constant (including a single alternative): every alternative sits on
  the ideal point, closeness 1.0, all rank 1 (scikit-criteria would divide 0 by 0 and raise).
- VIKOR with a single alternative: Q = 0, rank 1 (scikit-criteria divides by m - 1 and raises).
- Negative values under sum scaling, non-positive values under WPM or in a cost column of WSM/WPM
  (which invert 1/x), negative values a weighted sum would add: ``ScoringError`` naming the cell.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import math
import sys
import threading
import types
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from selector.errors import SelectorError

SCALERS: tuple[str, ...] = ("none", "sum", "vector", "minmax")

#: Relative tolerance under which two scores count as a tie (absorbs floating-point noise only).
TIE_RTOL = 1e-12

#: VIKOR strategy weight (v = 0.5 balances group utility and individual regret).
VIKOR_V = 0.5

#: Scalers whose result does not change when a column is multiplied by a positive number.
SCALE_FREE_SCALERS = frozenset({"sum", "vector", "minmax"})
#: Columns whose largest magnitude lies outside this range are divided by it before a scale-free step: a vector
#: norm squares its values (1e308 overflows to infinity, 1e-200 underflows to zero) and a sum can overflow.
SAFE_MAGNITUDE = (1e-100, 1e100)

_SKCRITERIA_LOCK = threading.Lock()
_NORMALISED_CACHE = 64  # distinct matrices whose normalisation is kept (a few kB each)


class ScoringError(SelectorError, ValueError):
    """Input the scoring engine cannot score; the message says what is wrong, where, and what to fix."""


@dataclass(frozen=True)
class MethodSpec:
    """What a method is, how it treats cost criteria and which scalers make sense for it."""

    name: str
    label: str
    default_scaler: str
    scalers: tuple[str, ...]
    higher_is_better: bool
    additive: bool
    inverts_cost: bool
    rationale: str


METHODS: Mapping[str, MethodSpec] = MappingProxyType(
    {
        "wsm": MethodSpec(
            name="wsm",
            label="Weighted sum (WSM)",
            default_scaler="sum",
            scalers=("sum", "minmax", "vector", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=True,
            rationale="sum scaling keeps proportions; cost criteria inverted 1/x like scikit-criteria InvertMinimize",
        ),
        "wpm": MethodSpec(
            name="wpm",
            label="Weighted product (WPM)",
            default_scaler="sum",
            scalers=("sum", "vector", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=True,
            rationale="ranking invariant to per-column factors; minmax refused (log of 0); cost inverted 1/x",
        ),
        "topsis": MethodSpec(
            name="topsis",
            label="TOPSIS",
            default_scaler="vector",
            scalers=("vector", "sum", "minmax", "none"),
            higher_is_better=True,
            additive=False,
            inverts_cost=False,
            rationale="vector normalisation as in Hwang & Yoon (1981); cost criteria take the minimum as ideal",
        ),
        "vikor": MethodSpec(
            name="vikor",
            label="VIKOR (v = 0.5)",
            default_scaler="none",
            scalers=("none",),
            higher_is_better=False,
            additive=False,
            inverts_cost=False,
            rationale="normalises internally by each criterion's best-worst distance (Opricovic & Tzeng 2004)",
        ),
        "moora": MethodSpec(
            name="moora",
            label="MOORA ratio system",
            default_scaler="vector",
            scalers=("vector", "sum", "minmax", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=False,
            rationale="vector ratios as in Brauers & Zavadskas (2006); cost criteria are subtracted",
        ),
    }
)


# ----------------------------------------------------------------------------------------------------------
# Input parsing shared with batch.py and the robustness package
# ----------------------------------------------------------------------------------------------------------


def resolve_method(method: str, scaler: str | None = None) -> tuple[MethodSpec, str]:
    """Return the method's spec and the scaler to use (its default when ``scaler`` is None).

    Parameters
    ----------
    method : str
        One of ``METHODS``.
    scaler : str or None
        One of the method's allowed scalers, or None for its default.

    Returns
    -------
    tuple of (MethodSpec, str)

    Raises
    ------
    ScoringError
        Unknown method, unknown scaler, or a scaler the method does not allow.
    """
    key = str(method).strip().lower()
    if key not in METHODS:
        raise ScoringError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    spec = METHODS[key]
    if scaler is None:
        return spec, spec.default_scaler
    sc = str(scaler).strip().lower()
    if sc not in SCALERS:
        raise ScoringError(f"unknown scaler {scaler!r}; choose one of {', '.join(SCALERS)}")
    if sc not in spec.scalers:
        raise ScoringError(
            f"method {key!r} does not allow scaler {sc!r}; use one of {', '.join(spec.scalers)} "
            f"(default {spec.default_scaler!r}: {spec.rationale})"
        )
    return spec, sc


def parse_objectives(objectives: Sequence[Any], n: int, criteria: Sequence[str] | None = None) -> np.ndarray:
    """Turn ``"max"``/``"min"`` (or +1/-1, or the builtins max/min) into an int array of +1/-1.

    Parameters
    ----------
    objectives : sequence
        One entry per criterion.
    n : int
        Number of criteria (columns of the matrix).
    criteria : sequence of str, optional
        Criterion names, used in error messages.

    Returns
    -------
    numpy.ndarray
        Shape (n,), dtype int, +1 for maximise and -1 for minimise.
    """
    if isinstance(objectives, str):
        objectives = [o for o in objectives.split(",")]
    objectives = list(objectives)
    if len(objectives) != n:
        raise ScoringError(f"got {len(objectives)} objectives for {n} criteria; give one 'max' or 'min' per criterion")
    signs = np.empty(n, dtype=int)
    for j, obj in enumerate(objectives):
        if obj is max:
            signs[j] = 1
            continue
        if obj is min:
            signs[j] = -1
            continue
        if isinstance(obj, str):
            key = obj.strip().lower()
            if key in ("max", "+1", "1", "+"):
                signs[j] = 1
                continue
            if key in ("min", "-1", "-"):
                signs[j] = -1
                continue
        elif isinstance(obj, (int, float, np.integer, np.floating)) and not isinstance(obj, bool):
            if obj == 1:
                signs[j] = 1
                continue
            if obj == -1:
                signs[j] = -1
                continue
        name = criteria[j] if criteria is not None else f"#{j + 1}"
        raise ScoringError(f"objective for criterion {name!r} is {obj!r}; use 'max' (benefit) or 'min' (cost)")
    return signs


def validate_weights(weights: Sequence[float], criteria: Sequence[str] | None = None) -> np.ndarray:
    """Check weights and normalise them to sum 1.

    Any non-negative finite weights are accepted (they need not sum to 1 or 100).

    Parameters
    ----------
    weights : sequence of float
        One weight per criterion.
    criteria : sequence of str, optional
        Criterion names, used in error messages.

    Returns
    -------
    numpy.ndarray
        Float array summing to 1.

    Raises
    ------
    ScoringError
        A weight that is not a number, NaN, infinite or negative (the message names it), or all weights zero.
    """
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ScoringError(f"weights must be numbers; got {weights!r}") from exc
    if w.ndim != 1 or w.size == 0:
        raise ScoringError(f"weights must be a flat, non-empty list of numbers; got shape {w.shape}")

    def _name(j: int) -> str:
        label = f"weight {j + 1}"
        return f"{label} ({criteria[j]!r})" if criteria is not None and j < len(criteria) else label

    for j, value in enumerate(w):
        if not math.isfinite(value):
            raise ScoringError(f"{_name(j)} is {value}; give a finite number >= 0")
        if value < 0:
            raise ScoringError(
                f"{_name(j)} is negative ({value:g}); weights must be >= 0 (use 0 to ignore a criterion)"
            )
    largest = float(w.max())
    if largest <= 0:
        raise ScoringError("all weights are zero; give at least one criterion a positive weight")
    w = w / largest  # before summing: weights of 1e308 would overflow their sum
    return w / float(w.sum())


def default_names(prefix: str, count: int) -> tuple[str, ...]:
    """Return ``(prefix1, prefix2, ...)``, the names used when the caller gives none."""
    return tuple(f"{prefix}{i + 1}" for i in range(count))


def check_names(names: Sequence[Any] | None, count: int, what: str, prefix: str) -> tuple[str, ...]:
    """Return ``count`` unique names as strings (defaults when ``names`` is None)."""
    if names is None:
        return default_names(prefix, count)
    out = tuple(str(x) for x in names)
    if len(out) != count:
        raise ScoringError(f"got {len(out)} {what} names for {count} {what}s; give one name per {what}")
    seen: set[str] = set()
    for name in out:
        if name in seen:
            raise ScoringError(f"{what} name {name!r} appears twice; names must be unique")
        seen.add(name)
    return out


def as_matrix(
    matrix: Any, alternatives: Sequence[Any] | None, criteria: Sequence[Any] | None, *, allow_nan: bool = False
) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Return the matrix as a float (m, n) array plus alternative and criterion names.

    A pandas DataFrame's index and columns are used as names when none are given.
    """
    if alternatives is None and hasattr(matrix, "index") and hasattr(matrix, "columns"):
        alternatives = list(matrix.index)
    if criteria is None and hasattr(matrix, "columns"):
        criteria = list(matrix.columns)
    try:
        x = np.array(matrix, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ScoringError(f"the decision matrix must hold numbers only: {exc}") from exc
    if x.ndim != 2:
        raise ScoringError(f"the decision matrix must be 2-D (alternatives x criteria); got shape {x.shape}")
    m, n = x.shape
    if m == 0 or n == 0:
        raise ScoringError(f"the decision matrix is empty ({m} alternatives x {n} criteria); give at least one of each")
    alts = check_names(alternatives, m, "alternative", "A")
    crits = check_names(criteria, n, "criterion", "C")
    bad = ~np.isfinite(x) if not allow_nan else np.isinf(x)
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raise ScoringError(
            f"cell (alternative {alts[i]!r}, criterion {crits[j]!r}) is {x[i, j]}; "
            "every cell needs a finite number (impute missing values before scoring)"
        )
    return x, alts, crits


def check_values(
    matrix: np.ndarray,
    signs: np.ndarray,
    spec: MethodSpec,
    scaler: str,
    alternatives: Sequence[str],
    criteria: Sequence[str],
    *,
    context: str = "",
) -> None:
    """Raise ``ScoringError`` for values the method and scaler cannot handle.

    ``matrix`` may carry leading batch axes (..., m, n); the message names the first offending cell.
    """
    cost = signs < 0

    def _fail(mask: np.ndarray, why: str, fix: str) -> None:
        idx = np.argwhere(mask)[0]
        i, j = int(idx[-2]), int(idx[-1])
        value = matrix[tuple(int(v) for v in idx)]
        raise ScoringError(
            f"cell (alternative {alternatives[i]!r}, criterion {criteria[j]!r}) is {value:g}{context}: {why}; {fix}"
        )

    tiny = (matrix != 0) & (np.abs(matrix) < sys.float_info.min)
    if tiny.any():
        _fail(
            tiny,
            "a subnormal number (closer to zero than 2.2e-308) has lost its precision and breaks 1/x and logarithms",
            "give 0 or the value in a larger unit",
        )
    if spec.inverts_cost and cost.any():
        bad = (matrix <= 0) & cost
        if bad.any():
            _fail(
                bad,
                f"{spec.name} inverts cost criteria (1/x, as scikit-criteria's InvertMinimize), which needs values > 0",
                "use method 'topsis' or 'moora' (they handle cost criteria without inverting) or give a positive value",
            )
    if spec.name == "wpm":
        bad = matrix <= 0
        if bad.any():
            _fail(bad, "the weighted product takes logarithms, which needs values > 0", "use another method")
    if scaler == "sum":
        bad = matrix < 0
        if bad.any():
            _fail(
                bad,
                "sum scaling divides by the column sum, which is meaningless with negative values",
                "use scaler 'vector' or 'minmax'",
            )
    if spec.name == "wsm" and scaler in ("none", "vector"):
        bad = (matrix < 0) & ~cost
        if bad.any():
            _fail(bad, f"a weighted sum under scaler {scaler!r} would add a negative value", "use scaler 'minmax'")


def _tie_tolerance(s: np.ndarray) -> np.ndarray:
    """Per row, the score difference below which two scores tie (``TIE_RTOL`` times the row's scale, at least 1)."""
    return TIE_RTOL * np.maximum(1.0, np.max(np.abs(s), axis=-1, keepdims=True))


def scale_columns(x: np.ndarray) -> np.ndarray:
    """`x` ((..., m, n)) with every column whose largest magnitude is outside ``SAFE_MAGNITUDE`` divided by it.

    Only for steps that are scale-free per column (sum, vector and min-max scaling, VIKOR's distances): they give
    the same result on the scaled column, and the arithmetic stays finite. Other columns are left bit for bit
    as they are, so ordinary data scores exactly as scikit-criteria scores it.

    Parameters
    ----------
    x : numpy.ndarray
        Finite values, alternatives on axis -2 and criteria on axis -1.

    Returns
    -------
    numpy.ndarray
        `x` itself when no column needs it, else a new array.
    """
    top = np.abs(x).max(axis=-2, keepdims=True)
    rescale = (top > 0) & ((top < SAFE_MAGNITUDE[0]) | (top > SAFE_MAGNITUDE[1]))
    if not rescale.any():
        return x
    return x / np.where(rescale, top, 1.0)


def rank_scores(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Rank scores along the last axis: 1 = best, ties share the lowest rank ("min" ranking: 1, 1, 3).

    Scores within ``TIE_RTOL`` (relative to the largest absolute score in the row, at least 1) are ties: an
    alternative's rank is 1 + the number of scores above its own by more than that tolerance. Counted on the
    sorted row, so a row of m scores costs O(m log m), not the m x m of comparing every pair.

    Parameters
    ----------
    scores : numpy.ndarray
        Shape (m,) or (k, m).
    higher_is_better : bool
        Direction of the scores.

    Returns
    -------
    numpy.ndarray
        Integer ranks with the shape of ``scores``.
    """
    s = np.asarray(scores, dtype=float)
    if not higher_is_better:
        s = -s
    shape = s.shape
    m = shape[-1]
    rows = s.reshape(-1, m)
    order = np.argsort(rows, axis=1)
    ascending = np.take_along_axis(rows, order, axis=1)
    ceiling = ascending + _tie_tolerance(rows)  # a score and everything up to its ceiling tie with it
    # last[r, p]: the last sorted position whose score is at most the ceiling of position p. Usually p itself;
    # where the next score is within the tolerance (a tie), a binary search over the rest of the row finds it.
    last = np.broadcast_to(np.arange(m), rows.shape).copy()
    tied = np.zeros(rows.shape, dtype=bool)
    tied[:, :-1] = ascending[:, 1:] <= ceiling[:, :-1]
    if tied.any():
        r, p = np.nonzero(tied)
        lo, hi, top = p + 1, np.full_like(p, m), ceiling[r, p]
        while (open_ := hi - lo > 1).any():
            mid = (lo + hi) // 2
            within = (ascending[r, np.minimum(mid, m - 1)] <= top) & open_
            lo = np.where(within, mid, lo)
            hi = np.where(open_ & ~within, mid, hi)
        last[r, p] = lo
    ranks = np.empty(rows.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, m - last, axis=1)
    return ranks.reshape(shape)


def first_ranked(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Which scores rank first along the last axis (rank 1 in :func:`rank_scores`), by one comparison with the max.

    Parameters
    ----------
    scores : numpy.ndarray
        Shape (m,) or (k, m).
    higher_is_better : bool
        Direction of the scores.

    Returns
    -------
    numpy.ndarray
        Booleans with the shape of ``scores``; ties for first place are all True.
    """
    s = np.asarray(scores, dtype=float)
    if not higher_is_better:
        s = -s
    return s + _tie_tolerance(s) >= np.max(s, axis=-1, keepdims=True)


def to_jsonable(value: Any) -> Any:
    """Convert numpy arrays and scalars, tuples and mappings into JSON-safe lists, floats, ints and strings.

    Non-finite floats become None.
    """
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or isinstance(value, str):
        return value
    return str(value)


class FrozenDict(dict):
    """A read-only dict: results stay immutable yet pickle (``st.cache_data`` pickles; a mappingproxy cannot)."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this mapping is part of an immutable result; copy it with dict(...) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _readonly  # type: ignore[assignment]

    def __reduce__(self):
        return (FrozenDict, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return id(self)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


# ----------------------------------------------------------------------------------------------------------
# Result
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ScoreResult:
    """One scored decision matrix, with everything needed to explain the score.

    Attributes
    ----------
    method, scaler : str
        What produced the scores; always shown with them.
    alternatives, criteria : tuple of str
    matrix : numpy.ndarray
        The raw (m, n) matrix as given.
    objectives : tuple of str
        ``"max"`` or ``"min"`` per criterion.
    weights : numpy.ndarray
        Normalised weights (sum 1).
    scores : numpy.ndarray
        One score per alternative; see ``higher_is_better``.
    higher_is_better : bool
        False only for VIKOR (Q, lower is better).
    ranks : numpy.ndarray
        1 = best; ties share the lowest rank.
    normalised : numpy.ndarray
        The matrix the aggregation saw (after cost inversion for wsm/wpm and scaling; raw for vikor).
    contributions : numpy.ndarray or None
        For additive methods, per-criterion parts of the score that sum to it: wsm ``w * normalised``,
        moora ``+/- w * normalised``, wpm ``w * log10(normalised)``. None for topsis and vikor.
    extra : dict
        Method intermediates (topsis: ideal, anti_ideal, d_ideal, d_anti_ideal; vikor: s_k, r_k, q_k,
        compromise_set, acceptable_advantage, acceptable_stability; wpm: product).
    """

    method: str
    scaler: str
    alternatives: tuple[str, ...]
    criteria: tuple[str, ...]
    matrix: np.ndarray
    objectives: tuple[str, ...]
    weights: np.ndarray
    scores: np.ndarray
    higher_is_better: bool
    ranks: np.ndarray
    normalised: np.ndarray
    contributions: np.ndarray | None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def leader(self) -> str:
        """Name of the best alternative (the first in input order among tied leaders)."""
        return self.alternatives[int(np.argmin(self.ranks))]

    @property
    def order(self) -> tuple[int, ...]:
        """Alternative indices from best to worst (ties in input order)."""
        return tuple(int(i) for i in np.lexsort((np.arange(len(self.ranks)), self.ranks)))

    def ranking(self) -> list[dict[str, Any]]:
        """Return ``[{"name", "score", "rank"}, ...]`` from best to worst."""
        return [
            {"name": self.alternatives[i], "score": float(self.scores[i]), "rank": int(self.ranks[i])}
            for i in self.order
        ]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict of the whole result."""
        return to_jsonable(
            {
                "method": self.method,
                "scaler": self.scaler,
                "higher_is_better": self.higher_is_better,
                "leader": self.leader,
                "alternatives": self.alternatives,
                "criteria": self.criteria,
                "objectives": self.objectives,
                "weights": self.weights,
                "scores": self.scores,
                "ranks": self.ranks,
                "matrix": self.matrix,
                "normalised": self.normalised,
                "contributions": self.contributions,
                "extra": dict(self.extra),
            }
        )


# ----------------------------------------------------------------------------------------------------------
# scikit-criteria plumbing (imported lazily: ``import skcriteria`` costs ~2 s)
# ----------------------------------------------------------------------------------------------------------

# What ``import skcriteria`` loads only for its plots (seaborn, and matplotlib under it) and its dominance graphs:
# its package __init__ imports every core module, and they import these at the top. Scoring never touches them, so
# they are put off until something reads an attribute of theirs (see _Deferred). scipy.stats is not deferred:
# every aggregation function ranks its scores with scipy.stats.rankdata.
_DEFERRED_BY_SKCRITERIA = ("seaborn", "networkx")


class _Deferred(types.ModuleType):
    """A stand-in in ``sys.modules`` that imports the real module the first time one of its attributes is read.

    ``import seaborn`` then costs nothing; ``seaborn.heatmap`` (or ``from scipy.stats import kendalltau``
    anywhere in the process) imports the real module, which replaces the stand-in in ``sys.modules``, and
    returns the attribute from it.
    """

    def __getattr__(self, attribute: str) -> Any:
        name = self.__name__
        with _DEFER_LOCK:
            if sys.modules.get(name) is self:
                del sys.modules[name]
            real = importlib.import_module(name)
        return getattr(real, attribute)


_DEFER_LOCK = threading.RLock()


@functools.cache
def _skcriteria() -> types.ModuleType:
    """``import skcriteria``, with its plotting and graph imports deferred (about a third of its import time)."""
    with _DEFER_LOCK:
        for name in _DEFERRED_BY_SKCRITERIA:
            if name not in sys.modules:
                spec = importlib.util.find_spec(name)
                if spec is None:  # not installed: let scikit-criteria's own import say so
                    continue
                stand_in = _Deferred(name)
                stand_in.__spec__ = spec
                sys.modules[name] = stand_in
        import skcriteria

    return skcriteria


def _skc_scaler(scaler: str):
    _skcriteria()
    from skcriteria.preprocessing import scalers

    cls = {"sum": scalers.SumScaler, "vector": scalers.VectorScaler, "minmax": scalers.MinMaxScaler}[scaler]
    # target="matrix": weights are already normalised here and must not be rescaled.
    return cls(target="matrix")


def _skc_aggregate(method: str, matrix: np.ndarray, signs: np.ndarray, weights: np.ndarray) -> tuple:
    """scikit-criteria's own aggregation of an already normalised matrix (wsm, wpm, topsis, moora).

    These are the functions scikit-criteria's WeightedSumModel, WeightedProductModel, TOPSIS and RatioMOORA call
    once they have unpacked their DecisionMatrix; calling them directly skips building a DecisionMatrix and
    copying it back out (four fifths of an ``evaluate`` on a small matrix). They do not validate: ``score``
    has checked the input, and the tests compare every method and scaler with the full pipeline.
    """
    _skcriteria()
    if method == "wsm":
        from skcriteria.agg.simple import wsm

        return wsm(matrix, weights)
    if method == "wpm":
        from skcriteria.agg.simple import wpm

        return wpm(matrix, weights)
    if method == "topsis":
        from skcriteria.agg.topsis import topsis

        return topsis(matrix, signs, weights)
    if method == "moora":
        from skcriteria.agg.moora import ratio

        return ratio(matrix, signs, weights)
    raise ScoringError(f"unknown method {method!r}")  # pragma: no cover - resolve_method guards this


def _skc_vikor(matrix: np.ndarray, objectives: Sequence[str], weights: np.ndarray):  # noqa: ANN202 - skcriteria result
    """VIKOR through scikit-criteria's VIKOR (it has no functional core to call)."""
    skc = _skcriteria()
    from skcriteria.agg.vikor import VIKOR

    # skcriteria warns for every constant column; the case is handled and documented here, so the warning would
    # only be noise. catch_warnings swaps process-wide state, so concurrent app sessions (threads) must not
    # interleave it: hence the lock.
    with _SKCRITERIA_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return VIKOR(v=VIKOR_V, use_compromise_set=False).evaluate(skc.mkdm(matrix, list(objectives), weights=weights))


def _degenerate_fill(scaler: str, m: int) -> float:
    """Normalised value given to every cell of a column whose scaling denominator is zero."""
    return {"sum": 1.0 / m, "vector": 1.0 / math.sqrt(m)}[scaler]


@functools.lru_cache(maxsize=_NORMALISED_CACHE)
def _normalised(
    data: bytes, shape: tuple[int, int], objectives: tuple[str, ...], invert: bool, scaler: str
) -> tuple[np.ndarray, tuple[str, ...]]:
    """The matrix the aggregation sees and its objectives, from scikit-criteria's inversion and scaling.

    Cost criteria are inverted for wsm and wpm (after which every objective is "max"), then scaled.
    Neither step reads the weights (the scalers act on the matrix only), so a weight change, the app's slider
    move and every Monte Carlo sample alike, reuses the normalisation of its matrix instead of redoing the two
    scikit-criteria transforms (about three quarters of a call). Keyed by the raw bytes, so equal matrices
    share an entry; the array returned is read-only.
    """
    skc = _skcriteria()
    x = np.frombuffer(data, dtype=float).reshape(shape)
    m, n = shape
    with _SKCRITERIA_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dm = skc.mkdm(x, list(objectives))
        if invert and "min" in objectives:
            from skcriteria.preprocessing.invert_objectives import InvertMinimize

            dm = InvertMinimize().transform(dm)
        if scaler != "none":
            before = dm.matrix.to_numpy(dtype=float)
            scaled = scale_columns(before)
            if scaled is not before:
                dm = dm.replace(matrix=scaled)
            dm = _skc_scaler(scaler).transform(dm)
            zero_cols = np.all(before == 0, axis=0) if scaler in ("sum", "vector") else np.zeros(n, dtype=bool)
            if zero_cols.any():
                fixed = dm.matrix.to_numpy(dtype=float).copy()
                fixed[:, zero_cols] = _degenerate_fill(scaler, m)
                dm = dm.replace(matrix=fixed)
        seen = tuple("max" if o > 0 else "min" for o in dm.iobjectives.to_numpy())
        return _frozen(dm.matrix.to_numpy(dtype=float)), seen


# ----------------------------------------------------------------------------------------------------------
# Public entry point
# ----------------------------------------------------------------------------------------------------------


def score(
    matrix: Any,
    objectives: Sequence[Any],
    weights: Sequence[float],
    method: str = "topsis",
    scaler: str | None = None,
    alternatives: Sequence[Any] | None = None,
    criteria: Sequence[Any] | None = None,
) -> ScoreResult:
    """Score and rank alternatives with one MCDA method through scikit-criteria.

    Parameters
    ----------
    matrix : array-like or pandas.DataFrame
        (m alternatives x n criteria) finite numbers; NaN is refused (impute upstream).
    objectives : sequence
        ``"max"``/``"min"`` (or +1/-1) per criterion.
    weights : sequence of float
        Non-negative weights per criterion; normalised to sum 1.
    method : str
        One of ``METHODS`` (default ``"topsis"``).
    scaler : str or None
        One of the method's allowed scalers; None picks the method's default.
    alternatives, criteria : sequence of str, optional
        Names; default ``A1..Am`` and ``C1..Cn`` (or a DataFrame's index and columns).

    Returns
    -------
    ScoreResult

    Raises
    ------
    ScoringError
        Bad shapes, names, weights, objectives, NaN cells, or values the method/scaler cannot handle.
    """
    spec, scaler = resolve_method(method, scaler)
    x, alts, crits = as_matrix(matrix, alternatives, criteria)
    m, n = x.shape
    signs = parse_objectives(objectives, n, crits)
    if len(weights) != n:
        raise ScoringError(f"got {len(weights)} weights for {n} criteria ({', '.join(crits)}); give one per criterion")
    w = validate_weights(weights, crits)
    check_values(x, signs, spec, scaler, alts, crits)

    obj_names = ["max" if s > 0 else "min" for s in signs]
    normalised, seen_objectives = _normalised(
        np.ascontiguousarray(x, dtype=float).tobytes(), x.shape, tuple(obj_names), spec.inverts_cost, scaler
    )
    seen_signs = np.array([1 if o == "max" else -1 for o in seen_objectives])

    extra: dict[str, Any] = {}
    contributions: np.ndarray | None = None
    if spec.name == "topsis":
        weighted = normalised * w
        if np.all(weighted.max(axis=0) == weighted.min(axis=0)):
            scores = np.ones(m)
            ideal = anti = weighted[0].copy()
            extra["degenerate"] = "every weighted criterion is constant: all alternatives sit on the ideal"
        else:
            _, ideal, anti, scores = _skc_aggregate("topsis", normalised, seen_signs, w)
        extra["ideal"] = np.asarray(ideal, dtype=float)
        extra["anti_ideal"] = np.asarray(anti, dtype=float)
        extra["d_ideal"] = np.sqrt(((weighted - ideal) ** 2).sum(axis=1))
        extra["d_anti_ideal"] = np.sqrt(((weighted - anti) ** 2).sum(axis=1))
    elif spec.name == "vikor":
        if m == 1:
            scores = np.zeros(1)
            extra.update(
                s_k=np.zeros(1),
                r_k=np.zeros(1),
                q_k=np.zeros(1),
                compromise_set=[alts[0]],
                acceptable_advantage=True,
                acceptable_stability=True,
                degenerate="single alternative: Q = 0 by definition",
            )
        else:
            res = _skc_vikor(scale_columns(normalised), seen_objectives, w)
            scores = np.asarray(res.e_.q_k, dtype=float)
            extra.update(
                s_k=np.asarray(res.e_.s_k, dtype=float),
                r_k=np.asarray(res.e_.r_k, dtype=float),
                q_k=scores.copy(),
                compromise_set=[alts[int(i)] for i in res.e_.compromise_set],
                acceptable_advantage=bool(res.e_.acceptable_advantage),
                acceptable_stability=bool(res.e_.acceptable_stability),
            )
        extra["v"] = VIKOR_V
    else:
        _, scores = _skc_aggregate(spec.name, normalised, seen_signs, w)
        if spec.name == "wsm":
            contributions = normalised * w
        elif spec.name == "moora":
            contributions = normalised * (w * signs)
        else:
            contributions = np.log10(normalised) * w
            extra["product"] = np.power(10.0, scores)
    scores = np.atleast_1d(np.asarray(scores, dtype=float))

    if not np.all(np.isfinite(scores)):  # pragma: no cover - guarded by the checks above
        raise ScoringError(f"{spec.name}/{scaler} produced a non-finite score; please report this input")
    ranks = rank_scores(scores, spec.higher_is_better)
    return ScoreResult(
        method=spec.name,
        scaler=scaler,
        alternatives=alts,
        criteria=crits,
        matrix=_frozen(x),
        objectives=tuple("max" if s > 0 else "min" for s in signs),
        weights=_frozen(w),
        scores=_frozen(scores),
        higher_is_better=spec.higher_is_better,
        ranks=_frozen(ranks),
        normalised=_frozen(normalised),
        contributions=None if contributions is None else _frozen(contributions),
        extra=FrozenDict({k: _frozen(v) if isinstance(v, np.ndarray) else v for k, v in extra.items()}),
    )

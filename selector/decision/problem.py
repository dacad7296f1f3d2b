"""The validated decision problem: the matrix, objectives, weights, method, scaler and names, checked once.

:meth:`Problem.of` checks everything a method needs (shapes, names, finite numbers, objectives, weights, the
method and scaler together, and the values the method and scaler can handle); scoring, the vectorised scorer and
the robustness analyses take a :class:`Problem` and check nothing again.

Methods (``METHODS``) and why each default scaler was chosen:

``mavt`` the additive value model (multi-attribute value theory), the default: each criterion's value function
         maps its fixed scale (``selector.value``: worst end 0, best end 1, linear or logarithmic) onto 0..1, and
         scikit-criteria's weighted sum adds ``w_j * v_j``. Only scaler ``value``: the scales come from the domain,
         so a score never depends on who else is ranked and a weight is a swing weight.
The other methods normalise by the data (sum, vector, min-max or VIKOR's own best-worst distance): their scores
depend on who else is ranked, so adding or removing an alternative can reorder the others. They stay available
for the method-agreement analysis and for users who want them.

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
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from selector.arrays import read_only
from selector.decision import weights as weighting
from selector.errors import SelectorError
from selector.i18n import N_, Phrase
from selector.value import ValueScales, outside_message

SCALERS: tuple[str, ...] = ("none", "sum", "vector", "minmax", "value")
#: The scaler whose scales come from the domain, not from the data: it needs a problem's ``value_scales``.
VALUE_SCALER = "value"
DEFAULT_METHOD = "mavt"


class ScoringError(SelectorError, ValueError):
    """Input the scoring engine cannot score; the message says what is wrong, where, and what to fix."""


@dataclass(frozen=True)
class MethodSpec:
    """What a method is, how it treats cost criteria, which scalers make sense for it and what it explains.

    ``intermediates`` names the method's intermediate results that a score reports (``ScoreResult.extra``), as
    pymcdm's methods declare theirs; ``contributions`` says how an additive method's score splits into one part
    per criterion (None: it does not split).
    """

    name: str
    label: str
    default_scaler: str
    scalers: tuple[str, ...]
    higher_is_better: bool
    additive: bool
    inverts_cost: bool
    rationale: str
    intermediates: tuple[str, ...] = ()
    contributions: str | None = None


METHODS: Mapping[str, MethodSpec] = MappingProxyType(
    {
        "mavt": MethodSpec(
            name="mavt",
            label=N_("Additive value model (MAVT)"),
            default_scaler=VALUE_SCALER,
            scalers=(VALUE_SCALER,),
            higher_is_better=True,
            additive=True,
            inverts_cost=False,
            rationale=N_("value functions on fixed domain scales (worst 0, best 1); weights are swing weights"),
            contributions="w * v(x)",
        ),
        "wsm": MethodSpec(
            name="wsm",
            label=N_("Weighted sum (WSM)"),
            default_scaler="sum",
            scalers=("sum", "minmax", "vector", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=True,
            rationale=N_(
                "sum scaling keeps proportions; cost criteria inverted 1/x like scikit-criteria InvertMinimize"
            ),
            contributions="w * normalised",
        ),
        "wpm": MethodSpec(
            name="wpm",
            label=N_("Weighted product (WPM)"),
            default_scaler="sum",
            scalers=("sum", "vector", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=True,
            rationale=N_("ranking invariant to per-column factors; minmax refused (log of 0); cost inverted 1/x"),
            intermediates=("product",),
            contributions="w * log10(normalised)",
        ),
        "topsis": MethodSpec(
            name="topsis",
            label=N_("TOPSIS"),
            default_scaler="vector",
            scalers=("vector", "sum", "minmax", "none"),
            higher_is_better=True,
            additive=False,
            inverts_cost=False,
            rationale=N_("vector normalisation as in Hwang & Yoon (1981); cost criteria take the minimum as ideal"),
            intermediates=("ideal", "anti_ideal", "d_ideal", "d_anti_ideal"),
        ),
        "vikor": MethodSpec(
            name="vikor",
            label=N_("VIKOR (v = 0.5)"),
            default_scaler="none",
            scalers=("none",),
            higher_is_better=False,
            additive=False,
            inverts_cost=False,
            rationale=N_("normalises internally by each criterion's best-worst distance (Opricovic & Tzeng 2004)"),
            intermediates=(
                "s_k",
                "r_k",
                "q_k",
                "compromise_set",
                "acceptable_advantage",
                "acceptable_stability",
                "v",
            ),
        ),
        "moora": MethodSpec(
            name="moora",
            label=N_("MOORA ratio system"),
            default_scaler="vector",
            scalers=("vector", "sum", "minmax", "none"),
            higher_is_better=True,
            additive=True,
            inverts_cost=False,
            rationale=N_("vector ratios as in Brauers & Zavadskas (2006); cost criteria are subtracted"),
            contributions="+/- w * normalised (cost criteria subtracted)",
        ),
    }
)


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
        raise ScoringError(
            Phrase(N_("unknown method {method}; choose one of {known}"), method=repr(method), known=", ".join(METHODS))
        )
    spec = METHODS[key]
    if scaler is None:
        return spec, spec.default_scaler
    sc = str(scaler).strip().lower()
    if sc not in SCALERS:
        raise ScoringError(
            Phrase(N_("unknown scaler {scaler}; choose one of {known}"), scaler=repr(scaler), known=", ".join(SCALERS))
        )
    if sc not in spec.scalers:
        raise ScoringError(
            Phrase(
                N_("method {method} does not allow scaler {scaler}; use one of {allowed} (default {default}: {why})"),
                method=repr(key),
                scaler=repr(sc),
                allowed=", ".join(spec.scalers),
                default=repr(spec.default_scaler),
                why=Phrase(spec.rationale),  # marked with the method (N_): said in the reader's language too
            )
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


# Why a cell cannot be scored and what to do, marked for the catalogs: a method that cannot score a matrix is
# reported beside the others (robustness, report), in the reader's language.
CELL_REFUSED = N_("cell (alternative {alternative}, criterion {criterion}) is {value}{context}: {why}; {fix}")
SUBNORMAL = N_("a subnormal number (closer to zero than 2.2e-308) has lost its precision and breaks 1/x and logarithms")
SUBNORMAL_FIX = N_("give 0 or the value in a larger unit")
INVERTS = N_("{method} inverts cost criteria (1/x, as scikit-criteria's InvertMinimize), which needs values > 0")
INVERTS_FIX = N_(
    "use method 'topsis' or 'moora' (they handle cost criteria without inverting) or give a positive value"
)
LOGARITHMS = N_("the weighted product takes logarithms, which needs values > 0")
LOGARITHMS_FIX = N_("use another method")
SUM_NEGATIVE = N_("sum scaling divides by the column sum, which is meaningless with negative values")
SUM_NEGATIVE_FIX = N_("use scaler 'vector' or 'minmax'")
WSM_NEGATIVE = N_("a weighted sum under scaler {scaler} would add a negative value")
WSM_NEGATIVE_FIX = N_("use scaler 'minmax'")


def check_values(
    matrix: np.ndarray,
    signs: np.ndarray,
    spec: MethodSpec,
    scaler: str,
    alternatives: Sequence[str],
    criteria: Sequence[str],
    *,
    context: str = "",
    value_scales: ValueScales | None = None,
) -> None:
    """Raise ``ScoringError`` for values the method and scaler cannot handle.

    ``matrix`` may carry leading batch axes (..., m, n); the message names the first offending cell. Under the
    ``value`` scaler every value must lie on its criterion's scale (``value_scales``).
    """
    if scaler == VALUE_SCALER:
        if value_scales is None:
            raise ScoringError(
                "the value scaler needs each criterion's fixed scale (lo, hi and shape); give them, or choose "
                "another scaler"
            )
        idx = value_scales.first_outside(matrix)
        if idx is not None:
            i, j = idx[-2], idx[-1]
            raise ScoringError(
                f"alternative {alternatives[i]!r}{context}: "
                + outside_message(criteria[j], float(matrix[idx]), float(value_scales.lo[j]), float(value_scales.hi[j]))
            )
        return
    cost = signs < 0

    def _fail(mask: np.ndarray, why: str, fix: str, **why_fields: str) -> None:
        idx = np.argwhere(mask)[0]
        i, j = int(idx[-2]), int(idx[-1])
        value = matrix[tuple(int(v) for v in idx)]
        raise ScoringError(
            Phrase(
                CELL_REFUSED,
                alternative=repr(alternatives[i]),
                criterion=repr(criteria[j]),
                value=f"{value:g}",
                context=context,
                why=Phrase(why, **why_fields),
                fix=Phrase(fix),
            )
        )

    tiny = (matrix != 0) & (np.abs(matrix) < sys.float_info.min)
    if tiny.any():
        _fail(
            tiny,
            SUBNORMAL,
            SUBNORMAL_FIX,
        )
    if spec.inverts_cost and cost.any():
        bad = (matrix <= 0) & cost
        if bad.any():
            _fail(
                bad,
                INVERTS,
                INVERTS_FIX,
                method=spec.name,
            )
    if spec.name == "wpm":
        bad = matrix <= 0
        if bad.any():
            _fail(bad, LOGARITHMS, LOGARITHMS_FIX)
    if scaler == "sum":
        bad = matrix < 0
        if bad.any():
            _fail(
                bad,
                SUM_NEGATIVE,
                SUM_NEGATIVE_FIX,
            )
    if spec.name == "wsm" and scaler in ("none", "vector"):
        bad = (matrix < 0) & ~cost
        if bad.any():
            _fail(bad, WSM_NEGATIVE, WSM_NEGATIVE_FIX, scaler=repr(scaler))


def criterion_weights(weights: Any, criteria: Sequence[str]) -> np.ndarray:
    """One weight per criterion, checked and normalised to sum 1 (see :func:`selector.decision.weights.normalise`)."""
    if len(weights) != len(criteria):
        raise ScoringError(
            f"got {len(weights)} weights for {len(criteria)} criteria ({', '.join(criteria)}); give one per criterion"
        )
    try:
        return weighting.normalise(weights, criteria)
    except weighting.WeightError as exc:
        raise ScoringError(str(exc)) from None


@dataclass(frozen=True, eq=False)
class Problem:
    """A decision problem every method can take as it is: built by :meth:`of`, which checks everything once.

    Attributes
    ----------
    values : numpy.ndarray
        (m, n) read-only; NaN only in a problem built with ``allow_missing`` (cells a robustness analysis samples).
    signs : numpy.ndarray
        (n,) +1 for a criterion to maximise, -1 for one to minimise.
    weights : numpy.ndarray or None
        (n,) criterion weights summing to 1; None when the problem is only sampled over weightings.
    spec : MethodSpec
    scaler : str
        One of ``spec.scalers``.
    alternatives, criteria : tuple of str
    complete : bool
        False for a problem built with ``allow_missing``: its cells are checked only when it is scored.
    value_scales : ValueScales or None
        Each criterion's fixed scale; required by the ``value`` scaler (the additive value model), kept when the
        problem moves to another method so that it can move back.
    """

    values: np.ndarray
    signs: np.ndarray
    weights: np.ndarray | None
    spec: MethodSpec
    scaler: str
    alternatives: tuple[str, ...]
    criteria: tuple[str, ...]
    complete: bool = True
    value_scales: ValueScales | None = None

    @classmethod
    def of(
        cls,
        matrix: Any,
        objectives: Sequence[Any],
        weights: Sequence[float] | None = None,
        method: str = "topsis",
        scaler: str | None = None,
        alternatives: Sequence[Any] | None = None,
        criteria: Sequence[Any] | None = None,
        *,
        allow_missing: bool = False,
        value_scales: ValueScales | None = None,
    ) -> Problem:
        """Check a decision problem given as loose parts.

        Parameters
        ----------
        matrix : array-like or pandas.DataFrame
            (m alternatives x n criteria) finite numbers.
        objectives : sequence
            ``"max"``/``"min"`` (or +1/-1, or the builtins max/min) per criterion.
        weights : sequence of float, optional
            Non-negative weights per criterion; normalised to sum 1.
        method : str
            One of ``METHODS`` (default ``"topsis"``).
        scaler : str or None
            One of the method's allowed scalers; None picks the method's default.
        alternatives, criteria : sequence of str, optional
            Names; default ``A1..Am`` and ``C1..Cn`` (or a DataFrame's index and columns).
        allow_missing : bool
            Accept NaN cells and leave the value checks to the caller, which samples every cell over a range and
            checks the ranges' ends (SMAA).
        value_scales : ValueScales, optional
            Each criterion's fixed scale (``selector.value``); required by the ``value`` scaler.

        Raises
        ------
        ScoringError
            Bad shapes, names, weights, objectives, method or scaler, NaN cells, or values the method and scaler
            cannot handle.
        """
        spec, scaler = resolve_method(method, scaler)
        x, alts, crits = as_matrix(matrix, alternatives, criteria, allow_nan=allow_missing)
        signs = parse_objectives(objectives, x.shape[1], crits)
        w = None if weights is None else criterion_weights(weights, crits)
        if value_scales is not None and len(value_scales.lo) != len(crits):
            raise ScoringError(f"got {len(value_scales.lo)} value scales for {len(crits)} criteria; give one each")
        if not allow_missing:
            check_values(x, signs, spec, scaler, alts, crits, value_scales=value_scales)
        elif scaler == VALUE_SCALER and value_scales is None:
            check_values(x[:0], signs, spec, scaler, alts, crits)
        w = None if w is None else read_only(w)
        return cls(
            read_only(x), read_only(signs), w, spec, scaler, alts, crits, not allow_missing, value_scales=value_scales
        )

    @property
    def objectives(self) -> tuple[str, ...]:
        """``"max"`` or ``"min"`` per criterion."""
        return tuple("max" if s > 0 else "min" for s in self.signs)

    def scorable_weights(self) -> np.ndarray:
        """The weights, once the problem is known to be scorable as it is: weights given and every cell a number."""
        if not self.complete:
            as_matrix(self.values, self.alternatives, self.criteria)
            check_values(
                self.values,
                self.signs,
                self.spec,
                self.scaler,
                self.alternatives,
                self.criteria,
                value_scales=self.value_scales,
            )
        if self.weights is None:
            raise ScoringError("this problem has no weights; give one weight per criterion to score it")
        return self.weights

    def with_weights(self, weights: Sequence[float]) -> Problem:
        """The same problem with these criterion weights (checked and normalised as :meth:`of` does)."""
        return replace(self, weights=read_only(criterion_weights(weights, self.criteria)))

    def with_checked_weights(self, weights: np.ndarray) -> Problem:
        """The same problem with weights :func:`criterion_weights` has already checked and normalised (a decision
        matrix's), taken as they are: a ranking normalises its weights once."""
        if len(weights) != len(self.criteria):
            raise ScoringError(f"got {len(weights)} weights for {len(self.criteria)} criteria; give one per criterion")
        return replace(self, weights=read_only(weights, copy=False))

    def with_method(self, method: str, scaler: str | None = None) -> Problem:
        """The same problem under another method (its default scaler when ``scaler`` is None), values re-checked."""
        spec, scaler = resolve_method(method, scaler)
        check_values(
            self.values, self.signs, spec, scaler, self.alternatives, self.criteria, value_scales=self.value_scales
        )
        return replace(self, spec=spec, scaler=scaler)

    def with_rows(self, rows: Sequence[int], names: Sequence[str] | None = None) -> Problem:
        """The problem on some of its alternatives (``rows``, repeats allowed), optionally renamed."""
        taken = (
            tuple(self.alternatives[i] for i in rows)
            if names is None
            else check_names(names, len(rows), "alternative", "A")
        )
        return replace(self, values=read_only(self.values[list(rows)]), alternatives=taken)

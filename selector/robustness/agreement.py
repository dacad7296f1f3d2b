"""Agreement between methods: the ranking under every method side by side, with pairwise Kendall's tau-b."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from selector import i18n
from selector.arrays import read_only
from selector.decision import scoring
from selector.decision.problem import METHODS, Problem, ScoringError, resolve_method
from selector.decision.scoring import FrozenDict, to_jsonable


@dataclass(frozen=True, eq=False)
class MethodAgreement:
    """Ranks under every method (default scalers) side by side, with pairwise Kendall's tau-b.

    ``kendall_tau[a, b]`` is NaN where tau is undefined (fewer than two alternatives, or a ranking that ties
    everything); ``to_dict`` writes it as null.
    """

    alternatives: tuple[str, ...]
    methods: tuple[str, ...]
    scalers: tuple[str, ...]
    ranks: np.ndarray
    scores: np.ndarray
    leaders: tuple[str, ...]
    kendall_tau: np.ndarray
    skipped: Mapping[str, str]

    @property
    def summary(self) -> str:
        """One sentence: do the methods agree on the leader, and how similar are the rankings."""
        return agreement_summary(self)

    def text(self, *, lang: i18n.Language = "en") -> str:
        """:attr:`summary` in `lang`."""
        return agreement_summary(self, lang=lang)

    @property
    def mean_tau(self) -> float | None:
        """Mean Kendall's tau over distinct method pairs (None when undefined)."""
        p = len(self.methods)
        vals = [self.kendall_tau[a, b] for a in range(p) for b in range(a + 1, p)]
        vals = [v for v in vals if math.isfinite(v)]
        return float(np.mean(vals)) if vals else None

    def to_dict(self, *, lang: i18n.Language = "en") -> dict[str, Any]:
        """Return a JSON-safe dict (the summary in `lang`)."""
        return to_jsonable(
            {
                "alternatives": self.alternatives,
                "methods": self.methods,
                "scalers": self.scalers,
                "ranks": self.ranks,
                "scores": self.scores,
                "leaders": self.leaders,
                "kendall_tau": self.kendall_tau,
                "mean_tau": self.mean_tau,
                "skipped": dict(self.skipped),
                "summary": agreement_summary(self, lang=lang),
            }
        )


def method_agreement(problem: Problem, methods: Sequence[str] | None = None) -> MethodAgreement:
    """Score with every method (default scaler each) and measure how far their rankings agree.

    Methods that cannot score this matrix (e.g. wpm with a zero cell) are listed in ``skipped`` with the reason.

    Parameters
    ----------
    problem : Problem
        The decision problem; its own method and scaler are not read.
    methods : sequence of str, optional
        Default: every method in ``METHODS``.

    Returns
    -------
    MethodAgreement
    """
    problem.scorable_weights()  # problems with the input itself are the caller's to fix
    names = list(methods) if methods is not None else list(METHODS)
    for name in names:
        resolve_method(name)
    results = []
    skipped: dict[str, str] = {}
    for name in names:
        try:
            results.append(scoring.score(problem.with_method(name)))
        except ScoringError as exc:
            skipped[name] = exc.message  # a Phrase kept: the report says it in its language
    if not results:
        raise ScoringError("no method could score this matrix: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
    alts = results[0].alternatives
    p = len(results)
    ranks = np.array([r.ranks for r in results])
    tau = np.full((p, p), np.nan)
    for a in range(p):
        tau[a, a] = 1.0
        for b in range(a + 1, p):
            if len(alts) >= 2:
                tau[a, b] = tau[b, a] = kendall_tau(ranks[a], ranks[b])
    leaders = tuple(r.leader for r in results)
    return MethodAgreement(
        alternatives=alts,
        methods=tuple(r.method for r in results),
        scalers=tuple(r.scaler for r in results),
        ranks=read_only(ranks, np.int64),
        scores=read_only([r.scores for r in results], float),
        leaders=leaders,
        kendall_tau=read_only(tau, float),
        skipped=FrozenDict(skipped),
    )


# Rankings longer than this go to scipy.stats.kendalltau: the pairwise signs below take memory in the square of it.
_PAIRWISE_MOST = 2000


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings of the same alternatives: ``scipy.stats.kendalltau(x, y).statistic``.

    NaN when it is undefined (fewer than two alternatives, or either ranking ties them all). Computed from the
    signs of every pair, sum(sx * sy) / sqrt(sum(sx ** 2) * sum(sy ** 2)), which is tau-b's (C - D) over the
    pairs untied in each ranking: the report and the analyses then run without importing scipy.stats, about half
    a second of every process that writes a report (tests compare the two).
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"kendall_tau needs two rankings of the same length; got shapes {a.shape} and {b.shape}")
    if len(a) > _PAIRWISE_MOST or np.isnan(a).any() or np.isnan(b).any():
        from scipy.stats import kendalltau

        return float(kendalltau(a, b).statistic)
    sx = np.sign(a[:, None] - a[None, :])
    sy = np.sign(b[:, None] - b[None, :])
    untied = float((sx * sx).sum()) * float((sy * sy).sum())
    return float((sx * sy).sum() / math.sqrt(untied)) if untied else math.nan


def agreement_summary(ag: MethodAgreement, *, lang: i18n.Language = "en") -> str:
    """:attr:`MethodAgreement.summary` in `lang`."""
    _ = i18n.translator(lang)
    mean = ag.mean_tau
    if mean is not None:
        tau_text = _("mean pairwise Kendall's tau {tau}").format(tau=f"{mean:.2f}")
    else:
        tau_text = _("Kendall's tau undefined")
    if len(set(ag.leaders)) == 1:
        text = _("All {count} methods rank {leader} first; {tau}.").format(
            count=len(ag.methods), leader=ag.leaders[0], tau=tau_text
        )
    else:
        groups: dict[str, list[str]] = {}
        for method, leader in zip(ag.methods, ag.leaders, strict=True):
            groups.setdefault(leader, []).append(method)
        parts = "; ".join(f"{', '.join(ms)} -> {leader}" for leader, ms in groups.items())
        text = _("Methods disagree on the leader ({parts}); {tau}.").format(parts=parts, tau=tau_text)
    if ag.skipped:
        text += " " + _("Skipped: {methods} (cannot score this matrix).").format(methods=", ".join(ag.skipped))
    return text

"""Detecting where claims agree, disagree or cannot be compared, by code rather than by hand.

Three checks:

* direct: claims with the same metric, subject, unit and conditions (comparable) whose values differ by more
  than a tolerance disagree; within it they corroborate each other;
* derived: a relative claim (speed-up or throughput gain) is checked against the absolute numbers the knowledge
  holds for the same conditions (e.g. "15% more throughput" against a table of throughputs);
* not comparable: the same metric about the same subject under different conditions, listed so nobody compares
  them by mistake.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from selector.knowledge.models import Claim, KnowledgeBase

ConflictKind = Literal[
    "disagreement", "corroboration", "derived-mismatch", "derived-agreement", "not-comparable", "spread"
]
TOLERANCE = 0.10  # relative difference under which two figures are taken to agree

# Before/after pairs describe one change, not two rival measurements; their scenario differs by design.
_RELATIVE_METRICS = {"speedup": "x", "throughput_gain_pct": "%"}


@dataclass(frozen=True)
class Conflict:
    """A finding about two or more claims."""

    kind: ConflictKind
    metric: str
    subject: str
    claims: tuple[str, ...]
    message: str

    @property
    def is_problem(self) -> bool:
        return self.kind in ("disagreement", "derived-mismatch")

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "metric": self.metric,
            "subject": self.subject,
            "claims": list(self.claims),
            "message": self.message,
        }


def _relative_difference(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def _numeric(kb: KnowledgeBase) -> list[Claim]:
    # Our own assessed ratings are judgements, not evidence to be checked against itself.
    return [c for c in kb.claims.values() if c.value is not None and c.tier != "assessed"]


def _as_ratio(claim: Claim) -> tuple[str, str, float]:
    """(metric, unit, value) with a percentage gain expressed as a speed-up, so "+18%" meets "1.8x"."""
    if claim.metric == "throughput_gain_pct" and claim.unit == "%":
        return "speedup", "x", 1 + claim.value / 100
    return claim.metric, claim.unit, claim.value


def _one_dataset(claims: list[Claim]) -> bool:
    """All from bundled datasets: several systems' results, or several offers of a price list, not rival claims.

    They spread by nature (host, software, node count; provider, date); the cell takes the median of the
    strongest tier. A dataset number against an article's is checked as a possible disagreement.
    """
    return all(c.locator is not None for c in claims)


def _origin(claim: Claim) -> str:
    return f"{claim.source} ({claim.tier})"


def _direct(kb: KnowledgeBase) -> list[Conflict]:
    by_key: dict[tuple, list[Claim]] = defaultdict(list)
    for claim in _numeric(kb):
        by_key[(claim.metric, claim.subject_id, claim.unit, claim.conditions.key())].append(claim)
    found = []
    for (metric, subject, unit, _), claims in by_key.items():
        if len(claims) < 2:
            continue
        values = [c.value for c in claims]
        spread = _relative_difference(min(values), max(values))
        ids = tuple(c.id for c in claims)
        listing = ", ".join(f"{c.id} = {c.value:g} {unit}" for c in claims)
        name = kb.entity_name(subject)
        if _one_dataset(claims):
            # Different submitters' systems differ (host, software, node count); the cell takes their median.
            message = (
                f"{name}, {metric}: {len(claims)} results of {', '.join(sorted({c.source for c in claims}))} "
                f"spread {spread:.0%} (median used in rankings)"
            )
            found.append(Conflict("spread", metric, subject, ids, message))
            continue
        origins = sorted({_origin(c) for c in claims})
        if spread > TOLERANCE and len(origins) > 1 and any(c.locator is not None for c in claims):
            message = (
                f"{name}, {metric}: comparable claims disagree by {spread:.0%} ({listing}); sources "
                f"{' vs '.join(origins)}: the stronger tier fills the ranking cell, both stay listed"
            )
            found.append(Conflict("disagreement", metric, subject, ids, message))
        elif spread > TOLERANCE:
            message = f"{name}, {metric}: comparable claims disagree by {spread:.0%} ({listing})"
            found.append(Conflict("disagreement", metric, subject, ids, message))
        else:
            message = f"{name}, {metric}: comparable claims agree ({listing})"
            found.append(Conflict("corroboration", metric, subject, ids, message))
    return found


def _setting(claim: Claim) -> tuple[str | None, str, str]:
    """What two claims must share to be compared: the hardware, the workload (any case) and the task."""
    return (claim.conditions.hardware, (claim.conditions.workload or "").lower(), claim.conditions.task or "")


def _derived(kb: KnowledgeBase) -> list[Conflict]:
    found = []
    # the absolute throughputs by setting, and by setting and subject, in knowledge order: looked up per relative
    # claim instead of scanning every throughput for each (which grew as the square of the evidence)
    by_setting: dict[tuple, list[Claim]] = defaultdict(list)
    by_subject: dict[tuple, list[Claim]] = defaultdict(list)
    for c in _numeric(kb):
        if c.metric == "throughput":
            by_setting[_setting(c)].append(c)
            by_subject[(*_setting(c), c.subject_id)].append(c)
    for claim in _numeric(kb):
        if claim.metric not in _RELATIVE_METRICS or claim.unit != _RELATIVE_METRICS[claim.metric]:
            continue
        setting = _setting(claim)
        own = by_subject.get((*setting, claim.subject_id))
        if not own:
            continue
        mine = own[0]
        named = claim.conditions.baseline_entity
        if named is None:
            baselines = [c for c in by_setting[setting] if c.subject_id != claim.subject_id]
        else:
            baselines = [] if named == claim.subject_id else by_subject.get((*setting, named), [])
        if not baselines:
            continue
        stated = claim.value if claim.metric == "speedup" else 1 + claim.value / 100
        implied = {b.id: mine.value / b.value for b in baselines if b.value}
        best_id = min(implied, key=lambda i: abs(implied[i] - stated))
        best = implied[best_id]
        gap = _relative_difference(best, stated)
        others = "; ".join(f"vs {kb.claims[i].subject_id}: {v:.3f}x" for i, v in implied.items() if i != best_id)
        stated_text = f"{claim.value:g}{claim.unit}"
        detail = (
            f"{kb.entity_name(claim.subject_id)}: stated {stated_text} ({stated:.3f}x); the absolute figures "
            f"{mine.id} / {best_id} imply {best:.3f}x"
        )
        if others:
            detail += f" (other baselines: {others})"
        kind: ConflictKind = "derived-agreement" if gap <= TOLERANCE / 2 else "derived-mismatch"
        found.append(Conflict(kind, claim.metric, claim.subject_id, (claim.id, mine.id, best_id), detail))
    return found


def _describe(claim: Claim) -> str:
    return ", ".join(f"{k}: {v}" for k, v in claim.conditions.key()) or "no conditions"


def _not_comparable(kb: KnowledgeBase) -> list[Conflict]:
    by_subject: dict[tuple, list[Claim]] = defaultdict(list)
    for claim in _numeric(kb):
        metric, unit, _ = _as_ratio(claim)
        # `scope` names *what* is measured (a dimension's weight, a target versus an average): different scopes
        # are different quantities, not one quantity under different conditions.
        by_subject[(metric, claim.subject_id, unit, claim.conditions.scope)].append(claim)
    found = []
    for (metric, subject, unit, _scope), claims in by_subject.items():
        settings = {c.conditions.key() for c in claims}
        if len(settings) < 2 or _one_dataset(claims):
            continue
        # A before/after pair of one optimisation is one story, not two settings to confuse.
        if all((c.conditions.scenario or "").startswith(("before", "after", "with", "without")) for c in claims):
            continue
        listing = "; ".join(f"{c.id} = {_as_ratio(c)[2]:g} {unit} ({_describe(c)})" for c in claims)
        found.append(
            Conflict(
                "not-comparable",
                metric,
                subject,
                tuple(c.id for c in claims),
                f"{kb.entity_name(subject)}, {metric}: measured under different conditions, do not compare: {listing}",
            )
        )
    return found


def detect(kb: KnowledgeBase) -> list[Conflict]:
    """Every finding, problems first (disagreements and derived mismatches), then agreements and cautions."""
    found = _direct(kb) + _derived(kb) + _not_comparable(kb)
    order = {
        "disagreement": 0,
        "derived-mismatch": 1,
        "not-comparable": 2,
        "derived-agreement": 3,
        "corroboration": 4,
        "spread": 5,
    }
    return sorted(found, key=lambda c: (order[c.kind], c.metric, c.subject))

"""Where each option is good or bad, and what the decision means: MADR's "Pros and Cons" and "Consequences"."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from selector.report import formats
from selector.report.model import CriterionInfo, OptionRow, Point, ProsCons, RobustnessInfo, RuleInfo
from selector.robustness import figure


def pros_cons(
    options: Sequence[OptionRow], criteria: Sequence[CriterionInfo], rules: Sequence[RuleInfo]
) -> tuple[ProsCons, ...]:
    """Per option: where it is best or worst of the group, where evidence is missing or flagged, what the tree says."""
    result = []
    for option in options:
        points: list[Point] = []
        for rule in rules:
            if option.id in rule.recommend_ids:
                points.append(Point("good", f"the decision trees recommend it: {rule.rationale}", rule.claims))
            if option.id in rule.exclude_ids:
                points.append(Point("bad", f"the decision trees exclude it: {rule.rationale}", rule.claims))
        for j, crit in enumerate(criteria):
            cell = option.cells[j]
            column = np.array([o.cells[j].value for o in options], dtype=float)
            amount = formats.amount(cell.value, crit.unit)
            if cell.imputed:
                how = cell.note.removeprefix("no evidence; ") or "imputed"
                points.append(Point("bad", f"there is no evidence for its {crit.name}; {how} ({amount})"))
                continue
            spread = np.ptp(column) > 1e-12 * max(1.0, float(np.abs(column).max()))
            best = column.max() if crit.objective == "max" else column.min()
            worst = column.min() if crit.objective == "max" else column.max()
            if not spread:
                points.append(Point("neutral", f"every option has the same {crit.name} ({amount})", cell.evidence))
            elif math.isclose(cell.value, best, rel_tol=1e-12, abs_tol=1e-12):
                points.append(Point("good", f"it has the best {crit.name} of the options ({amount})", cell.evidence))
            elif math.isclose(cell.value, worst, rel_tol=1e-12, abs_tol=1e-12):
                points.append(Point("bad", f"it has the worst {crit.name} of the options ({amount})", cell.evidence))
            else:
                points.append(
                    Point("neutral", f"its {crit.name} lies between the best and the worst ({amount})", cell.evidence)
                )
            if cell.flagged:
                points.append(Point("bad", f"its {crit.name} value rests on a flagged claim", cell.evidence))
        order = {"good": 0, "neutral": 1, "bad": 2}
        result.append(ProsCons(option.name, tuple(sorted(points, key=lambda p: order[p.verdict]))))
    return tuple(result)


def consequences(
    options: Sequence[OptionRow],
    recommended_id: str,
    criteria: Sequence[CriterionInfo],
    robustness: RobustnessInfo,
    method_label: str,
    scaler: str,
) -> tuple[Point, ...]:
    chosen = next(o for o in options if o.id == recommended_id)
    leader = options[0]
    points: list[Point] = []
    if chosen.id == leader.id:
        points.append(
            Point("good", f"{chosen.name} has the best score under {method_label}, {formats.scaling(scaler)}.")
        )
    else:
        points.append(
            Point(
                "neutral",
                f"{chosen.name} is the best-ranked option the decision trees shortlist; {leader.name} scores higher "
                f"(rank {leader.rank} vs {chosen.rank}) but was not recommended for this scenario.",
            )
        )
    index = next(i for i, o in enumerate(options) if o.id == chosen.id)
    if robustness.first_share:
        share = robustness.first_share[index]
        points.append(
            Point(
                figure.TONES[figure.level(share)],
                f"{figure.held(chosen.name, share, robustness.samples, None)} (SMAA rank acceptability; "
                f"{figure.LEVELS}).",
            )
        )
    gaps = [c.name for c, cell in zip(criteria, chosen.cells, strict=True) if cell.imputed]
    if gaps:
        points.append(
            Point("bad", f"there is no evidence for {chosen.name} on {', '.join(gaps)}; measure it before committing.")
        )
    flagged = sorted({e for c in chosen.cells if c.flagged for e in c.evidence})
    if flagged:
        points.append(
            Point("bad", f"part of {chosen.name}'s evidence is flagged as doubtful; check it.", tuple(flagged))
        )
    points.extend(Point("neutral", sentence.rstrip(".") + ".") for sentence in robustness.tipping_points[:3])
    disagree = [m for m in robustness.methods if m.leader != leader.name]
    if robustness.methods:
        if disagree:
            points.append(
                Point(
                    "bad",
                    "other MCDA methods crown another leader: "
                    + "; ".join(f"{m.label} picks {m.leader}" for m in disagree)
                    + ".",
                )
            )
        else:
            points.append(Point("good", f"all {len(robustness.methods)} MCDA methods compared agree on the leader."))
    return tuple(points)

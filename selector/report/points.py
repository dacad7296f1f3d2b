"""Where each option is good or bad, and what the decision means: MADR's "Pros and Cons" and "Consequences"."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from selector import i18n
from selector.report import formats
from selector.report.model import CellInfo, CriterionInfo, OptionRow, Point, ProsCons, RobustnessInfo, RuleInfo
from selector.robustness import figure


def pros_cons(
    options: Sequence[OptionRow],
    criteria: Sequence[CriterionInfo],
    rules: Sequence[RuleInfo],
    *,
    lang: i18n.Language = "en",
) -> tuple[ProsCons, ...]:
    """Per option: where it is best or worst of the group, where evidence is missing or flagged, what the tree says
    (in `lang`)."""
    _ = i18n.translator(lang)
    result = []
    for option in options:
        points: list[Point] = []
        for rule in rules:
            if option.id in rule.recommend_ids:
                text = _("the decision trees recommend it: {why}").format(why=rule.rationale)
                points.append(Point("good", text, rule.claims))
            if option.id in rule.exclude_ids:
                points.append(
                    Point("bad", _("the decision trees exclude it: {why}").format(why=rule.rationale), rule.claims)
                )
        for j, crit in enumerate(criteria):
            column = np.array([o.cells[j].value for o in options], dtype=float)
            points.extend(_criterion_points(option.cells[j], crit, column, lang))
        order = {"good": 0, "neutral": 1, "bad": 2}
        result.append(ProsCons(option.name, tuple(sorted(points, key=lambda p: order[p.verdict]))))
    return tuple(result)


def _criterion_points(cell: CellInfo, crit: CriterionInfo, column: np.ndarray, lang: i18n.Language) -> list[Point]:
    """Where one option stands on one criterion among the options (`column`), and whether that rests on a flag."""
    _ = i18n.translator(lang)
    words = {"criterion": crit.name, "amount": formats.amount(cell.value, crit.unit)}
    if cell.imputed:
        how = cell.note.removeprefix("no evidence; ") if lang == i18n.SOURCE_LANGUAGE else ""
        text = _("there is no evidence for its {criterion}; {how} ({amount})")
        return [Point("bad", text.format(how=how or _("imputed"), **words))]
    spread = np.ptp(column) > 1e-12 * max(1.0, float(np.abs(column).max()))
    best = column.max() if crit.objective == "max" else column.min()
    worst = column.min() if crit.objective == "max" else column.max()
    if not spread:
        verdict, text = "neutral", _("every option has the same {criterion} ({amount})")
    elif math.isclose(cell.value, best, rel_tol=1e-12, abs_tol=1e-12):
        verdict, text = "good", _("it has the best {criterion} of the options ({amount})")
    elif math.isclose(cell.value, worst, rel_tol=1e-12, abs_tol=1e-12):
        verdict, text = "bad", _("it has the worst {criterion} of the options ({amount})")
    else:
        verdict, text = "neutral", _("its {criterion} lies between the best and the worst ({amount})")
    found = [Point(verdict, text.format(**words), cell.evidence)]
    if cell.flagged:
        found.append(Point("bad", _("its {criterion} value rests on a flagged claim").format(**words), cell.evidence))
    return found


def consequences(
    options: Sequence[OptionRow],
    recommended_id: str,
    criteria: Sequence[CriterionInfo],
    robustness: RobustnessInfo,
    method_label: str,
    scaler: str,
    *,
    lang: i18n.Language = "en",
) -> tuple[Point, ...]:
    """What choosing the recommended option means (MADR's "Consequences"), in `lang`."""
    _ = i18n.translator(lang)
    chosen = next(o for o in options if o.id == recommended_id)
    leader = options[0]
    points: list[Point] = []
    if chosen.id == leader.id:
        text = _("{name} has the best score under {method}, {scaling}.").format(
            name=chosen.name, method=method_label, scaling=formats.scaling(scaler, lang=lang)
        )
        points.append(Point("good", text))
    else:
        text = _(
            "{name} is the best-ranked option the decision trees shortlist; {leader} scores higher (rank {leader_rank} "
            "vs {rank}) but was not recommended for this scenario."
        ).format(name=chosen.name, leader=leader.name, leader_rank=leader.rank, rank=chosen.rank)
        points.append(Point("neutral", text))
    index = next(i for i, o in enumerate(options) if o.id == chosen.id)
    if robustness.first_share:
        share = robustness.first_share[index]
        text = _("{held} (SMAA rank acceptability; {levels}).").format(
            held=figure.held(chosen.name, share, robustness.samples, None, lang=lang), levels=figure.levels(lang=lang)
        )
        points.append(Point(figure.TONES[figure.level(share)], text))
    gaps = [c.name for c, cell in zip(criteria, chosen.cells, strict=True) if cell.imputed]
    if gaps:
        text = _("there is no evidence for {name} on {criteria}; measure it before committing.")
        points.append(Point("bad", text.format(name=chosen.name, criteria=", ".join(gaps))))
    flagged = sorted({e for c in chosen.cells if c.flagged for e in c.evidence})
    if flagged:
        text = _("part of {name}'s evidence is flagged as doubtful; check it.").format(name=chosen.name)
        points.append(Point("bad", text, tuple(flagged)))
    points.extend(
        Point("neutral", _("{sentence}.").format(sentence=sentence.rstrip(".")))
        for sentence in robustness.tipping_points[:3]
    )
    disagree = [m for m in robustness.methods if m.leader != leader.name]
    if robustness.methods:
        if disagree:
            picks = "; ".join(_("{method} picks {name}").format(method=m.label, name=m.leader) for m in disagree)
            points.append(Point("bad", _("other MCDA methods crown another leader: {picks}.").format(picks=picks)))
        else:
            text = _("all {count} MCDA methods compared agree on the leader.").format(count=len(robustness.methods))
            points.append(Point("good", text))
    return tuple(points)

"""A recommendation: the decision-tree shortlist combined with the MCDA ranking of one group, explained."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from selector import i18n
from selector.decision import decision_tree, matrix, scoring
from selector.decision.preferences import Preferences
from selector.decision.problem import Problem
from selector.knowledge.models import KnowledgeBase


@dataclass(frozen=True)
class RankedAlternative:
    id: str
    name: str
    rank: int
    score: float
    shortlisted: bool

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "rank": self.rank,
            "score": self.score,
            "shortlisted": self.shortlisted,
        }


@dataclass(frozen=True)
class Recommendation:
    """Everything a screen, the command line or a report needs to show one ranking and defend it."""

    prefs: Preferences
    matrix: matrix.DecisionMatrix
    problem: Problem  # what was scored: the matrix's values and weights under the method and scaler
    result: scoring.ScoreResult
    path: decision_tree.DecisionPath
    ranking: tuple[RankedAlternative, ...]
    recommended: str  # the best-ranked shortlisted alternative, else the leader
    why: str
    data_hash: str
    preference: str = ""  # when the rules' choice is not the score leader: which rule, its rank, why the leader leads
    kb: KnowledgeBase | None = None  # the knowledge it was ranked on (the verdict reads the claims' flags)

    @property
    def leader(self) -> RankedAlternative:
        return self.ranking[0]

    @property
    def recommended_entry(self) -> RankedAlternative:
        return next(r for r in self.ranking if r.id == self.recommended)

    def why_in(self, lang: i18n.Language) -> str:
        """:attr:`why` in `lang` (worded again from the same ranking; English is the stored sentence)."""
        if lang == i18n.SOURCE_LANGUAGE or self.kb is None:
            return self.why
        return explain(self.kb, self.matrix, self.result, lang=lang)

    def preference_in(self, lang: i18n.Language) -> str:
        """:attr:`preference` in `lang`."""
        if lang == i18n.SOURCE_LANGUAGE or self.kb is None or not self.preference:
            return self.preference
        return rule_preference(self.kb, self.matrix, self.result, self.path, self.ranking, self.recommended, lang=lang)

    def to_dict(self) -> dict:
        dm = self.matrix
        return {
            "group": dm.group,
            "method": self.result.method,
            "scaler": self.result.scaler,
            "missing_policy": dm.missing_policy,
            "use_flagged": self.prefs.use_flagged,
            "dimension_weights": dm.dimension_weights,
            "criteria": [
                {"id": c, "objective": o, "dimension": d, "weight": float(w)}
                for c, o, d, w in zip(dm.criteria, dm.objectives, dm.dimension_of, dm.weights, strict=True)
            ],
            "ranking": [r.to_dict() for r in self.ranking],
            "recommended": self.recommended,
            "why": self.why,
            "rule_preference": self.preference,
            "cells": [c.to_dict() for row in dm.cells for c in row],
            "contributions": None if self.result.contributions is None else self.result.contributions.tolist(),
            "imputed_cells": [c.to_dict() for c in dm.imputed_cells],
            "excluded_alternatives": [e.to_dict() for e in dm.excluded_alternatives],
            "excluded_criteria": [e.to_dict() for e in dm.excluded_criteria],
            "notes": list(dm.notes),
            "decision_path": self.path.to_dict(),
            "data_hash": self.data_hash,
        }


def criterion_advantages(dm: matrix.DecisionMatrix, result: scoring.ScoreResult, a: int, b: int) -> np.ndarray:
    """How much each criterion favours alternative `a` over `b`.

    Additive methods split their score exactly, so their contributions are compared. TOPSIS and VIKOR do not;
    for them the raw values are put on a common direction-aware 0..1 scale (1 = best of the column) and
    weighted, which says which criteria pull the two apart without pretending to decompose the score.
    """
    if result.contributions is not None:
        return result.contributions[a] - result.contributions[b]
    values = dm.values
    low, high = values.min(axis=0), values.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    goodness = (values - low) / span
    is_cost = np.array([o == "min" for o in dm.objectives])
    goodness[:, is_cost] = 1 - goodness[:, is_cost]
    return (goodness[a] - goodness[b]) * dm.weights


def explain(
    kb: KnowledgeBase, dm: matrix.DecisionMatrix, result: scoring.ScoreResult, *, lang: i18n.Language = "en"
) -> str:
    """One sentence saying why the leader leads the runner-up, in `lang` (criteria named in it where the knowledge
    has their name in it)."""
    _ = i18n.translator(lang)
    order = np.argsort(result.ranks, kind="stable")
    leader = dm.alternatives[order[0]]
    if len(order) < 2:
        return _("{name} is the only alternative left to rank.").format(name=kb.entity_name(leader))
    runner = order[1]
    if result.ranks[order[0]] == result.ranks[runner]:
        tied = [kb.entity_name(dm.alternatives[i]) for i in order if result.ranks[i] == result.ranks[order[0]]]
        return _("{names} tie for first place: equal scores, no criterion separates them.").format(
            names=i18n.join_names(tied, lang=lang)
        )
    adv = criterion_advantages(dm, result, order[0], runner)
    best = [i for i in np.argsort(-adv) if adv[i] > 0][:2]
    worst = [i for i in np.argsort(adv) if adv[i] < 0][:1]

    def named(j: int) -> str:
        criterion = kb.criteria[dm.criteria[j]]
        return i18n.pick(lang, criterion.name_en, criterion.name_zh)

    names = (" and " if lang == "en" else " 和 ").join(named(i) for i in best) or _("no single criterion")
    sentence = _("{leader} leads {runner} mainly on {criteria}").format(
        leader=kb.entity_name(leader), runner=kb.entity_name(dm.alternatives[runner]), criteria=names
    )
    if worst:
        sentence += _(", despite trailing on {criterion}").format(criterion=named(worst[0]))
    return _("{sentence}.").format(sentence=sentence)


def _answer_text(kb: KnowledgeBase, question: str, answer: str, lang: i18n.Language = "en") -> str:
    label = next(
        (i18n.pick(lang, o.label_en, o.label_zh) for o in kb.questions[question].options if o.id == answer), answer
    )
    return f"{question} = {label}"


def rule_preference(
    kb: KnowledgeBase,
    dm: matrix.DecisionMatrix,
    result: scoring.ScoreResult,
    path: decision_tree.DecisionPath,
    ranking: tuple[RankedAlternative, ...],
    recommended: str,
    *,
    lang: i18n.Language = "en",
) -> str:
    """When the rules' choice is not the score leader: "the articles' rule R prefers X for <answers>; by your
    weights X ranks N of M; the score leader is Z because ..."; else "". Worded in `lang`."""
    _ = i18n.translator(lang)
    leader = ranking[0]
    if recommended == leader.id:
        return ""
    chosen = next(r for r in ranking if r.id == recommended)
    fired = {f.id: f for f in path.fired}
    rules = [e.rule for e in path.group_advice(dm.group).recommending if recommended in e.recommend]
    answers = dict.fromkeys(_answer_text(kb, q, a, lang) for r in rules for q, a in fired[r].matched.items())
    adv = criterion_advantages(dm, result, dm.alternatives.index(leader.id), dm.alternatives.index(recommended))
    criteria = [kb.criteria[dm.criteria[i]] for i in np.argsort(-adv) if adv[i] > 0][:2]
    best = [i18n.pick(lang, c.name_en, c.name_zh) for c in criteria]
    if best:
        because = _("it leads {name} mainly on {criteria}").format(
            name=chosen.name, criteria=(" and " if lang == "en" else " 和 ").join(best)
        )
    else:
        because = _("its score is higher")
    if len(rules) == 1:
        who = _("The articles' rule {rules} prefers {name}")
    else:
        who = _("The articles' rules {rules} prefer {name}")
    who = who.format(rules=i18n.join_names(rules, lang=lang), name=chosen.name)
    return _(
        "{who} for {answers}; by your weights {name} ranks {rank} of {count}; the score leader is {leader} because "
        "{because}."
    ).format(
        who=who,
        answers="; ".join(answers),
        name=chosen.name,
        rank=chosen.rank,
        count=len(ranking),
        leader=leader.name,
        because=because,
    )


def recommend(kb: KnowledgeBase, prefs: Preferences) -> Recommendation:
    """Rank ``prefs.group`` and combine it with the decision-tree shortlist for ``prefs.answers``."""
    dm = matrix.build(kb, prefs)
    path = decision_tree.evaluate(kb, prefs.answers, prefs.use_flagged)
    problem = dm.problem(prefs.method, prefs.scaler)
    result = scoring.score(problem)
    shortlist = set(path.shortlisted(dm.group))
    order = sorted(range(len(dm.alternatives)), key=lambda i: (result.ranks[i], dm.alternatives[i]))
    ranking = tuple(
        RankedAlternative(
            id=dm.alternatives[i],
            name=kb.entity_name(dm.alternatives[i]),
            rank=int(result.ranks[i]),
            score=float(result.scores[i]),
            shortlisted=dm.alternatives[i] in shortlist,
        )
        for i in order
    )
    preferred = next((r.id for r in ranking if r.shortlisted), ranking[0].id)
    preference = rule_preference(kb, dm, result, path, ranking, preferred)
    why = explain(kb, dm, result)
    return Recommendation(prefs, dm, problem, result, path, ranking, preferred, why, kb.data_hash, preference, kb)

"""The articles' decision trees: scenario answers -> the rules that fired, why, and the advice for each group.

A rule speaks only for the groups it names (``Rule.groups``); a rule without groups speaks for every group that
holds one of the entities it names or selects by facts. A question the user has not answered stays unanswered: no
rule fires on it. How the fired rules' effects narrow into one shortlist per group is
:mod:`selector.decision.shortlist`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from selector import i18n
from selector.decision import shortlist
from selector.decision.preferences import PreferenceError
from selector.i18n import N_
from selector.knowledge import facts
from selector.knowledge.models import KnowledgeBase, Rule
from selector.memo import PerKnowledge

NO_ADVICE = N_("the articles give no advice for this combination; ranking every member")
SHORTLISTED = N_("shortlisted by your scenario: {names}")
EXCLUDED_REST = N_("the rules exclude {removed}; no rule shortlists a member, so the rest are ranked")


@dataclass(frozen=True)
class FiredRule:
    """A rule whose conditions all matched, with its rationale, source claims and the groups it speaks for."""

    id: str
    tree: str
    matched: dict[str, str]
    recommend: tuple[str, ...]
    exclude: tuple[str, ...]
    rationale: str
    claims: tuple[str, ...]
    groups: tuple[str, ...] = ()  # the groups it speaks for (explicit, or those holding its entities)
    recommend_where: dict[str, tuple[str, ...]] | None = None
    exclude_where: dict[str, tuple[str, ...]] | None = None

    def applies_to(self, group: str) -> bool:
        """Whether this rule speaks for `group` (a rule for another group is not advice for this one)."""
        return group in self.groups

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "tree": self.tree,
            "matched": dict(self.matched),
            "recommend": list(self.recommend),
            "exclude": list(self.exclude),
            "recommend_where": {k: list(v) for k, v in (self.recommend_where or {}).items()},
            "exclude_where": {k: list(v) for k, v in (self.exclude_where or {}).items()},
            "groups": list(self.groups),
            "rationale": self.rationale,
            "claims": list(self.claims),
        }


@dataclass(frozen=True)
class DecisionPath:
    """The outcome of the decision trees for one set of answers."""

    answers: dict[str, str]
    fired: tuple[FiredRule, ...]
    shortlist: dict[str, tuple[str, ...]]  # group id -> members that the rules for that group recommend
    excluded_in: dict[str, tuple[str, ...]]  # group id -> members that the rules for that group exclude
    other_candidates: tuple[str, ...]  # recommended entities outside every group (e.g. a serving system)
    unanswered: tuple[str, ...] = ()  # questions not answered, in knowledge order
    advice_in: dict[str, shortlist.GroupAdvice] | None = None  # group id -> the rules' narrowed advice
    use_flagged: bool = True

    def shortlisted(self, group: str) -> tuple[str, ...]:
        return self.shortlist.get(group, ())

    def excluded_from(self, group: str) -> tuple[str, ...]:
        """The members of `group` that a rule for that group excludes."""
        return self.excluded_in.get(group, ())

    def group_advice(self, group: str) -> shortlist.GroupAdvice:
        """The rules' advice for `group` (an empty one for a group no rule speaks for)."""
        found = (self.advice_in or {}).get(group)
        return found if found is not None else shortlist.GroupAdvice(group, (), (), ())

    def exclusions(self, group: str) -> tuple[tuple[str, str], ...]:
        """(member, reason) for every member of `group` a rule excludes: what the ranking removes."""
        rules = {f.id: f for f in self.fired}
        return tuple(
            (member, f"excluded by rule {rule}: {_exclusion_reason(rules[rule], member)}")
            for member, rule in self.group_advice(group).excluded
        )

    @property
    def excluded(self) -> tuple[str, ...]:
        """Every entity excluded by a fired rule, in any group."""
        return tuple(sorted({e for members in self.excluded_in.values() for e in members}))

    def rules_for(self, group: str) -> tuple[FiredRule, ...]:
        return tuple(f for f in self.fired if f.applies_to(group))

    def rules_elsewhere(self, group: str) -> tuple[FiredRule, ...]:
        return tuple(f for f in self.fired if not f.applies_to(group))

    def advice(self, group: str, name: Callable[[str], str] = str, *, lang: i18n.Language = "en") -> str:
        """What the trees say for `group`: the shortlist, a conflict, exclusions, or that they say nothing
        (entities written by `name`, e.g. ``kb.entity_name``), in `lang`."""
        found = self.group_advice(group)
        if found.conflict:
            return found.conflict
        if self.shortlisted(group):
            return i18n.stored(SHORTLISTED, lang).format(names=", ".join(map(name, self.shortlisted(group))))
        if found.excluded:
            removed = ", ".join(name(m) for m, __ in found.excluded)
            return i18n.stored(EXCLUDED_REST, lang).format(removed=removed)
        return i18n.stored(NO_ADVICE, lang)

    def to_dict(self) -> dict:
        return {
            "answers": dict(self.answers),
            "unanswered": list(self.unanswered),
            "fired": [f.to_dict() for f in self.fired],
            "shortlist": {g: list(m) for g, m in self.shortlist.items()},
            "excluded": {g: list(m) for g, m in self.excluded_in.items()},
            "advice": {g: a.to_dict() for g, a in (self.advice_in or {}).items()},
            "other_candidates": list(self.other_candidates),
        }


def _exclusion_reason(rule: FiredRule, member: str) -> str:
    if member in rule.exclude or not rule.exclude_where:
        return "named by the rule"
    return facts.describe(rule.exclude_where)


def resolve_answers(kb: KnowledgeBase, answers: Mapping[str, str]) -> dict[str, str]:
    """The answers given, in question order; an unknown question or option is refused. Nothing is filled in."""
    unknown = set(answers) - set(kb.questions)
    if unknown:
        raise PreferenceError(f"unknown question(s) {', '.join(sorted(unknown))}; questions: {', '.join(kb.questions)}")
    resolved = {}
    for qid, question in kb.questions.items():
        answer = answers.get(qid)
        if answer is None:
            continue
        options = [o.id for o in question.options]
        if answer not in options:
            raise PreferenceError(f"`{answer}` is not an answer to `{qid}`; choose one of: {', '.join(options)}")
        resolved[qid] = answer
    return resolved


# Which groups each rule speaks for depends on the knowledge alone; the page asks for every rule's on each run.
_RULE_GROUPS = PerKnowledge(8)


def rule_groups(kb: KnowledgeBase, rule: Rule) -> tuple[str, ...]:
    """The groups a rule speaks for: those it names, else every group holding one of the entities it names or
    selects by facts."""
    if kb.rules.get(rule.id) is not rule:  # a rule from elsewhere, e.g. being checked before it joins the knowledge
        return _rule_groups(kb, rule)
    return _RULE_GROUPS.get(kb, None, lambda: {r.id: _rule_groups(kb, r) for r in kb.rules.values()})[rule.id]


def _rule_groups(kb: KnowledgeBase, rule: Rule) -> tuple[str, ...]:
    if rule.groups:
        return rule.groups
    entities = set(rule.recommend) | set(rule.exclude)
    return tuple(
        g.id
        for g in kb.groups.values()
        if entities & set(g.members)
        or any(facts.select(kb.entities, g.members, where) for where in (rule.recommend_where, rule.exclude_where))
    )


# The path depends on the knowledge and the answers alone; recommend() asks for it on every weight change.
_PATHS = PerKnowledge(256)


def evaluate(kb: KnowledgeBase, answers: Mapping[str, str], use_flagged: bool = True) -> DecisionPath:
    """Run every rule against the answers given and collect, per group, what its rules advise.

    A rule fires only when every question in its ``when`` is answered with one of its options; with
    ``use_flagged`` False a rule resting only on flagged claims does not act. The path is kept per knowledge base,
    answers and flag setting (:mod:`selector.memo`), so it is shared: read-only.
    """
    key = (frozenset(answers.items()), use_flagged)
    return _PATHS.get(kb, key, lambda: _evaluate(kb, answers, use_flagged))


def _evaluate(kb: KnowledgeBase, answers: Mapping[str, str], use_flagged: bool) -> DecisionPath:
    resolved = resolve_answers(kb, answers)
    fired = []
    for rule in kb.rules.values():
        if all(resolved.get(q) in options for q, options in rule.when.items()):
            fired.append(
                FiredRule(
                    id=rule.id,
                    tree=rule.tree,
                    matched={q: resolved[q] for q in rule.when},
                    recommend=rule.recommend,
                    exclude=rule.exclude,
                    rationale=rule.rationale_en,
                    claims=rule.claims,
                    groups=rule_groups(kb, rule),
                    recommend_where=dict(rule.recommend_where),
                    exclude_where=dict(rule.exclude_where),
                )
            )
    shortlists: dict[str, tuple[str, ...]] = {}
    excluded_in: dict[str, tuple[str, ...]] = {}
    advice_in: dict[str, shortlist.GroupAdvice] = {}
    grouped: set[str] = set()
    for group in kb.groups.values():
        rules = [f for f in fired if f.applies_to(group.id)]
        if rules:
            effects = [shortlist.effect(kb, f, group.id, use_flagged) for f in rules]
            advice = advice_in[group.id] = shortlist.combine(kb, group.id, effects)
            if advice.shortlist:
                shortlists[group.id] = advice.shortlist
            if advice.excluded:
                excluded_in[group.id] = tuple(m for m, _ in advice.excluded)
        grouped.update(e for f in fired for e in f.recommend if e in group.members)
    others = tuple(dict.fromkeys(e for f in fired for e in f.recommend if e not in grouped))
    unanswered = tuple(q for q in kb.questions if q not in resolved)
    return DecisionPath(resolved, tuple(fired), shortlists, excluded_in, others, unanswered, advice_in, use_flagged)


def sharpening_questions(kb: KnowledgeBase, answers: Mapping[str, str], group: str) -> tuple[str, ...]:
    """Unanswered questions whose answer could make a rule for `group` fire (in question order).

    A question counts when some rule that speaks for `group` asks it and every other question that rule asks is
    either unanswered or answered with one of the rule's options.
    """
    resolved = resolve_answers(kb, answers)
    found: set[str] = set()
    for rule in kb.rules.values():
        if group not in rule_groups(kb, rule):
            continue
        if any(q in resolved and resolved[q] not in options for q, options in rule.when.items()):
            continue
        found.update(q for q in rule.when if q not in resolved)
    return tuple(q for q in kb.questions if q in found)


@dataclass(frozen=True)
class GroupChoice:
    """A group as the picker offers it: whether the answers point at it, and why."""

    id: str
    reasons: tuple[str, ...]

    @property
    def pointed_at(self) -> bool:
        return bool(self.reasons)


def group_order(kb: KnowledgeBase, answers: Mapping[str, str]) -> tuple[GroupChoice, ...]:
    """Every group, those the answers point at first (with why), then the rest in knowledge order.

    An answer points at the groups its option names (``Option.groups``); a fired rule points at the groups it
    shortlists in. Groups with more reasons come first; ties keep the knowledge order.
    """
    path = evaluate(kb, answers)
    reasons: dict[str, list[str]] = {g: [] for g in kb.groups}
    for qid, answer in path.answers.items():
        option = next(o for o in kb.questions[qid].options if o.id == answer)
        for g in option.groups:
            if g in reasons:
                reasons[g].append(f"you answered “{option.label_en}”")
    for g, members in path.shortlist.items():
        names = ", ".join(kb.entity_name(e) for e in members)
        reasons[g].append(f"your scenario shortlists {names}")
    order = sorted(kb.groups, key=lambda g: (-len(reasons[g]), list(kb.groups).index(g)))
    return tuple(GroupChoice(g, tuple(reasons[g])) for g in order)

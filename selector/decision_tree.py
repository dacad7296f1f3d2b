"""The articles' decision trees: scenario answers -> the rules that fired, why, and the shortlisted candidates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from selector.memo import PerKnowledge
from selector.models import KnowledgeBase
from selector.preferences import PreferenceError


@dataclass(frozen=True)
class FiredRule:
    """A rule whose conditions all matched, with its rationale and source claims."""

    id: str
    tree: str
    matched: dict[str, str]
    recommend: tuple[str, ...]
    exclude: tuple[str, ...]
    rationale: str
    claims: tuple[str, ...]

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "tree": self.tree,
            "matched": dict(self.matched),
            "recommend": list(self.recommend),
            "exclude": list(self.exclude),
            "rationale": self.rationale,
            "claims": list(self.claims),
        }


@dataclass(frozen=True)
class DecisionPath:
    """The outcome of the decision trees for one set of answers."""

    answers: dict[str, str]
    fired: tuple[FiredRule, ...]
    shortlist: dict[str, tuple[str, ...]]  # group id -> recommended members of that group
    other_candidates: tuple[str, ...]  # recommended entities outside every group (e.g. a serving system)
    excluded: tuple[str, ...]

    def shortlisted(self, group: str) -> tuple[str, ...]:
        return self.shortlist.get(group, ())

    def to_dict(self) -> dict:
        return {
            "answers": dict(self.answers),
            "fired": [f.to_dict() for f in self.fired],
            "shortlist": {g: list(m) for g, m in self.shortlist.items()},
            "other_candidates": list(self.other_candidates),
            "excluded": list(self.excluded),
        }


def resolve_answers(kb: KnowledgeBase, answers: Mapping[str, str]) -> dict[str, str]:
    """Answers with each question's default filled in; an unknown question or option is refused."""
    resolved = {}
    for qid, question in kb.questions.items():
        options = [o.id for o in question.options]
        answer = answers.get(qid, question.default)
        if answer is not None and answer not in options:
            raise PreferenceError(f"`{answer}` is not an answer to `{qid}`; choose one of: {', '.join(options)}")
        if answer is not None:
            resolved[qid] = answer
    unknown = set(answers) - set(kb.questions)
    if unknown:
        raise PreferenceError(f"unknown question(s) {', '.join(sorted(unknown))}; questions: {', '.join(kb.questions)}")
    return resolved


# The path depends on the knowledge and the answers alone; recommend() asks for it on every weight change.
_PATHS = PerKnowledge(64)


def evaluate(kb: KnowledgeBase, answers: Mapping[str, str]) -> DecisionPath:
    """Run every rule against the answers (defaults filled in) and collect the shortlist per group.

    The path is kept per knowledge base and answers (:mod:`selector.memo`), so it is shared: read-only.
    """
    return _PATHS.get(kb, frozenset(answers.items()), lambda: _evaluate(kb, answers))


def _evaluate(kb: KnowledgeBase, answers: Mapping[str, str]) -> DecisionPath:
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
                )
            )
    excluded = {e for f in fired for e in f.exclude}
    recommended = [e for f in fired for e in f.recommend if e not in excluded]
    shortlist: dict[str, tuple[str, ...]] = {}
    grouped: set[str] = set()
    for group in kb.groups.values():
        members = tuple(dict.fromkeys(e for e in recommended if e in group.members))
        if members:
            shortlist[group.id] = members
            grouped.update(members)
    others = tuple(dict.fromkeys(e for e in recommended if e not in grouped))
    return DecisionPath(resolved, tuple(fired), shortlist, others, tuple(sorted(excluded)))

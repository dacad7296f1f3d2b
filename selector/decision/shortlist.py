"""What the fired rules advise for one group: each rule's effect there, then the narrowed shortlist.

Semantics (README, "Decision trees"):

* a rule selects the group's members it names (ids) and those whose facts match its selection
  (``recommend_where`` / ``exclude_where``); ids it names that the group does not hold are noted;
* a rule does not act when it rests only on flagged claims and flagged claims are left out (it says why), and
  it never shortlists a deprecated member (the note names the successor);
* exclusions remove members; the shortlist is the intersection of what the acting rules recommend, so each
  further answer keeps or narrows it; when the rules' shortlists share nothing, the advice is a conflict that
  names the rules and their options, and nothing is shortlisted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from selector.knowledge import facts
from selector.knowledge.models import KnowledgeBase


@dataclass(frozen=True)
class RuleEffect:
    """What one fired rule does in one group: the members it shortlists and excludes there, and why not more."""

    rule: str
    recommend: tuple[str, ...]
    exclude: tuple[str, ...]
    notes: tuple[str, ...] = ()
    acts: bool = True

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "recommend": list(self.recommend),
            "exclude": list(self.exclude),
            "notes": list(self.notes),
            "acts": self.acts,
        }


@dataclass(frozen=True)
class GroupAdvice:
    """The rules' advice for one group: the narrowed shortlist, the exclusions (member -> rule), conflicts."""

    group: str
    shortlist: tuple[str, ...]
    excluded: tuple[tuple[str, str], ...]  # (member, id of the first rule that excludes it)
    effects: tuple[RuleEffect, ...]
    conflict: str = ""

    @property
    def recommending(self) -> tuple[RuleEffect, ...]:
        return tuple(e for e in self.effects if e.acts and e.recommend)

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(n for e in self.effects for n in e.notes)

    def candidates(self, members: Sequence[str]) -> tuple[str, ...]:
        """The members the rules leave advised: the shortlist, or (no rule recommending) every member not
        excluded, or none in a conflict. Each further answer keeps or narrows this set."""
        if self.recommending:
            return self.shortlist
        out = {m for m, _ in self.excluded}
        return tuple(m for m in members if m not in out)

    def to_dict(self) -> dict:
        return {
            "shortlist": list(self.shortlist),
            "excluded": [{"id": m, "rule": r} for m, r in self.excluded],
            "conflict": self.conflict,
            "rules": [e.to_dict() for e in self.effects],
        }


def _names(kb: KnowledgeBase, ids: Sequence[str]) -> str:
    return ", ".join(kb.entity_name(e) for e in ids)


def effect(kb: KnowledgeBase, rule, group: str, use_flagged: bool) -> RuleEffect:  # noqa: ANN001 - FiredRule
    """What `rule` does in `group`: its ids and fact selections among the members, less what it cannot advise."""
    members = kb.groups[group].members
    notes = []
    absent = _absent_note(kb, rule, members)
    if absent is not None:
        notes.append(absent)
    silenced = _silenced_note(kb, rule, use_flagged)
    if silenced is not None:
        notes.append(silenced)
        return RuleEffect(rule.id, (), (), tuple(notes), acts=False)
    recommend = _members_chosen(kb, members, rule.recommend, rule.recommend_where)
    exclude = _members_chosen(kb, members, rule.exclude, rule.exclude_where)
    kept = []
    for e in recommend:
        successor = facts.successor_text(kb.entities, e, members)
        if successor is not None:
            notes.append(f"rule {rule.id} names {kb.entities[e].name}, {successor}: not shortlisted")
        else:
            kept.append(e)
    return RuleEffect(rule.id, tuple(kept), tuple(exclude), tuple(notes), acts=bool(kept or exclude))


def _absent_note(kb: KnowledgeBase, rule, members: Sequence[str]) -> str | None:  # noqa: ANN001 - FiredRule
    """A note naming the known entities `rule` recommends or excludes that are not members of the group."""
    named = tuple(dict.fromkeys((*rule.recommend, *rule.exclude)))
    absent = [e for e in named if e not in members and e in kb.entities]
    if not absent:
        return None
    which = "which is not a member" if len(absent) == 1 else "which are not members"
    return f"rule {rule.id} names {_names(kb, absent)}, {which} of this group"


def _silenced_note(kb: KnowledgeBase, rule, use_flagged: bool) -> str | None:  # noqa: ANN001 - FiredRule
    """Why `rule` does not act when every claim it rests on is flagged and flagged claims are left out; else None."""
    if use_flagged or not rule.claims or not all(kb.claims[c].flags for c in rule.claims if c in kb.claims):
        return None
    kinds = sorted({f.kind for c in rule.claims for f in kb.claims[c].flags})
    return (
        f"rule {rule.id} does not act: every claim it rests on ({', '.join(rule.claims)}) is flagged "
        f"({', '.join(kinds)}) and flagged claims are left out"
    )


def _members_chosen(
    kb: KnowledgeBase, members: Sequence[str], ids: Sequence[str], where: Mapping[str, Sequence[str]] | None
) -> list[str]:
    """The members among `ids`, then those the fact selection `where` picks that `ids` did not name."""
    chosen = [e for e in ids if e in members]
    chosen += [e for e in facts.select(kb.entities, members, where) if e not in chosen]
    return chosen


def combine(kb: KnowledgeBase, group: str, effects: Sequence[RuleEffect]) -> GroupAdvice:
    """Narrow: exclusions remove, the acting rules' shortlists intersect; a disagreement is stated, not united."""
    excluded: dict[str, str] = {}
    for e in effects:
        for member in e.exclude:
            excluded.setdefault(member, e.rule)
    recommending = [e for e in effects if e.acts and e.recommend]
    if not recommending:
        return GroupAdvice(group, (), tuple(excluded.items()), tuple(effects))
    common = [m for m in recommending[0].recommend if m not in excluded]
    for e in recommending[1:]:
        common = [m for m in common if m in e.recommend]
    conflict = "" if common else _conflict_text(kb, recommending, excluded)
    return GroupAdvice(group, tuple(common), tuple(excluded.items()), tuple(effects), conflict)


def _conflict_text(kb: KnowledgeBase, recommending: Sequence[RuleEffect], excluded: Mapping[str, str]) -> str:
    parts = [f"rule {e.rule} shortlists {_names(kb, e.recommend)}" for e in recommending]
    text = "your answers' advice conflicts: " + "; ".join(parts)
    removed = sorted({m for e in recommending for m in e.recommend if m in excluded})
    if removed:
        text += "; " + "; ".join(f"rule {excluded[m]} excludes {kb.entity_name(m)}" for m in removed)
    if len(recommending) > 1:
        text += "; they share no option"
    return text + ", so nothing is shortlisted"

"""Re-checking a decision: the recorded decision (selector.record) against the same settings ranked on today's data.

:func:`recheck` re-ranks a record's preferences on the knowledge given and :func:`compare` states, as plain data,
whether the recommended option and the leader are the same, the robustness then and now, every cell whose value,
tier or evidence changed (old and new claim ids and values), alternatives added or removed and decision rules added,
removed or changed. The command line (``python -m selector recheck``) and the app's "Re-check a decision" show it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from selector import display
from selector import record as records
from selector.decision.preferences import to_query
from selector.knowledge.models import KnowledgeBase
from selector.record import CellRecord, DecisionRecord, RuleRecord

HOLDS, CHANGED = 0, 1
#: The largest report or profile re-checked: a PDF with its fonts is the largest kind, far below this.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Two values closer than this (relative) are the same number written twice, not a change.
_REL_TOL = 1e-9


@dataclass(frozen=True)
class CellChange:
    """A ranked cell whose value, tier or evidence differs between the record and today (None: no such cell)."""

    alternative: str
    alternative_name: str
    criterion: str
    criterion_name: str
    before: CellRecord | None
    after: CellRecord | None

    @property
    def what(self) -> tuple[str, ...]:
        """Which of value, tier and claims changed."""
        if self.before is None or self.after is None:
            return ("cell",)
        return tuple(
            name
            for name, changed in (
                ("value", not _same(self.before.value, self.after.value)),
                ("tier", self.before.tier != self.after.tier),
                ("claims", self.before.claims != self.after.claims),
            )
            if changed
        )

    @property
    def sentence(self) -> str:
        return (
            f"{self.alternative_name}, {self.criterion_name}: {_cell_text(self.before)} then, "
            f"{_cell_text(self.after)} now"
        )

    def to_dict(self) -> dict:
        return {
            "alternative": self.alternative,
            "criterion": self.criterion,
            "changed": list(self.what),
            "before": None if self.before is None else self.before.model_dump(mode="json"),
            "after": None if self.after is None else self.after.model_dump(mode="json"),
        }


@dataclass(frozen=True)
class RuleChange:
    id: str
    change: str  # "added", "removed" or "changed"
    before: RuleRecord | None
    after: RuleRecord | None

    @property
    def sentence(self) -> str:
        if self.change == "added":
            return f"rule {self.id} now fires: {_rule_text(self.after)}"
        if self.change == "removed":
            return f"rule {self.id} no longer fires (it did: {_rule_text(self.before)})"
        return f"rule {self.id} changed: {_rule_text(self.before)} then, {_rule_text(self.after)} now"

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "change": self.change,
            "before": None if self.before is None else self.before.model_dump(mode="json"),
            "after": None if self.after is None else self.after.model_dump(mode="json"),
        }


@dataclass(frozen=True)
class Recheck:
    """The recorded decision beside today's: what holds and what changed under it."""

    name: str  # the file re-checked
    group: str
    recommended_then: str
    recommended_now: str
    leader_then: str
    leader_now: str
    robustness_then: float | None
    robustness_now: float | None
    samples: int
    data_hash_then: str
    data_hash_now: str
    generated_at: str
    cells: tuple[CellChange, ...]
    added: tuple[str, ...]  # alternatives ranked now, not then (names)
    removed: tuple[str, ...]
    rules: tuple[RuleChange, ...]
    datasets: tuple[str, ...]  # snapshot changes, in words
    notes: tuple[str, ...] = ()
    link: str = ""  # today's ranking in the app, for the same settings
    query: str = ""  # those settings as the app's query string
    ids: dict[str, str] = field(default_factory=dict)  # recommended/leader ids then and now

    @property
    def holds(self) -> bool:
        """The same option is recommended and the same option leads the ranking."""
        return self.ids["recommended_then"] == self.ids["recommended_now"] and (
            self.ids["leader_then"] == self.ids["leader_now"]
        )

    @property
    def evidence_changed(self) -> bool:
        return bool(self.cells or self.added or self.removed or self.rules)

    def exit_code(self, strict: bool = False) -> int:
        """0 when the decision holds, 1 when it changed (``strict``: also when only the evidence under it did)."""
        return HOLDS if self.holds and not (strict and self.evidence_changed) else CHANGED

    @property
    def headline(self) -> str:
        if self.holds:
            counts = ((len(self.cells), "cell(s)"), (len(self.added) + len(self.removed), "option(s)"))
            changes = [f"{n} {what}" for n, what in (*counts, (len(self.rules), "rule(s)")) if n]
            if changes:
                under = f"; {', '.join(changes)} changed under it"
            elif self.data_hash_then == self.data_hash_now:
                under = ", on the same evidence"
            else:
                under = ", on the same ranked evidence (other parts of the knowledge changed)"
            leads = "leads the ranking" if self.leader_now == self.recommended_now else f"{self.leader_now} leads"
            return f"The decision holds: {self.recommended_now} is still recommended and {leads}{under}."
        parts = []
        if self.ids["recommended_then"] != self.ids["recommended_now"]:
            parts.append(f"{self.recommended_now} is recommended now, not {self.recommended_then}")
        if self.ids["leader_then"] != self.ids["leader_now"]:
            parts.append(f"the new leader is {self.leader_now} (it was {self.leader_then})")
        return "The decision changed: " + "; ".join(parts) + "."

    @property
    def robustness_sentence(self) -> str:
        def share(v: float | None) -> str:
            return "not computed" if v is None else f"{v:.0%}"

        return (
            f"Robustness (share of {self.samples} sampled weightings that rank the leader first): "
            f"{share(self.robustness_then)} then ({self.leader_then}), {share(self.robustness_now)} now "
            f"({self.leader_now})."
        )

    def lines(self) -> list[str]:
        """The comparison in words, as the command prints it."""
        out = [self.headline, self.robustness_sentence]
        out.append(
            f"Knowledge data {self.data_hash_then} (record of {self.generated_at}) then, {self.data_hash_now} now."
        )
        out += [f"Dataset {d}" for d in self.datasets]
        out += [f"Option added: {n}" for n in self.added] + [f"Option removed: {n}" for n in self.removed]
        out += [f"Changed: {c.sentence}" for c in self.cells]
        out += [f"Rule: {r.sentence}" for r in self.rules]
        if not self.evidence_changed:
            out.append("No ranked cell, option or decision rule changed.")
        out += [f"Note: {n}" for n in self.notes]
        if self.link:
            out.append(f"Today's ranking in the app: {self.link}")
        return out

    def cell_rows(self) -> list[dict[str, str]]:
        """The changed cells as table rows of plain text (option, criterion, then and now)."""
        return [
            {
                "option": c.alternative_name,
                "criterion": c.criterion_name,
                "changed": ", ".join(c.what),
                "then": _cell_text(c.before),
                "now": _cell_text(c.after),
            }
            for c in self.cells
        ]

    def to_dict(self) -> dict:
        return {
            "file": self.name,
            "group": self.group,
            "holds": self.holds,
            "headline": self.headline,
            "recommended": {"then": self.ids["recommended_then"], "now": self.ids["recommended_now"]},
            "leader": {"then": self.ids["leader_then"], "now": self.ids["leader_now"]},
            "robustness": {"then": self.robustness_then, "now": self.robustness_now, "samples": self.samples},
            "data_hash": {"then": self.data_hash_then, "now": self.data_hash_now},
            "generated_at": self.generated_at,
            "cells": [c.to_dict() for c in self.cells],
            "alternatives_added": list(self.added),
            "alternatives_removed": list(self.removed),
            "rules": [r.to_dict() for r in self.rules],
            "datasets": list(self.datasets),
            "notes": list(self.notes),
            "link": self.link,
        }


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=_REL_TOL, abs_tol=0.0)


def _cell_text(cell: CellRecord | None) -> str:
    if cell is None:
        return "not ranked"
    value = "no value" if cell.value is None else display.number(cell.value, 6)
    source = "imputed, no claim" if cell.imputed or not cell.claims else "claims " + ", ".join(cell.claims)
    tier = f", tier {cell.tier}" if cell.tier else ""
    return f"{value} ({source}{tier})"


def _rule_text(rule: RuleRecord | None) -> str:
    if rule is None:
        return "-"
    when = ", ".join(f"{q}={o}" for q, o in sorted(rule.matched.items())) or "always"
    recommends, excludes = ", ".join(rule.recommend) or "nothing", ", ".join(rule.exclude) or "nothing"
    cites = f" (claims {', '.join(rule.claims)})" if rule.claims else ""
    return f"when {when} recommends {recommends}, excludes {excludes}{cites}"


def _cells(then: DecisionRecord, now: DecisionRecord) -> tuple[CellChange, ...]:
    names = {**now.criteria, **then.criteria}
    changes = []
    for alt in [*then.cells, *(a for a in now.cells if a not in then.cells)]:
        if alt not in then.cells or alt not in now.cells:
            continue  # an option added or removed is stated as such, not cell by cell
        before_row, after_row = then.cells[alt], now.cells[alt]
        for crit in [*before_row, *(c for c in after_row if c not in before_row)]:
            change = CellChange(
                alt, now.name_of(alt), crit, names.get(crit, crit), before_row.get(crit), after_row.get(crit)
            )
            if change.what:
                changes.append(change)
    return tuple(changes)


def _rules(then: DecisionRecord, now: DecisionRecord) -> tuple[RuleChange, ...]:
    before, after = {r.id: r for r in then.rules}, {r.id: r for r in now.rules}
    changes = [RuleChange(i, "removed", before[i], None) for i in before if i not in after]
    changes += [RuleChange(i, "added", None, after[i]) for i in after if i not in before]
    changes += [RuleChange(i, "changed", before[i], after[i]) for i in before if i in after and before[i] != after[i]]
    return tuple(changes)


def _datasets(then: DecisionRecord, now: DecisionRecord) -> tuple[str, ...]:
    old, new = then.knowledge.datasets, now.knowledge.datasets
    out = [f"{d}: snapshot {old[d]} then, {new[d]} now" for d in old if d in new and old[d] != new[d]]
    out += [f"{d}: new, snapshot {new[d]}" for d in new if d not in old]
    out += [f"{d}: no longer in the knowledge (snapshot {old[d]} then)" for d in old if d not in new]
    return tuple(out)


def _upload_notes(then: DecisionRecord, now: DecisionRecord) -> tuple[str, ...]:
    if then.uploads.digest == now.uploads.digest:
        return ()
    was = ", ".join(then.uploads.files) or "no files of yours"
    given = ", ".join(now.uploads.files) or "none"
    return (
        f"your files differ: the decision was ranked with {was}; this re-check uses {given}. Pass the same files "
        "(--extra, or upload them on My data) to re-check against them.",
    )


def compare(then: DecisionRecord, now: DecisionRecord, name: str, link: str = "", query: str = "") -> Recheck:
    """The recorded decision ``then`` beside ``now`` (the same settings ranked today), as plain data."""
    old = {o.id for o in then.ranking}
    new = {o.id for o in now.ranking}
    return Recheck(
        name=name,
        group=then.preferences.group,
        recommended_then=then.name_of(then.recommended),
        recommended_now=now.name_of(now.recommended),
        leader_then=then.name_of(then.leader),
        leader_now=now.name_of(now.leader),
        robustness_then=then.robustness.leader_first,
        robustness_now=now.robustness.leader_first,
        samples=now.robustness.samples,
        data_hash_then=then.knowledge.data_hash,
        data_hash_now=now.knowledge.data_hash,
        generated_at=then.generated_at,
        cells=_cells(then, now),
        added=tuple(now.name_of(o.id) for o in now.ranking if o.id not in old),
        removed=tuple(then.name_of(o.id) for o in then.ranking if o.id not in new),
        rules=_rules(then, now),
        datasets=_datasets(then, now),
        notes=_upload_notes(then, now),
        link=link,
        query=query,
        ids={
            "recommended_then": then.recommended,
            "recommended_now": now.recommended,
            "leader_then": then.leader,
            "leader_now": now.leader,
        },
    )


def recheck(
    then: DecisionRecord,
    kb: KnowledgeBase,
    *,
    name: str,
    uploads: Sequence[tuple[str, bytes]] = (),
    app_url: str = "",
    generated_at: str = "",
) -> Recheck:
    """Rank the record's settings on ``kb`` (today's knowledge, merged with ``uploads``) and compare.

    The robustness is sampled as the record's was (same number of samples, same seed), so that an unchanged
    knowledge gives the same share.

    Raises
    ------
    selector.errors.SelectorError
        When the recorded settings no longer fit ``kb`` (a group, question or criterion gone) or cannot be scored.
    """
    from selector import __version__
    from selector.decision.recommend import recommend

    prefs = then.preferences.check(kb)
    rec = recommend(kb, prefs)
    now = records.build(
        kb,
        rec,
        leader_first=records.leader_first(rec, then.robustness.samples, then.robustness.seed),
        samples=then.robustness.samples,
        seed=then.robustness.seed,
        generated_at=generated_at,
        app_version=__version__,
        uploads=uploads,
    )
    query = urlencode(to_query(prefs))
    return compare(then, now, name, app_url.rstrip("/") + "/?" + query if app_url else "", query)


@dataclass(frozen=True)
class Recorded:
    """A file's decision record and, for a profile, the uploads it embeds (to rank with, as when it was saved)."""

    record: DecisionRecord
    uploads: tuple = ()  # selector.knowledge.loading.Upload, checked against the knowledge
    upload_files: tuple[tuple[str, bytes], ...] = ()
    kind: str = "report"  # "report" or "profile"


def read_file(data: bytes, name: str, kb_dir) -> Recorded:  # noqa: ANN001 - a Path
    """The decision record a report (Markdown, HTML, PDF) or a profile carries, checked.

    Raises
    ------
    selector.record.RecordError
        When the file carries no record (a report or profile of the previous format, or another file), or the
        record was altered; selector.profile.ProfileError when a profile's embedded uploads do not validate.
    """
    from selector import profile

    if len(data) > MAX_FILE_BYTES:
        raise records.RecordError(
            f"{name}: it is {len(data):,} bytes; a report or profile to re-check has at most {MAX_FILE_BYTES:,}"
        )
    text = records.find(data, name)
    if text is not None:
        return Recorded(records.parse(text, name))
    if data.startswith(b"%PDF"):
        raise records.RecordError(f"{name}: {records.PREVIOUS_FORMAT}")
    try:
        saved = profile.load(data, kb_dir, check_uploads=False, name=name)
    except profile.ProfileError:
        if name.lower().endswith((".yaml", ".yml")):
            raise  # a profile's own problems, each with its line
        raise records.RecordError(f"{name}: {records.PREVIOUS_FORMAT}") from None
    if saved.record is None:
        raise records.RecordError(f"{name}: {records.PREVIOUS_FORMAT}")
    then = records.parse(saved.record, name)
    uploads = profile.merge_uploads(saved, kb_dir, name)
    return Recorded(then, tuple(uploads), tuple(profile.upload_files(saved)), "profile")

"""The ``rank`` command: rank one group for given answers, weights and method, with the decision path and why."""

from __future__ import annotations

import argparse
import json
import sys

from selector import display, escape, i18n
from selector.commands import _context
from selector.errors import SelectorError

NAME = "rank"
HELP = "rank the alternatives of a group (table, JSON or CSV), with the decision path and why the leader leads"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the preferences, the knowledge to read and the output format."""
    _context.add_preference_arguments(parser)
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output (default table)")
    _context.add_language_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Rank and print; 0 on success, 2 when the input cannot be used (the message says what to fix)."""
    from selector import verdict
    from selector.decision import recommend

    lang = _context.lang(args)
    try:
        kb, prefs = _context.load(args)
        rec = recommend.recommend(kb, prefs)
        judged = verdict.judge(rec, lang=lang)
    except SelectorError as exc:
        return _context.fail(i18n.stored(exc.message, lang))  # a refusal in --lang
    if args.format == "json":
        # the keys and ids stay as they are in every language; the sentences for people follow --lang
        payload = {**_with_provenance(kb, rec, lang), "verdict": judged.to_dict()}
        payload["why"], payload["rule_preference"] = rec.why_in(lang), rec.preference_in(lang)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    elif args.format == "csv":
        from selector.report.spreadsheet import (
            ranking_csv,  # the app's export: one CSV layout, formula cells neutralised
        )

        sys.stdout.write(ranking_csv(rec, judged, kb).decode("utf-8"))
    else:
        print(_table(kb, rec, judged, lang))
    return 0


def _with_provenance(kb, rec, lang: i18n.Language = "en") -> dict:  # noqa: ANN001 - KnowledgeBase, Recommendation
    """The ranking as JSON, each cell with its evidence's locators and footnotes, plus the stored, unranked cells
    (criteria at weight zero, such as a price known for a few chips) with the inputs of derived ones."""
    from selector.decision import basis, matrix
    from selector.knowledge import provenance

    payload = rec.to_dict()
    for cell in payload["cells"]:
        cell["evidence_detail"] = provenance.evidence_entries(kb, cell["evidence"])
    unranked = []
    for cell in matrix.unranked_cells(kb, rec.matrix, rec.prefs.use_flagged):
        entry = cell.to_dict()
        entry["evidence_detail"] = provenance.evidence_entries(kb, cell.evidence)
        unranked.append(entry)
    payload["unranked_cells"] = unranked
    payload["datasets"] = [d.to_dict() for d in provenance.datasets(kb)]
    payload["dimension_basis"] = [b.to_dict() for b in basis.dimension_basis(kb, rec.matrix, lang=lang)]
    payload["workload_fit"] = _workload_rows(kb, rec, lang)
    _say_notes(payload, lang)
    return payload


def _say_notes(payload: dict, lang: i18n.Language) -> None:
    """The cells' notes, the reasons for leaving out and the matrix's notes in `lang` (kept as Phrases or marked
    messages until here, so English is what the matrix stores)."""
    for key in ("cells", "imputed_cells", "unranked_cells"):
        for cell in payload[key]:
            cell["note"] = i18n.stored(cell["note"], lang)
    for key in ("excluded_alternatives", "excluded_criteria"):
        for excluded in payload[key]:
            excluded["reason"] = i18n.stored(excluded["reason"], lang)
    payload["notes"] = [i18n.stored(note, lang) for note in payload["notes"]]


def _workload_rows(kb, rec, lang: i18n.Language = "en") -> list[dict] | None:  # noqa: ANN001 - KnowledgeBase, Recommendation
    """Each member's fit, support, latency-bounded throughput and cost in `lang` (None without a workload or LLM
    group)."""
    from dataclasses import asdict

    from selector.decision import workload_fit

    stated = workload_fit.stated(kb, rec.prefs)
    if stated is None or not workload_fit.applies(kb, rec.matrix.group):
        return None
    return [asdict(row) for row in workload_fit.fit_table(kb, rec.matrix.group, stated, lang)]


def _workload_lines(kb, rec, lang: i18n.Language = "en") -> list[str]:  # noqa: ANN001 - KnowledgeBase, Recommendation
    """The workload and, per member: can it run, on how many accelerators, how fast within the limits, at what cost."""
    rows = _workload_rows(kb, rec, lang)
    if rows is None:
        return []
    from selector.decision import workload

    _ = i18n.translator(lang)
    stated = workload.parse(rec.prefs.workload)
    lines = [_("Workload: {workload}").format(workload=", ".join(f"{k}={v}" for k, v in stated.to_dict().items()))]
    for row in rows:
        runs = {True: _("{name}: runs"), False: _("{name}: cannot run"), None: _("{name}: unknown")}[row["runs"]]
        lines.append("  " + runs.format(name=row["name"]))
        lines.append("    " + _("memory: {memory}").format(memory=row["memory"]))
        lines.append("    " + _("engines: {engines}").format(engines=row["support"]))
        lines.append("    " + _("throughput: {throughput}").format(throughput=row["throughput_note"]))
        lines.extend(f"    {line}" for line in row["cost"])
    return lines


def _table(kb, rec, judged, lang: i18n.Language = "en") -> str:  # noqa: ANN001 - KnowledgeBase, Recommendation, Verdict
    _ = i18n.translator(lang)
    why = rec.why_in(lang)
    lines = [
        *_ranking_lines(kb, rec, lang),
        "",
        *_path_lines(kb, rec, lang),
        judged.headline,
        *(f"  {d}" for d in judged.details),
        _("Robustness: {badge}").format(badge=judged.badge),
        _("Why: {why}").format(why=why),
        *_workload_lines(kb, rec, lang),
        *_matrix_lines(kb, rec.matrix, lang),
        _("Knowledge data hash: {hash}").format(hash=rec.data_hash),
    ]
    return escape.printable_lines(lines)


def _ranking_lines(kb, rec, lang: i18n.Language = "en") -> list[str]:  # noqa: ANN001 - KnowledgeBase, Recommendation
    """The settings, the ranked table and what each weight ranks."""
    from selector.decision import basis
    from selector.value import SWING_WEIGHT_MEANING

    _ = i18n.translator(lang)
    m = rec.matrix
    group = kb.groups[m.group]
    flagged = _("flagged claims used") if rec.prefs.use_flagged else _("flagged claims left out")
    better = _("higher is better") if rec.result.higher_is_better else _("lower is better")
    heads = (_("rank"), _("name"), _("score"), _("shortlisted"))
    width = max([display_width(heads[1]), *(display_width(r.name) for r in rec.ranking)])
    settings = _("method {method}, scaler {scaler}, missing {missing}, {flagged}").format(
        method=rec.result.method, scaler=rec.result.scaler, missing=m.missing_policy, flagged=flagged
    )
    lines = [
        f"{i18n.pick(lang, group.name_en, group.name_zh)} ({group.id}): {settings}",
        "",
        f"{pad(heads[0], 4, right=True)}  {pad(heads[1], width)}  {pad(heads[2], 8, right=True)}  {heads[3]}",
    ]
    yes = _("yes")
    for r in rec.ranking:
        rank = f"{r.rank}=" if sum(o.rank == r.rank for o in rec.ranking) > 1 else str(r.rank)
        lines.append(f"{rank:>4}  {pad(r.name, width)}  {r.score:>8.4f}  {yes if r.shortlisted else ''}")
    lines.append(_("(score: {better})").format(better=better))
    if rec.result.method == "mavt":
        lines.append(_(SWING_WEIGHT_MEANING))
    lines.append(_("What each weight ranks here:"))
    lines.extend(f"  {b.text}" for b in basis.dimension_basis(kb, m, lang=lang))
    return lines


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal: a CJK character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded to `width` terminal columns (left-aligned, or right-aligned with `right`)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def _path_lines(kb, rec, lang: i18n.Language = "en") -> list[str]:  # noqa: ANN001 - KnowledgeBase, Recommendation
    """The rules that fired (for this group and elsewhere), the group's advice, the questions that would sharpen it."""
    from selector.decision import decision_tree

    _ = i18n.translator(lang)
    group = rec.matrix.group
    lines = [_("Decision path:")]
    if not rec.path.fired:
        lines.append("  " + _("no rule fired for these answers"))
    for fired in rec.path.rules_for(group):
        matched = ", ".join(f"{q}={a}" for q, a in fired.matched.items())
        rule = kb.rules.get(fired.id)
        rationale = i18n.pick(lang, fired.rationale, rule.rationale_zh if rule is not None else None)
        lines.append(f"  {fired.id} ({matched}): {rationale}")
    for fired in rec.path.rules_elsewhere(group):
        matched = ", ".join(f"{q}={a}" for q, a in fired.matched.items())
        groups = ", ".join(fired.groups) or _("no ranked group")
        lines.append(f"  {fired.id} ({matched}): " + _("applies to {groups}").format(groups=groups))
    lines.append(_("Advice for this group: {advice}").format(advice=rec.path.advice(group, kb.entity_name, lang=lang)))
    lines.extend("  " + _("Rule note: {note}").format(note=note) for note in rec.path.group_advice(group).notes)
    sharpen = decision_tree.sharpening_questions(kb, rec.prefs.answers, group)
    if sharpen:
        lines.append(_("Questions that would sharpen the advice: {questions}").format(questions=", ".join(sharpen)))
    return lines


def _matrix_lines(kb, m, lang: i18n.Language = "en") -> list[str]:  # noqa: ANN001 - KnowledgeBase, DecisionMatrix
    """What the matrix filled in, removed and left out, and its notes."""
    _ = i18n.translator(lang)
    lines = []
    imputed = m.imputed_cells
    if imputed:
        lines.append(_("Filled-in cells (no evidence of their own; not data):"))
        for cell in imputed:
            criterion = kb.criteria[cell.criterion]
            where = f"{kb.entity_name(cell.alternative)} / {i18n.pick(lang, criterion.name_en, criterion.name_zh)}"
            lines.append(f"  {where}: {display.quantity(cell.value, criterion.unit)} ({i18n.stored(cell.note, lang)})")
    lines.extend(
        _("Removed: {name}: {why}").format(name=kb.entity_name(excluded.id), why=i18n.stored(excluded.reason, lang))
        for excluded in m.excluded_alternatives
    )
    lines.extend(
        _("Left out: {name}: {why}").format(name=excluded.id, why=i18n.stored(excluded.reason, lang))
        for excluded in m.excluded_criteria
    )
    lines.extend(_("Note: {note}").format(note=i18n.stored(note, lang)) for note in m.notes)
    return lines

"""The ``validate`` command: load and cross-check the knowledge base, print every issue and a summary."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import TYPE_CHECKING

from selector import i18n
from selector.commands import _context
from selector.escape import printable

if TYPE_CHECKING:
    from selector.decision.shares import Shares
    from selector.knowledge.models import KnowledgeBase

NAME = "validate"
HELP = "check the knowledge base (and optional extra files); exit 0 when valid, 2 otherwise"

EXIT_INVALID = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``--knowledge``, ``--extra`` and ``--format``."""
    _context.add_knowledge_arguments(
        parser,
        "your own YAML or CSV files, checked exactly as an upload on the My data page (and `rank --extra`)",
        "knowledge directory to check (default: the bundled knowledge/)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    _context.add_language_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Validate and report; returns 0 when the knowledge loads without errors, 2 otherwise."""
    from selector.knowledge import loading as knowledge
    from selector.uploads import intake

    lang = _context.lang(args)
    _ = i18n.translator(lang)
    directory = args.knowledge if args.knowledge is not None else knowledge.DEFAULT_KNOWLEDGE
    if not directory.is_dir():
        message = _("knowledge directory {directory} does not exist or is not a directory; pass --knowledge DIR")
        message = message.format(directory=directory)
        print(
            json.dumps({"valid": False, "error": message}) if args.format == "json" else printable(f"ERROR {message}")
        )
        return EXIT_INVALID
    accepted, extra_issues = intake.check_files(args.extra, directory) if args.extra else ([], [])
    kb, issues = knowledge.collect(directory, extra=accepted)
    issues = [*extra_issues, *issues]
    errors = sum(1 for i in issues if i.level == "ERROR")
    if errors and kb is not None:
        kb = None  # an --extra file was refused: the whole is not valid, though the rest loads without it
    warnings = len(issues) - errors
    counts = None
    findings = []
    shares = None
    if kb is not None:
        from selector.decision.shares import cell_shares, rating_groups
        from selector.knowledge import conflicts

        findings = conflicts.detect(kb)
        shares = cell_shares(kb)
        counts = {
            section: len(getattr(kb, section))
            for section in ("sources", "entities", "claims", "dimensions", "criteria", "groups", "questions", "rules")
        }
        counts["flagged"] = sum(1 for claim in kb.claims.values() if claim.flagged)
    if args.format == "json":
        report = {
            "valid": kb is not None,
            "errors": errors,
            "warnings": warnings,
            "counts": counts,
            "data_hash": kb.data_hash if kb is not None else None,
            "conflicts": [f.to_dict() for f in findings],
            "cell_shares": shares.to_dict() if shares is not None else None,
            "rating_groups": _rating_groups(kb, shares),
            "issues": [
                {"level": i.level, "file": i.file, "line": i.line, "record": i.record, "message": i.message}
                for i in issues
            ],
        }
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        # file names and messages quote the user's files: control characters are shown, never sent to the terminal
        for issue in issues:
            print(printable(issue))
        # Disagreeing claims are kept on purpose (they are the articles' words); they are listed, not errors.
        for finding in findings:
            if finding.is_problem:
                print(printable(f"CONFLICT {finding.kind}: {finding.message}"))
        if findings:
            kinds = Counter(f.kind for f in findings)
            found = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
            print(_("conflict check: {found}").format(found=found))
        if shares is not None:
            print(shares.summary())
            print("\n".join(shares.weighted_lines()))
            print(shares.pooled_line(rating_groups(kb)))
        print(_summary(kb, counts, errors, warnings, lang))
    return 0 if kb is not None else EXIT_INVALID


def _rating_groups(kb: KnowledgeBase | None, shares: Shares | None) -> dict | None:
    """Issue 32's pooled figure over the groups that rank or store our ratings, for the JSON report."""
    if kb is None or shares is None:
        return None
    from selector.decision.shares import rating_groups

    groups = tuple(g for g in rating_groups(kb) if g in shares.weighted)
    return {
        "groups": list(groups),
        "pooled_assessed": shares.pooled(groups),
        "pooled_imputed": shares.pooled(groups, "imputed"),
        "misses": shares.rating_group_misses(groups),
    }


def _summary(
    kb: KnowledgeBase | None, counts: dict[str, int] | None, errors: int, warnings: int, lang: i18n.Language = "en"
) -> str:
    """The last line: valid or not, with what the knowledge holds (the issues above stay in the loader's words)."""
    _ = i18n.translator(lang)
    if kb is None or counts is None:
        return _("knowledge invalid: {errors} errors, {warnings} warnings").format(errors=errors, warnings=warnings)
    return _(
        "knowledge valid: {sources} sources, {entities} entities, {claims} claims ({flagged} flagged), "
        "{dimensions} dimensions, {criteria} criteria, {groups} groups, {questions} questions, {rules} rules, "
        "{warnings} warnings, data hash {hash}"
    ).format(**counts, warnings=warnings, hash=kb.data_hash)

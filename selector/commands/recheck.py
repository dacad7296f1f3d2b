"""The ``recheck`` command: re-rank a saved decision (report or profile) on today's knowledge, say what changed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from selector.commands import _context
from selector.errors import SelectorError

NAME = "recheck"
HELP = (
    "re-check a decision: re-rank a report's (Markdown, HTML, PDF) or a profile's settings on today's knowledge and "
    "say what changed (exit 0 holds, 1 changed, 2 bad input)"
)
#: Reports with every chart inline stay far below this; a PDF with fonts is the largest.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The file to re-check, the knowledge to re-rank on, the user's files and the output."""
    parser.add_argument("file", type=Path, metavar="FILE", help="a report (.md, .html, .pdf) or a profile (.yaml)")
    _context.add_knowledge_arguments(
        parser, "your own YAML or CSV files, as given when the decision was made (a profile brings its own)"
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 also when the decision holds but a cell, option or rule under it changed",
    )
    parser.add_argument(
        "--app-url",
        default="http://127.0.0.1:8501",
        metavar="URL",
        help="the app's address, for the link to today's ranking (http://127.0.0.1:8501)",
    )


def _extras(paths: list[Path], directory: Path, embedded: list) -> tuple[list, list[tuple[str, bytes]]]:
    """The --extra files checked like uploads (after the profile's), and their (name, bytes) for the digest."""
    from selector.io import fileio
    from selector.uploads import intake

    files = []
    for path in paths:
        data, problem = fileio.read_bytes(path, intake.MAX_UPLOAD_BYTES)
        if problem is not None:
            raise _context.Refused(f"cannot read --extra {path}: {problem.message}")
        files.append((path.name, data))
    accepted, issues = intake.check_files(paths, directory, others=embedded)
    for issue in issues:
        if issue.level == "WARNING":
            print(issue, file=sys.stderr)
    errors = [i for i in issues if i.level == "ERROR"]
    if errors:
        raise _context.Refused("--extra files are not valid:\n" + "\n".join(str(i) for i in errors))
    return [*embedded, *accepted], files


def _recheck(args: argparse.Namespace):  # noqa: ANN202 - selector.recheck.Recheck
    from selector import recheck
    from selector.io import fileio
    from selector.knowledge import loading as knowledge

    directory = args.knowledge if args.knowledge is not None else knowledge.DEFAULT_KNOWLEDGE
    if not directory.is_dir():
        raise _context.Refused(f"knowledge directory {directory} does not exist; pass --knowledge DIR")
    if not args.app_url.startswith(("http://", "https://")):
        raise _context.Refused(f"--app-url {args.app_url!r} must start with http:// or https://")
    data, problem = fileio.read_bytes(args.file, MAX_INPUT_BYTES)
    if problem is not None:
        raise _context.Refused(f"cannot read {args.file}: {problem.message}")
    found = recheck.read_file(data, str(args.file), directory)
    extras, files = _extras(args.extra, directory, list(found.uploads))
    kb, issues = knowledge.collect(directory, extra=extras)
    if kb is None:
        raise _context.Refused(
            "the knowledge does not load:\n" + "\n".join(str(i) for i in issues if i.level == "ERROR")
        )
    from selector.decision.preferences import PreferenceError
    from selector.decision.problem import ScoringError

    try:
        return recheck.recheck(
            found.record, kb, name=str(args.file), uploads=[*found.upload_files, *files], app_url=args.app_url
        )
    except (PreferenceError, ScoringError) as exc:
        raise _Unrankable(str(exc)) from None


class _Unrankable(SelectorError):
    """The recorded settings no longer fit today's knowledge: the decision does not hold as recorded."""


def run(args: argparse.Namespace) -> int:
    """Re-check and print; 0 when the decision holds, 1 when it changed, 2 when the input cannot be used."""
    try:
        result = _recheck(args)
    except _Unrankable as exc:
        headline = f"The decision changed: its settings cannot be ranked on today's knowledge: {exc}"
        print(json.dumps({"holds": False, "headline": headline, "exit": 1}) if args.format == "json" else headline)
        return 1
    except SelectorError as exc:
        return _context.fail(str(exc))
    if args.format == "json":
        print(json.dumps({**result.to_dict(), "exit": result.exit_code(args.strict)}, ensure_ascii=False, indent=2))
    else:
        print("\n".join(result.lines()))
    return result.exit_code(args.strict)

"""The ``report`` command: write a group's recommendation report as Markdown, self-contained HTML or PDF."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from selector import outfile
from selector.commands import _context
from selector.errors import SelectorError
from selector.escape import printable
from selector.robustness.figure import SAMPLES

NAME = "report"
HELP = "write the recommendation report (decision record) of a group as Markdown, HTML or PDF"

FORMATS = {"md": ".md", "html": ".html", "pdf": ".pdf"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ranking's preferences, the output format and file, and the robustness sampling."""
    _context.add_preference_arguments(parser)
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        help="md (decision record), html (self-contained page) or pdf (A4); default: from the -o file's suffix",
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="file to write; '-' writes md or html to stdout"
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=SAMPLES,
        metavar="N",
        help=f"SMAA weight samples ({SAMPLES}, as the app's verdict; 0 skips)",
    )
    parser.add_argument(
        "--seed", type=_context.seed, default=0, metavar="S", help="random seed; same seed, same report (0)"
    )
    parser.add_argument(
        "--app-url",
        default="http://127.0.0.1:8501",
        metavar="URL",
        help="the app's address, for the report's link that reproduces the ranking (http://127.0.0.1:8501)",
    )


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    suffix = Path(args.output).suffix.lower()
    for name, ext in FORMATS.items():
        if suffix == ext or (name == "md" and suffix == ".markdown") or (name == "html" and suffix == ".htm"):
            return name
    raise _context.Refused(
        f"cannot tell the format from the output name {args.output!r}; give --format md, html or pdf "
        "(or an output file ending in .md, .html or .pdf)"
    )


def _upload_files(args: argparse.Namespace) -> list[tuple[str, bytes]]:
    """The user's files the knowledge was merged with (the profile's, then --extra), for the decision record's
    digest; read again after :func:`_context.load` checked them, as `recheck` reads them."""
    from selector import fileio, profile
    from selector.uploads.intake import MAX_UPLOAD_BYTES

    files: list[tuple[str, bytes]] = []
    if args.profile is not None:
        text, _ = fileio.read_bytes(args.profile, profile.MAX_PROFILE_BYTES)
        files += profile.upload_files(profile.load(text or b"", check_uploads=False, name=str(args.profile)))
    for path in args.extra:
        data, _ = fileio.read_bytes(path, MAX_UPLOAD_BYTES)
        files.append((path.name, data or b""))
    return files


def run(args: argparse.Namespace) -> int:
    """Build and write the report; 0 on success, 2 when the input or the output cannot be used."""
    from selector.report import build, pdf, render

    try:
        fmt = _format(args)
        if args.samples < 0:
            raise _context.Refused(
                f"--samples is {args.samples}; give 0 (skip robustness) or more ({SAMPLES} is typical)"
            )
        if not args.app_url.startswith(("http://", "https://")):
            raise _context.Refused(f"--app-url {args.app_url!r} must start with http:// or https://")
        if args.output == "-" and fmt == "pdf":
            raise _context.Refused("a PDF cannot go to stdout; give -o FILE.pdf")
        if args.output != "-":
            outfile.check_target(args.output)  # before the minutes of work, not after
        # WeasyPrint is imported in a worker process while this one loads the knowledge and ranks
        with pdf.PdfWorker() if fmt == "pdf" else contextlib.nullcontext() as worker:
            kb, prefs = _context.load(args)
            built = build.build_report(
                kb, prefs, samples=args.samples, seed=args.seed, app_url=args.app_url, uploads=_upload_files(args)
            )
            if fmt == "md":
                data = render.render_markdown(built).encode("utf-8")
            elif fmt == "html":
                data = render.render_html(built).encode("utf-8")
            else:
                data = pdf.render_pdf(built, worker)
    except SelectorError as exc:
        return _context.fail(str(exc))
    try:
        if args.output == "-":
            outfile.write_stdout(data)
            return 0
        out = Path(args.output)
        outfile.write_atomic(out, data)
    except outfile.OutputRefused as exc:
        return _context.fail(str(exc))
    print(
        printable(f"wrote {out} ({fmt}, {len(data):,} bytes): {built.recommended} recommended for {built.group_name}")
    )
    return 0

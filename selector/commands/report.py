"""The ``report`` command: write a group's recommendation report as Markdown, self-contained HTML or PDF."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from selector import i18n
from selector.commands import _context
from selector.errors import SelectorError
from selector.escape import printable
from selector.io import outfile
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
    _context.add_language_argument(parser)
    parser.add_argument(
        "--app-url",
        default=None,
        metavar="URL",
        help="the app's address, for the report's link that reproduces the ranking (default: $AI_STACK_SELECTOR_URL; "
        "unset, the link is relative and its parameters are printed)",
    )
    record = parser.add_argument_group("the decision record's front matter (MADR 4)")
    record.add_argument("--title", default="", help="the decision's title (default: the group and the verdict)")
    record.add_argument(
        "--status",
        default="proposed",
        help="the decision's status: proposed (default), accepted, rejected, deprecated or superseded",
    )
    record.add_argument("--deciders", default="", metavar="NAMES", help="who decides, separated by commas")
    record.add_argument(
        "--consulted", default="", metavar="NAMES", help="whose opinion was sought, separated by commas"
    )
    record.add_argument("--informed", default="", metavar="NAMES", help="who is kept up to date, separated by commas")
    record.add_argument(
        "--review-by", default=None, metavar="YYYY-MM-DD", help="when to look again (default: six months on)"
    )


def _meta(args: argparse.Namespace):  # noqa: ANN202 - selector.adr.DecisionMeta (pydantic: imported when run)
    """The front matter the options give, else the --profile's; :class:`selector.adr.MetaError` names a field that
    cannot be used."""
    from selector import adr

    given = (args.title, args.deciders, args.consulted, args.informed, args.review_by, args.status != "proposed")
    if args.profile is not None and not any(given):
        from selector import profile
        from selector.io import fileio

        text, _ = fileio.read_bytes(args.profile, profile.MAX_PROFILE_BYTES)
        saved = profile.load(text or b"", check_uploads=False, name=str(args.profile)).decision
        return saved or adr.DecisionMeta()
    fields: dict[str, object] = {"title": args.title, "status": args.status}
    for key in ("deciders", "consulted", "informed"):
        fields[key] = adr.people(getattr(args, key))
    if args.review_by:
        fields["review_by"] = args.review_by
    return adr.make(**fields)


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
    from selector.io import fileio

    files: list[tuple[str, bytes]] = []
    if args.profile is not None:
        from selector import profile

        text, _ = fileio.read_bytes(args.profile, profile.MAX_PROFILE_BYTES)
        files += profile.upload_files(profile.load(text or b"", check_uploads=False, name=str(args.profile)))
    if args.extra:
        from selector.uploads.intake import MAX_UPLOAD_BYTES

        for path in args.extra:
            data, _ = fileio.read_bytes(path, MAX_UPLOAD_BYTES)
            files.append((path.name, data or b""))
    return files


def run(args: argparse.Namespace) -> int:
    """Build and write the report; 0 on success, 2 when the input or the output cannot be used."""
    from selector import adr
    from selector.report import build, pdf, render

    try:
        fmt = _format(args)
        if args.samples < 0:
            raise _context.Refused(
                f"--samples is {args.samples}; give 0 (skip robustness) or more ({SAMPLES} is typical)"
            )
        app_url = adr.base_url(args.app_url)
        if args.output == "-" and fmt == "pdf":
            raise _context.Refused("a PDF cannot go to stdout; give -o FILE.pdf")
        if args.output != "-":
            outfile.check_target(args.output)  # before the minutes of work, not after
        # WeasyPrint is imported in a worker process while this one loads the knowledge and ranks
        with pdf.PdfWorker() if fmt == "pdf" else contextlib.nullcontext() as worker:
            kb, prefs = _context.load(args)
            meta = _meta(args)
            built = build.build_report(
                kb,
                prefs,
                samples=args.samples,
                seed=args.seed,
                app_url=app_url,
                uploads=_upload_files(args),
                meta=meta,
                lang=_context.lang(args),
            )
            if fmt == "md":
                data = render.render_markdown(built).encode("utf-8")
            elif fmt == "html":
                data = render.render_html(built).encode("utf-8")
            else:
                data = pdf.render_pdf(built, worker)
    except SelectorError as exc:
        return _context.fail(i18n.stored(exc.message, _context.lang(args)))  # a refusal in --lang
    try:
        if args.output == "-":
            outfile.write_stdout(data)
            return 0
        out = Path(args.output)
        outfile.write_atomic(out, data)
    except outfile.OutputRefused as exc:
        return _context.fail(str(exc))
    _ = i18n.translator(_context.lang(args))
    wrote = _("wrote {path} ({format}, {size} bytes): {option} recommended for {group}")
    print(
        printable(
            wrote.format(path=out, format=fmt, size=f"{len(data):,}", option=built.recommended, group=built.group_name)
        )
    )
    return 0

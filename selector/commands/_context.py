"""What the commands that rank the bundled knowledge share: the preference options, profile and upload loading."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from selector.errors import SelectorError
from selector.escape import printable, printable_lines

EXIT_ERROR = 2
_EPILOG = "\0rank-epilog\0"  # replaced by the knowledge's groups, questions and methods when help is printed


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Builds the epilog only when help is shown: reading the knowledge is not free, and --help is rare."""

    def add_text(self, text: str | None) -> None:
        super().add_text(_epilog() if text == _EPILOG else text)


def _epilog() -> str:
    try:
        from selector.decision.preferences import MISSING_HELP
        from selector.decision.problem import METHODS
        from selector.knowledge import loading as knowledge
        from selector.value import SWING_WEIGHT_MEANING

        kb = knowledge.load()
    except Exception as exc:
        return f"(groups and questions unavailable: {exc.__class__.__name__}; run `python -m selector validate`)"
    lines = ["groups (--group):"]
    for group in kb.groups.values():
        lines.append(f"  {group.id:<26} {group.name_en}: {', '.join(group.members)}")
    lines.append("")
    lines.append("questions (--answer QUESTION=ANSWER; a question left out stays unanswered):")
    for question in kb.questions.values():
        options = ", ".join(o.id for o in question.options)
        lines.append(f"  {question.id:<26} {question.text_en}")
        lines.append(f"  {'':<26}   {options}")
    lines.append("")
    lines.append(
        f"dimensions (--weights; defaults): {', '.join(f'{d.id}={d.weight:g}' for d in kb.dimensions.values())}"
    )
    lines.append(f"  under the default method (mavt): {SWING_WEIGHT_MEANING}")
    lines.append("")
    from selector.knowledge import facts

    lines.append(f"vendors (--exclude-vendor): {', '.join(facts.vendors(kb.entities))}")
    lines.append("")
    lines.append("methods (--method) and their scalers (--scaler; the first is the default):")
    for spec in METHODS.values():
        lines.append(f"  {spec.name:<8} {spec.label}: {', '.join(spec.scalers)}")
    lines.append("")
    lines.append("missing-value policies (--missing):")
    for policy, text in MISSING_HELP.items():
        lines.append(f"  {policy:<20} {text}")
    lines.append("")
    lines.append(
        "example: python -m selector rank --group edge-accelerators --weights performance=60,cost=20 --method topsis"
    )
    return "\n".join(lines)


def add_preference_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the preferences, the knowledge to read and the output format."""
    parser.formatter_class = _HelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--group", metavar="GROUP", help="the group to rank (required unless --profile gives one)")
    parser.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="QUESTION=ANSWER",
        help="a scenario answer for the decision tree; repeat it (or separate pairs with commas)",
    )
    parser.add_argument("--weights", metavar="DIM=W,...", help="dimension weights, e.g. performance=40,cost=25")
    parser.add_argument("--criterion-weights", metavar="CRIT=W,...", help="sub-criterion weights inside the group")
    parser.add_argument(
        "--method", metavar="M", help="scoring method (default mavt, the additive value model on fixed value scales)"
    )
    parser.add_argument("--scaler", metavar="S", help="normalisation (default: the method's)")
    parser.add_argument("--missing", metavar="P", help="missing-value policy (default impute-worst)")
    parser.add_argument(
        "--exclude-flagged", action="store_true", help="leave out claims flagged as doubtful (default: use them)"
    )
    parser.add_argument(
        "--constraint",
        action="append",
        default=[],
        metavar="CRIT<=N",
        help="a hard constraint applied before weighting, e.g. power-w<=10 (operators <=, >=, <, >, =); repeat it",
    )
    parser.add_argument(
        "--exclude-vendor", action="append", default=[], metavar="VENDOR", help="leave out a vendor's alternatives"
    )
    parser.add_argument("--exclude", action="append", default=[], metavar="ID", help="leave out one alternative")
    parser.add_argument(
        "--keep-unknown",
        action="store_true",
        help="keep alternatives whose value for a constrained criterion is unknown (default: remove them)",
    )
    parser.add_argument(
        "--workload",
        metavar="FILE|K=V,...",
        help="the LLM workload you serve, e.g. model=llama-3.1-70b,precision=fp8,context=8192,output=1024,"
        "concurrency=32,ttft-ms=2000,tpot-ms=50,utilisation=0.5 (or a YAML file of the same fields; README "
        "'Fit my workload'): the LLM groups then rank on throughput within the limits and cost at that load",
    )
    parser.add_argument("--profile", type=Path, metavar="FILE", help="a saved decision profile; options override it")
    add_knowledge_arguments(parser, "your own YAML or CSV files (checked like an upload and merged)")


class _Once(argparse.Action):
    """An option that may be given once: a second one is refused (exit 2), not silently the one that counts."""

    def __call__(self, parser, namespace, values, option_string=None):  # noqa: ANN001 - argparse's signature
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} is given twice; give it once ({', '.join(_languages())})")
        setattr(namespace, self.dest, values)


def _languages() -> tuple[str, ...]:
    from selector import i18n

    return i18n.LANGUAGES


def language(text: str) -> str:
    """``--lang``'s value: a language the output speaks (argparse exits 2 with the languages allowed otherwise)."""
    from selector import i18n

    try:
        return i18n.check_language(text)
    except i18n.LanguageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang en|zh``: the language of what the command writes for people (default English)."""
    parser.add_argument(
        "--lang",
        type=language,
        action=_Once,
        default=None,
        metavar="LANG",
        help="language of the text for people: en (default) or zh (中文); ids, JSON keys and numbers stay as they are",
    )


def lang(args: argparse.Namespace) -> str:
    """The language ``--lang`` chose, English when not given."""
    return getattr(args, "lang", None) or "en"


def add_knowledge_arguments(
    parser: argparse.ArgumentParser,
    extra_help: str,
    knowledge_help: str = "knowledge directory (default: the bundled one)",
) -> None:
    """``--knowledge DIR`` and ``--extra FILE ...``: the knowledge a command reads and the user's own files."""
    parser.add_argument("--knowledge", type=Path, metavar="DIR", help=knowledge_help)
    parser.add_argument("--extra", type=Path, nargs="+", action="extend", default=[], metavar="FILE", help=extra_help)


#: Seeds a random generator takes: a whole number from 0 (numpy refuses negatives with a traceback).
MAX_SEED = 2**63 - 1


def seed(text: str) -> int:
    """``--seed``'s value: a whole number from 0 to ``MAX_SEED`` (argparse exits 2 with this message otherwise)."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number; give e.g. 0 or 42") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text[:40]} is out of range; a seed is a whole number from 0 to 2**63-1")
    return value


class Refused(SelectorError):
    """A problem with the user's input; the message says what to fix."""


def fail(message: str) -> int:
    # the message may quote a user's file: each line made printable (control characters shown, not obeyed)
    print(printable_lines(f"error: {message}".split("\n")), file=sys.stderr)
    return EXIT_ERROR


def _uploads(args: argparse.Namespace, directory: Path, embedded: list) -> list:  # noqa: ANN001
    if not args.extra:
        return list(embedded)  # nothing to check: the upload checks are not even imported
    from selector.uploads import intake

    accepted, issues = intake.check_files(args.extra, directory, others=embedded)
    for issue in issues:
        if issue.level == "WARNING":
            print(printable(issue), file=sys.stderr)
    errors = [i for i in issues if i.level == "ERROR"]
    if errors:
        raise Refused("--extra files are not valid:\n" + "\n".join(str(i) for i in errors))
    return [*embedded, *accepted]


def preferences(args: argparse.Namespace, base):  # noqa: ANN001, ANN202 - Preferences
    from selector.decision.preferences import DEFAULT_METHOD, MISSING_POLICIES, Preferences, parse_pairs, parse_weights

    answers = dict(_saved(base, "answers", {}))
    # every --answer together: a question answered twice on the command line is refused, not last-one-wins;
    # the command line then overrides the profile's answers, as it overrides its other settings
    answers.update(parse_pairs(",".join(args.answer), "--answer"))
    dims = dict(_saved(base, "dimension_weights", {}))
    dims.update(parse_weights(args.weights, "--weights"))
    crits = dict(_saved(base, "criterion_weights", {}))
    crits.update(parse_weights(args.criterion_weights, "--criterion-weights"))
    group = args.group or _saved(base, "group", None)
    if not group:
        raise Refused("give --group GROUP (see `python -m selector rank --help` for the groups) or --profile FILE")
    missing = args.missing or _saved(base, "missing", MISSING_POLICIES[0])
    if missing not in MISSING_POLICIES:
        raise Refused(f"--missing `{missing}` is not a policy; choose one of {', '.join(MISSING_POLICIES)}")
    return Preferences(
        group=group,
        answers=answers,
        dimension_weights=dims,
        criterion_weights=crits,
        method=args.method or _saved(base, "method", DEFAULT_METHOD),
        scaler=args.scaler or _saved(base, "scaler", None),
        missing=missing,
        use_flagged=False if args.exclude_flagged else _saved(base, "use_flagged", True),
        constraints=(*_saved(base, "constraints", ()), *args.constraint),
        exclude_vendors=(*_saved(base, "exclude_vendors", ()), *_split(args.exclude_vendor)),
        exclude=(*_saved(base, "exclude", ()), *_split(args.exclude)),
        keep_unknown=args.keep_unknown or _saved(base, "keep_unknown", False),
        # the profile's record of how its weights were elicited holds while --weights does not replace them
        elicitation=None if args.weights else _saved(base, "elicitation", None),
        workload=_workload(args) or _saved(base, "workload", None),
    )


def _workload(args: argparse.Namespace) -> str | None:
    """``--workload``'s compact form (read from the file when it names one); None when not given."""
    from selector.decision import workload

    text = getattr(args, "workload", None)
    return workload.read(text).text() if text else None


def _saved(base, field: str, default):  # noqa: ANN001, ANN202 - Preferences or None; the field's value
    """What the profile's preferences BASE hold in FIELD, or DEFAULT when no --profile was given."""
    return getattr(base, field) if base else default


def _split(values: list[str]) -> list[str]:
    return [p.strip() for v in values for p in v.split(",") if p.strip()]


def load(args: argparse.Namespace):  # noqa: ANN201 - (KnowledgeBase, Preferences)
    """The knowledge (bundled + profile uploads + --extra files) and the preferences the options describe.

    Raises
    ------
    SelectorError
        With a message that says what to fix (``Refused`` for the options themselves); also for preference (method
        and scaler included) and profile errors.
    """
    from pydantic import ValidationError

    from selector.knowledge import loading as knowledge

    directory = args.knowledge if args.knowledge is not None else knowledge.DEFAULT_KNOWLEDGE
    if not directory.is_dir():
        raise Refused(f"knowledge directory {directory} does not exist; pass --knowledge DIR")
    try:
        saved = None
        embedded = []
        if args.profile is not None:
            # imported only for a profile: a command without one never needs the profile's schema
            from selector import profile
            from selector.io import fileio

            text, problem = fileio.read_bytes(args.profile, profile.MAX_PROFILE_BYTES)
            if problem is not None:
                raise Refused(f"cannot read --profile {args.profile}: {problem.message}")
            saved = profile.load(text, directory, check_uploads=False, name=str(args.profile))
            embedded = profile.merge_uploads(saved, directory, name=str(args.profile))
        extras = _uploads(args, directory, embedded)
        kb, issues = knowledge.collect(directory, extra=extras)
        if kb is None:
            raise Refused("the knowledge does not load:\n" + "\n".join(str(i) for i in issues if i.level == "ERROR"))
        prefs = preferences(args, saved.to_preferences() if saved else None)
        try:
            prefs.check(kb)
        except SelectorError as exc:
            if saved is None:
                raise
            raise Refused(f"{exc} (the settings come from --profile {args.profile} and the options given)") from None
    except ValidationError as exc:
        raise Refused("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())) from None
    return kb, prefs

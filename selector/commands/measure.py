"""The ``measure`` command: ingest benchmark outputs as ``measured`` claims, or run the local ONNX Runtime probe.

``measure ingest FILE... -o OUT.yaml`` reads MLPerf LoadGen summaries (with their detail logs), trtexec and
onnxruntime_perf_test output and llama-bench JSON; ``measure run`` times ONNX Runtime on a locally built model. Both
write knowledge YAML that the app's My data page and ``--extra`` accept, and write it only when it validates: a
refused file, an unknown format or an interrupted run exit 2 (130 for Ctrl-C) and leave no output file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType

from selector.escape import printable
from selector.io import outfile

NAME = "measure"
HELP = "benchmark outputs (MLPerf LoadGen, trtexec, llama-bench) or a local ONNX Runtime probe -> measured claims"

EXIT_INVALID = 2
EXIT_INTERRUPTED = 130
_HEADER = "# Measured claims written by `python -m selector measure {how}` (AI Stack Selector); upload in My data.\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the ``ingest`` and ``run`` subcommands and their options."""
    sub = parser.add_subparsers(dest="measure_command", metavar="ACTION", required=True)
    ingest = sub.add_parser(
        "ingest",
        help="read benchmark outputs and write measured claims",
        description="Read MLPerf LoadGen mlperf_log_summary.txt (its mlperf_log_detail.txt beside it is read too), "
        "trtexec or onnxruntime_perf_test console output, or llama-bench -o json output, and write knowledge YAML "
        "of measured claims. "
        "Exit 2 with every problem (file, line, what was expected) and no output when any file is refused.",
    )
    ingest.add_argument("files", nargs="+", type=Path, metavar="FILE", help="benchmark output files")
    ingest.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.yaml", help="file to write")
    ingest.add_argument(
        "--entity",
        metavar="ID",
        help="hardware entity the run was on (required when the file names no device the knowledge knows)",
    )
    ingest.add_argument("--subject", metavar="ID", help="entity the figures belong to (default: runtime or hardware)")
    ingest.add_argument("--model", metavar="NAME", help="the model/workload, when the file does not name it")
    ingest.add_argument("--precision", metavar="P", help="precision, when the file does not state it (e.g. fp16)")
    ingest.add_argument("--batch", metavar="N", help="batch size, when the file does not state it")
    ingest.add_argument(
        "--accelerators",
        type=int,
        metavar="N",
        help="accelerators in the system: adds per-accelerator figures (derived: system result / N)",
    )
    _common(ingest)

    probe = sub.add_parser(
        "run",
        help="time ONNX Runtime on a locally built model and write measured claims about this machine",
        description="Build a ResNet-50- or BERT-base-like ONNX model locally (random weights; nothing is "
        "downloaded), time it with ONNX Runtime on the best execution provider present, and write measured "
        "claims (throughput, latency percentiles) with the machine's facts. Ctrl-C stops it without writing.",
    )
    probe.add_argument("--model", choices=("resnet50-like", "bert-like"), default="resnet50-like")
    probe.add_argument("--batch", type=int, default=1, metavar="N", help="samples per inference (default 1)")
    probe.add_argument("--seconds", type=float, default=10.0, metavar="S", help="timed window (default 10)")
    probe.add_argument("--provider", metavar="EP", help="ONNX Runtime execution provider (default: best present)")
    probe.add_argument(
        "--entity", metavar="ID", help="existing hardware entity this machine is (default: a new entity for it)"
    )
    probe.add_argument("--entity-name", metavar="NAME", help="name of the new machine entity")
    probe.add_argument(
        "--segment",
        choices=("datacenter", "edge", "mobile_client", "emerging"),
        default="datacenter",
        help="segment of the new machine entity (default datacenter)",
    )
    probe.add_argument(
        "--group", action="append", default=[], metavar="GROUP", help="comparison group the new machine joins"
    )
    probe.add_argument("-o", "--output", type=Path, default=Path("measured_probe.yaml"), metavar="OUT.yaml")
    _common(probe)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user", default="user", help="who measured (named in the source record)")
    parser.add_argument(
        "--knowledge", type=Path, metavar="DIR", help="knowledge directory (default: the bundled knowledge/)"
    )
    parser.add_argument(
        "--extra", type=Path, nargs="+", action="extend", default=[], metavar="FILE", help="your other uploads"
    )


def run(args: argparse.Namespace) -> int:
    """Dispatch to ingest or the probe; returns 0, 2 (refused) or 130 (interrupted)."""
    try:
        if args.measure_command == "ingest":
            return _ingest(args)
        return _probe(args)
    except KeyboardInterrupt:
        print("interrupted: nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED


def _knowledge(args: argparse.Namespace):  # noqa: ANN202 - (KnowledgeBase | None, others)
    from selector.knowledge import loading as knowledge
    from selector.uploads import intake

    directory = args.knowledge or knowledge.DEFAULT_KNOWLEDGE
    others, problems = intake.check_files(args.extra, directory)
    if any(i.level == "ERROR" for i in problems):
        for issue in problems:
            print(printable(issue), file=sys.stderr)
        return None, others, directory
    kb, issues = knowledge.collect(directory, extra=others)
    for issue in issues:
        if issue.level == "ERROR":
            print(printable(issue), file=sys.stderr)
    return kb, others, directory


def _ingest(args: argparse.Namespace) -> int:
    from selector import measure

    files, problems = _read_files(args.files, measure)
    if problems:
        for issue in problems:
            print(printable(issue), file=sys.stderr)
        print(f"nothing written to {printable(args.output)}", file=sys.stderr)
        return EXIT_INVALID
    kb, others, directory = _knowledge(args)
    if kb is None:
        return EXIT_INVALID
    options = measure.Options(
        entity=args.entity,
        subject=args.subject,
        workload=args.model,
        precision=args.precision,
        batch=args.batch,
        accelerators=args.accelerators,
        user=args.user,
    )
    try:
        ingested = measure.ingest(files, options, kb)
    except measure.MeasureError as exc:
        for issue in exc.issues:
            print(printable(issue), file=sys.stderr)
        print(f"nothing written to {args.output}", file=sys.stderr)
        return EXIT_INVALID
    for name, run, entity, how in ingested.runs:
        line = f"{name}: {run.tool}, {len(run.figures)} figure(s), hardware `{entity}` ({how})"
        print(printable(line), file=sys.stderr)
    return _write(args.output, ingested.document, "ingest", directory, others)


def _read_files(paths: list[Path], measure: ModuleType) -> tuple[list[tuple[str, bytes]], list]:
    """(name, bytes) of each file and the LoadGen detail log beside a summary; regular files only, capped in size.

    A FIFO, a device (``/dev/zero`` never ends) or a directory is refused before it is opened for reading.
    """
    from selector.io import fileio

    files: list[tuple[str, bytes]] = []
    problems = []
    listed = {str(p) for p in paths}
    for path in paths:
        data, problem = fileio.read_bytes(path, measure.MAX_BYTES)
        if problem is not None:
            problems.append(problem)
            continue
        files.append((str(path), data))
        detail = Path(measure.detail_name(str(path)))
        if "mlperf_log_summary" in path.name and str(detail) not in listed and detail.exists():
            data, problem = fileio.read_bytes(detail, measure.MAX_BYTES)
            if problem is not None:
                problems.append(problem)
                continue
            files.append((str(detail), data))
            listed.add(str(detail))
    return files, problems


def _probe(args: argparse.Namespace) -> int:
    from selector.measure import probe

    kb, others, directory = _knowledge(args)
    if kb is None:
        return EXIT_INVALID
    if args.entity and args.entity not in kb.entities:
        print(f"ERROR --entity: entity `{args.entity}` is not in the knowledge", file=sys.stderr)
        return EXIT_INVALID
    unknown = [g for g in args.group if g not in kb.groups]
    if unknown:
        print(f"ERROR --group: unknown group(s) {', '.join(unknown)}; see `rank --help`", file=sys.stderr)
        return EXIT_INVALID
    if args.entity and args.group:
        print("ERROR --group: only a new machine entity joins groups (drop --entity or --group)", file=sys.stderr)
        return EXIT_INVALID
    if args.batch < 1 or not args.seconds > 0:
        print("ERROR --batch must be at least 1 and --seconds positive", file=sys.stderr)
        return EXIT_INVALID

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    result = probe.run(args.model, args.batch, args.seconds, args.provider, progress)
    if args.entity and result.provider == "CPUExecutionProvider":
        print(
            f"note: the run used the CPU ({result.machine.cpu}); the claims say it ran on `{args.entity}`: "
            "name the entity of this CPU, not of an accelerator in the machine",
            file=sys.stderr,
        )
    document = probe.document(result, args.entity, args.entity_name, args.segment, tuple(args.group), args.user)
    unit = "img/s" if args.model == "resnet50-like" else "samples/s"
    print(
        f"{result.runs} batches of {result.batch} in {result.seconds:.2f} s on {result.provider}: "
        f"{result.throughput:.2f} {unit}; latency per batch p50 {result.percentile(50):.2f} ms, "
        f"p90 {result.percentile(90):.2f} ms, p99 {result.percentile(99):.2f} ms",
        file=sys.stderr,
    )
    return _write(args.output, document, "run", directory, others)


def _write(output: Path, document: dict, how: str, directory: Path, others: list) -> int:
    """Validate `document` as an upload would be, then write it atomically (temp file + rename) or not at all."""
    from selector.io import yamlio
    from selector.uploads import intake

    try:
        outfile.check_target(output)  # a device or folder as -o is refused as such, before its name is judged
    except outfile.OutputRefused as exc:
        print(printable(f"ERROR {exc}; nothing written"), file=sys.stderr)
        return EXIT_INVALID
    text = (_HEADER.format(how=how) + yamlio.dump_yaml(document)).encode("utf-8")
    result = intake.validate_upload(output.name, text, directory, others=others, max_bytes=len(text) + 1)
    problems = [i for i in result.issues if i.level == "ERROR"]
    if problems:
        for issue in problems:
            print(printable(issue), file=sys.stderr)
        print(f"the measured claims do not validate; nothing written to {output}", file=sys.stderr)
        return EXIT_INVALID
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        outfile.write_atomic(output, text)
    except OSError as exc:  # OutputRefused included
        message = str(exc) if isinstance(exc, outfile.OutputRefused) else f"cannot write {output}: {exc.strerror}"
        print(printable(f"ERROR {message}; nothing written"), file=sys.stderr)
        return EXIT_INVALID
    claims = len(document.get("claims", []))
    print(f"wrote {claims} measured claim(s) to {output}", file=sys.stderr)
    return 0

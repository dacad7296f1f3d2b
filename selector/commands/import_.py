"""The ``import`` command: a bundled raw snapshot -> knowledge YAML, byte-identical for the same input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from selector.escape import printable
from selector.io import outfile

NAME = "import"
HELP = "convert a bundled raw dataset snapshot into knowledge YAML (deterministic; exit 2 and nothing written on error)"
EXIT_ERROR = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the dataset, its raw files, the output and the knowledge directory."""
    parser.add_argument("dataset", help="dataset id of knowledge/datasets.yaml, e.g. epoch-ml-hardware")
    parser.add_argument("raw", nargs="+", type=Path, metavar="RAW", help="raw files under knowledge/imports/raw/")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="the YAML file to write")
    parser.add_argument("--knowledge", type=Path, metavar="DIR", help="knowledge directory (default: the bundled one)")


def run(args: argparse.Namespace) -> int:
    """Import and write atomically; 0 on success, 2 with the file and row of the first problem otherwise."""
    from selector.knowledge import importers
    from selector.knowledge.loading import DEFAULT_KNOWLEDGE

    knowledge_dir = args.knowledge or DEFAULT_KNOWLEDGE
    try:
        text, imported = importers.run(args.dataset, args.raw, knowledge_dir)
    except importers.ImportFailure as exc:
        print(f"ERROR {exc}; nothing written", file=sys.stderr)
        return EXIT_ERROR
    output = Path(args.output)
    try:
        # written beside the target and renamed: a reader never sees half a file, and a failure leaves the old one
        outfile.write_atomic(output, text.encode("utf-8"))
    except outfile.OutputRefused as exc:
        print(f"ERROR {exc}; nothing written", file=sys.stderr)
        return EXIT_ERROR
    print(f"{args.dataset}: {len(imported.claims)} claims written to {output}")
    for name, why in sorted(imported.excluded.items()):
        print(printable(f"  left out: {name} ({why})"))
    if imported.unknown:
        print(f"  {len(imported.unknown)} upstream names not in the alias table (not imported; listed in the file)")
    return 0

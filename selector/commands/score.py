"""The ``score`` command: rank the alternatives of a CSV decision matrix with one MCDA method."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from pathlib import Path

from selector import escape
from selector.errors import SelectorError

NAME = "score"
HELP = "rank the alternatives of a CSV decision matrix (first column: names; header: criteria)"

EXIT_BAD_INPUT = 2

# Kept in step with selector.decision.problem.METHODS / SCALERS by tests/commands/test_score.py; listed here so that
# building --help does not import numpy.
METHOD_NAMES = ("mavt", "wsm", "wpm", "topsis", "vikor", "moora")
SCALER_NAMES = ("none", "sum", "vector", "minmax", "value")


class InputError(SelectorError):
    """Bad command-line input; the message names the file, the place and the fix."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the matrix file, ``--objectives``, ``--weights``, ``--method``, ``--scaler`` and ``--format``."""
    parser.add_argument("matrix", type=Path, metavar="MATRIX.csv", help="decision matrix: header row of criteria")
    parser.add_argument(
        "--objectives",
        required=True,
        metavar="max,min,...",
        help="one 'max' (benefit) or 'min' (cost) per criterion, comma-separated",
    )
    parser.add_argument(
        "--weights",
        metavar="w1,w2,...",
        help="one non-negative weight per criterion, any scale (default: equal weights)",
    )
    parser.add_argument(
        "--method",
        default="topsis",
        metavar="METHOD",
        help=f"one of {', '.join(METHOD_NAMES)} (default: topsis)",
    )
    parser.add_argument(
        "--scaler",
        default=None,
        metavar="SCALER",
        help=f"one of {', '.join(SCALER_NAMES)} (default: the method's own; vikor allows only none)",
    )
    parser.add_argument(
        "--scales",
        metavar="lo:hi[:log],...",
        help="mavt only: each criterion's fixed value scale (worst/best ends set by --objectives), optionally ':log'",
    )
    parser.add_argument(
        "--format", choices=("table", "json", "csv"), default="table", help="output format (default: table)"
    )


def read_matrix(path: Path) -> tuple[list[str], list[str], list[list[float]]]:
    """Read a CSV decision matrix: the first column holds alternative names, the header row criterion names.

    Parameters
    ----------
    path : pathlib.Path

    Returns
    -------
    tuple
        (alternatives, criteria, rows of floats).

    Raises
    ------
    InputError
        Missing or empty file, ragged rows, empty or non-numeric cells, duplicate names.
    """
    rows = _rows(path)
    header = [cell.strip() for cell in rows[0]]
    criteria = _criteria(path, header)
    if len(rows) < 2:
        raise InputError(f"{path}: only a header row; add one row per alternative")
    alternatives: list[str] = []
    values: list[list[float]] = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(
                f"{path}: row {line} has {len(row)} cells but the header has {len(header)}; "
                f"give a name and {len(criteria)} values"
            )
        name = row[0].strip()
        if not name:
            raise InputError(f"{path}: row {line}, column 1 has no alternative name; name every alternative")
        if name in alternatives:
            raise InputError(f"{path}: row {line} repeats alternative {name!r}; alternative names must be unique")
        values.append(_numbers(f"{path}: row {line} ({name!r})", criteria, row[1:]))
        alternatives.append(name)
    return alternatives, criteria, values


def _rows(path: Path) -> list[list[str]]:
    """The CSV rows of PATH that hold anything, the header first; a missing, unreadable or empty file is refused."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: file not found; give the path of a CSV decision matrix") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as UTF-8 text ({exc}); save the matrix as a UTF-8 CSV") from exc
    rows = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    if not rows:
        raise InputError(
            f"{path}: the file is empty; write a header row (name, criteria...) and one row per alternative"
        )
    return rows


def _criteria(path: Path, header: list[str]) -> list[str]:
    """The criterion names of the header (after the name column): at least one, none empty, none twice."""
    criteria = header[1:]
    if not criteria:
        raise InputError(f"{path}: line 1 has no criterion columns; the header needs a name column then criteria")
    for col, name in enumerate(criteria, start=2):
        if not name:
            raise InputError(f"{path}: line 1, column {col} has an empty criterion name; name every criterion")
    if len(set(criteria)) != len(criteria):
        dup = next(c for c in criteria if criteria.count(c) > 1)
        raise InputError(f"{path}: line 1 names criterion {dup!r} twice; criterion names must be unique")
    return criteria


def _numbers(row_name: str, criteria: list[str], cells: list[str]) -> list[float]:
    """One alternative's values: every cell a finite number; ROW_NAME starts each message."""
    numbers = []
    for col, (crit, cell) in enumerate(zip(criteria, cells, strict=True), start=2):
        cell = cell.strip()
        where = f"{row_name}, column {col} ({crit!r})"
        if not cell:
            raise InputError(f"{where} is empty; fill in a number (impute missing values before scoring)")
        try:
            number = float(cell)
        except ValueError:
            raise InputError(f"{where} is {cell!r}, not a number; write a plain number such as 12.5") from None
        if not math.isfinite(number):
            raise InputError(f"{where} is {cell!r}; write a finite number")
        numbers.append(number)
    return numbers


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def _parse_weights(text: str | None, criteria: list[str], path: Path) -> list[float]:
    if text is None:
        return [1.0] * len(criteria)
    parts = _split(text)
    if len(parts) != len(criteria):
        raise InputError(
            f"--weights has {len(parts)} values but {path} has {len(criteria)} criteria ({', '.join(criteria)}); "
            "give one weight per criterion"
        )
    weights = []
    for crit, part in zip(criteria, parts, strict=True):
        try:
            weights.append(float(part))
        except ValueError:
            raise InputError(f"--weights: {part!r} for criterion {crit!r} is not a number") from None
    return weights


def _parse_objectives(text: str, criteria: list[str], path: Path) -> list[str]:
    parts = [p.lower() for p in _split(text)]
    if len(parts) != len(criteria):
        raise InputError(
            f"--objectives has {len(parts)} values but {path} has {len(criteria)} criteria ({', '.join(criteria)}); "
            "give one 'max' or 'min' per criterion"
        )
    for crit, part in zip(criteria, parts, strict=True):
        if part not in ("max", "min"):
            raise InputError(f"--objectives: {part!r} for criterion {crit!r}; use 'max' (benefit) or 'min' (cost)")
    return parts


def _parse_scales(text: str | None, criteria: list[str], path: Path):  # noqa: ANN202 - ValueScales, lazily
    """``--scales 0:100,1:5:log`` -> the value scales of the additive value model, one per criterion."""
    from selector.value import ValueScaleError, ValueScales

    if text is None:
        return None
    parts = _split(text)
    if len(parts) != len(criteria):
        raise InputError(
            f"--scales has {len(parts)} scales but {path} has {len(criteria)} criteria ({', '.join(criteria)}); "
            "give one lo:hi (or lo:hi:log) per criterion"
        )
    bounds, shapes = [], []
    for crit, part in zip(criteria, parts, strict=True):
        pieces = part.split(":")
        shape = pieces.pop() if len(pieces) == 3 else "linear"
        try:
            lo, hi = (float(v) for v in pieces)
        except ValueError:
            raise InputError(f"--scales: {part!r} for criterion {crit!r}; write lo:hi or lo:hi:log") from None
        bounds.append((lo, hi))
        shapes.append(shape)
    try:
        return ValueScales.of(bounds, shapes, criteria)
    except ValueScaleError as exc:
        raise InputError(f"--scales: {exc}") from None


def _table(result) -> str:  # noqa: ANN001 - ScoreResult, imported lazily
    direction = "higher is better" if result.higher_is_better else "lower is better"
    rows = result.ranking()
    width = max(len("alternative"), *(len(r["name"]) for r in rows))
    lines = [
        f"method {result.method}, scaler {result.scaler} (score: {direction})",
        f"{'rank':>4}  {'alternative':<{width}}  {'score':>12}",
    ]
    lines += [f"{r['rank']:>4}  {r['name']:<{width}}  {r['score']:>12.6f}" for r in rows]
    return escape.printable_lines(lines)


def _csv(result) -> str:  # noqa: ANN001 - ScoreResult
    from selector.escape import neutralise

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "alternative", "score", "method", "scaler"])
    for r in result.ranking():
        writer.writerow([r["rank"], neutralise(r["name"]), r["score"], result.method, result.scaler])
    return out.getvalue().rstrip("\n")


def run(args: argparse.Namespace) -> int:
    """Score the matrix and print it in the chosen format; exit 2 with a message on bad input."""
    from selector.decision import scoring
    from selector.decision.problem import Problem, ScoringError

    path: Path = args.matrix
    try:
        alternatives, criteria, values = read_matrix(path)
        objectives = _parse_objectives(args.objectives, criteria, path)
        weights = _parse_weights(args.weights, criteria, path)
        scales = _parse_scales(args.scales, criteria, path)
        result = scoring.score(
            Problem.of(
                values, objectives, weights, args.method, args.scaler, alternatives, criteria, value_scales=scales
            )
        )
    except InputError as exc:
        print(escape.printable_lines(f"error: {exc}".split("\n")), file=sys.stderr)
        return EXIT_BAD_INPUT
    except ScoringError as exc:
        print(escape.printable_lines(f"error: {path}: {exc}".split("\n")), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.format == "json":
        payload = {"method": result.method, "scaler": result.scaler, "alternatives": result.ranking()}
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    elif args.format == "csv":
        print(_csv(result))
    else:
        print(_table(result))
    return 0

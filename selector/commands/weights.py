"""The ``weights`` command: dimension weights from swing ratings or pairwise comparisons (AHP)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from selector.commands._context import fail

NAME = "weights"
HELP = "dimension weights from swing ratings (--swing) or pairwise comparisons (--pairwise, AHP)"

_EPILOG = """\
pairwise: one --pairwise A/B=V per pair of dimensions (A is V times as important as B; V from 1/9 to 9 on
Saaty's scale, fractions such as 1/3 allowed); four dimensions need all six comparisons. The weights are the
principal eigenvector; a consistency ratio above 0.10 names the most inconsistent judgement.

swing: imagine every option at the worst end of every dimension; the swing to the best end you would take first
is rated 100, each other 0-100 relative to it.

--within DIMENSION --group GROUP weighs the group's criteria inside that dimension the same way (their ids as
`rank --help` lists them); the result goes to `rank --criterion-weights`.

examples:
  python -m selector weights --pairwise performance/cost=3 --pairwise performance/ecosystem=5 \\
      --pairwise performance/risk=5 --pairwise cost/ecosystem=2 --pairwise cost/risk=3 --pairwise ecosystem/risk=1
  python -m selector weights --swing performance=100,cost=60,ecosystem=30,risk=20 --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``--pairwise``, ``--swing``, ``--knowledge`` and ``--format``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument(
        "--pairwise", action="append", default=[], metavar="A/B=V", help="a comparison: A is V times as important as B"
    )
    parser.add_argument(
        "--swing", action="append", default=[], metavar="DIM=R,...", help="swing ratings 0-100 (the first is 100)"
    )
    parser.add_argument(
        "--within",
        metavar="DIMENSION",
        help="weigh the criteria of --group inside this dimension instead of the four dimensions",
    )
    parser.add_argument("--group", metavar="GROUP", help="the group whose criteria --within weighs")
    parser.add_argument("--knowledge", type=Path, metavar="DIR", help="knowledge directory (default: the bundled one)")
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format (default: table)")


def run(args: argparse.Namespace) -> int:
    """Print the weights (and, for comparisons, the consistency ratio); exit 2 with a message on bad answers."""
    from selector.decision import elicitation
    from selector.errors import SelectorError
    from selector.knowledge import loading as knowledge

    if bool(args.pairwise) == bool(args.swing):
        return fail("give either --pairwise comparisons or --swing ratings (one of the two, not both)")
    try:
        kb = knowledge.load(args.knowledge) if args.knowledge else knowledge.load()
        items, names, noun = _items(kb, args)
        if args.pairwise:
            judgements = [elicitation.parse_judgement(t) for t in args.pairwise]
            result = elicitation.pairwise(items, judgements, noun)
        else:
            result = elicitation.swing(items, elicitation.parse_ratings(args.swing), noun)
    except SelectorError as exc:
        return fail(str(exc))
    if args.within:
        within = f" of the criteria inside {kb.dimensions[args.within].name_en} ({kb.groups[args.group].name_en})"
        rank = f"--group {args.group} --criterion-weights"
    else:
        within, rank = "", "--group GROUP --weights"
    print(json.dumps(as_json(result), indent=2) if args.format == "json" else as_table(result, names, within, rank))
    return 0


def _items(kb, args: argparse.Namespace) -> tuple[list[str], dict[str, str], str]:  # noqa: ANN001
    """What is weighed: the four dimensions, or with --within the group's criteria in that dimension."""
    from selector.decision.elicitation import ElicitationError

    if args.within is None:
        if args.group is not None:
            raise ElicitationError(
                "--group is used with --within DIMENSION (the dimension weights are the same for every group)"
            )
        return list(kb.dimensions), {d: dim.name_en for d, dim in kb.dimensions.items()}, "dimension"
    if args.within not in kb.dimensions:
        raise ElicitationError(f"--within `{args.within}` is not a dimension; choose one of {', '.join(kb.dimensions)}")
    if args.group not in kb.groups:
        raise ElicitationError(f"--within needs --group, one of: {', '.join(kb.groups)}")
    criteria = [
        gc.criterion for gc in kb.groups[args.group].criteria if kb.criteria[gc.criterion].dimension == args.within
    ]
    if len(criteria) < 2:
        raise ElicitationError(
            f"group `{args.group}` has {len(criteria)} criterion in dimension `{args.within}`: nothing to weigh"
        )
    return criteria, {c: kb.criteria[c].name_en for c in criteria}, "criterion"


def as_json(result) -> dict:  # noqa: ANN001 - SwingResult | PairwiseResult, imported lazily
    """``{"weights": {dimension: share}, "consistency_ratio": x, ...}``; the shares sum to 1."""
    from selector.decision.elicitation import PairwiseResult

    data: dict = {"method": "pairwise" if isinstance(result, PairwiseResult) else "swing", "weights": result.weights}
    if isinstance(result, PairwiseResult):
        data["consistency_ratio"] = result.consistency_ratio
        data["consistency_index"] = result.consistency_index
        data["lambda_max"] = result.lambda_max
        worst = result.most_inconsistent
        data["most_inconsistent"] = None if worst is None else _inconsistency_json(worst)
    data["answers"] = list(result.answers)
    return data


def _inconsistency_json(worst) -> dict:  # noqa: ANN001 - Inconsistency
    from selector.decision.elicitation import format_value

    return {
        "judgement": worst.given.text,
        "implied_by_weights": worst.implied,
        "suggestion": format_value(worst.suggestion),
        "consistency_ratio_if_revised": worst.ratio_if_revised,
    }


def as_table(  # noqa: ANN001 - result: SwingResult | PairwiseResult
    result, names: dict[str, str], within: str = "", rank: str = "--group GROUP --weights"
) -> str:
    """The weights in percent (summing to 100) and, for comparisons, the consistency ratio and what to revise;
    `within` names what is weighed when not the dimensions, `rank` the options that take the weights."""
    from selector.decision.elicitation import CR_THRESHOLD, METHOD_LABELS, PairwiseResult, format_value, percentages

    pairwise = isinstance(result, PairwiseResult)
    lines = [f"Weights{within} from {METHOD_LABELS['pairwise' if pairwise else 'swing']}:"]
    width = max(len(n) for n in names.values())
    lines += [f"  {names.get(k, k):<{width}}  {p:5.1f} %" for k, p in percentages(result.weights, 1).items()]
    if pairwise:
        verdict = "acceptable" if result.acceptable else "above 0.10: revise the judgements"
        lines.append(
            f"Consistency ratio: {result.consistency_ratio:.3f} ({verdict}; CI {result.consistency_index:.3f}, "
            f"lambda_max {result.lambda_max:.3f}, RI {result.random_index:.2f})"
        )
        worst = result.most_inconsistent
        if worst is not None and result.consistency_ratio > CR_THRESHOLD:
            lines.append(
                f"Most inconsistent judgement: {worst.given.text} (the weights imply {worst.implied:.2f}); "
                f"{worst.given.better}/{worst.given.worse}={format_value(worst.suggestion)} "
                f"would give a consistency ratio of {worst.ratio_if_revised:.3f}"
            )
    weights = ",".join(f"{k}={100 * w:.4g}" for k, w in result.weights.items())
    lines.append(f"Rank with them: python -m selector rank {rank} {weights}")
    return "\n".join(lines)

"""The ``sensitivity`` command: how robust a group's ranking is (SMAA, tipping points, method agreement)."""

from __future__ import annotations

import argparse
import json

from selector import escape, i18n
from selector.commands import _context
from selector.errors import SelectorError
from selector.robustness.figure import SAMPLES

NAME = "sensitivity"
#: The acceptability table shows at most this many rank columns: all m of them would make the table m x m.
SHOWN_RANKS = 20
HELP = "robustness of a ranking: rank acceptability (SMAA-2), tipping points, method agreement, rank reversal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ranking's preferences plus the sampling options."""
    _context.add_preference_arguments(parser)
    parser.add_argument("--samples", type=int, default=SAMPLES, metavar="N", help=f"Monte Carlo samples ({SAMPLES})")
    parser.add_argument(
        "--seed", type=_context.seed, default=0, metavar="S", help="random seed; same seed, same result (0)"
    )
    parser.add_argument(
        "--spread",
        type=float,
        metavar="D",
        help="sample weights within +/- D (a share, e.g. 0.1) of the current ones instead of the whole simplex",
    )
    parser.add_argument(
        "--space",
        choices=("dimensions", "criteria"),
        default="dimensions",
        help="sample the four dimension weights (default) or every criterion weight",
    )
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output (default table)")
    _context.add_language_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Print the robustness analyses; 0 on success, 2 when the input cannot be used."""
    from selector.decision import recommend
    from selector.robustness import analysis

    if args.samples < 1:
        return _context.fail(f"--samples is {args.samples}; give at least 1 ({SAMPLES} is typical)")
    try:
        kb, prefs = _context.load(args)
        rec = recommend.recommend(kb, prefs)
        result = analysis.analyse(rec, samples=args.samples, seed=args.seed, spread=args.spread, space=args.space)
    except SelectorError as exc:
        return _context.fail(i18n.stored(exc.message, _context.lang(args)))  # a refusal in --lang
    if args.format == "json":
        out = {"group": rec.matrix.group, "method": rec.result.method, "scaler": rec.result.scaler}
        # the keys and ids stay as they are; the sentences for people (badge, tipping points, summaries) follow --lang
        out |= {"samples": args.samples, "seed": args.seed, "data_hash": rec.data_hash}
        out |= result.to_dict(lang=_context.lang(args))
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(_table(rec, result, _context.lang(args)))
    return 0


def _table(rec, result, lang: i18n.Language = "en") -> str:  # noqa: ANN001 - Recommendation, Robustness
    from selector.robustness.agreement import agreement_summary
    from selector.robustness.smaa import CONFIDENCE_LIMIT

    _ = i18n.translator(lang)
    smaa = result.smaa
    names = smaa.alternatives
    width = max(len(n) for n in names)
    ranks = min(len(names), SHOWN_RANKS)
    over = _("weights sampled over {space}").format(space=result.space)
    where = (
        _("within +/-{spread}").format(spread=f"{result.spread:g}")
        if result.spread is not None
        else _("(whole simplex)")
    )
    acceptability = _("Rank acceptability (share of samples holding each rank")
    if ranks < len(names):
        acceptability += _("; ranks past #{rank} not shown").format(rank=ranks)
    if smaa.confidence_omitted:
        acceptability += _(
            "; confidence computed for the {limit} alternatives most often first, '-' for the {omitted} others"
        ).format(limit=CONFIDENCE_LIMIT, omitted=smaa.confidence_omitted)
    confidence = _("confidence")
    lines = [
        _("{group}: method {method}, scaler {scaler}, {samples} samples, seed {seed}, {over} {where}").format(
            group=rec.matrix.group,
            method=rec.result.method,
            scaler=rec.result.scaler,
            samples=smaa.n_samples,
            seed=smaa.seed,
            over=over,
            where=where,
        ),
        _("Leader {name}: {badge}.").format(name=result.leader, badge=result.badge_text(lang=lang)),
        "",
        acceptability + "):",
        f"{'':<{width}}  " + "  ".join(f"{'#' + str(r + 1):>6}" for r in range(ranks)) + f"  {confidence}",
    ]
    for i, name in enumerate(names):
        shares = "  ".join(f"{smaa.acceptability[i, r]:>6.1%}" for r in range(ranks))
        conf = smaa.confidence[i]
        lines.append(f"{name:<{width}}  {shares}  {'-' if conf is None else f'{conf:.0%}':>10}")
    lines += ["", _("Central weights (mean weights under which each alternative ranks first):")]
    for i, name in enumerate(names):
        central = smaa.central_weights[i]
        text = (
            _("never first")
            if central is None
            else ", ".join(f"{c}={w:.2f}" for c, w in zip(smaa.criteria, central, strict=True))
        )
        lines.append(f"  {name:<{width}}  {text}")
    lines += ["", _("Tipping points:")]
    none = "  " + _("none: no dimension weight changes the leader")
    lines += [f"  {t.text(lang=lang)}" for t in result.tipping_points] or [none]
    agreement = result.agreement
    lines += ["", _("Method agreement: {summary}").format(summary=agreement_summary(agreement, lang=lang))]
    lines.append(f"{'':<{width}}  " + "  ".join(f"{m:>7}" for m in agreement.methods))
    for i, name in enumerate(agreement.alternatives):
        lines.append(f"{name:<{width}}  " + "  ".join(f"{int(r):>7}" for r in agreement.ranks[:, i]))
    lines += [
        "",
        _("Rank reversal: {summary}").format(summary=result.reversal.text(lang=lang)),
        _("Knowledge data hash: {hash}").format(hash=rec.data_hash),
    ]
    return escape.printable_lines(lines)

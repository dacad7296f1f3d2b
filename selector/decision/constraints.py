"""Hard constraints ("power-w<=10"): parsing, and what each one says about one alternative's evidence.

A constraint removes alternatives before any weighting; which ones, and why, is decided in
:mod:`selector.decision.matrix`, which owns the evidence of each cell.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from selector.errors import SelectorError
from selector.i18n import N_, Phrase, joined
from selector.io import numbers

OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "=": lambda a, b: math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12),
}
# the longer operators first, so that "<=" is not read as "<" followed by "=10"
_PATTERN = re.compile(r"^\s*([a-z0-9][a-z0-9_.-]*)\s*(<=|>=|<|>|=)\s*([^\s<>=]+)\s*$")
MAX_CONSTRAINTS = 20
#: Units a limit may be written in, listed in a refusal ("W or mW or kW").
OR = N_("{first} or {second}")


class ConstraintError(SelectorError, ValueError):
    """A constraint that cannot be read, with what to write instead."""


@dataclass(frozen=True)
class Constraint:
    """``criterion op value``: an alternative passes when its evidence for `criterion` satisfies it."""

    criterion: str
    op: str
    value: float

    @property
    def text(self) -> str:
        """The canonical form: the limit as written, shortest (``10``, not ``10.0``), never rounded
        (``700.0000001`` stays itself: six significant digits would make it 700 and change which chips pass)."""
        short = f"{self.value:g}"
        return f"{self.criterion}{self.op}{short if float(short) == self.value else repr(self.value)}"

    def holds(self, value: float) -> bool:
        return OPERATORS[self.op](value, self.value)


def parse(text: str) -> Constraint:
    """Read ``power-w<=10`` (any criterion id; ``<=``, ``>=``, ``<``, ``>`` or ``=``; a finite number).

    Raises
    ------
    ConstraintError
        When the text is not of that form or the number is not finite.
    """
    match = _PATTERN.match(text or "")
    if not match:
        raise ConstraintError(
            Phrase(
                N_(
                    "constraint `{text}` is not of the form CRITERION<=NUMBER (operators: {operators}), "
                    "e.g. power-w<=10"
                ),
                text=text,
                operators=", ".join(OPERATORS),
            )
        )
    criterion, op, number = match.groups()
    try:
        value = numbers.parse_number(number)
    except numbers.NumberRefused as exc:
        raise ConstraintError(
            Phrase(N_("constraint `{text}`: the limit {error}"), text=text, error=exc.message)
        ) from None
    return Constraint(criterion, op, value)


def normalise(texts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The constraints in canonical text form (``power-w<=10``), each once, in the order given.

    Raises
    ------
    ConstraintError
        When one cannot be read, or there are more than ``MAX_CONSTRAINTS``.
    """
    if len(texts) > MAX_CONSTRAINTS:
        raise ConstraintError(
            Phrase(
                N_("{count} constraints given; at most {most} are accepted"),
                count=str(len(texts)),
                most=str(MAX_CONSTRAINTS),
            )
        )
    return tuple(dict.fromkeys(parse(t).text for t in texts))


# A limit typed beside a chosen criterion: an optional operator, a number, an optional unit (">= 141 GB", "10 W").
_LIMIT = re.compile(r"^\s*(<=|>=|<|>|=|≤|≥)?\s*(\$)?\s*([0-9.+\-eE,]+)\s*(.*?)\s*$")
_WIDE_OPERATORS = {"≤": "<=", "≥": ">="}
#: Other spellings of a criterion's unit and what they are worth in it (a limit is stored in the criterion's unit).
UNIT_MULTIPLES: dict[str, dict[str, float]] = {
    "W": {"mW": 0.001, "kW": 1000.0},
    "GB": {"MB": 0.001, "TB": 1000.0},
    "TB/s": {"GB/s": 0.001},
    "USD": {"$": 1.0},
    "USD per GPU-hour": {"USD": 1.0, "$": 1.0, "USD/h": 1.0, "$/h": 1.0},
    "USD per million tokens": {"USD": 1.0, "$": 1.0},
}


def allowed_units(unit: str) -> dict[str, float]:
    """The unit spellings a limit on a criterion of `unit` may use, each with its factor into `unit`."""
    return {unit: 1.0, **UNIT_MULTIPLES.get(unit, {})}


def parse_limit(text: str, criterion: str, unit: str, op: str = ">=") -> Constraint:
    """Read a limit typed for one criterion: ``>= 141 GB``, ``10 W``, ``<= 0.7 kW``, ``141`` (operator `op` when
    none is written; a number without a unit is in the criterion's `unit`).

    Raises
    ------
    ConstraintError
        When the text is not OPERATOR NUMBER UNIT, the number is not one, or the unit is not one of
        :func:`allowed_units` (the message lists them).
    """
    if op not in OPERATORS:
        raise ConstraintError(
            Phrase(N_("operator `{op}` unknown; use one of {operators}"), op=op, operators=", ".join(OPERATORS))
        )
    match = _LIMIT.match(text or "")
    if not match:
        raise ConstraintError(
            Phrase(
                N_("`{text}` is not a limit: write an operator, a number and the unit, e.g. >= 10 {unit}"),
                text=text,
                unit=unit,
            )
        )
    written_op, dollar, number, written_unit = match.groups()
    if dollar:  # "$2", "$2/h": the currency written before the number
        written_unit = "$" + written_unit if written_unit.startswith("/") or not written_unit else written_unit
    try:
        value = numbers.parse_number(number)
    except numbers.NumberRefused as exc:
        raise ConstraintError(Phrase(N_("`{text}`: the number {error}"), text=text, error=exc.message)) from None
    allowed = allowed_units(unit)
    factor = 1.0
    if written_unit:
        found = {u.casefold().replace(" ", ""): f for u, f in allowed.items()}.get(
            written_unit.casefold().replace(" ", "")
        )
        if found is None:
            raise ConstraintError(
                Phrase(
                    N_(
                        "`{text}`: unit `{written}` does not measure this criterion; write the number in {units}, "
                        "or without a unit (then it is in {unit})"
                    ),
                    text=text,
                    written=written_unit,
                    units=joined(list(allowed), OR),
                    unit=unit,
                )
            )
        factor = found
    # twelve significant digits: 0.3 kW is 300 W, not 300.00000000000006 (the canonical text keeps every digit)
    return Constraint(criterion, _WIDE_OPERATORS.get(written_op, written_op or op), float(f"{value * factor:.12g}"))

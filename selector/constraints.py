"""Hard constraints ("power-w<=10"): parsing, and what each one says about one alternative's evidence.

A constraint removes alternatives before any weighting; which ones, and why, is decided in
:mod:`selector.matrix`, which owns the evidence of each cell.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from selector import numbers
from selector.errors import SelectorError

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
            f"constraint `{text}` is not of the form CRITERION<=NUMBER (operators: {', '.join(OPERATORS)}), "
            "e.g. power-w<=10"
        )
    criterion, op, number = match.groups()
    try:
        value = numbers.parse_number(number)
    except numbers.NumberRefused as exc:
        raise ConstraintError(f"constraint `{text}`: the limit {exc}") from None
    return Constraint(criterion, op, value)


def normalise(texts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The constraints in canonical text form (``power-w<=10``), each once, in the order given.

    Raises
    ------
    ConstraintError
        When one cannot be read, or there are more than ``MAX_CONSTRAINTS``.
    """
    if len(texts) > MAX_CONSTRAINTS:
        raise ConstraintError(f"{len(texts)} constraints given; at most {MAX_CONSTRAINTS} are accepted")
    return tuple(dict.fromkeys(parse(t).text for t in texts))

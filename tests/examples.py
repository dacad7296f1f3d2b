"""How many examples a property test draws: its own count under `make test`, ten times it under `make explore`
(``HYPOTHESIS_PROFILE=explore``, see tests/conftest.py), where new random examples look for inputs not tried yet, and
a tenth of it under `make check` (``HYPOTHESIS_PROFILE=check``), the fast loop, which `make test` completes."""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE")
EXPLORING = PROFILE == "explore"


def examples(count: int) -> int:
    """`count`; ten times it when exploring, a tenth of it (at least 5) in the fast loop."""
    if EXPLORING:
        return count * 10
    return max(5, count // 10) if PROFILE == "check" else count

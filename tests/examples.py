"""How many examples a property test draws: its own count under `make test`, ten times it under `make explore`
(``HYPOTHESIS_PROFILE=explore``, see tests/conftest.py), where new random examples look for inputs not tried yet."""

from __future__ import annotations

import os

EXPLORING = os.environ.get("HYPOTHESIS_PROFILE") == "explore"


def examples(count: int) -> int:
    """`count`, or ten times it when exploring."""
    return count * 10 if EXPLORING else count

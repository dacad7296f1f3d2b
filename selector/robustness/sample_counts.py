"""How many weightings the robustness analyses draw by default: one number per use, shared by the app, the command
line and the report (and light to import: the command line reads it to write its --help)."""

from __future__ import annotations

#: The verdict badge, the report's robustness section (app and `python -m selector report`): quick enough to run on
#: every weight change.
QUICK_SAMPLES = 2_000

#: The Robustness page and `python -m selector sensitivity`: a closer estimate, run on request.
FULL_SAMPLES = 10_000

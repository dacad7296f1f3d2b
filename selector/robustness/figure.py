"""The robustness figure people read: one sample count, one seed, one region around their weights, one pair of
thresholds and one wording, shared by the Recommend badge, the Robustness page, the report and the command line
(and light to import: the command line reads it to write its --help).

The figure is a share of first places: of ``SAMPLES`` weightings drawn within ``SPREAD`` of the user's dimension
weights (the badge's first figure) or anywhere on the weight simplex (its second one, and the Robustness page's and
the report's default). Its :func:`level` says how far a lead holds; below ``CLOSE`` the verdict calls it too close
to call (:mod:`selector.verdict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from selector import i18n
from selector.i18n import N_

#: Weightings drawn by every robustness analysis unless a person asks for another count (the Robustness page's
#: box, ``--samples``): the badge's figure on every weight change, the page, the report and both commands.
SAMPLES = 2_000
SEED = 0
#: The badge's region: +/- 10 percentage points of each dimension weight.
SPREAD = 0.10

#: A share of first places at or above ROBUST is a robust lead; below CLOSE the lead is too close to call.
ROBUST = 0.75
CLOSE = 0.5

Level = Literal["robust", "fragile", "not robust"]

_LEVELS = N_("robust at {robust} or more of first places, fragile from {close}, not robust below {close}")


def levels(*, lang: i18n.Language = "en") -> str:
    """The pair of thresholds in words in `lang`, printed wherever a level is read from a share (badge help, page,
    report)."""
    return i18n.translator(lang)(_LEVELS).format(robust=f"{ROBUST:.0%}", close=f"{CLOSE:.0%}")


def level(share: float, *, rests_on_flags: bool = False) -> Level:
    """How far a lead first in `share` of the weightings holds; a lead resting on flagged cells is not robust."""
    if rests_on_flags or not share >= CLOSE:  # NaN (nothing sampled) is not robust either
        return "not robust"
    return "robust" if share >= ROBUST else "fragile"


#: The colour of each level on the page (Streamlit's names) and its tone in the report (good, neutral, bad).
COLOURS: Mapping[Level, str] = MappingProxyType({"robust": "green", "fragile": "orange", "not robust": "red"})
TONES: Mapping[Level, str] = MappingProxyType({"robust": "good", "fragile": "neutral", "not robust": "bad"})
#: Each level in words for people (translated where shown; the level itself stays the data's word).
LEVEL_WORDS: Mapping[Level, str] = MappingProxyType(
    {"robust": N_("robust"), "fragile": N_("fragile"), "not robust": N_("not robust")}
)


def level_words(value: Level, *, lang: i18n.Language = "en") -> str:
    """The level `value` in words, in `lang`."""
    _ = i18n.translator(lang)
    return _(LEVEL_WORDS[value])


def region(spread: float | None, *, lang: i18n.Language = "en") -> str:
    """Where the weightings were drawn, in words: around the user's weights, or anywhere."""
    _ = i18n.translator(lang)
    if spread is None:
        return _("anywhere on the weight simplex")
    return _("within ±{points} points of yours").format(points=f"{spread * 100:g}")


def first_in(share: float, samples: int, spread: float | None, *, lang: i18n.Language = "en") -> str:
    """E.g. "first in 56% of 2,000 weightings within ±10 points of yours"."""
    _ = i18n.translator(lang)
    return _("first in {share} of {samples} weightings {region}").format(
        share=f"{share:.0%}", samples=f"{samples:,}", region=region(spread, lang=lang)
    )


def held(name: str, share: float, samples: int, spread: float | None, *, lang: i18n.Language = "en") -> str:
    """E.g. "H200 is first in 91% of 2,000 weightings anywhere on the weight simplex: robust" (the page and report)."""
    _ = i18n.translator(lang)
    return _("{name} is first in {share} of {samples} weightings {region}: {level}").format(
        name=name,
        share=f"{share:.0%}",
        samples=f"{samples:,}",
        region=region(spread, lang=lang),
        level=level_words(level(share), lang=lang),
    )


def badge(name: str, local: float, samples: int, whole: float | None = None, *, lang: i18n.Language = "en") -> str:
    """The badge of option `name`: its share around the user's weights, then (when known) anywhere."""
    text = f"{name}: {first_in(local, samples, SPREAD, lang=lang)}"
    if whole is not None:
        text += f" · {whole:.0%} {region(None, lang=lang)}"
    return text

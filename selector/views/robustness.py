"""The Robustness screen's views: SMAA central weights and weight-sweep tables."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from selector import i18n
from selector.i18n import N_
from selector.knowledge.models import KnowledgeBase
from selector.robustness.smaa import SMAAResult


def central_weights_table(
    kb: KnowledgeBase,
    alternatives: Sequence[str],
    criteria: Sequence[str],
    central_weights: Sequence[Sequence[float] | None],
    dimension_of: Sequence[str] | None = None,
) -> pd.DataFrame:
    """SMAA central weights: one row per alternative, one column per criterion or, with `dimension_of`, per dimension.

    Parameters
    ----------
    alternatives, criteria
        Row names and criterion ids of the SMAA result.
    central_weights
        Per alternative, the mean weight vector (one share per criterion) of the samples that rank it first, or
        None when it never ranks first (its row is then NaN).
    dimension_of
        The dimension of each criterion: the criterion shares are summed per dimension (columns in first-seen
        order), which is what the weights of a dimension-space analysis were drawn for.
    """
    rows = np.array(
        [np.full(len(criteria), np.nan) if w is None else np.asarray(w, dtype=float) for w in central_weights],
        dtype=float,
    ).reshape(len(alternatives), len(criteria))
    index = pd.Index(list(alternatives), name="alternative")
    if dimension_of is None:
        columns = [kb.criteria[c].name_en if c in kb.criteria else c for c in criteria]
        return pd.DataFrame(rows, index=index, columns=columns)
    dimensions = list(dict.fromkeys(dimension_of))
    of = np.asarray(dimension_of)
    summed = {kb.dimensions[d].name_en if d in kb.dimensions else d: rows[:, of == d].sum(axis=1) for d in dimensions}
    return pd.DataFrame(summed, index=index)


def sweep_frame(names: Sequence[str], grid: np.ndarray, scores: np.ndarray) -> pd.DataFrame:
    """Long table of a weight sweep: weight share, alternative name, score (one row per grid point and name)."""
    rows = [
        {"weight": float(t), "alternative": name, "score": float(scores[k, i])}
        for i, name in enumerate(names)
        for k, t in enumerate(grid)
    ]
    return pd.DataFrame(rows, columns=["weight", "alternative", "score"])


#: What each weight space samples, in words (marked for the catalogs: translated where shown).
SPACE_LABELS = {"dimensions": N_("the four dimension weights"), "criteria": N_("every criterion weight")}


def sampling_text(smaa: SMAAResult, space: str, spread: float | None, *, lang: i18n.Language = "en") -> str:
    """What an SMAA run sampled, in one sentence in `lang` (for the badge's help and the Robustness page)."""
    _ = i18n.translator(lang)
    where = (
        _("anywhere on the whole weight simplex (every split of 100%)")
        if spread is None
        else _("within ±{points} percentage points of your current weights").format(points=f"{spread * 100:g}")
    )
    text = _("{samples} weightings of {space}, drawn uniformly {where}").format(
        samples=f"{smaa.n_samples:,}", space=_(SPACE_LABELS.get(space, space)), where=where
    )
    if space == "dimensions":
        text += _(", each dimension's share spread over its criteria by your sub-criterion weights")
    text += _("; method {method} with {scaler} scaling; seed {seed}").format(
        method=smaa.method, scaler=smaa.scaler, seed=smaa.seed
    )
    if smaa.uncertain_cells:
        text += _("; {cells} cell(s) without evidence drawn across their plausible range").format(
            cells=len(smaa.uncertain_cells)
        )
    return _("{sentence}.").format(sentence=text)

"""The feature heatmap: colours mirrored for lower-is-better columns, knowledge text escaped."""

from __future__ import annotations

import numpy as np
import pandas as pd

from selector.charts.ratings import feature_heatmap
from tests.charts.figures import EVIL, all_text, titled


def test_feature_heatmap_mirrors_colour_of_lower_is_better_columns():
    values = pd.DataFrame([[5.0, 1.0], [2.0, np.nan]], index=["A", EVIL], columns=["speed", "lock-in"])
    hover = pd.DataFrame([["h1", "h2"], ["h3", EVIL]], index=values.index, columns=values.columns)
    fig = feature_heatmap(values, ["max", "min"], hover, "Ratings")
    titled(fig)
    heat = fig.data[0]
    assert heat.z[0][0] == 5.0 and heat.z[0][1] == 5.0  # a lock-in of 1 is as good as a speed of 5
    assert heat.text[0][1] == "1" and heat.text[1][1] == ""
    assert "lower is better" in heat.x[1].replace("<br>", " ")
    assert EVIL not in all_text(fig)

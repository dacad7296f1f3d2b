"""What every chart test checks: a figure built unvalidated is valid plotly, titled and labelled."""

from __future__ import annotations

import json

import plotly.graph_objects as go

EVIL = "<img src=x onerror=alert(1)>"


def titled(fig: go.Figure) -> None:
    # charts are built unvalidated: rebuilding with validation on must accept every property and change nothing
    validated = json.loads(go.Figure(fig.to_dict()).to_json())
    built = json.loads(fig.to_json())
    for spec in (validated, built):
        spec["layout"].pop("template", None)  # plotly fills an empty template with a placeholder of its own
    assert validated == built
    assert fig.layout.template.layout.plot_bgcolor is None  # no template of its own: the host styles it
    assert fig.layout.title.text
    assert fig.layout.xaxis.title.text
    assert fig.layout.height and fig.layout.height >= 200


def validated(fig: go.Figure) -> None:
    # built unvalidated: plotly's validators must accept it unchanged
    validated = json.loads(go.Figure(fig.to_dict()).to_json())
    built = json.loads(fig.to_json())
    for spec in (validated, built):
        spec["layout"].pop("template", None)
    assert validated == built


def all_text(fig: go.Figure) -> str:
    return fig.to_json()

"""Recommend's workload form (app_pages/_workload.py) through AppTest: a workload in the link ranks as
selector.decision.recommend does with it, the form puts one in force, and the fit table shows each accelerator's
answer."""

from __future__ import annotations

from selector.decision.preferences import Preferences
from tests.app.helpers import expected_ranking, markdown_tables, ok, same_ranking, shown_ranking

GROUP = "llm-serving-single-accelerator"
TIGHT = "model=llama-3.1-8b,context=2048,concurrency=16,ttft-ms=200,tpot-ms=50"


def test_a_workload_in_the_link_ranks_as_recommend_does_and_shows_the_fit(app, kb):
    app.query_params["group"] = GROUP
    app.query_params["wl"] = TIGHT
    at = ok(app.run())
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=GROUP, workload=TIGHT)))
    fit = [t for t in markdown_tables(at) if "tokens/s within limits" in t.columns]
    assert len(fit) == 1 and len(fit[0]) == len(kb.groups[GROUP].members)
    h100 = fit[0][fit[0]["accelerator"] == kb.entity_name("h100")].iloc[0]
    assert h100["runs"] == "yes" and h100["tokens/s within limits"] == "7,750"
    # which measurement each figure used: in the workload box, not under the ranking
    why = [m.value for m in at.markdown if "latency-bounded: AccelMark" in m.value.replace("\\", "")]
    assert why and all("Workload cells of" not in m.value for m in at.markdown if "rank" in m.value)


def test_the_form_puts_a_workload_in_force_and_a_moved_slider_keeps_it(app, kb):
    app.query_params["group"] = GROUP
    at = ok(app.run())
    assert "wl" not in at.query_params
    fields = {n.label: n for n in at.number_input}
    fields["TTFT limit, ms (0: none)"].set_value(200.0)
    fields["TPOT limit, ms (0: none)"].set_value(50.0)
    fields["Prompt tokens"].set_value(2048)
    fields["Requests at once"].set_value(16)
    at = ok(next(b for b in at.button if b.label == "Rank for this workload").click().run())
    stated = at.query_params["wl"]
    assert "ttft-ms=200" in stated and "tpot-ms=50" in stated
    same_ranking(shown_ranking(at), expected_ranking(kb, Preferences(group=GROUP, workload=stated)))
    at = ok(at.slider(key="w-performance").set_value(80).run())
    assert at.query_params["wl"] == stated

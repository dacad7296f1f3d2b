"""The Evidence page through AppTest: search, the claim picker and the filters carried by the link (`ev`)."""

from __future__ import annotations

import datetime as dt
import io

import pandas as pd

from selector import escape
from selector.knowledge import provenance
from selector.views.evidence import claims_preview, claims_table, filter_claims
from selector.views.labels import value_text
from tests.app.helpers import downloads, markdown_table, markdown_tables, ok, shown_claims

PREVIEW = ("id", "English", "quote (Chinese)", "number", "source", "flagged as")


def test_evidence_search_shows_the_matching_claims(app, kb):
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    ok(at.text_input(key="ev-text").input("能效比").run())
    expected = [c.id for c in filter_claims(kb, text="能效比")]
    # few enough to be read whole in the static table
    assert list(markdown_table(at, *PREVIEW)["id"]) == expected
    ok(at.selectbox(key="ev-flagged").set_value("flagged").run())
    preview = markdown_table(at, *PREVIEW)
    assert len(preview) and all(preview["flagged as"])
    assert shown_claims(at)["flagged"].all()
    ok(at.selectbox(key="ev-flagged").set_value("all").run())
    assert sorted(shown_claims(at)["id"]) == sorted(expected)


def test_evidence_opens_on_a_static_table_of_the_first_claims_and_keeps_every_claim_in_a_closed_grid(app, kb):
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    preview = markdown_table(at, *PREVIEW)
    first = list(kb.claims)[:10]
    assert list(preview["id"]) == first
    assert preview.equals(claims_preview(kb, first).astype(str).map(lambda v: " ".join(v.split())))
    assert any(c.value.startswith(f"The first 10 of {len(kb.claims)}") for c in at.caption)
    assert not at.dataframe, "the grid is sent only when the reader asks for it"
    assert at.toggle(key="ev-more").value is False and not at.multiselect, "the list filters are drawn on demand"
    assert at.toggle(key="ev-findings").value is False
    assert not [t for t in markdown_tables(at) if "message" in t.columns], "the findings are sent when asked for"
    ok(at.toggle(key="ev-grid").set_value(True).run())
    (grid,) = at.dataframe
    assert list(grid.value["id"]) == list(kb.claims)
    assert not [t for t in markdown_tables(at) if "quote (Chinese)" in t.columns], "the grid replaces the table"


def test_evidence_shows_the_list_filters_while_a_link_sets_one_of_them(app):
    from selector import profile

    app.query_params["ev"] = profile.encode_filters({"kinds": ["benchmark"]})
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    assert at.toggle(key="ev-more").value is True and len(at.multiselect) == 5
    assert at.multiselect(key="ev-kinds").value == ["benchmark"]


def test_evidence_lists_every_conflict_finding_with_names(app, kb):
    from selector.knowledge import conflicts

    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    ok(at.toggle(key="ev-findings").set_value(True).run())
    found = conflicts.detect(kb)
    shown = markdown_table(at, "kind", "about", "message", "claims")
    assert list(shown["claims"]) == [", ".join(c.claims) for c in found]
    assert all(kb.entity_name(c.subject) in about for c, about in zip(found, shown["about"], strict=True))
    problems = [c for c in found if c.is_problem]
    assert (not problems) == any("No two claims disagree" in s.value for s in at.success)


def test_a_dataset_number_in_the_static_table_shows_its_value_footnote_and_age(app, kb):
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    ok(at.toggle(key="ev-more").set_value(True).run())
    ok(at.multiselect(key="ev-datasets").set_value(["fsdl-cloud-gpus"]).run())
    preview = markdown_table(at, *PREVIEW).set_index("id")
    claim = kb.claims[preview.index[0]]
    assert value_text(claim) in preview.loc[claim.id, "number"]
    assert provenance.footnote(claim) in preview.loc[claim.id, "source"]
    assert "ageing" in preview.loc[claim.id, "source"]


def test_evidence_claim_picker_shows_the_claim_and_forgets_it_when_filtered_out(app, kb):
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    assert at.selectbox(key="ev-claim").value is None
    ok(at.text_input(key="ev-text").input("能效比").run())
    found = filter_claims(kb, text="能效比")
    assert at.selectbox(key="ev-claim").options == [f"{c.id}: {c.text_en[:90]}" for c in found]
    ok(at.selectbox(key="ev-claim").set_value(found[1].id).run())
    assert any(h.value == f"Claim {found[1].id}".replace("-", "\\-") for h in at.subheader)
    shown = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert found[1].quote in shown
    ok(at.text_input(key="ev-text").input("no claim says this").run())
    assert at.selectbox(key="ev-claim").value is None
    assert not any(h.value.startswith("Claim ") for h in at.subheader)


def test_evidence_filters_in_the_link_set_the_widgets_and_the_table(app, kb):
    from selector import profile

    filters = {"text": ["TOPS"], "tiers": ["claimed"], "flagged": ["unflagged"]}
    app.query_params["ev"] = profile.encode_filters(filters)
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    assert at.text_input(key="ev-text").value == "TOPS"
    assert at.multiselect(key="ev-tiers").value == ["claimed"]
    assert at.selectbox(key="ev-flagged").value == "unflagged"
    expected = filter_claims(kb, text="TOPS", tiers=["claimed"], flagged=False)
    assert expected, "the filters keep some claims"
    assert sorted(markdown_table(at, *PREVIEW)["id"]) == sorted(c.id for c in expected[:10])
    assert sorted(shown_claims(at)["id"]) == sorted(c.id for c in expected)


def test_changing_an_evidence_filter_writes_it_to_the_link_and_a_page_switch_keeps_it(app):
    from selector import profile

    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    assert "ev" not in at.query_params
    ok(at.toggle(key="ev-more").set_value(True).run())
    ok(at.multiselect(key="ev-kinds").set_value(["benchmark"]).run())
    ok(at.text_input(key="ev-text").input("吞吐").run())
    assert profile.decode_filters(at.query_params["ev"]) == {"kinds": ("benchmark",), "text": ("吞吐",)}
    at.query_params.clear()  # a page switch in the browser drops the query string
    ok(at.switch_page("app_pages/recommend.py").run())
    assert profile.decode_filters(at.query_params["ev"]) == {"kinds": ("benchmark",), "text": ("吞吐",)}
    at = ok(at.switch_page("app_pages/evidence.py").run())
    ok(at.multiselect(key="ev-kinds").set_value([]).run())
    ok(at.text_input(key="ev-text").input("").run())
    assert "ev" not in at.query_params


def test_unknown_filter_values_in_the_link_are_reported_and_dropped(app):
    from selector import profile

    app.query_params["ev"] = profile.encode_filters({"tiers": ["claimed", "imaginary"]})
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    assert any("imaginary" in w.value for w in at.warning)
    assert at.multiselect(key="ev-tiers").value == ["claimed"]
    assert profile.decode_filters(at.query_params["ev"]) == {"tiers": ("claimed",)}


def test_the_download_holds_the_claims_shown_as_csv_with_formula_cells_neutralised(app, kb, media, monkeypatch):
    monkeypatch.setenv("SELECTOR_TODAY", "2026-06-01")
    ok(app.run())
    at = ok(app.switch_page("app_pages/evidence.py").run())
    ok(at.text_input(key="ev-text").input("能效比").run())
    name, mime, data = downloads(at, media[-1])["download"]
    assert (name, mime) == ("claims.csv", "text/csv")
    shown = [c.id for c in filter_claims(kb, text="能效比")]
    every = claims_table(kb, today=dt.date(2026, 6, 1)).set_index("id", drop=False)
    expected = escape.safe_frame(every.loc[shown].reset_index(drop=True)).to_csv(index=False)
    assert data.decode("utf-8") == expected
    ok(at.text_input(key="ev-text").input("").run())
    _, _, everything = downloads(at, media[-1])["download"]
    assert list(pd.read_csv(io.BytesIO(everything), dtype=str)["id"]) == [c.id for c in filter_claims(kb)]

"""selector.report.evidence: which claim supports what in the report (following `based_on` to the bottom), the
appendix rows built from them, and the datasets section."""

from __future__ import annotations

from datetime import date
from types import MappingProxyType

from selector.knowledge.models import Claim, KnowledgeBase
from selector.knowledge.sources import Source
from selector.report import evidence
from selector.report.model import CellInfo, CriterionInfo, DimensionWeight, OptionRow, RuleInfo

SHA = "0123456789abcdef0123456789abcdef01234567"
UPSTREAM = f"owner/data@{SHA}:t.csv"

SOURCES = [
    Source(
        id="004",
        file="004.txt",
        title_zh="工具",
        title_en="AI tools compared",
        sections=[{"id": "2.1", "heading_zh": "框架", "heading_en": "Frameworks", "lines": (1, 5)}],
    ),
    Source(id="ours", kind="assessment", title_en="Our assessment"),
    Source(
        id="ds",
        kind="dataset",
        title_en="A dataset",
        licence="Apache-2.0",
        attribution="By  someone,\n  retrieved.",
        upstream=[UPSTREAM, f"owner/data@{'f' * 40}:u.csv"],
        snapshot_date="2024-01-15",
        licence_files=["ds/LICENSE", "ds/NOTICE.txt"],
        tables=[{"file": "ds/t.csv", "key": ["name"]}],
    ),
    Source(
        id="other",
        kind="dataset",
        title_en="Another dataset",
        licence="Custom",
        attribution="Them.",
        upstream=[UPSTREAM],
        snapshot_date="2025-06-01",
        licence_files=["other/LICENSE"],
        tables=[{"file": "other/t.csv"}],
    ),
]
LOCATOR = {
    "dataset": "ds",
    "upstream": UPSTREAM,
    "file": "ds/t.csv",
    "row": "h100",
    "column": "flops",
    "conversion": "flops_to_tflops",
    "retrieved": "2024-01-15",
    "licence": "Apache-2.0",
    "result_id": "r-1",
}
CLAIMS = [
    Claim(
        id="c-quote",
        source="004",
        kind="benchmark",
        section="2.1",
        quote="快",
        text_en="Orin is fast",
        about=["orin"],
        value=50,
        comparator=">=",
        unit="TOPS/W",
        metric="efficiency",
        flags=[{"kind": "implausible", "reason": "above the datasheet", "reference": "https://example.org"}],
    ),
    Claim(
        id="c-base",
        source="ours",
        tier="assessed",
        kind="observation",
        text_en="A basis",
        about=["orin"],
        rationale="because of c-quote",
        based_on=["c-quote"],
    ),
    Claim(
        id="c-rating",
        source="ours",
        tier="assessed",
        kind="rating",
        text_en="Orin rates 4",
        about=["orin"],
        value=4,
        unit="rating 1-5",
        metric="rating_openness",
        rationale="rests on c-base",
        based_on=["c-base"],
        note="a note",
    ),
    Claim(
        id="c-bench",
        source="ds",
        tier="benchmarked",
        kind="spec",
        text_en="H100 peak",
        about=["h100"],
        value=2000,
        unit="TFLOPS",
        metric="tflops",
        locator=LOCATOR,
    ),
]


def kb() -> KnowledgeBase:
    empty = MappingProxyType({})
    tables = dict.fromkeys(
        ("entities", "dimensions", "criteria", "groups", "questions", "rules", "metrics", "scenario_links"), empty
    )
    return KnowledgeBase(
        sources=MappingProxyType({s.id: s for s in SOURCES}),
        claims=MappingProxyType({c.id: c for c in CLAIMS}),
        **tables,
        texts=empty,
        locations=empty,
        data_hash="test",
    )


def criterion(cid: str, name: str) -> CriterionInfo:
    return CriterionInfo(cid, name, "perf", "max", "TFLOPS", 1.0, 0.5)


def parts(**changes: object) -> dict:
    found = {
        "dimensions": [DimensionWeight("perf", "Performance", "性能", 50, 50, 1.0, ("c-quote",))],
        "rules": [RuleInfo("r-edge", "tree", "goal: edge", ("Orin",), (), "Because.", ("c-quote", "c-rating"))],
        "criteria": [criterion("peak", "Peak"), criterion("open", "Openness")],
        "options": [
            OptionRow("h100", "H100", 1, 0.9, True, (CellInfo(2000, ("c-bench",)), CellInfo(3, ()))),
            OptionRow("orin", "Orin", 2, 0.4, True, (CellInfo(275, ("c-bench",)), CellInfo(4, ("c-rating",)))),
        ],
    }
    return found | changes


def test_uses_name_what_each_claim_supports_in_first_use_order():
    uses = evidence.uses(kb(), parts())
    assert uses["c-quote"] == ["default weight of Performance", "decision rule r-edge", "basis of c-base"]
    assert uses["c-rating"] == ["decision rule r-edge", "Orin: Openness"]
    assert uses["c-bench"] == ["H100: Peak", "Orin: Peak"]


def test_uses_follow_based_on_to_the_bottom():
    uses = evidence.uses(kb(), parts(dimensions=[], rules=[]))
    # Only c-rating and c-bench are cited; c-rating rests on c-base, which rests on c-quote.
    assert uses == {
        "c-bench": ["H100: Peak", "Orin: Peak"],
        "c-rating": ["Orin: Openness"],
        "c-base": ["basis of c-rating"],
        "c-quote": ["basis of c-base"],
    }


def test_a_use_is_listed_once_however_often_it_occurs():
    twice = [RuleInfo("r1", "t", "", (), (), "", ("c-quote", "c-quote"))] * 2
    assert evidence.uses(kb(), parts(dimensions=[], rules=twice, options=[])) == {"c-quote": ["decision rule r1"]}


def test_a_claim_the_knowledge_lacks_is_kept_as_used_but_not_followed():
    rules = [RuleInfo("r1", "t", "", (), (), "", ("gone",))]
    uses = evidence.uses(kb(), parts(dimensions=[], options=[], rules=rules))
    assert uses == {"gone": ["decision rule r1"]}


def test_claims_are_appendix_rows_sorted_by_id_with_source_section_value_and_flags():
    rows = evidence.claims(kb(), evidence.uses(kb(), parts()), date(2025, 1, 1))
    assert [row.id for row in rows] == ["c-base", "c-bench", "c-quote", "c-rating"]
    quoted = rows[2]
    assert (quoted.document_id, quoted.document_title_en) == ("004", "AI tools compared")
    assert quoted.document_title_zh == "工具"
    assert quoted.section == "2.1 框架 (Frameworks)"
    assert (quoted.quote_zh, quoted.text_en, quoted.tier) == ("快", "Orin is fast", "claimed")
    assert quoted.value == ">= 50 TOPS/W"
    assert quoted.flags == ("implausible: above the datasheet (ref: https://example.org)",)
    assert quoted.footnote == "" and quoted.age == ""  # an article's claim has no locator and no snapshot
    rating = rows[3]
    assert (rating.rationale, rating.based_on, rating.note) == ("rests on c-base", ("c-base",), "a note")
    assert rating.document_title_zh == "" and rating.section == ""
    assert rating.used_for == ("decision rule r-edge", "Orin: Openness")


def test_a_dataset_claim_carries_its_footnote_and_its_snapshots_age():
    uses = {"c-bench": ["H100: Peak"]}
    young = evidence.claims(kb(), uses, date(2025, 1, 1))[0]
    assert young.footnote == CLAIMS[3].locator.footnote()
    assert young.footnote.startswith("ds; result r-1; row 'h100'")
    assert young.age == "as of 2024-01-15"  # 11 months: not ageing
    old = evidence.claims(kb(), uses, date(2025, 7, 16))[0]
    assert old.age == "as of 2024-01-15"  # 18 months: ageing starts past 18
    older = evidence.claims(kb(), uses, date(2025, 8, 15))[0]
    assert older.age == "as of 2024-01-15, ageing (19 months old)"


def test_a_missing_claim_is_a_row_that_says_so():
    (row,) = evidence.claims(kb(), {"gone": ["decision rule r1"]})
    assert row.id == "gone"
    assert row.text_en == "claim not found in the knowledge base"
    assert row.used_for == ()


def test_data_sources_name_each_dataset_with_licence_age_changes_and_notices():
    found = evidence.data_sources(kb(), date(2025, 1, 20))
    assert [d.id for d in found] == ["ds", "other"]  # datasets only, sorted by id
    ds, other = found
    assert (ds.title, ds.licence, ds.snapshot_date) == ("A dataset", "Apache-2.0", "2024-01-15")
    assert ds.attribution == "By someone, retrieved."  # the YAML folding's extra blanks collapsed
    assert ds.upstream == f"{UPSTREAM}; owner/data@{'f' * 40}:u.csv"
    assert ds.age == "snapshot 2024-01-15 (12 months old)"
    assert ds.licence_url == "https://www.apache.org/licenses/LICENSE-2.0"
    assert ds.changes == "FLOP/s (or OP/s) / 10^12 = TFLOPS (TOPS)"  # the one conversion its claims name
    assert ds.notices == "knowledge/imports/raw/ds/NOTICE.txt"
    assert (other.licence_url, other.changes, other.notices) == ("", "", "")  # unknown licence, no claims
    assert other.age == "snapshot 2025-06-01"  # a report dated before the snapshot states no age

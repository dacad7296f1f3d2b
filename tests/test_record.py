"""The decision record (selector.record): built from a ranking, sealed, carried by every report format, refused
when missing or altered."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from selector import record
from selector.decision.preferences import Preferences
from selector.decision.recommend import recommend
from selector.knowledge import loading as knowledge
from selector.report import render
from selector.report.build import build_report
from selector.report.model import ReportError

PREFS = Preferences(group="edge-accelerators", answers={"goal": "industrial"})


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def built(kb):
    return build_report(kb, PREFS, samples=300, seed=3)


@pytest.fixture(scope="module")
def sealed(built):
    return record.parse(built.decision_record, "r.md")


def test_the_record_holds_every_ranked_cell_with_its_claims_and_each_claim_says_that_value(kb, sealed):
    rec = recommend(kb, PREFS)
    assert [o.id for o in sealed.ranking] == [r.id for r in rec.ranking]
    assert set(sealed.cells) == set(rec.matrix.alternatives)
    checked = 0
    for alt, row in sealed.cells.items():
        assert set(row) == set(rec.matrix.criteria)
        for cell in row.values():
            if cell.imputed:
                assert cell.claims == () and cell.tier is None
                continue
            assert cell.claims and all(c in kb.claims for c in cell.claims)
            # independent of the matrix: a cell resting on one claim of its own unit carries that claim's number
            claim = kb.claims[cell.claims[0]]
            if len(cell.claims) == 1 and claim.value is not None and claim.tier == cell.tier:
                assert cell.value == pytest.approx(float(claim.value)), (alt, cell)
                checked += 1
    assert checked >= 4


def test_the_record_says_the_settings_answers_knowledge_and_robustness_the_report_states(kb, built, sealed):
    assert sealed.preferences == PREFS
    assert sealed.answers["goal"] == "industrial"
    assert sealed.knowledge.data_hash == kb.data_hash == built.data_hash
    assert sealed.knowledge.datasets and all(
        re.fullmatch(r"\d{4}-\d\d-\d\d", d) for d in sealed.knowledge.datasets.values()
    )
    assert sealed.robustness.leader_first == built.robustness.leader_acceptability
    assert (sealed.robustness.samples, sealed.robustness.seed) == (300, 3)
    assert sealed.recommended == built.recommended_id and sealed.name_of(sealed.leader) == built.leader
    assert sealed.rules and [(r.id, r.claims) for r in sealed.rules] == [(r.id, r.claims) for r in built.rules]
    assert sealed.uploads.digest == "" and sealed.uploads.files == ()


def test_the_digest_is_sha256_of_the_canonical_json_without_it(sealed):
    data = sealed.model_dump(mode="json")
    body = {k: v for k, v in data.items() if k != "digest"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert sealed.digest == "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def test_the_uploads_digest_changes_with_a_name_or_a_byte():
    one = record.uploads_digest([("a.csv", b"x,1\n")])
    assert one != record.uploads_digest([("b.csv", b"x,1\n")]) != record.uploads_digest([("a.csv", b"x,2\n")])
    assert record.uploads_digest([]) == ""


def test_every_format_carries_the_record_and_reads_back_the_same(built, sealed):
    for data in (render.render_markdown(built).encode(), render.render_html(built).encode()):
        assert record.read(data, "report") == sealed


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict, str]] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        if tag == "script":
            self._open = dict(attrs)
            self.scripts.append((self._open, ""))

    def handle_data(self, data):  # noqa: ANN001
        if self._open is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):  # noqa: ANN001
        if tag == "script":
            self._open = None


def test_a_hostile_name_cannot_close_the_html_element_or_the_markdown_fence(built, sealed):
    hostile = "</script><script>alert(1)</script>``` & <!--"
    ranking = tuple(o.model_copy(update={"name": hostile}) for o in sealed.ranking)
    text = record.to_text(sealed.model_copy(update={"ranking": ranking}))
    assert not set(text) & set("<>&`")
    report = built.__class__(**{**built.__dict__, "decision_record": text})
    parser = _Scripts()
    parser.feed(render.render_html(report))
    assert len(parser.scripts) == 1
    attrs, data = parser.scripts[0]
    assert attrs == {"type": "application/json", "id": "decision-record"}
    assert json.loads(data)["ranking"][0]["name"] == hostile
    page = render.render_markdown(report)
    fenced = page.split("```json decision-record\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(fenced)["ranking"][0]["name"] == hostile


@pytest.mark.subprocess
def test_a_pdf_carries_the_record_as_an_embedded_file(built, sealed, tmp_path):
    pytest.importorskip("weasyprint")
    from selector.report import pdf

    try:
        data = pdf.render_pdf(built)
    except ReportError as exc:  # no Pango on this machine
        pytest.skip(f"PDF rendering unavailable: {exc}")
    assert record.read(data, "r.pdf") == sealed
    if shutil.which("pdfdetach"):  # poppler lists the attachment under its own name, as a PDF reader shows it
        path = tmp_path / "r.pdf"
        path.write_bytes(data)
        listed = subprocess.run(["pdfdetach", "-list", str(path)], capture_output=True, text=True, check=True)
        assert listed.stdout.splitlines()[1:] == ["1: decision-record.json"]


def test_an_altered_record_is_refused_naming_the_file(built):
    page = render.render_markdown(built)
    edited = re.sub(r'"score": 0\.\d+', '"score": 0.99', page, count=1)
    assert edited != page
    with pytest.raises(record.RecordError, match=r"r\.md: its decision record was altered"):
        record.read(edited.encode(), "r.md")


def test_a_record_resealed_after_a_wrong_edit_is_refused_for_its_content(sealed):
    data = sealed.model_dump(mode="json")
    del data["cells"]
    data = record._seal(data)
    with pytest.raises(record.RecordError, match=r"not valid at `cells`"):
        record.parse(json.dumps(data), "x.html")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"not valid JSON \(line 1, column 2\)"),
        ('{"format": "other"}', "not an AI Stack Selector decision record"),
        ('{"format": "ai-stack-selector/decision-record", "version": 9}', "version 9; this release reads version 1"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    ],
)
def test_bad_record_texts_are_refused_with_what_is_wrong(text, message):
    with pytest.raises(record.RecordError, match=message):
        record.parse(text, "f.md")


def test_a_report_without_a_record_is_the_previous_format_and_is_refused_clearly(built):
    old = render.render_markdown(built).split("\n## Decision record (machine-readable)")[0]
    with pytest.raises(
        record.RecordError, match=r"old\.md: it carries no decision record: reports and profiles written"
    ):
        record.read(old.encode(), "old.md")
    assert record.find(b"%PDF-1.7 nothing embedded", "x.pdf") is None


def test_a_markdown_report_saved_with_windows_line_ends_still_reads(built, sealed):
    data = render.render_markdown(built).replace("\n", "\r\n").encode()
    assert record.read(data, "r.md") == sealed


def test_a_resealed_record_with_a_hidden_character_in_a_name_is_refused(sealed):
    data = sealed.model_dump(mode="json")
    data["ranking"][0]["name"] = "Jetson\u202eniro"  # a right-to-left override: the name would read reversed
    with pytest.raises(record.RecordError, match=r"x\.md: its decision record holds a character this app refuses"):
        record.parse(json.dumps(record._seal(data)), "x.md")


def test_a_crafted_pdf_is_inflated_only_so_far_and_only_for_so_many_attachments(monkeypatch):
    import zlib

    bomb = zlib.compress(b"\0" * (4 * record.MAX_INFLATED_BYTES), 9)  # small on disk, 32 MB inflated
    entry = b"<</Type /EmbeddedFile /Filter /FlateDecode>>\nstream\n" + bomb + b"\nendstream\n"
    inflated: list[int] = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self) -> None:
            self._inner = real()

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self._inner.decompress(data, max_length)
            inflated.append(len(out))
            return out

    monkeypatch.setattr(record.zlib, "decompressobj", Counting)
    assert record.find(b"%PDF-1.7\n" + entry * (record.MAX_ATTACHMENTS + 5), "x.pdf") is None
    assert len(inflated) == record.MAX_ATTACHMENTS
    assert max(inflated) <= record.MAX_INFLATED_BYTES

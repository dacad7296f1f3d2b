"""Content checks over the bundled knowledge, read straight from its YAML rather than through the loader.

Quotes are verbatim, every number of every article is claimed, the entities that can be ranked are used, flags say
why, and the default weights are the article's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from selector.knowledge import loading as knowledge
from tests.conftest import KNOWLEDGE

MIN_OVERLAP = 6  # characters a quote must share with a line to count as covering it
MIN_REASON = 30  # characters a flag's reason needs to say what is wrong and against what

# Lines of document 003 that are Python code, not prose: the `# 优化代码示例` snippet of section 2.2 and the
# `class HybridAttention` snippet of section 3.1. Their digits are arguments and literals of the example code.
CODE_LINES = {"003": set(range(20, 26)) | set(range(29, 38))}

# Case-study sub-headings ("案例1：多模态模型部署" in 004) carry an ordinal, not a claim (docs/CLAIMS_GUIDE.md), and
# sources.yaml does not list them as sections.
_CASE_HEADING = re.compile(r"^案例\d+：\S+$")
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s*|[一二三四五六七八九十]+、)")


def _records() -> dict[str, list[tuple[Path, dict[str, Any]]]]:
    tables: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    for path in sorted(KNOWLEDGE.rglob("*.yaml")):
        # PyYAML's own safe loading, independent of selector.io.yamlio; on LibYAML's parser where PyYAML has it (the
        # pure-Python one takes seconds over the bundled imports)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
        for section, records in data.items():
            tables.setdefault(section, []).extend((path, record) for record in records or [])
    return tables


RECORDS = _records()
SOURCES = {record["id"]: record for _, record in RECORDS.get("sources", [])}
ARTICLES = sorted(source_id for source_id, source in SOURCES.items() if source.get("kind", "article") == "article")
CLAIMS = [record for _, record in RECORDS.get("claims", [])]


def document(source_id: str) -> str:
    return (KNOWLEDGE / "sources" / SOURCES[source_id]["file"]).read_text(encoding="utf-8")


def claimed(source_id: str) -> Iterator[dict[str, Any]]:
    for claim in CLAIMS:
        if claim.get("tier", "claimed") == "claimed" and claim.get("source") == source_id:
            yield claim


def is_heading(source_id: str, number: int, line: str) -> bool:
    """True when `line` is the first line of a section and reads as its heading (numbering aside)."""
    for section in SOURCES[source_id]["sections"]:
        if section["lines"][0] == number and _NUMBERING.sub("", line.strip()) == _NUMBERING.sub(
            "", section["heading_zh"]
        ):
            return True
    return False


def covers(quote: str, line: str) -> bool:
    """True when `quote` contains the whole line or a piece of it at least MIN_OVERLAP characters long."""
    line = line.strip()
    if len(line) <= MIN_OVERLAP:
        return line in quote
    return any(line[i : i + MIN_OVERLAP] in quote for i in range(len(line) - MIN_OVERLAP + 1))


def test_there_are_articles_and_claims() -> None:
    assert ARTICLES == ["000", "003", "004"]
    assert CLAIMS, "no claims found under knowledge/"


def test_bundled_knowledge_loads() -> None:
    kb, issues = knowledge.collect()
    assert kb is not None, "\n".join(str(i) for i in issues if i.level == "ERROR")


@pytest.mark.parametrize("source_id", ARTICLES)
def test_every_quote_is_verbatim_and_inside_its_section(source_id: str) -> None:
    text = document(source_id)
    lines = text.split("\n")
    sections = {s["id"]: s["lines"] for s in SOURCES[source_id]["sections"]}
    wrong = []
    for claim in claimed(source_id):
        quote, section = claim.get("quote"), claim.get("section")
        if not quote or quote not in text:
            wrong.append(f"{claim['id']}: quote not in the document: {quote!r}")
            continue
        first, last = sections.get(section, (0, -1))
        starts = [m.start() for m in re.finditer(re.escape(quote), text)]
        if not any(first <= text.count("\n", 0, at) + 1 <= last for at in starts):
            wrong.append(f"{claim['id']}: quote is not within section {section!r} (lines {first}-{last})")
    assert not wrong, "\n".join(wrong)
    assert lines  # the document was read


@pytest.mark.parametrize("source_id", ARTICLES)
def test_every_line_with_a_number_is_claimed(source_id: str) -> None:
    quotes = [claim["quote"] for claim in claimed(source_id) if claim.get("quote")]
    uncovered = []
    for number, line in enumerate(document(source_id).split("\n"), start=1):
        if not re.search(r"[0-9]", line) or number in CODE_LINES.get(source_id, set()):
            continue
        if is_heading(source_id, number, line) or _CASE_HEADING.match(line.strip()):
            continue
        if not any(covers(quote, line) for quote in quotes):
            uncovered.append(f"line {number}: {line}")
    assert not uncovered, f"document {source_id}: lines with numbers no claim quotes:\n" + "\n".join(uncovered)


def _referenced_entities() -> set[str]:
    used: set[str] = set()
    for claim in CLAIMS:
        used.update(claim.get("about") or [])
        conditions = claim.get("conditions") or {}
        used.update(conditions.get(key) for key in ("hardware", "baseline_entity") if conditions.get(key))
    for _, group in RECORDS.get("groups", []):
        used.update(group.get("members") or [])
    for _, rule in RECORDS.get("rules", []):
        used.update(rule.get("recommend") or [])
        used.update(rule.get("exclude") or [])
    for _, criterion in RECORDS.get("criteria", []):
        hardware = (criterion.get("conditions") or {}).get("hardware")
        if hardware:
            used.add(hardware)
    # A vendor organisation is referenced by the chips it makes (Huawei, Moore Threads for the imported chips).
    used.update(e["vendor"] for _, e in RECORDS["entities"] if e.get("vendor"))
    return used


def test_every_framework_and_accelerator_is_referenced() -> None:
    used = _referenced_entities()
    unused = {
        kind: sorted(e["id"] for _, e in RECORDS["entities"] if e["kind"] == kind and e["id"] not in used)
        for kind in ("framework", "accelerator")
    }
    assert unused == {"framework": [], "accelerator": []}


def test_no_entity_is_invented() -> None:
    """An entity no record refers to must at least be named in a document (e.g. a vendor)."""
    texts = "\n".join(p.read_text(encoding="utf-8") for p in (KNOWLEDGE / "sources").glob("*.txt"))
    used = _referenced_entities()
    invented = [
        e["id"]
        for _, e in RECORDS["entities"]
        if e["id"] not in used
        and not any(name and name in texts for name in (e["name"], e.get("name_zh"), *(e.get("aliases") or [])))
    ]
    assert invented == []


def test_every_flag_says_why() -> None:
    short = [
        f"{claim['id']}: {flag.get('reason')!r}"
        for claim in CLAIMS
        for flag in claim.get("flags") or []
        if len((flag.get("reason") or "").strip()) < MIN_REASON
    ]
    assert not short, f"flag reasons shorter than {MIN_REASON} characters:\n" + "\n".join(short)


@pytest.mark.parametrize("source_id", ARTICLES)
def test_the_audit_covers_every_claim_of_the_articles(source_id: str) -> None:
    """docs/AUDIT.md has a row for every record of the three articles (issue 13's record-by-record audit)."""
    audit = (KNOWLEDGE.parent / "docs" / "AUDIT.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z0-9_.\-]+)` \|", audit, flags=re.MULTILINE))
    missing = sorted(claim["id"] for claim in claimed(source_id) if claim["id"] not in rows)
    assert not missing, f"docs/AUDIT.md has no row for: {missing}"


def test_default_weights_are_the_articles_and_sum_to_100() -> None:
    dimensions = [record for _, record in RECORDS.get("dimensions", [])]
    if not dimensions:
        pytest.skip("no dimensions defined yet")
    claims = {claim["id"]: claim for claim in CLAIMS}
    assert len(dimensions) == 4
    assert sum(d["weight"] for d in dimensions) == pytest.approx(100)
    for dimension in dimensions:
        claim = claims.get(f"c004-weight-{dimension['id']}")
        assert claim is not None, f"no claim c004-weight-{dimension['id']} backs dimension {dimension['id']}"
        assert claim["unit"] == "%"
        assert dimension["weight"] == pytest.approx(claim["value"])
        assert f"{claim['value']:g}%" in claim["quote"], "the claim's value is the number it quotes"
        assert claim["id"] in dimension["claims"]

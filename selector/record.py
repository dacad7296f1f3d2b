"""The machine-readable decision record: what decided a ranking, sealed with a digest, and how a file carries it.

Every report (Markdown, HTML, PDF) and every saved profile carries one, so that ``python -m selector recheck`` can
re-rank the same decision on today's knowledge and say what changed (:mod:`selector.recheck`). The record holds the
preferences, the resolved scenario answers, the hard limits, the uploads' digest, the knowledge data hash and the
datasets' snapshot dates, the ranking, the robustness of its leader, the decision rules that fired and, for every
ranked cell, its value, evidence tier and claim ids.

The digest is a SHA-256 of the record's canonical JSON: it tells an edited or damaged record from the one written,
not who wrote it (anyone can recompute it), so it guards against accidents and hand edits, not against a forger.

Carriers: Markdown holds the JSON in a fenced block tagged ``decision-record``; HTML in a
``<script type="application/json" id="decision-record">`` element (data, never executed); PDF as the embedded file
``decision-record.json`` (the same element's text, attached by :func:`selector.report.pdf.page_to_pdf`); a profile
in its ``record`` key. The JSON text escapes
``<``, ``>``, ``&`` and backticks, so it can neither close the HTML element nor the Markdown fence.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from selector.decision.preferences import Preferences
from selector.decision.recommend import Recommendation
from selector.errors import SelectorError
from selector.io import textpolicy
from selector.knowledge.models import KnowledgeBase

FORMAT = "ai-stack-selector/decision-record"
VERSION = 1
#: The Markdown fence's info string, the HTML element's id and the PDF attachment's name.
MARK = "decision-record"
#: A record of the largest group (dozens of options x a dozen criteria) is well under a megabyte.
MAX_RECORD_CHARS = 2_000_000
#: A PDF's embedded files are inflated at most this far while looking for the record.
MAX_INFLATED_BYTES = MAX_RECORD_CHARS * 4
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "`": "\\u0060", "\u2028": "\\u2028", "\u2029": "\\u2029"}
#: Where each text format's record starts and ends (plain substrings: a search stays linear in the file's size).
_CARRIERS = (
    ('<script type="application/json" id="' + MARK + '">', "</script>"),
    ("\n```json " + MARK + "\n", "\n```"),
)
#: The file name a PDF report's record has among its attachments.
ATTACHMENT_NAME = MARK + ".json"
#: A PDF of ours embeds one file; a crafted one with thousands is not inflated past this many.
MAX_ATTACHMENTS = 16
_EMBEDDED = re.compile(rb"/Type\s*/EmbeddedFile\b")
_STREAM = re.compile(rb">>\s*stream\r?\n")
PREVIOUS_FORMAT = (
    "it carries no decision record: reports and profiles written before `recheck` existed do not say which claims "
    "and values decided them, so there is nothing to compare. Open its reproduce link (or load the profile) in the "
    "app, or rank the same settings with `python -m selector report`, and keep the new file"
)


class RecordError(SelectorError, ValueError):
    """A file whose decision record is missing, unreadable or altered; the message names the file and what to do."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CellRecord(_Frozen):
    """One ranked cell: the value scored, its evidence tier (None when imputed) and the claims it rests on."""

    value: float | None
    tier: str | None
    claims: tuple[str, ...]
    imputed: bool = False


class OptionRecord(_Frozen):
    id: str
    name: str
    rank: int
    score: float
    shortlisted: bool


class RuleRecord(_Frozen):
    """A decision rule that fired: the answers it matched, what it recommended and excluded, the claims behind it."""

    id: str
    matched: dict[str, str]
    recommend: tuple[str, ...]
    exclude: tuple[str, ...]
    claims: tuple[str, ...] = ()


class UploadsRecord(_Frozen):
    files: tuple[str, ...] = ()
    digest: str = ""  # "" when no file was uploaded


class KnowledgeRecord(_Frozen):
    data_hash: str
    datasets: dict[str, str] = Field(default_factory=dict)  # dataset id -> snapshot date


class RobustnessRecord(_Frozen):
    samples: int
    seed: int
    leader_first: float | None  # share of sampled weightings that rank the leader first; None: not computed


class DecisionRecord(_Frozen):
    """What decided a ranking, as :func:`build` writes it and :func:`read` checks it."""

    format: Literal["ai-stack-selector/decision-record"]
    version: Literal[1]
    generated_at: str
    app_version: str
    preferences: Preferences
    answers: dict[str, str]  # every question's option, defaults included, as the decision trees read them
    limits: tuple[str, ...]
    uploads: UploadsRecord
    knowledge: KnowledgeRecord
    method: str
    scaler: str
    criteria: dict[str, str]  # id -> name
    ranking: tuple[OptionRecord, ...]
    recommended: str
    leader: str
    robustness: RobustnessRecord
    rules: tuple[RuleRecord, ...]
    cells: dict[str, dict[str, CellRecord]]  # alternative id -> criterion id -> cell
    digest: str

    def name_of(self, alternative: str) -> str:
        return next((o.name for o in self.ranking if o.id == alternative), alternative)


def uploads_digest(uploads: Sequence[tuple[str, bytes]]) -> str:
    """SHA-256 over the files' names and bytes, in the order given; "" when there are none."""
    if not uploads:
        return ""
    digest = hashlib.sha256()
    for name, data in uploads:
        digest.update(name.encode("utf-8") + b"\0" + data + b"\0")
    return digest.hexdigest()


def _canonical(data: Mapping[str, Any]) -> bytes:
    body = {k: v for k, v in data.items() if k != "digest"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def _seal(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "digest": "sha256:" + hashlib.sha256(_canonical(data)).hexdigest()}


def _cells(rec: Recommendation) -> dict[str, dict[str, dict[str, Any]]]:
    dm = rec.matrix
    return {
        alt: {
            cell.criterion: {
                "value": None if cell.value is None else float(cell.value),
                "tier": cell.tier,
                "claims": list(cell.evidence),
                "imputed": cell.imputed,
            }
            for cell in row
        }
        for alt, row in zip(dm.alternatives, dm.cells, strict=True)
    }


def build(
    kb: KnowledgeBase,
    rec: Recommendation,
    *,
    leader_first: float | None,
    samples: int,
    seed: int,
    generated_at: str,
    app_version: str,
    uploads: Sequence[tuple[str, bytes]] = (),
) -> DecisionRecord:
    """The sealed record of ``rec`` (ranked on ``kb``), with the robustness its report shows.

    Parameters
    ----------
    leader_first
        Share of the sampled weightings that rank the leader first (None when the analysis was not run).
    uploads
        The user's files the knowledge was merged with, as (name, bytes): only their names and digest are kept.
    """
    from selector.knowledge import provenance

    prefs = rec.prefs
    data = {
        "format": FORMAT,
        "version": VERSION,
        "generated_at": generated_at,
        "app_version": app_version,
        "preferences": prefs.model_dump(mode="json"),
        "answers": dict(rec.path.answers),
        "limits": [*prefs.constraints, *(f"vendor {v} excluded" for v in prefs.exclude_vendors)]
        + [f"{e} excluded" for e in prefs.exclude],
        "uploads": {"files": [name for name, _ in uploads], "digest": uploads_digest(uploads)},
        "knowledge": {
            "data_hash": kb.data_hash,
            "datasets": {d.id: str(d.snapshot_date) for d in provenance.datasets(kb)},
        },
        "method": rec.result.method,
        "scaler": rec.result.scaler,
        "criteria": {c: kb.criteria[c].name_en for c in rec.matrix.criteria},
        "ranking": [r.to_dict() for r in rec.ranking],
        "recommended": rec.recommended,
        "leader": rec.leader.id,
        "robustness": {"samples": samples, "seed": seed, "leader_first": leader_first},
        "rules": [
            {
                "id": f.id,
                "matched": dict(f.matched),
                "recommend": list(f.recommend),
                "exclude": list(f.exclude),
                "claims": list(f.claims),
            }
            for f in rec.path.fired
        ],
        "cells": _cells(rec),
    }
    return DecisionRecord.model_validate(_seal(data))


def leader_first(rec: Recommendation, samples: int, seed: int) -> float | None:
    """The leader's share of first ranks over ``samples`` sampled weightings, sampled as the report's robustness
    analysis samples them (so a report's figure and a re-check's agree); None when not computable."""
    if samples <= 0 or len(rec.ranking) < 2:
        return None
    from selector.decision.problem import ScoringError
    from selector.robustness import analysis

    try:
        smaa = analysis.acceptability(rec, samples=samples, seed=seed)
    except (ScoringError, ValueError):
        return None
    return float(smaa.acceptability[smaa.alternatives.index(rec.leader.name)][0])


def to_text(record: DecisionRecord) -> str:
    """The record as JSON text safe inside an HTML element and a Markdown fence (read back by :func:`parse`)."""
    text = json.dumps(record.model_dump(mode="json"), sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False)
    return re.sub("[<>&`\u2028\u2029]", lambda m: _ESCAPES[m.group(0)], text)


def parse(text: str, name: str) -> DecisionRecord:
    """Check a record's JSON text: well formed, of this format, and its digest matching its content.

    Raises
    ------
    RecordError
        Naming ``name`` and saying what is wrong (not JSON, another format, altered, a field missing or wrong).
    """
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"{name}: its decision record is {len(text):,} characters; at most {MAX_RECORD_CHARS:,}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise RecordError(f"{name}: its decision record is not valid JSON{where}; it was damaged or edited") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{name}: the block marked {MARK} is not an AI Stack Selector decision record")
    if data.get("version") != VERSION:
        raise RecordError(
            f"{name}: its decision record has version {data.get('version')!r}; this release reads version {VERSION}"
        )
    try:
        expected = "sha256:" + hashlib.sha256(_canonical(data)).hexdigest()
    except (TypeError, ValueError):
        expected = ""
    if data.get("digest") != expected:
        raise RecordError(
            f"{name}: its decision record was altered after it was written (the digest does not match its content); "
            "re-check the file as it was saved, or write a new report"
        )
    problem = _hidden(data)
    if problem is not None:
        raise RecordError(f"{name}: its decision record holds a character this app refuses in any text: {problem}")
    try:
        return DecisionRecord.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise RecordError(f"{name}: its decision record is not valid at `{where}`: {first['msg']}") from None


def _hidden(data: object) -> str | None:
    """The first refused character (selector.io.textpolicy) in any key or text of ``data``, or None.

    A record is written from knowledge that refuses them, so one found here was put there by hand (a digest can be
    recomputed): bidirectional overrides would make a shown name read differently from what it is.
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = textpolicy.first_hidden(item)
            if problem is not None:
                return problem
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _pdf_attachments(data: bytes) -> list[str]:
    """The texts of a PDF's embedded files (WeasyPrint writes each as one Flate stream)."""
    texts = []
    for count, found in enumerate(_EMBEDDED.finditer(data)):
        if count == MAX_ATTACHMENTS:
            break
        stream = _STREAM.search(data, found.end(), found.end() + 2000)
        if stream is None:
            continue
        inflater = zlib.decompressobj()
        try:
            raw = inflater.decompress(data[stream.end() :], MAX_INFLATED_BYTES)
        except zlib.error:
            continue
        texts.append(raw.decode("utf-8", errors="replace"))
    return texts


def find(data: bytes, name: str) -> str | None:
    """The record's JSON text in a report (Markdown, HTML, PDF) or profile's bytes, None when it carries none."""
    if data.startswith(b"%PDF"):
        return next((t for t in _pdf_attachments(data) if f'"format": "{FORMAT}"' in t), None)
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")  # a file saved with Windows line ends
    for start, end in _CARRIERS:
        begin = text.find(start)
        if begin >= 0:
            stop = text.find(end, begin + len(start))
            return text[begin + len(start) : stop if stop >= 0 else len(text)]
    return None


def read(data: bytes, name: str) -> DecisionRecord:
    """The checked record a report or profile carries.

    Raises
    ------
    RecordError
        When the file carries none (a report of the previous format, or another file) or it was altered.
    """
    text = find(data, name)
    if text is None:
        raise RecordError(f"{name}: {PREVIOUS_FORMAT}")
    return parse(text, name)

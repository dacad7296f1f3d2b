"""One upload's intake: its type, the caps, the CSV conversion, the loader and the policy, and the result."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, Literal

from selector.io import limits, textpolicy
from selector.io.yamlio import MAX_BYTES, Parsed, dump_yaml
from selector.issues import Issue
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE, Upload
from selector.knowledge.models import KnowledgeBase
from selector.uploads import csv_claims, policy
from selector.uploads.csv_claims import CSV_COLUMNS

MAX_UPLOAD_BYTES = 1_000_000

Format = Literal["yaml", "csv"]


@dataclass(frozen=True)
class UploadResult:
    """The outcome of checking one upload.

    Attributes
    ----------
    kb
        The bundled knowledge merged with the previously accepted uploads and this one; None when any ERROR.
    issues
        Every problem found, with file, line (the CSV line for a CSV upload) and record.
    upload
        What to merge: the file itself for YAML, the converted YAML (same name) for CSV.
    original
        The file as uploaded (what a profile embeds).
    format
        ``yaml`` or ``csv`` (None when the type could not be told).
    source_ids
        The ``user`` sources the upload defines.
    """

    kb: KnowledgeBase | None
    issues: tuple[Issue, ...]
    upload: Upload
    original: Upload
    format: Format | None = None
    source_ids: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kb is not None

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "ERROR"]


def detect_format(name: str, data: bytes) -> Format | None:
    """``csv`` or ``yaml`` from the file extension, else from the content (a CSV header of known columns)."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix:
        return None
    first = data[:4096].decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0]
    columns = [c.strip().lower() for c in re.split(r"[,;\t]", first)]
    if "entity" in columns and all(c in CSV_COLUMNS for c in columns if c):
        return "csv"
    return "yaml"


def _fingerprint(directory: Path) -> tuple:
    """What the cached reference knowledge depends on: every YAML file's path, size and modification time."""
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(directory.rglob("*.yaml")))


@lru_cache(maxsize=4)
def _reference(directory: str, fingerprint: tuple, others: tuple[Upload, ...]) -> KnowledgeBase | None:
    # Only needed when the upload has errors (no merged knowledge to check units and ranges against).
    return knowledge.collect(Path(directory), extra=others)[0]


# The bundled knowledge merged with a session's uploads, kept for the last few sets of uploads: checking an upload
# merges exactly what the app ranks next (the uploads accepted before it, then it), so the app takes the check's
# merge instead of merging and cross-checking again. Keyed like _reference: an edited knowledge file is merged afresh.
@lru_cache(maxsize=4)
def _merged(
    directory: str, fingerprint: tuple, uploads: tuple[Upload, ...]
) -> tuple[KnowledgeBase | None, tuple[Issue, ...]]:
    kb, issues = knowledge.collect(Path(directory), extra=uploads)
    return kb, tuple(issues)


def merged(kb_dir: Path, uploads: Sequence[Upload]) -> tuple[KnowledgeBase | None, list[Issue]]:
    """:func:`selector.knowledge.loading.collect` of `kb_dir` with `uploads`, shared with the check of the last upload.

    The knowledge base is frozen and shared: never mutate it.
    """
    kb, issues = _merged(str(kb_dir), _fingerprint(Path(kb_dir)), tuple(uploads))
    return kb, list(issues)


def _parsed(upload: Upload) -> tuple[Parsed | None, tuple[Issue, ...]]:
    """The upload's data: as converted, or the same cached parse the knowledge load uses (each file parsed once)."""
    if upload.parsed is not None:
        return upload.parsed, ()
    return knowledge.parse(upload.name, upload.data, MAX_BYTES, True)


def _user_sources(uploads: Sequence[Upload]) -> set[str]:
    found = set()
    for upload in uploads:
        parsed, _ = _parsed(upload)
        if parsed is not None and isinstance(parsed.data, dict):
            for _, item in policy.records(parsed.data, "sources"):
                if item.get("kind") == "user" and isinstance(item.get("id"), str):
                    found.add(item["id"])
    return found


def validate_upload(
    name: str,
    data: bytes,
    kb_dir: Path = DEFAULT_KNOWLEDGE,
    others: Sequence[Upload] = (),
    user: str = "user",
    max_bytes: int = MAX_UPLOAD_BYTES,
    measured: Any = None,
) -> UploadResult:
    """Check one upload against the knowledge and the uploads accepted before it; never raises on bad input.

    Parameters
    ----------
    name
        The file name as the user gave it (``.yaml``, ``.yml`` or ``.csv``; without extension the content decides).
    data
        The file's bytes.
    kb_dir
        The bundled knowledge directory (read, never written).
    others
        Uploads already accepted in this session (their ``upload`` form), merged before this one.
    user
        Who uploads (names the source a CSV upload gets).
    max_bytes
        Size cap of the upload.
    measured
        For a benchmark output (LoadGen summary, trtexec log, llama-bench JSON): the
        :class:`selector.measure.Options` saying what the file does not (the hardware entity). Such a file is
        converted to measured claims (``<name>.measured.yaml``, which is also what a profile keeps).

    Returns
    -------
    UploadResult
        With the merged knowledge when nothing is an ERROR, else ``kb=None`` and every issue.
    """
    original = Upload(name, data)
    fmt = detect_format(name, data)

    def refuse(message: str, line: int | None = None) -> UploadResult:
        return UploadResult(None, (Issue("ERROR", name, line, None, message),), original, original, fmt)

    hidden_in_name = textpolicy.first_hidden(name)
    if hidden_in_name is not None:
        # The name is shown on the page and in reports like any text; the issue names the file with the character
        # made visible.
        issue = Issue("ERROR", textpolicy.shown(name), None, None, f"the file name: {hidden_in_name}; rename the file")
        return UploadResult(None, (issue,), original, original, fmt)
    if len(data) > max_bytes:
        return refuse(f"file is {len(data):,} bytes; the limit for an upload is {max_bytes:,} bytes")
    if fmt is None:
        from selector import measure

        if measure.is_benchmark_output(name, data):
            return _benchmark_output(name, data, kb_dir, others, user, measured)
        return refuse(
            f"cannot tell the file type of `{PurePath(name).suffix}`; upload a .yaml, .yml or .csv file, "
            "or a benchmark output (MLPerf LoadGen summary, trtexec log, llama-bench JSON)"
        )
    try:
        with limits.checking():
            return _check_upload(name, data, fmt, kb_dir, others, user)
    except limits.Busy as exc:
        return refuse(str(exc))


def _check_upload(
    name: str, data: bytes, fmt: Format, kb_dir: Path, others: Sequence[Upload], user: str
) -> UploadResult:
    original = Upload(name, data)

    def refuse(message: str, line: int | None = None) -> UploadResult:
        return UploadResult(None, (Issue("ERROR", name, line, None, message),), original, original, fmt)

    issues: list[Issue] = []
    lines: dict[str, int] = {}
    upload = original
    if fmt == "csv":
        conversion = csv_claims.convert(data, name, user)
        issues.extend(conversion.issues)
        if not conversion.yaml:
            return UploadResult(None, tuple(limits.capped(issues)), original, original, fmt)
        if len(conversion.yaml) > MAX_BYTES:
            # The session merges the converted YAML under the loader's own cap; refuse here, where it is clear why.
            size = len(conversion.yaml)
            return refuse(f"the file converts to {size:,} bytes of YAML (limit {MAX_BYTES:,}); split it")
        # The converted rows travel already parsed: the YAML written from them is never read back.
        upload, lines = Upload(name, conversion.yaml, conversion.parsed), conversion.lines
    parsed, problems = _parsed(upload)
    if parsed is None:
        return UploadResult(None, tuple(limits.capped(issues + list(problems))), upload, original, fmt)
    crowded = limits.too_many_records(parsed.data)
    if crowded:
        # Refused before the schema and the policy run: their cost grows with the records.
        message = "; ".join(f"`{section}` holds {count:,} records" for section, count in crowded)
        return refuse(f"{message}; an upload holds at most {limits.MAX_RECORDS:,} per list: split the file")
    together, collected = _load(kb_dir, others, upload, parsed)
    reference = together
    if reference is None:
        reference = _reference(str(kb_dir), _fingerprint(Path(kb_dir)), tuple(others))
    ruled = policy.check(parsed, name, _user_sources(others), reference.metrics if reference is not None else {})
    checks = policy.against_knowledge(parsed, name, reference) if reference is not None else []
    found = ruled + list(collected) + checks
    if lines:
        found = [_to_csv_line(i, name, lines) for i in found]
    issues.extend(dict.fromkeys(found))  # the same problem found twice is shown once
    issues = limits.capped(issues)
    source_ids = tuple(
        item["id"]
        for _, item in policy.records(parsed.data if isinstance(parsed.data, dict) else {}, "sources")
        if item.get("kind") == "user" and isinstance(item.get("id"), str)
    )
    kb = together if not any(i.level == "ERROR" for i in issues) else None
    return UploadResult(kb, tuple(issues), upload, original, fmt, source_ids)


def _load(
    kb_dir: Path, others: Sequence[Upload], upload: Upload, parsed: Parsed
) -> tuple[KnowledgeBase | None, list[Issue]]:
    """The knowledge merged with the upload and every problem found, a second pass included when it is refused."""
    # the first pass is the merge the session ranks when the file is accepted (:func:`merged`, kept)
    together, collected = merged(kb_dir, [*others, upload])
    if together is None:
        collected = [*collected, *_second_pass(kb_dir, others, upload, parsed, collected)]
    return together, list(collected)


def _second_pass(
    kb_dir: Path, others: Sequence[Upload], upload: Upload, parsed: Parsed, found: Sequence[Issue]
) -> list[Issue]:
    """The problems a first load could not reach: without the records it refused, the upload is loaded again.

    A record the schema refuses keeps the whole file from the cross-checks (entities that exist, units, ranges), so
    those problems of every other record would only show after the first ones were fixed: one more load, without
    the refused records, reports them in the same pass. Only new problems are returned.
    """
    refused = {i.record for i in found if i.level == "ERROR" and i.file == upload.name and i.record}
    if not refused or not isinstance(parsed.data, dict):
        return []
    pruned = _without(parsed, refused)
    if pruned is None:
        return []
    _, again = knowledge.collect(kb_dir, extra=[*others, Upload(upload.name, upload.data, pruned)])
    seen = {(i.record, i.message) for i in found}
    # a record that names a refused one (a claim about an entity the schema refused) only repeats that problem
    echoes = tuple(f"`{r}`" for r in refused)
    return [
        i
        for i in again
        if i.file == upload.name and (i.record, i.message) not in seen and not any(e in i.message for e in echoes)
    ]


def _without(parsed: Parsed, refused: set[str]) -> Parsed | None:
    """`parsed` without the list items whose id is in `refused`, each remaining path keeping its line; None when
    nothing is left to check."""
    data = dict(parsed.data)
    moved: dict[str, dict[int, int]] = {}
    for section, items in parsed.data.items():
        if not isinstance(items, list):
            continue
        kept = [(i, item) for i, item in enumerate(items) if not (isinstance(item, dict) and item.get("id") in refused)]
        moved[section] = {old: new for new, (old, _) in enumerate(kept)}
        data[section] = [item for _, item in kept]
    if not any(data.get(section) for section in moved):
        return None
    lines = {}
    for path, line in parsed.lines.items():
        if len(path) >= 2 and path[0] in moved:
            if path[1] not in moved[path[0]]:
                continue
            path = (path[0], moved[path[0]][path[1]], *path[2:])
        lines[path] = line
    return Parsed(data, lines)


def check_files(
    paths: Sequence[Path], kb_dir: Path = DEFAULT_KNOWLEDGE, others: Sequence[Upload] = ()
) -> tuple[list[Upload], list[Issue]]:
    """Check files named on the command line one after another, as the My data page checks uploads.

    ``validate --extra`` and ``rank --extra`` (and ``sensitivity``, ``report``) call this, the page calls
    :func:`validate_upload` on each file it receives: so all of them accept and refuse the same files.

    Parameters
    ----------
    paths
        The files, in the order given; each is checked against the knowledge and the files accepted before it.
    kb_dir
        The knowledge directory (read, never written).
    others
        Uploads accepted before (e.g. those a profile embeds).

    Returns
    -------
    (accepted, issues)
        The uploads accepted (a file with any ERROR is not) and every issue of every file.
    """
    from selector.io import fileio

    accepted = list(others)
    found: list[Issue] = []
    for path in paths:
        data, problem = fileio.read_bytes(path, MAX_UPLOAD_BYTES)
        if problem is not None:
            found.append(problem)
            continue
        result = validate_upload(str(path), data, kb_dir, others=accepted)
        found.extend(result.issues)
        if result.ok:
            accepted.append(result.upload)
    return accepted[len(others) :], found


def _benchmark_output(
    name: str, data: bytes, kb_dir: Path, others: Sequence[Upload], user: str, options: Any
) -> UploadResult:
    """A benchmark output converted to measured claims (selector.measure) and checked like any YAML upload."""
    from selector import measure

    original = Upload(name, data)
    try:
        # the same gate as every other check: reading a benchmark output costs as much as checking a YAML file
        with limits.checking():
            reference = _reference(str(kb_dir), _fingerprint(Path(kb_dir)), tuple(others))
            if reference is None:
                message = "your other files do not merge; fix them before adding this one"
                return UploadResult(None, (Issue("ERROR", name, None, None, message),), original, original)
            ingested = measure.ingest([(name, data)], options or measure.Options(user=user), reference)
    except limits.Busy as exc:
        return UploadResult(None, (Issue("ERROR", name, None, None, str(exc)),), original, original)
    except measure.MeasureError as exc:
        return UploadResult(None, tuple(limits.capped(exc.issues)), original, original)
    head = f"# Measured claims converted from {PurePath(name).name} by AI Stack Selector (selector/measure).\n"
    converted = (head + dump_yaml(ingested.document)).encode("utf-8")
    return validate_upload(f"{PurePath(name).name}.measured.yaml", converted, kb_dir, others, user, MAX_BYTES)


def _to_csv_line(issue: Issue, name: str, lines: dict[str, int]) -> Issue:
    if issue.file != name:
        return issue
    return Issue(issue.level, issue.file, lines.get(issue.record or ""), issue.record, issue.message)

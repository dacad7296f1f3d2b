"""Loading the knowledge base: YAML files -> validated, cross-checked, immutable :class:`KnowledgeBase`.

Files are parsed, checked against the schema record by record, then checked as a whole by
:mod:`selector.knowledge.crosscheck`
(ids unique, references resolve, quotes verbatim and inside their section). All problems are collected and reported
together.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from pydantic import ValidationError

from selector.errors import SelectorError
from selector.io import fileio, limits, parse_cache, textpolicy
from selector.io.yamlio import MAX_BYTES, MAX_NODES, Parsed, parse_yaml
from selector.issues import Issue, schema_issues
from selector.knowledge import crosscheck
from selector.knowledge.locators import Snapshots
from selector.knowledge.models import SECTIONS, KnowledgeBase, KnowledgeFile

#: Cap of one bundled knowledge file, and of one source document under knowledge/sources/.
MAX_KNOWLEDGE_FILE_BYTES = MAX_BYTES * 5

# SELECTOR_KNOWLEDGE lets a deployment (a mounted volume) or the scaling benchmark serve another directory without
# a code change; like the bundled one, it is only ever read.
DEFAULT_KNOWLEDGE = Path(
    os.environ.get("SELECTOR_KNOWLEDGE") or Path(__file__).resolve().parent.parent.parent / "knowledge"
)


class KnowledgeError(SelectorError):
    """Raised when the knowledge does not validate; carries every issue found."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        errors = [i for i in self.issues if i.level == "ERROR"]
        super().__init__(f"{len(errors)} problem(s) in the knowledge:\n" + "\n".join(str(i) for i in errors))


@dataclass(frozen=True)
class Upload:
    """A user's file that is not on disk (a browser upload): its name and bytes.

    ``parsed`` is the data already parsed when the selector wrote the bytes itself (a CSV upload converted by
    :mod:`selector.uploads.csv_claims`): reading its own YAML back would cost more than the rest of the check. It
    takes no part in equality, so an upload is the same whether or not it carries it.
    """

    name: str
    data: bytes
    parsed: Parsed | None = field(default=None, compare=False, repr=False)


# Room for every bundled file (34 today) and a few sessions' uploads: a smaller cache evicted an upload between its
# check and its merge once the bundle grew past it, and parsed it again.
@lru_cache(maxsize=128)
def parse(name: str, raw: bytes, max_bytes: int, user: bool) -> tuple[Parsed | None, tuple[Issue, ...]]:
    """:func:`selector.io.yamlio.parse_yaml` of one input, kept for the next check of the same bytes.

    A user's file is checked on upload and read again when the knowledge is merged, and the bundled files are read
    for every check: with this cache each is parsed once per server process, and a knowledge file that parsed
    cleanly once is read back from :mod:`selector.io.parse_cache` by the next process. A user's file (`user`) may hold
    at most ``limits.MAX_UPLOAD_VALUES`` values, and at most ``limits.MAX_ISSUES`` issues are listed. The parsed
    data is shared: callers must not change it.
    """
    max_nodes = limits.MAX_UPLOAD_VALUES if user else MAX_NODES
    kept = None if user else parse_cache.load(name, raw, max_bytes, max_nodes)
    if kept is not None:
        return kept, ()
    parsed, issues = parse_yaml(raw, name, max_bytes, max_nodes=max_nodes)
    if parsed is not None and not issues and not user:
        parse_cache.store(name, raw, max_bytes, max_nodes, parsed)
    return parsed, tuple(limits.capped(issues))


def _read_file(
    name: str, raw: bytes, max_bytes: int, user: bool = False, given: Parsed | None = None
) -> tuple[crosscheck.Loaded | None, list[Issue]]:
    parsed = given if given is not None and len(raw) <= max_bytes else None
    if parsed is None:
        parsed, issues = parse(name, raw, max_bytes, user)
        if parsed is None:
            return None, list(issues)
    if not isinstance(parsed.data, dict):
        return None, [
            Issue("ERROR", name, parsed.line_of(()), None, f"top level must be a mapping with keys among {SECTIONS}")
        ]
    crowded = limits.too_many_records(parsed.data) if user else []
    if crowded:
        return None, [
            Issue(
                "ERROR",
                name,
                parsed.line_of((section,)),
                None,
                f"`{section}` holds {count:,} records; a file of yours holds at most {limits.MAX_RECORDS:,} per "
                "list (the largest CSV upload): split it",
            )
            for section, count in crowded
        ]
    try:
        content = KnowledgeFile.model_validate(parsed.data)
    except ValidationError as exc:
        hint = "allowed keys are those of the schema (see README, data model)"
        return None, schema_issues(exc, name, parsed.line_of, hint, records=parsed.data, limit=limits.MAX_ISSUES)
    return crosscheck.Loaded(name, raw, parsed, content, user), []


def _knowledge_files(directory: Path) -> list[Path]:
    # Everything named *.yaml, not only regular files: a directory or pipe by that name is reported, not skipped.
    return sorted(directory.rglob("*.yaml"))


def _read_texts(directory: Path, files: list[crosscheck.Loaded], issues: list[Issue]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for loaded in files:
        for index, source in enumerate(loaded.content.sources):
            if source.kind != "article":
                continue
            here = ("ERROR", loaded.name, crosscheck.line(loaded, "sources", index, "file"), source.id)
            raw, problem = fileio.read_bytes(directory / "sources" / source.file, MAX_KNOWLEDGE_FILE_BYTES)
            if problem is not None:
                why = problem.message.removeprefix("cannot read file: ")
                issues.append(Issue(*here, f"cannot read document `sources/{source.file}`: {why}"))
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                line = raw[: exc.start].count(b"\n") + 1
                issues.append(
                    Issue(*here, f"document `sources/{source.file}` is not UTF-8 text (line {line}); save it as UTF-8")
                )
                continue
            hidden = textpolicy.hidden(text, limit=1)
            if hidden:
                # A quote must be a verbatim substring: an invisible character in the document would hide in it too.
                issues.append(
                    Issue(*here, f"document `sources/{source.file}` line {hidden[0].line}, {hidden[0].message}")
                )
                continue
            texts[source.id] = text
    return texts


def _relative(path: Path, directory: Path) -> str:
    try:
        return str(path.relative_to(directory.parent))
    except ValueError:
        return str(path)


def collect(
    directory: Path = DEFAULT_KNOWLEDGE,
    extra: Sequence[Path | Upload] = (),
    max_upload_bytes: int = MAX_BYTES,
) -> tuple[KnowledgeBase | None, list[Issue]]:
    """Load and check everything; return the knowledge base (None if any error) and all issues found.

    Parameters
    ----------
    directory
        The knowledge directory: every ``*.yaml`` under it is read, documents come from ``sources/``.
    extra
        A user's additional files (paths or in-memory uploads), validated by the same rules and merged last.
    max_upload_bytes
        Size cap for `extra` files.
    """
    directory = Path(directory)
    issues: list[Issue] = []
    inputs: list[tuple[str, bytes, int, bool, Parsed | None]] = []
    paths = _knowledge_files(directory)
    for path in paths:
        name = _relative(path, directory)
        raw, problem = fileio.read_bytes(path, MAX_KNOWLEDGE_FILE_BYTES, name)
        if problem is not None:
            issues.append(problem)
        else:
            inputs.append((name, raw, MAX_KNOWLEDGE_FILE_BYTES, False, None))
    if not paths:
        issues.append(Issue("ERROR", str(directory), None, None, "no *.yaml files found in the knowledge directory"))
    for item in extra:
        if isinstance(item, Upload):
            inputs.append((item.name, item.data, max_upload_bytes, True, item.parsed))
        else:
            raw, problem = fileio.read_bytes(item, max_upload_bytes)
            if problem is not None:
                issues.append(problem)
            else:
                inputs.append((str(item), raw, max_upload_bytes, True, None))
    files: list[crosscheck.Loaded] = []
    for name, raw, cap, user, parsed in inputs:
        loaded, problems = _read_file(name, raw, cap, user, parsed)
        issues.extend(problems)
        if loaded is not None:
            files.append(loaded)
    texts = _read_texts(directory, files, issues)
    snapshots = Snapshots(directory)
    issues.extend(crosscheck.Checker(files, texts, snapshots).run())
    snapshots.save()
    issues = limits.capped(issues)
    if any(i.level == "ERROR" for i in issues):
        return None, issues
    return _assemble(files, texts), issues


def _assemble(files: list[crosscheck.Loaded], texts: dict[str, str]) -> KnowledgeBase:
    digest = hashlib.sha256()
    for loaded in files:
        digest.update(loaded.name.encode() + b"\0" + loaded.raw + b"\0")
    for source_id in sorted(texts):
        digest.update(texts[source_id].encode())
    tables: dict[str, dict] = {s: {} for s in SECTIONS}
    locations: dict[tuple[str, str], str] = {}
    for loaded in files:
        for section in SECTIONS:
            for index, record in enumerate(getattr(loaded.content, section)):
                tables[section][record.id] = record
                locations[(section, record.id)] = f"{loaded.name}:{crosscheck.line(loaded, section, index)}"
    for entity in tables["entities"].values():
        for group_id in entity.groups:
            group = tables["groups"][group_id]
            if entity.id not in group.members:
                tables["groups"][group_id] = group.model_copy(update={"members": (*group.members, entity.id)})
    return KnowledgeBase(
        **{s: MappingProxyType(t) for s, t in tables.items()},
        texts=MappingProxyType(texts),
        locations=MappingProxyType(locations),
        data_hash=digest.hexdigest()[:16],
    )


def load(directory: Path = DEFAULT_KNOWLEDGE, extra: Sequence[Path | Upload] = ()) -> KnowledgeBase:
    """Load the knowledge base or raise :class:`KnowledgeError` with every problem found."""
    kb, issues = collect(directory, extra)
    if kb is None:
        raise KnowledgeError(issues)
    return kb


class _Preloaded:
    """The bundled knowledge loaded ahead of its first use, held until that use takes it over.

    A server's warm-up (serve.py) loads it while Streamlit starts; the app's own cache (``st.cache_resource``)
    takes it on the first page and owns it from then on, so nothing here keeps a second reference or stands in the
    way of that cache being cleared and reloading. The lock makes the warm-up and a first page that arrive at
    once load it once: the page waits for the warm-up's load instead of starting its own.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kb: KnowledgeBase | None = None
        self._taken = False

    def preload(self) -> KnowledgeBase | None:
        with self._lock:
            if not self._taken and self._kb is None:
                try:
                    self._kb = load()
                except Exception:  # the app loads it again and lists what is wrong
                    return None
            return self._kb

    def taken(self) -> bool:
        return self._taken

    def take(self) -> KnowledgeBase:
        with self._lock:
            kb, self._kb, self._taken = self._kb, None, True
            return kb if kb is not None else load()


_PRELOADED = _Preloaded()


def preload_bundled() -> KnowledgeBase | None:
    """Load the bundled knowledge now for :func:`bundled` to hand over (a server's warm-up, in the background), and
    return it for the warm-up's own use (None once :func:`bundled` has taken it, or when it does not load).

    A knowledge base that does not load is not kept: the app loads it again and lists the problems.
    """
    return _PRELOADED.preload()


def bundled() -> KnowledgeBase:
    """The bundled knowledge (:data:`DEFAULT_KNOWLEDGE`): the one :func:`preload_bundled` loaded, handed over once
    and then forgotten here, else loaded now. The caller keeps it (the app's cache does).

    Raises
    ------
    KnowledgeError
        When the knowledge does not validate (never kept: the next call loads again).
    """
    return _PRELOADED.take()


def bundled_in_use() -> bool:
    """Whether :func:`bundled` has been called in this process (a server's first page has begun)."""
    return _PRELOADED.taken()

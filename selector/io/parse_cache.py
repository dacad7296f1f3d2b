"""The bundled knowledge files as parsed before, kept on disk so that a new process (every CLI command) skips YAML.

Parsing the bundled YAML with every guard is most of loading the knowledge; a command-line call starts a new
process each time, so the in-process cache of :func:`selector.knowledge.loading.parse` never helps it. Here a file's
parse
result (its data and line map, only when it parsed without any issue) is written as JSON, never pickle, to the
user's cache folder, and read back when the same bytes are parsed again by the same parser code: the key holds the
file's name and SHA-256, the limits and a hash of the parser's source, so an edited file or a changed guard is
parsed afresh. The schema and cross-reference checks still run on every load. Nothing is written into ``knowledge/``;
a cache folder that cannot be written is skipped silently.

The folder is ``$SELECTOR_CACHE_DIR`` (``off`` disables the cache), else ``$XDG_CACHE_HOME/ai-stack-selector``, else
``~/.cache/ai-stack-selector``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import yaml

from selector.io.yamlio import DEFAULT_LOADER, Parsed

# The modules whose code decides what a parse returns.
_PARSER_SOURCES = ("yamlio.py", "textpolicy.py", "limits.py", "parse_cache.py")


@functools.cache
def _parser_version() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{yaml.__version__} {DEFAULT_LOADER}".encode())
    for name in _PARSER_SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def folder() -> Path | None:
    """Where parse results are kept, or None when the cache is switched off (``SELECTOR_CACHE_DIR=off``)."""
    chosen = os.environ.get("SELECTOR_CACHE_DIR")
    if chosen:
        return None if chosen == "off" else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ai-stack-selector"


def _entry(name: str) -> Path | None:
    where = folder()
    return None if where is None else where / (hashlib.sha256(name.encode()).hexdigest()[:32] + ".json")


def _key(raw: bytes, max_bytes: int, max_nodes: int) -> str:
    return f"{hashlib.sha256(raw).hexdigest()} {max_bytes} {max_nodes} {_parser_version()}"


def load(name: str, raw: bytes, max_bytes: int, max_nodes: int) -> Parsed | None:
    """The kept parse of these bytes of `name`, or None when there is none (or it cannot be read).

    Parameters
    ----------
    name
        The file's name as issues show it (one entry per name).
    raw
        The file's bytes.
    max_bytes, max_nodes
        The limits it was parsed under.
    """
    kept = read_entry(name)
    if kept is None or kept.get("key") != _key(raw, max_bytes, max_nodes):
        return None
    try:
        return Parsed(kept["data"], {tuple(path): line for path, line in kept["lines"]})
    except (KeyError, TypeError, ValueError):
        return None


def store(name: str, raw: bytes, max_bytes: int, max_nodes: int, parsed: Parsed) -> None:
    """Keep the parse of these bytes of `name` for the next process (atomically; silently skipped on any error)."""
    write_entry(
        name,
        {
            "key": _key(raw, max_bytes, max_nodes),
            "data": parsed.data,
            "lines": [[list(path), line] for path, line in parsed.lines.items()],
        },
    )


def read_entry(name: str) -> dict | None:
    """The JSON object kept under `name` in the cache folder, or None (none kept, unreadable, switched off).

    Each kept object carries its own ``key`` (what decided it); the caller compares it before using the rest.
    """
    entry = _entry(name)
    if entry is None:
        return None
    try:
        kept = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) else None


def write_entry(name: str, kept: dict) -> None:
    """Keep the JSON object `kept` under `name`, atomically (a reader sees the old or the new one); errors skip it."""
    entry = _entry(name)
    if entry is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(kept, ensure_ascii=False)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=entry.parent, delete=False, suffix=".tmp") as out:
            written = Path(out.name)
            out.write(text)
        os.replace(written, entry)
    except (OSError, TypeError, ValueError):
        if "written" in locals():
            written.unlink(missing_ok=True)

"""What the claims' locators resolved to in a raw snapshot, kept on disk so that the next process skips the snapshot.

Every knowledge load checks each dataset claim against its raw snapshot: the cross-checks resolve its locator (the
row, the column, the unit conversion) and compare the result with the stored value. The result depends only on the
snapshot's bytes, the locator and the code that reads and converts, yet every new process (each command, each server
start) would parse megabytes of JSON and CSV again to get the same answers. Here one snapshot's answers (the
converted number, or the message of the refusal) are kept as JSON, never pickle, in the folder of
:mod:`selector.io.parse_cache`, under a key holding the file's SHA-256 and a hash of the source of every module
under ``selector/io`` and ``selector/knowledge`` (the readers, the number parser, the conversions): an edited
snapshot or a changed reader is resolved afresh. ``SELECTOR_CACHE_DIR=off`` switches it off, as for the parse cache.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from selector.io import parse_cache

# The packages (under selector/) whose code decides what a locator resolves to: every module in them counts.
_CODE = ("io", "knowledge")


@functools.cache
def code_version() -> str:
    """A hash of the source of every module that reads, parses or converts a raw snapshot."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for package in _CODE:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry(row: str, key_columns: Sequence[str], column: str, conversion: str) -> str:
    """The name one locator's answer is kept under, within its snapshot's entry."""
    return json.dumps([row, list(key_columns), column, conversion], ensure_ascii=False)


# The answers of each snapshot read in this process, by label and key: a second load in the same process (an
# upload check, the app's reruns) finds them without reading the kept file again. The flag says that some of them
# are not on disk yet (whichever load resolved them, the next save writes them).
_IN_PROCESS: dict[tuple[str, str], tuple[dict[str, float | str], list[bool]]] = {}
_IN_PROCESS_KEPT = 256


class Kept:
    """The answers kept for one snapshot's bytes: a number (the converted value) or a string (why it was refused)."""

    def __init__(self, label: str, data: bytes) -> None:
        self.label = label
        self.key = f"{hashlib.sha256(data).hexdigest()} {code_version()}"
        found = _IN_PROCESS.get((label, self.key))
        if found is None:
            stored = parse_cache.read_entry(self._name())
            values = stored.get("values") if stored and stored.get("key") == self.key else None
            found = (values if isinstance(values, dict) else {}, [False])
            if len(_IN_PROCESS) >= _IN_PROCESS_KEPT:
                _IN_PROCESS.clear()
            _IN_PROCESS[(label, self.key)] = found
        self.answers, self._unsaved = found

    def _name(self) -> str:
        return f"resolved locators {self.label}"

    def get(self, name: str) -> float | str | None:
        """The kept answer under `name` (from :func:`entry`), or None."""
        answer = self.answers.get(name)
        return answer if isinstance(answer, (int, float, str)) and not isinstance(answer, bool) else None

    def put(self, name: str, answer: float | str) -> None:
        """Keep `answer` under `name`, written out by :meth:`save`."""
        self.answers[name] = answer
        self._unsaved[0] = True

    def save(self) -> None:
        """Write the answers for the next process, when some are not on disk yet (silently skipped on any error)."""
        if self._unsaved[0]:
            self._unsaved[0] = False
            parse_cache.write_entry(self._name(), {"key": self.key, "values": dict(self.answers)})

"""Release history of a package-index project: its releases, their dates and the platforms its wheels cover.

Reads one project of a bundled answer of the Python Package Index's JSON simple API (PEP 691 with PEP 700's
``upload-time``): ``versions`` and ``files`` (filename, upload-time, yanked), and the date it was ``fetched``. A
release is a version that is not a pre-release or development release (PEP 440: ``a``, ``b``, ``rc``, ``dev``),
dated by its first uploaded file; yanked files are left out. The platforms are those of the newest release that
has platform wheels (a pure-Python wheel, tag ``any``, says nothing about where the code runs). The locators
re-read the figures here, so an importer and the validator compute them with the same code.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from typing import Any

from selector.errors import SelectorError

WINDOW_DAYS = 365
_PRE = re.compile(r"(a|b|c|rc|alpha|beta|pre|preview|dev)\d*", re.IGNORECASE)
_ARCHIVES = (".tar.gz", ".zip", ".tar.bz2", ".tgz")
# wheel platform tag prefix -> operating system
_OS = (
    ("manylinux", "linux"),
    ("musllinux", "linux"),
    ("linux", "linux"),
    ("macosx", "macos"),
    ("win", "windows"),
    ("android", "android"),
    ("ios", "ios"),
)
# architecture spellings of the tags -> one name each
_ARCH = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "aarch64": "arm64",
    "arm64": "arm64",
    "i686": "x86",
    "win32": "x86",
    "armv7l": "arm32",
    "armv6l": "arm32",
    "ppc64le": "ppc64le",
    "s390x": "s390x",
    "riscv64": "riscv64",
}


class ReleaseError(SelectorError, ValueError):
    """The project record is not a JSON simple API answer the figures can be computed from."""


def _date(text: Any, where: str) -> dt.datetime:  # noqa: ANN401
    try:
        return dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise ReleaseError(f"{where}: `{text}` is not an ISO 8601 time") from None


def is_release(version: str) -> bool:
    """Whether `version` is a final release (not a pre-release or development release)."""
    return not _PRE.search(version.split("+", 1)[0])


def version_of(filename: str, versions: tuple[str, ...]) -> str | None:
    """The listed version a distribution file belongs to, else None.

    A wheel's name is ``dist-version(-build)-python-abi-platform.whl`` (its parts never hold ``-``); a source
    archive's is ``name-version`` plus the archive suffix, where the name may hold ``-``: the longest listed
    version the stem ends with wins.
    """
    if filename.endswith(".whl"):
        parts = filename.split("-")
        return parts[1] if len(parts) >= 5 and parts[1] in versions else None
    stem = next((filename[: -len(a)] for a in _ARCHIVES if filename.endswith(a)), None)
    if stem is None:
        return None
    found = [v for v in versions if stem.endswith(f"-{v}")]
    return max(found, key=len) if found else None


# A project's files are read once per row object: its four figures (and every knowledge load's re-reading of them)
# share the result. An entry holds its row, so the row's id is not reused while the entry lives; few rows exist.
_FILES: dict[int, tuple[Mapping[str, Any], tuple[dt.date, tuple[tuple[str, dt.datetime, str], ...]]]] = {}
_FILES_KEPT = 64


def _files(row: Mapping[str, Any], where: str) -> tuple[dt.date, tuple[tuple[str, dt.datetime, str], ...]]:
    """(date fetched, ((filename, upload time, version), ...)) of the final-release, non-yanked files."""
    kept = _FILES.get(id(row))
    if kept is not None and kept[0] is row:
        return kept[1]
    result = _read_files(row, where)
    if len(_FILES) >= _FILES_KEPT:
        _FILES.clear()
    _FILES[id(row)] = (row, result)
    return result


def _read_files(row: Mapping[str, Any], where: str) -> tuple[dt.date, tuple[tuple[str, dt.datetime, str], ...]]:
    fetched = _date(row.get("fetched"), f"{where} `fetched`").date()
    versions = row.get("versions")
    files = row.get("files")
    if not isinstance(versions, list) or not isinstance(files, list):
        raise ReleaseError(f"{where}: a project needs `versions` and `files` lists")
    kept = []
    for item in files:
        if not isinstance(item, Mapping) or "filename" not in item or "upload-time" not in item:
            raise ReleaseError(f"{where}: every file needs `filename` and `upload-time`")
        if item.get("yanked"):
            continue
        version = version_of(str(item["filename"]), tuple(str(v) for v in versions))
        if version is not None and is_release(version):
            kept.append((str(item["filename"]), _date(item["upload-time"], where), version))
    return fetched, tuple(kept)


def release_dates(row: Mapping[str, Any], where: str) -> tuple[dt.date, dict[str, dt.date]]:
    """(date fetched, release -> the date of its first file), releases up to the fetch date only."""
    fetched, files = _files(row, where)
    first: dict[str, dt.date] = {}
    for _, when, version in files:
        if when.date() <= fetched and (version not in first or when.date() < first[version]):
            first[version] = when.date()
    return fetched, first


def releases_in_window(row: Mapping[str, Any], where: str) -> float:
    """Releases whose first file was uploaded in the :data:`WINDOW_DAYS` days up to the fetch date."""
    fetched, first = release_dates(row, where)
    return float(sum(1 for day in first.values() if 0 <= (fetched - day).days < WINDOW_DAYS))


def days_since_release(row: Mapping[str, Any], where: str) -> float:
    """Days from the newest release's first upload to the fetch date, counted inclusively.

    A release uploaded on the fetch date is 1 day old, so the figure is never 0: a cost column is inverted (1/x)
    by several methods, and a zero would break them.

    Raises
    ------
    ReleaseError
        When the record holds no release.
    """
    fetched, first = release_dates(row, where)
    if not first:
        raise ReleaseError(f"{where}: no final release among the files kept")
    return float((fetched - max(first.values())).days + 1)


def platforms(row: Mapping[str, Any], where: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(release, operating systems, architectures) of the newest release that has platform wheels.

    Raises
    ------
    ReleaseError
        When no release has a platform wheel (pure-Python wheels and source archives only).
    """
    fetched, files = _files(row, where)
    by_release: dict[str, tuple[dt.datetime, set[str], set[str]]] = {}
    for filename, when, version in files:
        if not filename.endswith(".whl") or when.date() > fetched:
            continue
        systems, arches = _wheel_platforms(filename)
        if not systems:
            continue
        first, os_seen, arch_seen = by_release.get(version, (when, set(), set()))
        by_release[version] = (min(first, when), os_seen | systems, arch_seen | arches)
    if not by_release:
        raise ReleaseError(f"{where}: no release has a platform wheel (source or pure-Python files only)")
    version, (_, systems, arches) = max(by_release.items(), key=lambda item: item[1][0])
    return version, tuple(sorted(systems)), tuple(sorted(arches))


# Kept per file name (a pure function of it): every knowledge load reads the same PyPI snapshots' thousands of wheels.
@functools.lru_cache(maxsize=65_536)
def _wheel_platforms(filename: str) -> tuple[frozenset[str], frozenset[str]]:
    """Operating systems and architectures of one wheel's platform tag (compressed tag sets included)."""
    systems: set[str] = set()
    arches: set[str] = set()
    for tag in filename[: -len(".whl")].rsplit("-", 1)[-1].split("."):
        system = next((name for prefix, name in _OS if tag.startswith(prefix)), None)
        if system is None:
            continue
        systems.add(system)
        if tag == "win32":
            arches.add("x86")
        elif tag.endswith("universal2"):
            arches.update({"x86_64", "arm64"})
        else:
            arches.update(name for suffix, name in _ARCH.items() if tag.endswith(suffix))
    return frozenset(systems), frozenset(arches)


def os_count(row: Mapping[str, Any], where: str) -> float:
    """How many operating systems the newest release with platform wheels covers."""
    return float(len(platforms(row, where)[1]))


def arch_count(row: Mapping[str, Any], where: str) -> float:
    """How many CPU architectures the newest release with platform wheels covers."""
    return float(len(platforms(row, where)[2]))

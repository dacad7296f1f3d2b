"""selector.knowledge.releases: releases, their dates and wheel platforms of a JSON simple API project record.

The figures are checked on small records built here, whose answers are counted by hand, and on the bundled
snapshot against facts independent of the code (PEP 440 version order, the wheel tags a filename carries).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from selector.knowledge import releases
from selector.knowledge.locators import RawError, convert
from tests.conftest import KNOWLEDGE

SNAPSHOT = KNOWLEDGE / "imports" / "raw" / "pypi-simple" / "projects.json"


def record(files: list[tuple[str, str]], versions: list[str], fetched: str = "2026-12-01", **extra) -> dict:
    """A project record: files as (filename, upload day)."""
    return {
        "name": "demo",
        "fetched": fetched,
        "versions": versions,
        "files": [{"filename": f, "upload-time": f"{day}T12:00:00Z", **extra.get(f, {})} for f, day in files],
    }


DEMO = record(
    [
        ("demo-1.0.tar.gz", "2025-06-01"),  # 549 days before the fetch: outside the year
        ("demo-1.1-cp312-cp312-manylinux_2_28_x86_64.whl", "2025-12-02"),  # 364 days: inside
        ("demo-1.1-cp312-cp312-win_amd64.whl", "2025-12-03"),  # same release, later file
        ("demo-2.0rc1-cp312-cp312-macosx_11_0_arm64.whl", "2026-05-01"),  # a pre-release: not counted
        ("demo-2.0-cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64.whl", "2026-06-01"),
        ("demo-2.0-cp312-cp312-macosx_10_13_universal2.whl", "2026-06-02"),
        ("demo-2.1.tar.gz", "2026-11-01"),  # newest release, source only
    ],
    ["1.0", "1.1", "2.0rc1", "2.0", "2.1"],
)


def test_a_release_is_a_final_version() -> None:
    assert releases.is_release("2.0") and releases.is_release("1.0.post1")
    for pre in ("2.0rc1", "2.0a3", "2.0b1", "1.0.dev4", "9.0.1.post11.dev4"):
        assert not releases.is_release(pre)


def test_a_file_belongs_to_the_listed_version_its_name_carries() -> None:
    versions = ("0.1", "0.12", "0.12.0.1")
    assert releases.version_of("jaxlib-0.12.0.1-cp312-cp312-manylinux_2_27_x86_64.whl", versions) == "0.12.0.1"
    assert releases.version_of("llama_cpp_python-0.12.tar.gz", versions) == "0.12"  # not the shorter 0.1
    assert releases.version_of("demo-0.13.tar.gz", versions) is None
    assert releases.version_of("demo-0.12.exe", versions) is None


def test_releases_in_the_year_up_to_the_fetch_date() -> None:
    # 1.1 (364 days), 2.0 (183 days), 2.1 (30 days); 1.0 is older, 2.0rc1 a pre-release.
    assert releases.releases_in_window(DEMO, "demo") == 3
    assert releases.days_since_release(DEMO, "demo") == 31  # 2.1 was uploaded 30 days before: day 31, inclusive
    fetched, first = releases.release_dates(DEMO, "demo")
    assert fetched == dt.date(2026, 12, 1) and first["1.1"] == dt.date(2025, 12, 2)  # dated by its first file


def test_a_release_on_the_fetch_day_is_one_day_old_never_zero() -> None:
    today = record([("demo-1.0.tar.gz", "2026-12-01")], ["1.0"])
    assert releases.days_since_release(today, "demo") == 1  # a cost column's 1/x never meets a zero


def test_yanked_files_and_files_after_the_fetch_do_not_count() -> None:
    late = record([("demo-1.0.tar.gz", "2026-11-01"), ("demo-1.1.tar.gz", "2026-12-05")], ["1.0", "1.1"])
    assert releases.releases_in_window(late, "demo") == 1
    yanked = record([("demo-1.0.tar.gz", "2026-11-01")], ["1.0"], **{"demo-1.0.tar.gz": {"yanked": True}})
    with pytest.raises(releases.ReleaseError, match="no final release"):
        releases.days_since_release(yanked, "demo")
    assert releases.releases_in_window(yanked, "demo") == 0


def test_platforms_are_the_newest_release_with_platform_wheels() -> None:
    # 2.1 is source only, 2.0rc1 a pre-release: 2.0's wheels speak (compressed and universal2 tags expanded).
    assert releases.platforms(DEMO, "demo") == ("2.0", ("linux", "macos"), ("arm64", "x86_64"))
    assert convert(DEMO, "files", "pypi_os_count", "demo") == 2
    assert convert(DEMO, "files", "pypi_arch_count", "demo") == 2


def test_pure_python_and_source_only_projects_have_no_platforms() -> None:
    pure = record([("demo-1.0-py3-none-any.whl", "2026-11-01"), ("demo-1.0.tar.gz", "2026-11-01")], ["1.0"])
    with pytest.raises(releases.ReleaseError, match="no release has a platform wheel"):
        releases.platforms(pure, "demo")
    with pytest.raises(RawError, match="no release has a platform wheel"):
        convert(pure, "files", "pypi_os_count", "projects.json, entry 'demo'")


def test_a_broken_record_is_refused_with_where() -> None:
    with pytest.raises(releases.ReleaseError, match="here: a project needs"):
        releases.releases_in_window({"fetched": "2026-12-01", "files": []}, "here")
    with pytest.raises(releases.ReleaseError, match="not an ISO 8601 time"):
        releases.releases_in_window(record([("demo-1.0.tar.gz", "yesterday")], ["1.0"]), "here")
    with pytest.raises(RawError, match="no column `files`"):
        convert({"fetched": "2026-12-01"}, "files", "pypi_releases_12m", "here")


def test_the_bundled_snapshot_agrees_with_its_own_files() -> None:
    """Independent re-count on the bundled torch record: final versions by their first wheel or archive day."""
    torch = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["torch"]
    fetched = dt.date.fromisoformat(torch["fetched"])
    first: dict[str, dt.date] = {}
    for item in torch["files"]:
        version = item["filename"].split("-")[1]
        day = dt.date.fromisoformat(item["upload-time"][:10])
        if version.replace(".", "").isdigit() and not item.get("yanked"):
            first[version] = min(day, first.get(version, day))
    in_year = [v for v, day in first.items() if 0 <= (fetched - day).days < 365]
    assert releases.releases_in_window(torch, "torch") == len(in_year) > 0
    assert releases.days_since_release(torch, "torch") == (fetched - max(first.values())).days + 1
    version, systems, _ = releases.platforms(torch, "torch")
    assert version == max(first, key=lambda v: tuple(int(p) for p in v.split(".")))
    assert systems == ("linux", "macos", "windows")


def test_kept_wheel_platforms_equal_a_fresh_reading_of_every_bundled_wheel() -> None:
    import json

    from selector.knowledge import releases
    from tests.conftest import KNOWLEDGE

    names = {
        f["filename"]
        for path in (KNOWLEDGE / "imports" / "raw" / "pypi-simple").rglob("*.json")
        for project in _projects(json.loads(path.read_text(encoding="utf-8")))
        for f in project.get("files", ())
        if str(f.get("filename", "")).endswith(".whl")
    }
    assert len(names) > 1000
    for name in sorted(names):
        assert releases._wheel_platforms(name) == releases._wheel_platforms.__wrapped__(name)


def _projects(data: object) -> list[dict]:
    if isinstance(data, dict):
        return [v for v in data.values() if isinstance(v, dict)] + ([data] if "files" in data else [])
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []

"""Add or refresh projects in the bundled Python Package Index snapshot (knowledge/imports/raw/pypi-simple).

Usage: ``python scripts/pypi_snapshot.py FETCHED PROJECT=ANSWER.json [...]``: each ANSWER.json is the answer of
``GET https://pypi.org/simple/<project>/`` with ``Accept: application/vnd.pypi.simple.v1+json``, saved on day
FETCHED (YYYY-MM-DD). The answer is trimmed as the snapshot's ``_meta`` says (files uploaded since 2023-12-01 and
every file of the newest upload's version; filename, upload-time, and yanked only when true) and written into
projects.json in its layout (members in the order of their answer files, one file per line), which this script
reproduces byte for byte for the members it does not touch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SNAPSHOT = Path(__file__).resolve().parent.parent / "knowledge/imports/raw/pypi-simple/projects.json"
SINCE = "2023-12-01"


def trim(answer: dict, fetched: str) -> dict:
    files = answer["files"]
    newest = max(files, key=lambda f: f["upload-time"])
    newest_version = _version(newest["filename"], answer["versions"])
    kept = []
    for f in files:
        if f["upload-time"] >= SINCE or _version(f["filename"], answer["versions"]) == newest_version:
            item = {"filename": f["filename"], "upload-time": f["upload-time"]}
            if f.get("yanked"):
                item["yanked"] = True
            kept.append(item)
    return {
        "name": answer["name"],
        "fetched": fetched,
        "api-version": answer["meta"]["api-version"],
        "versions": answer["versions"],
        "files": kept,
    }


def _version(filename: str, versions: list[str]) -> str | None:
    if filename.endswith(".whl"):
        return filename.split("-")[1]
    found = [v for v in versions if any(filename.endswith(f"-{v}{s}") for s in (".tar.gz", ".zip"))]
    return max(found, key=len) if found else None


def render(data: dict) -> str:
    members = []
    for key, member in data.items():
        if "files" not in member:
            members.append(f" {json.dumps(key)}: {json.dumps(member, ensure_ascii=False)}")
            continue
        head = {k: v for k, v in member.items() if k != "files"}
        files = ",\n".join(f"  {json.dumps(f, ensure_ascii=False)}" for f in member["files"])
        members.append(f' {json.dumps(key)}: {json.dumps(head, ensure_ascii=False)[:-1]}, "files": [\n{files}\n ]}}')
    return "{\n" + ",\n".join(members) + "\n}\n"


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    text = SNAPSHOT.read_text(encoding="utf-8")
    data = json.loads(text)
    if render(data) != text:
        print(f"{SNAPSHOT}: its layout is not the one this script writes; refusing to rewrite it", file=sys.stderr)
        return 1
    fetched = argv[0]
    for spec in argv[1:]:
        project, _, path = spec.partition("=")
        data[project] = trim(json.loads(Path(path).read_text(encoding="utf-8")), fetched)
    meta = data.pop("_meta")
    # members in the order of their answer files (`tensorrt-llm.json` before `tensorrt.json`)
    ordered = {"_meta": meta, **{k: data[k] for k in sorted(data, key=lambda k: f"{k}.json")}}
    SNAPSHOT.write_text(render(ordered), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

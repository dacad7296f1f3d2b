"""The worst link, upload and ``--extra`` file within the caps: the server's extra peak memory and CPU time for each.

Targets (issue 19): under 100 MB extra and under 2 s per request. Each case runs in a forked child that has already
loaded the bundled knowledge (as a warm server has); the child reports the growth of its peak resident memory
(``ru_maxrss`` before and after) and its CPU time for the request. CPU time is what the request costs the server
whatever the machine's load; wall time is printed beside it. The inputs are built to be as costly as the caps in
selector/io/limits.py and selector/profile.py allow: the most values, records or schema errors a file may hold.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_limits.py``.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from selector import profile
from selector.io import limits
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.uploads import intake
from tests.full_csv import full_csv

TARGET_MB = 100.0
TARGET_S = 2.0


def _fill(head: str, item: str, tail: str, size: int) -> bytes:
    count = (size - len(head) - len(tail)) // len(item)
    return (head + item * count + tail).encode()


def _link_files() -> dict[str, bytes]:
    """YAML that fits a link's decompressed cap, each maximising one cost."""
    cap = profile.MAX_LINK_DECOMPRESSED_BYTES - 1_000  # the JSON around the file takes a little
    source = "sources: [{id: user-x, kind: user, title_en: x}]\n"
    return {
        "empty records": _fill(source + "claims: [", "{},", "{}]\n", cap),
        "values": _fill(source + "claims: [{id: c, about: [", "0,", "0]}]\n", cap),
        "unknown keys": _fill(source + "claims: [{", "k: 0, ", "k: 0}]\n", cap),
    }


def _upload_files() -> dict[str, bytes]:
    """Files that fit an upload's caps (bytes, values, records), each maximising one cost."""
    cap = intake.MAX_UPLOAD_BYTES - 1_000
    source = "sources: [{id: user-x, kind: user, title_en: x}]\n"
    per_record = limits.MAX_UPLOAD_VALUES // limits.MAX_RECORDS - 2
    keys = ", ".join(f"k{i}: 0" for i in range(per_record))
    return {
        "values": _fill(source + "claims: [{id: c, about: [", "0,", "0]}]\n", cap),
        "empty records": (source + "claims: [" + "{}," * (limits.MAX_RECORDS - 1) + "{}]\n").encode(),
        "unknown keys": (source + "claims:\n" + f"  - {{{keys}}}\n" * limits.MAX_RECORDS).encode(),
        "largest CSV": full_csv(limits.MAX_CSV_ROWS),  # the documented maximum used to the full
    }


def _link_request(text: bytes) -> Callable[[], str]:
    """What the app does with a link's `data`: decode, check every file (profile.check), merge the knowledge."""
    embedded = (profile.EmbeddedUpload(name="link.yaml", text=text.decode()),)
    data = profile.encode_uploads(embedded)
    assert data is not None, "the hostile file must fit a link"

    def request() -> str:
        files = profile.decode_uploads(data)
        try:
            results = profile.check(profile.Profile(preferences={"group": "x"}, uploads=files))
        except profile.ProfileError as exc:
            return f"refused ({len(exc.issues)} issues shown), link {len(data):,} chars"
        _, issues = knowledge.collect(DEFAULT_KNOWLEDGE, extra=[r.upload for r in results])
        return f"accepted ({len(issues)} issues), link {len(data):,} chars"

    return request


def _upload_request(name: str, data: bytes) -> Callable[[], str]:
    """The My data page: validate the upload, then merge the knowledge the session will show."""

    def request() -> str:
        result = intake.validate_upload(name, data)
        if not result.ok:
            return f"refused ({len(result.issues)} issues shown), {len(data):,} bytes"
        knowledge.collect(DEFAULT_KNOWLEDGE, extra=[result.upload])
        return f"accepted ({len(result.issues)} issues), {len(data):,} bytes"

    return request


def _extra_request(path: Path) -> Callable[[], str]:
    """``python -m selector validate --extra FILE``: the knowledge load with the file."""

    def request() -> str:
        kb, issues = knowledge.collect(DEFAULT_KNOWLEDGE, extra=[path])
        return f"{'accepted' if kb else 'refused'} ({len(issues)} issues shown), {path.stat().st_size:,} bytes"

    return request


def _child(request: Callable[[], str], conn) -> None:  # noqa: ANN001 - multiprocessing connection
    knowledge.load()  # a warm server: the bundled knowledge is loaded and parsed
    intake.validate_upload("warm.csv", b"entity,metric,value,unit\njetson-orin,power_w,40,W\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = request()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    extra_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    conn.send((outcome, extra_mb, cpu, wall))


def _measure(request: Callable[[], str]) -> tuple[str, float, float, float]:
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(target=_child, args=(request, child))
    process.start()
    result = parent.recv()
    process.join()
    return result


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times grow with it; CPU does not)")
    print(
        f"caps: link data {profile.MAX_LINK_DATA_CHARS:,} chars -> {profile.MAX_LINK_DECOMPRESSED_BYTES:,} bytes; "
        f"upload {intake.MAX_UPLOAD_BYTES:,} bytes, {limits.MAX_UPLOAD_VALUES:,} values, "
        f"{limits.MAX_RECORDS:,} records per list, {limits.MAX_ISSUES} issues listed"
    )
    cases: list[tuple[str, Callable[[], str]]] = []
    for what, text in _link_files().items():
        cases.append((f"link: {what}", _link_request(text)))
    with tempfile.TemporaryDirectory() as tmp:
        for what, data in _upload_files().items():
            name = "upload.csv" if what == "largest CSV" else "upload.yaml"
            cases.append((f"upload: {what}", _upload_request(name, data)))
            if name.endswith(".yaml"):
                path = Path(tmp) / f"extra-{what.replace(' ', '-')}.yaml"
                path.write_bytes(data)
                cases.append((f"--extra: {what}", _extra_request(path)))
        print(f"{'case':<28} {'extra MB':>9} {'CPU s':>7} {'wall s':>7}  within target  outcome")
        worst_mb = worst_s = 0.0
        for label, request in cases:
            outcome, extra_mb, cpu, wall = _measure(request)
            worst_mb, worst_s = max(worst_mb, extra_mb), max(worst_s, cpu)
            ok = "yes" if extra_mb < TARGET_MB and cpu < TARGET_S else "NO"
            print(f"{label:<28} {extra_mb:>9.1f} {cpu:>7.2f} {wall:>7.2f}  {ok:<13}  {outcome}")
    print(
        f"worst: {worst_mb:.1f} MB extra (target < {TARGET_MB:g}), {worst_s:.2f} s CPU (target < {TARGET_S:g}); "
        f"ratios to target: memory {worst_mb / TARGET_MB:.2f}, time {worst_s / TARGET_S:.2f}"
    )


if __name__ == "__main__":
    main()

"""Atomic output: the previous file survives any failure, no fragment is left, and non-files are refused as targets."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest

from selector.io import outfile


def test_a_write_replaces_the_whole_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "r.md"
    target.write_bytes(b"old")
    target.chmod(0o640)
    outfile.write_atomic(target, b"new content")
    assert target.read_bytes() == b"new content" and (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EIO])
def test_a_full_disk_leaves_the_previous_file_intact_and_no_fragment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    target = tmp_path / "r.md"
    target.write_bytes(b"previous report")

    def full(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(outfile.OutputRefused, match="previous file, if any, is unchanged"):
        outfile.write_atomic(target, b"x" * 100_000)
    assert target.read_bytes() == b"previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


def test_an_interruption_during_the_write_leaves_no_fragment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r.md"
    target.write_bytes(b"previous")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        outfile.write_atomic(target, b"new")
    assert target.read_bytes() == b"previous" and sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


def test_a_missing_folder_is_a_refusal_that_says_so(tmp_path: Path) -> None:
    with pytest.raises(outfile.OutputRefused, match="folder does not exist"):
        outfile.write_atomic(tmp_path / "none" / "r.md", b"x")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_a_refusal(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    with pytest.raises(outfile.OutputRefused, match="not writable"):
        outfile.write_atomic(folder / "r.md", b"x")


def test_devices_fifos_and_directories_are_refused_and_left_as_they_are(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (Path("/dev/null"), fifo, tmp_path):
        before = os.stat(target)
        with pytest.raises(outfile.OutputRefused, match="cannot write"):
            outfile.write_atomic(target, b"x")
        after = os.stat(target)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)


def test_standard_output_that_cannot_take_the_bytes_is_a_refusal() -> None:
    class Full(io.BytesIO):
        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(outfile.OutputRefused, match="disk is full"):
        outfile.write_stdout(b"x", Full())
    sink = io.BytesIO()
    outfile.write_stdout(b"report", sink)
    assert sink.getvalue() == b"report"

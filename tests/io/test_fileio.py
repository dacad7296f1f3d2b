"""selector.io.fileio: a path is read only when it names a regular file within the cap; every refusal is an issue
naming the file and saying what to do."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from selector.io import fileio
from selector.issues import Issue

NOT_REGULAR = "not a regular file; give the path of a regular file (a YAML, CSV or benchmark output)"


def refused(path: Path | str, max_bytes: int = 1000, name: str | None = None) -> Issue:
    data, issue = fileio.read_bytes(path, max_bytes, name)
    assert data is None
    assert issue is not None and issue.level == "ERROR"
    assert issue.line is None and issue.record is None
    return issue


def test_a_regular_file_is_read_whole(tmp_path):
    path = tmp_path / "claims.yaml"
    content = bytes(range(256)) * 700  # several read chunks, every byte value
    path.write_bytes(content)
    assert fileio.read_bytes(path, len(content)) == (content, None)
    assert fileio.read_bytes(str(path), len(content) + 1) == (content, None)


def test_an_empty_file_is_empty_bytes(tmp_path):
    path = tmp_path / "empty.yaml"
    path.touch()
    assert fileio.read_bytes(path, 0) == (b"", None)


def test_a_file_one_byte_over_the_cap_is_refused_with_both_sizes(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * 1_234_568)
    issue = refused(path, max_bytes=1_234_567)
    assert issue.file == str(path)
    assert issue.message == "file is 1,234,568 bytes; the limit is 1,234,567 bytes"


def test_the_issue_carries_the_given_name_instead_of_the_path(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"xx")
    assert refused(path, max_bytes=1, name="upload.yaml").file == "upload.yaml"


def test_a_file_that_grows_while_read_stops_at_the_cap(tmp_path, monkeypatch):
    # The descriptor's size said small (a /proc file, or one appended to after the fstat): the counted bytes decide.
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"y" * 5000)
    real_fstat = os.fstat

    def small_fstat(fd: int) -> os.stat_result:
        info = list(real_fstat(fd))
        info[stat.ST_SIZE] = 10
        return os.stat_result(info)

    monkeypatch.setattr(fileio.os, "fstat", small_fstat)
    issue = refused(path, max_bytes=4096)
    assert issue.message == "file is larger than the limit of 4,096 bytes (it grew while being read)"


def test_a_directory_is_refused(tmp_path):
    assert refused(tmp_path).message == f"is a directory, {NOT_REGULAR}"


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert refused(fifo).message == f"is a named pipe (FIFO), {NOT_REGULAR}"


def test_a_character_device_is_refused():
    assert refused("/dev/null").message == f"is a character device, {NOT_REGULAR}"


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        assert refused(path).message == f"is a socket, {NOT_REGULAR}"


def test_a_symbolic_link_is_followed_to_its_target(tmp_path):
    target = tmp_path / "real.yaml"
    target.write_bytes(b"a: 1\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    assert fileio.read_bytes(link, 100) == (b"a: 1\n", None)
    folder_link = tmp_path / "folder.yaml"
    folder_link.symlink_to(tmp_path)
    assert refused(folder_link).message == f"is a directory, {NOT_REGULAR}"


def test_a_missing_file_says_so(tmp_path):
    issue = refused(tmp_path / "nope.yaml", name="nope.yaml")
    assert (issue.file, issue.message) == ("nope.yaml", "cannot read file: it does not exist; check the path")


def test_a_link_to_itself_says_so(tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    assert "points (eventually) to itself" in refused(loop).message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file, whatever its permissions")
def test_an_unreadable_file_says_how_to_make_it_readable(tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_bytes(b"a: 1\n")
    path.chmod(0)
    assert "permission denied; make it readable" in refused(path).message


def test_a_permission_error_on_open_says_how_to_make_it_readable(tmp_path, monkeypatch):
    # The same message as above, reached as root too: the open (after a successful stat) is refused.
    path = tmp_path / "secret.yaml"
    path.write_bytes(b"a: 1\n")

    def denied(*args: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fileio.os, "open", denied)
    message = refused(path).message
    assert message.startswith("cannot read file: permission denied; make it readable (chmod a+r)")


def test_another_os_error_names_its_cause(tmp_path):
    (tmp_path / "file.yaml").write_bytes(b"")
    issue = refused(tmp_path / "file.yaml" / "below")  # a path through a regular file: ENOTDIR
    assert issue.message == "cannot read file: Not a directory"

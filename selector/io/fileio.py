"""Reading a file named by a path (knowledge, ``--extra``, ``--profile``): regular files only, capped while reading.

A path can name a device (``/dev/zero`` never ends), a named pipe (opening one waits for a writer for ever), a
directory or a socket. The kind is checked with ``os.stat`` before opening, checked again on the opened descriptor
(the path may have been swapped in between), and the bytes are counted while they are read, so a file that grows or
lies about its size stops at the cap. Every refusal is an :class:`~selector.issues.Issue` naming the file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from selector.issues import Issue

_CHUNK = 1 << 16
_NOT_REGULAR = "is {kind}, not a regular file; give the path of a regular file (a YAML, CSV or benchmark output)"
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str | None:
    """What a non-regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: Path | str, max_bytes: int, name: str | None = None) -> tuple[bytes | None, Issue | None]:
    """The bytes of a regular file of at most `max_bytes`, or None and the issue that says why not.

    Parameters
    ----------
    path
        The file to read (symbolic links are followed: the target must be a regular file).
    max_bytes
        Size cap; a larger file is refused without reading more than ``max_bytes + 1`` bytes of it.
    name
        The file name used in the issue (default: the path as given).
    """
    shown = name if name is not None else str(path)

    def refuse(message: str) -> tuple[None, Issue]:
        return None, Issue("ERROR", shown, None, None, message)

    try:
        kind = _kind(os.stat(path).st_mode)
    except OSError as exc:
        return refuse(_os_message(exc))
    if kind is not None:
        return refuse(_NOT_REGULAR.format(kind=kind))
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return refuse(_os_message(exc))
    with os.fdopen(fd, "rb", buffering=0) as handle:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            return refuse(_NOT_REGULAR.format(kind=kind))
        if info.st_size > max_bytes:
            return refuse(f"file is {info.st_size:,} bytes; the limit is {max_bytes:,} bytes")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            try:
                chunk = handle.read(min(_CHUNK, max_bytes + 1 - size))
            except OSError as exc:
                return refuse(_os_message(exc))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > max_bytes:
        return refuse(f"file is larger than the limit of {max_bytes:,} bytes (it grew while being read)")
    return b"".join(chunks), None


def _os_message(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "cannot read file: it does not exist; check the path"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "cannot read file: permission denied; make it readable (chmod a+r) or copy it somewhere readable"
    if exc.errno == errno.ELOOP:
        return "cannot read file: a symbolic link that points (eventually) to itself; give the real file"
    return f"cannot read file: {exc.strerror or exc.__class__.__name__}"

"""Writing what a command produces: to a file atomically (temp file beside it, then rename), or to standard output.

A write straight into the target destroys the previous file the moment it starts: a full disk, a read-only folder
or a kill halfway leaves a fragment. Here the bytes go to a temporary file in the target's folder, are flushed to
disk, and replace the target in one rename; on any failure the temporary file is removed and the previous file is
untouched. A target that exists and is not a regular file (a device such as ``/dev/null``, a FIFO, a directory)
is refused: renaming over it would replace the node with a regular file. Every failure is an
:class:`OutputRefused` whose message names the path and says what to do.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

from selector.errors import SelectorError


class OutputRefused(SelectorError, OSError):
    """The output cannot be written where asked; the previous file there, if any, is unchanged."""


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full; free some space or write elsewhere"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is exceeded; free some space or write elsewhere"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "the folder is not writable; choose a writable folder"
    if exc.errno == errno.ENOENT:
        return "the folder does not exist; create it first"
    return f"{exc.strerror or exc.__class__.__name__}"


def check_target(path: Path | str) -> None:
    """Refuse a target that exists but is not a regular file (a device, FIFO, socket or directory).

    Raises
    ------
    OutputRefused
        Naming the path and what it is.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputRefused(f"cannot write {path}: {_why(exc)}") from None
    if stat.S_ISREG(mode):
        return
    kind = "a directory" if stat.S_ISDIR(mode) else "a device, pipe or socket, not a regular file"
    raise OutputRefused(f"cannot write {path}: it is {kind}; give the path of a file to create or replace")


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` so that a reader sees the old file or the whole new one, never a fragment.

    Parameters
    ----------
    path
        The target; its folder must exist. A symbolic link is replaced by the file, not followed.
    data
        The whole content.

    Raises
    ------
    OutputRefused
        When the target is not a regular file, or the folder is missing, read-only or full; nothing is changed.
    """
    target = Path(path)
    check_target(target)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise OutputRefused(f"cannot write {target}: {_why(exc)}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        mode = _mode_of(target)
        os.chmod(temp, mode)
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise OutputRefused(f"cannot write {target}: {_why(exc)}; the previous file, if any, is unchanged") from None
    except BaseException:
        # a KeyboardInterrupt or SIGTERM halfway: no fragment is left behind
        Path(temp).unlink(missing_ok=True)
        raise


def _mode_of(target: Path) -> int:
    """The permissions the file gets: those of the file it replaces, else the usual ones under the umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_stdout(data: bytes, stream: BinaryIO | None = None) -> None:
    """Write `data` to standard output (or `stream`) and flush it.

    Raises
    ------
    OutputRefused
        When standard output is full (``/dev/full``), closed or a pipe whose reader has gone.
    """
    out = stream if stream is not None else sys.stdout.buffer
    try:
        out.write(data)
        out.flush()
    except OSError as exc:
        raise OutputRefused(f"cannot write to standard output: {_why(exc)}") from None

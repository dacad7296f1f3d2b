"""The command line, ``python -m selector <command>``: finds the commands in ``selector.commands`` and dispatches."""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import ModuleType

from selector import commands
from selector.io.outfile import OutputRefused

_REQUIRED = ("NAME", "HELP", "add_arguments", "run")


def discover() -> list[ModuleType]:
    """Import every command module of :mod:`selector.commands`, sorted by command name.

    Returns
    -------
    list of module
        Modules that define ``NAME``, ``HELP``, ``add_arguments`` and ``run``.

    Raises
    ------
    TypeError
        If a module lacks one of those names, or two modules claim the same ``NAME``.
    """
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        lacking = [name for name in _REQUIRED if not hasattr(module, name)]
        if lacking:
            raise TypeError(
                f"command module {module.__name__} lacks {', '.join(lacking)}; "
                "see selector/commands/__init__.py for what a command defines"
            )
        if module.NAME in found:
            raise TypeError(
                f"command `{module.NAME}` is defined twice: {found[module.NAME].__name__}, {module.__name__}"
            )
        found[module.NAME] = module
    return [found[name] for name in sorted(found)]


def build_parser(modules: Sequence[ModuleType]) -> argparse.ArgumentParser:
    """The argument parser with one subcommand per command module."""
    parser = argparse.ArgumentParser(
        prog="python -m selector",
        description="AI Stack Selector: check the knowledge base and rank AI stacks from the command line.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in modules:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


#: Exit status of a command ended by SIGTERM (128 + 15, as a shell reports it).
EXIT_TERMINATED = 143
EXIT_OUTPUT = 2


def _terminated(signum: int, frame: object) -> None:
    # SIGTERM unwinds like Ctrl-C: every `with` block closes (the PDF worker ends, temporary files are removed)
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _ends_on_sigterm() -> Iterator[None]:
    """SIGTERM raises SystemExit in the main thread while a command runs (the previous handler comes back after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _flushed_stdout() -> int | None:
    """Flush standard output now; on a full disk (``/dev/full``) or a closed pipe say so and return exit 2.

    Python would otherwise report the failed flush at exit with a traceback-like message and exit 120.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        return _stdout_failed(exc)
    return None


_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EDQUOT, errno.EIO})


def _stdout_failed(exc: BaseException) -> int:
    reason = "the disk is full" if getattr(exc, "errno", None) == errno.ENOSPC else "it is closed or full"
    with contextlib.suppress(OSError, ValueError):
        print(f"error: cannot write to standard output: {reason}", file=sys.stderr)
    with contextlib.suppress(OSError, ValueError):
        # nothing more can reach it: point it at /dev/null so that the exit-time flush has nothing to fail on
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OUTPUT


#: Exit status of a command ended by Ctrl-C (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: ``sys.argv[1:]``), run the chosen command and return its exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # by now every `with` block has closed (the PDF worker ended, temporary files removed): no traceback to show
        with contextlib.suppress(OSError, ValueError):
            print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser(discover()).parse_args(argv)
    with _ends_on_sigterm():
        try:
            status = int(args._run(args))
        except OutputRefused as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = EXIT_OUTPUT
        except OSError as exc:
            if exc.errno not in _OUTPUT_ERRNOS:
                raise
            # print() fails once its buffer is full: standard output is /dev/full, a full disk or a closed pipe
            return _stdout_failed(exc)
    failed = _flushed_stdout()
    return failed if failed is not None else status


if __name__ == "__main__":
    code = main()
    if code == EXIT_INTERRUPTED:
        # Interrupted: every `with` block has closed (the PDF worker ended, temporary files removed), but a helper
        # thread of the worker's pipe may still write to the pipe the interrupt closed, and interpreter shutdown
        # would print that as "Exception ignored ... Traceback". Leave without running the shutdown.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    sys.exit(code)

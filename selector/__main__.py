"""The command line, ``python -m selector <command>``: finds the commands in ``selector.commands`` and dispatches."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from selector import commands

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


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: ``sys.argv[1:]``), run the chosen command and return its exit status."""
    args = build_parser(discover()).parse_args(argv)
    return int(args._run(args))


if __name__ == "__main__":
    sys.exit(main())

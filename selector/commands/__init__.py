"""The subcommands of ``python -m selector``: one module each, discovered by ``selector.__main__``.

A command module defines, at top level:

``NAME: str``
    the subcommand as typed on the command line;
``HELP: str``
    one line for ``--help``;
``add_arguments(parser: argparse.ArgumentParser) -> None``
    declares its options;
``run(args: argparse.Namespace) -> int``
    does the work and returns the exit status.

Every module is imported to build ``--help``, so keep imports at module level light (standard library only) and
import the heavy parts (pydantic, pandas, scikit-criteria, plotly) inside ``run``.
"""

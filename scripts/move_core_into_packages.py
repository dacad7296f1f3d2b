"""Move selector's flat core modules into packages, in the order data flows, and rewrite every reference to them.

    python scripts/move_core_into_packages.py            # apply (git mv, rewrite, print what it did)
    python scripts/move_core_into_packages.py --dry-run  # print what it would do, change nothing

What it does, each step safe to repeat (a second run finds nothing to do and says so):

1. ``git mv`` each flat module named in ``MOVES`` into its package (``selector/fields.py`` ->
   ``selector/knowledge/fields.py``; ``selector/knowledge.py`` -> ``selector/knowledge/loading.py``; the package
   ``selector/importers/`` -> ``selector/knowledge/importers/``), creating each package with an ``__init__.py`` that
   says what it holds; and each mirrored test (``tests/test_fields.py`` -> ``tests/knowledge/test_fields.py``,
   ``tests/importers/`` -> ``tests/knowledge/importers/``). A moved file's ``Path(__file__)`` walks up one more
   level where it reaches above its own folder (``.parent.parent``, ``.parents[N]``); ``.parent`` alone names its
   own folder, whose neighbours move with it.
2. Rewrite every git-tracked or untracked (not ignored) text file of the repository, files it has never seen
   included (the lead runs it after merging other branches):
   * Python imports, by their syntax tree: ``from selector import fields, value`` becomes
     ``from selector import value`` and ``from selector.knowledge import fields``; ``from selector import knowledge``
     becomes ``from selector.knowledge import loading as knowledge``; ``from selector.knowledge import load``
     becomes ``from selector.knowledge.loading import load`` (a name that is a module of the new package is left
     alone); relative imports naming a moved module, and every relative import of a moved file, become absolute;
   * dotted names anywhere (imports, ``monkeypatch``/``mock`` strings, docs): ``selector.fields`` ->
     ``selector.knowledge.fields``, ``selector.knowledge.load`` -> ``selector.knowledge.loading.load``,
     ``tests.test_fields`` -> ``tests.knowledge.test_fields``;
   * paths anywhere (README, docs, Makefile, Dockerfile, pyproject.toml, the architecture test's allow-list):
     ``selector/fields.py`` -> ``selector/knowledge/fields.py``, ``tests/test_fields.py`` ->
     ``tests/knowledge/test_fields.py``;
   * the layer lists of ``tests/test_architecture.py``: ``"fields",`` -> ``"knowledge.fields",`` (a layer may name a
     module inside a package; the longest name decides), so every module keeps its layer.
3. Print each move and each rewritten file with its number of changes, and what is left to a person (the
   README's layout tree, written by hand, and files it could not parse).

Run it from a clean work tree, then ``ruff check --fix --select I .`` (import order), ``ruff format .``,
``python -m selector validate`` and the tests. This script names the old and new paths, so it never rewrites itself.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SELF = Path(__file__).resolve()

# The packages, in the order data flows, with the first line of each one's __init__.py.
PACKAGES = {
    "io": "Guarded reading and writing: text policy, YAML and raw files, numbers, outputs, the limits of one input.",
    "knowledge": "The knowledge: fields and models, loading and cross-checks, vocabulary, provenance, snapshots.",
    "decision": "The decision problem: preferences, constraints, decision trees, the matrix, weights and scoring.",
}

# Flat module (or package) under selector/ -> its dotted name under selector/ after the move, in data-flow order.
# Left flat on purpose: the base utilities every layer uses (errors, issues, arrays, deferred, escape, memo), the value
# functions (the knowledge's cross-checks and the decision's scoring both read them: in either package they would
# make the two packages import each other), and the analysis of a ranking (robustness, closeness, flagged_lead,
# verdict, record, recheck, profile), which reads the decision package.
MOVES: dict[str, str] = {
    **{name: f"io.{name}" for name in (
        "textpolicy", "yamlio", "parse_cache", "fileio", "numbers", "rawtext", "outfile", "limits",
    )},
    **{name: f"knowledge.{name}" for name in (
        "fields", "sources", "fact_types", "models", "facts", "crosscheck", "vocabulary", "provenance",
        "conflicts", "locators", "releases", "importers", "workload_facts", "group_fits", "bilingual",
    )},
    "knowledge": "knowledge.loading",
    **{name: f"decision.{name}" for name in (
        "preferences", "constraints", "shortlist", "decision_tree", "matrix", "weights", "elicitation", "problem",
        "scoring", "vectorised", "recommend", "shares", "basis", "specs", "cells", "workload", "memory_fit",
        "engine_support", "latency_bound", "token_cost", "workload_fit", "requirement",
    )},
}  # fmt: skip

TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yaml", ".yml", ".j2", ".html", ".sh", ".json"}
TEXT_NAMES = {"Makefile", "Dockerfile", ".dockerignore", ".gitignore"}
SKIPPED_FOLDERS = ("knowledge/", ".venv/", "node_modules/")  # data, the environment
MAX_TEXT_BYTES = 2_000_000


def new_path(old: str) -> str:
    """selector/ path of `old`'s new place, without suffix: "knowledge/fields"."""
    return MOVES[old].replace(".", "/")


def git(*args: str, dry: bool = False) -> str:
    if dry and args[0] == "mv":
        return ""
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


# ----------------------------------------------------------------------------------------------------------
# 1. Moves


def _deeper(text: str) -> tuple[str, int]:
    """`text` with each ``Path(__file__)`` that reaches above its own folder walking up one more level."""
    count = 0

    def parents(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"{match.group(1)}.parents[{int(match.group(2)) + 1}]"

    def chain(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return match.group(0) + ".parent"

    text = re.sub(r"(Path\(__file__\)(?:\.resolve\(\))?)\.parents\[(\d+)\]", parents, text)
    text = re.sub(r"Path\(__file__\)(?:\.resolve\(\))?\.parent\.parent(?:\.parent)*(?![\w.]*\.parent\b)", chain, text)
    return text, count


def _move(source: Path, target: Path, dry: bool, log: list[str]) -> Path | None:
    """git mv `source` to `target` (a file or a folder); None when there is nothing to move."""
    if not source.exists():
        return None
    if target.exists():
        raise SystemExit(
            f"both {source.relative_to(ROOT)} and {target.relative_to(ROOT)} exist: a branch merged after the move "
            "re-created the old file; merge its content into the new one by hand, delete the old one, run again"
        )
    if not dry:
        target.parent.mkdir(parents=True, exist_ok=True)
    git("mv", str(source.relative_to(ROOT)), str(target.relative_to(ROOT)), dry=dry)
    log.append(f"moved {source.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
    return target


def _package_init(folder: Path, doc: str, dry: bool, log: list[str]) -> None:
    init = folder / "__init__.py"
    if init.exists():
        return
    log.append(f"created {init.relative_to(ROOT)}")
    if not dry:
        folder.mkdir(parents=True, exist_ok=True)
        init.write_text(f'"""{doc}"""\n', encoding="utf-8")
        git("add", str(init.relative_to(ROOT)))


def move_files(dry: bool, log: list[str]) -> dict[Path, str]:
    """Every move of step 1; returns each moved Python file with the package it was in (for its relative imports)."""
    moved: dict[Path, str] = {}
    tests_are_packages = (ROOT / "tests" / "__init__.py").exists()
    for package, doc in PACKAGES.items():
        _package_init(ROOT / "selector" / package, doc, dry, log)
        if tests_are_packages:
            _package_init(ROOT / "tests" / package, f"Tests of selector/{package}/, module by module.", dry, log)
    for old, new in MOVES.items():
        leaf = new.rsplit(".", 1)[1]
        package_dir = (ROOT / "selector" / old).is_dir() and not (ROOT / "selector" / f"{old}.py").exists()
        pairs = (
            [
                (ROOT / "selector" / old, ROOT / "selector" / new_path(old)),
                (ROOT / "tests" / old, ROOT / "tests" / new_path(old)),
                (
                    ROOT / "tests" / f"test_{old}.py",
                    ROOT / "tests" / new_path(old).rsplit("/", 1)[0] / f"test_{leaf}.py",
                ),
            ]
            if package_dir and old != "knowledge"
            else [
                (ROOT / "selector" / f"{old}.py", ROOT / "selector" / f"{new_path(old)}.py"),
                (
                    ROOT / "tests" / f"test_{old}.py",
                    ROOT / "tests" / new_path(old).rsplit("/", 1)[0] / f"test_{leaf}.py",
                ),
            ]
        )
        for source, target in pairs:
            if source.is_dir() and source == ROOT / "selector" / "knowledge":
                continue  # the new package itself
            done = _move(source, target, dry, log)
            if done is None:
                continue
            files = [done] if done.suffix == ".py" else sorted(done.rglob("*.py"))
            for path in files:
                # the package it was in: what its relative imports were relative to
                before = source / path.relative_to(done) if done.is_dir() else source
                moved[path] = ".".join(before.relative_to(ROOT).parent.parts)
    return moved


# ----------------------------------------------------------------------------------------------------------
# 2. Rewriting

_SUBMODULES = {new.split(".", 1)[1] for new in MOVES.values() if new.startswith("knowledge.")}
_DOTTED = [
    (
        re.compile(
            rf"(?<![\w.])selector\.{re.escape(old)}(?![\w])"
            + (rf"(?!\.(?:{'|'.join(sorted(_SUBMODULES))})\b)(?!\s+import\b)" if old == "knowledge" else "")
        ),
        f"selector.{new}",
    )
    for old, new in MOVES.items()
]
_PATHS = [
    (re.compile(rf"(?<![\w/.])selector/{re.escape(old)}\.py\b"), f"selector/{new_path(old)}.py") for old in MOVES
] + [
    (re.compile(rf"(?<![\w/.])selector/{re.escape(old)}(?=/|[\s`'\")\]:,;]|$)"), f"selector/{new_path(old)}")
    for old in MOVES
    if old != "knowledge"
]
_TESTS = []
for _old, _new in MOVES.items():
    _folder, _leaf = _new.rsplit(".", 1)
    _TESTS += [
        (re.compile(rf"(?<![\w/.])tests/test_{re.escape(_old)}\.py\b"), f"tests/{_folder}/test_{_leaf}.py"),
        (re.compile(rf"(?<![\w.])tests\.test_{re.escape(_old)}(?![\w])"), f"tests.{_folder}.test_{_leaf}"),
    ]
    if _old != "knowledge":  # tests/knowledge/ is the new folder itself
        _TESTS.append((re.compile(rf"(?<![\w/.])tests/{re.escape(_old)}/"), f"tests/{_folder}/{_old}/"))


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a relative `node` names from `package`."""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _moved_module(name: str) -> str | None:
    """The new dotted name of module `name` (a `selector.` name, maybe inside a moved package), else None."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] != "selector" or parts[1] not in MOVES:
        return None
    if parts[1] == "knowledge" and len(parts) > 2 and parts[2] in {*_SUBMODULES, "loading"}:
        return None  # already the new layout
    return ".".join(["selector", MOVES[parts[1]], *parts[2:]])


def _statement(module: str, names: list[str], indent: str) -> str:
    return f"{indent}from {module} import {', '.join(names)}"


def _alias(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def _rewrite_from(node: ast.ImportFrom, package: str | None, moved_file: bool) -> list[tuple[str, list[str]]] | None:
    """The (module, names) statements that replace `node`, or None when it stays as written."""
    module = node.module or ""
    if node.level:
        if package is None:
            return None
        module = _absolute(node, package)
        if (
            not moved_file
            and _moved_module(module) is None
            and not (module == "selector" and any(a.name in MOVES for a in node.names))
        ):
            return None
    elif module not in {"selector", "selector.knowledge"} and _moved_module(module) is None:
        return None
    groups: dict[str, list[str]] = {}
    for alias in node.names:
        if module == "selector" and alias.name in MOVES:
            target, _, leaf = f"selector.{MOVES[alias.name]}".rpartition(".")
            name = leaf + f" as {alias.asname or alias.name}" if leaf != alias.name or alias.asname else leaf
            groups.setdefault(target, []).append(name)
        elif module == "selector.knowledge":
            # after the move, a module of the new package stays; any other name is one of the old module's
            keep = (ROOT / "selector" / "knowledge").is_dir() and alias.name in {*_SUBMODULES, "loading"}
            groups.setdefault(module if keep else "selector.knowledge.loading", []).append(_alias(alias))
        else:
            groups.setdefault(_moved_module(module) or module, []).append(_alias(alias))
    statements = list(groups.items())
    if not node.level and statements == [(module, [_alias(a) for a in node.names])]:
        return None
    return statements


def rewrite_python(text: str, path: Path, was: str | None) -> tuple[str, int]:
    """`text` with its import statements rewritten (see the module's doc); `was`: a moved file's former package."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text, -1
    lines = text.splitlines(keepends=True)
    if was is not None:
        package = was
    elif path.is_relative_to(ROOT / "selector"):
        relative = path.relative_to(ROOT).with_suffix("").parts
        package = ".".join(relative if path.name == "__init__.py" else relative[:-1])
        package = package.removesuffix(".__init__")
    else:
        package = None
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        statements = _rewrite_from(node, package, was is not None)
        if statements is None:
            continue
        first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
        indent, after = first[: node.col_offset], last[node.end_col_offset :].strip()
        if indent.strip() or (after and not after.startswith("#")):
            print(f"  left as written (shares its line): {path.relative_to(ROOT)}:{node.lineno}")
            continue
        ending = last[node.end_col_offset :]
        body = "\n".join(_statement(m, names, indent) for m, names in statements)
        edits.append((node.lineno - 1, node.end_lineno, body + ending))
    for start, end, replacement in sorted(edits, reverse=True):
        lines[start:end] = [replacement]
    return "".join(lines), len(edits)


def rewrite_text(text: str, path: Path) -> tuple[str, int]:
    """`text` with every dotted name and path of a moved module or test rewritten."""
    count = 0
    for pattern, replacement in [*_DOTTED, *_PATHS, *_TESTS]:
        text, n = pattern.subn(replacement, text)
        count += n
    if path == ROOT / "tests" / "test_architecture.py":
        text, n = _rewrite_layers(text)
        count += n
    return text, count


def _rewrite_layers(text: str) -> tuple[str, int]:
    """The architecture test's LAYERS with each moved module under its new dotted name."""
    start = text.find("LAYERS: dict")
    end = text.find("\n}\n", start)
    if start < 0 or end < 0:
        print("  tests/test_architecture.py: no LAYERS block found; place the moved modules by hand")
        return text, 0
    block, count = text[start:end], 0
    for old, new in MOVES.items():
        if f'"{new}",' in block:
            continue  # moved already; "knowledge" is then the package's own entry, not the old module
        block, n = re.subn(rf'"{re.escape(old)}",', f'"{new}",', block)
        count += n
    # each package's __init__ (a docstring, importing nothing; every `from selector.knowledge import x` reads it)
    # sits in the lowest layer, and so does a module added to a package later until a layer names it
    opening = re.search(r'\(\n(\s*)"', block)
    for package in reversed(PACKAGES):
        if opening is not None and f'"{package}",' not in block:
            at = opening.end() - 1 - len(opening.group(1))
            block = block[:at] + f'{opening.group(1)}"{package}",\n' + block[at:]
            count += 1
    return text[:start] + block + text[end:], count


LINE_LENGTH = 120  # pyproject.toml's ruff line-length


def _docstring_lines(text: str) -> set[int]:
    """The 0-based lines of every docstring in `text` (module, class, function)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno - 1, first.end_lineno))
    return lines


def wrap_long_lines(text: str, before: str) -> tuple[str, int]:
    """`text` with each prose line that a longer name pushed over the line length (a full-line comment or a line of
    a docstring, not over it in `before`) broken at its last space that fits; code lines are left to ruff format."""
    try:
        prose = _docstring_lines(text)
    except SyntaxError:
        return text, 0
    was_long = {line for line in before.splitlines() if len(line) > LINE_LENGTH}
    out: list[str] = []
    count = 0
    for index, line in enumerate(text.splitlines(keepends=True)):
        body, ending = line.rstrip("\r\n"), line[len(line.rstrip("\r\n")) :]
        stripped = body.lstrip()
        comment = stripped.startswith("#")
        if len(body) <= LINE_LENGTH or body in was_long or not (comment or index in prose):
            out.append(line)
            continue
        indent = body[: len(body) - len(stripped)]
        prefix = indent + ("#: " if stripped.startswith("#:") else "# " if comment else "")
        start = len(indent) + (3 if stripped.startswith(('"""', "#: ")) else 2 if comment else 0)
        pieces = []
        while len(body) > LINE_LENGTH:
            cut = body.rfind(" ", start + 1, LINE_LENGTH + 1)
            if cut < 0:
                break
            pieces.append(body[:cut])
            body = prefix + body[cut + 1 :]
            start = len(prefix)
        out.append(ending.join([*pieces, body]) + ending)
        count += 1
    return "".join(out), count


def candidate_files() -> list[Path]:
    listed = git("ls-files", "-co", "--exclude-standard").splitlines()
    found = []
    for name in listed:
        path = ROOT / name
        if name.startswith(SKIPPED_FOLDERS) or path.resolve() == SELF or not path.is_file():
            continue
        if path.suffix not in TEXT_SUFFIXES and path.name not in TEXT_NAMES:
            continue
        if path.stat().st_size > MAX_TEXT_BYTES:
            continue
        found.append(path)
    return found


def rewrite_files(moved: dict[Path, str], dry: bool, log: list[str]) -> None:
    for path in candidate_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new, count = text, 0
        if path.suffix == ".py":
            new, count = rewrite_python(new, path, moved.get(path))
            if count < 0:
                log.append(f"NOT PARSED (imports left as written): {path.relative_to(ROOT)}")
                count = 0
        if path in moved:
            new, n = _deeper(new)
            count += n
        new, n = rewrite_text(new, path)
        count += n
        if path.suffix == ".py" and new != text:
            new, n = wrap_long_lines(new, text)
            count += n
        if new != text:
            log.append(f"rewrote {path.relative_to(ROOT)} ({count} change{'s' if count != 1 else ''})")
            if not dry:
                path.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print what would change; change nothing")
    args = parser.parse_args(argv)
    log: list[str] = []
    moved = move_files(args.dry_run, log)
    if args.dry_run and moved:
        print("(dry run: the rewrites below are those of the files as they are now, before any move)")
    rewrite_files(moved, args.dry_run, log)
    print("\n".join(log) if log else "nothing to do: the core is already in its packages and every reference is new")
    if moved:
        print(
            "\nLeft to a person: the README's layout tree (selector/ by folder) and any prose naming a module by its "
            "file name alone; then run ruff check --fix --select I ., ruff format ., python -m selector validate and "
            "the tests."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The architecture, checked on the source (AST), imports inside functions included.

- `selector/` never imports streamlit or the app's pages: it is the plain-data core that the app, the command line
  and the report share.
- Only `selector/scoring.py` talks to scikit-criteria, so one module owns the scorer's version quirks.
- The imports between `selector` modules form no cycle (a cycle is printed as the path that closes it), and no
  module imports upward: `LAYERS` names the layers, lowest first, and a module may import only from its own layer
  or the layers below. Every module belongs to exactly one layer, so a new module must be placed on purpose.
- The command-line modules are reached only through `selector/__main__.py`.
- Sizes: no Python module of `selector/`, `app_pages/` or `app.py` over 600 lines, no function over 80 lines, and
  the median function at most 15 lines (a function counts from its `def` line to its last line, docstring
  included). The Jinja templates and style sheets are not Python and are not counted.
"""

from __future__ import annotations

import ast
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "selector"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module name an import statement in PATH names, relative imports resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
IMPORTS = {name: _imports(path) for name, path in MODULES.items()}


def _top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_selector_never_imports_streamlit_or_the_pages(module):
    bad = {name for name in IMPORTS[module] if _top(name) in {"streamlit", "app_pages", "app"}}
    assert not bad, f"{MODULES[module].relative_to(ROOT)} imports {sorted(bad)}; selector/ must stay UI-free"


def test_only_scoring_imports_scikit_criteria():
    users = sorted(module for module, names in IMPORTS.items() if any(_top(n) == "skcriteria" for n in names))
    assert users == ["selector.scoring"], f"modules importing skcriteria: {users}"


def _internal_edges() -> dict[str, set[str]]:
    return {
        module: {n for n in names if n in MODULES and n != module and n != "selector"}
        for module, names in IMPORTS.items()
    }


def test_selector_modules_import_each_other_without_cycles():
    edges = _internal_edges()
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if not state.get(target) and (cycle := visit(target, path)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if not state.get(module):
            cycle = visit(module, [])
            assert cycle is None, "import cycle (some module imports upward): " + " -> ".join(cycle)


# The layers of `selector`, lowest first: a module (or a package, with everything in it) may import from its own
# layer and the layers below, never from a layer above. Names are relative to `selector`.
LAYERS: dict[str, tuple[str, ...]] = {
    "base utilities (text policy, guarded YAML and file reading, limits, units, errors, deferred imports)": (
        "textpolicy",
        "deferred",
        "yamlio",
        "parse_cache",
        "fileio",
        "numbers",
        "rawtext",
        "outfile",
        "limits",
        "escape",
        "errors",
        "issues",
        "locators",
        "constraints",
    ),
    "the knowledge: its models, loading, vocabulary, provenance and dataset imports": (
        "fields",
        "sources",
        "models",
        "memo",
        "crosscheck",
        "knowledge",
        "vocabulary",
        "provenance",
        "conflicts",
        "importers",
    ),
    "the decision problem: preferences, decision trees, the matrix, weights and scoring": (
        "preferences",
        "decision_tree",
        "matrix",
        "weights",
        "problem",
        "scoring",
        "batch",
        "vectorised",
        "recommend",
        "shares",
        "specs",
    ),
    "analysis of a ranking: robustness and the verdict": ("robustness", "verdict"),
    "what users bring and see: uploads, measurements, profiles, views, charts and the report": (
        "uploads",
        "measure",
        "profile",
        "views",
        "charts",
        "report",
    ),
    "the command line": ("commands", "__main__"),
}


def layer_of(module: str) -> int | None:
    """The index in LAYERS of the layer holding MODULE (a `selector.` name), None when no layer names it."""
    parts = module.split(".")
    for index, names in enumerate(LAYERS.values()):
        if len(parts) > 1 and parts[1] in names:
            return index
    return None


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import from a lower layer into a higher one, as `importer (layer) imports imported (layer)`."""
    titles = list(LAYERS)
    found = []
    for module in sorted(edges):
        for target in sorted(edges[module]):
            low, high = layer_of(module), layer_of(target)
            if low is not None and high is not None and high > low:
                found.append(f"{module} ({titles[low]}) imports {target} ({titles[high]})")
    return found


def test_every_selector_module_has_a_layer():
    missing = sorted(module for module in MODULES if module != "selector" and layer_of(module) is None)
    assert not missing, f"modules in no layer of LAYERS (tests/test_architecture.py); place each one: {missing}"


def test_no_module_imports_upward():
    found = upward_imports(_internal_edges())
    assert not found, "modules importing from a higher layer:\n" + "\n".join(found)


def test_the_layer_check_sees_an_upward_import():
    edges = {"selector.scoring": {"selector.report"}, "selector.report": {"selector.scoring"}}
    assert upward_imports(edges) == [
        f"selector.scoring ({list(LAYERS)[2]}) imports selector.report ({list(LAYERS)[4]})"
    ]


def test_commands_are_reached_only_through_main():
    outside = {
        module
        for module, targets in _internal_edges().items()
        if not module.startswith(("selector.commands", "selector.__main__"))
        and any(t.startswith("selector.commands") for t in targets)
    }
    assert not outside, f"modules importing selector.commands: {sorted(outside)}"


def test_the_checks_see_imports_inside_functions():
    # scoring imports scikit-criteria lazily (inside functions): the checks above must see those imports
    assert any(_top(n) == "skcriteria" for n in IMPORTS["selector.scoring"])


MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
MAX_MEDIAN_FUNCTION_LINES = 15
SIZED = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "app_pages").rglob("*.py"), ROOT / "app.py"])


def function_sizes(source: str, file: str) -> list[tuple[int, str, str]]:
    """(lines, file, qualified name) of every function and method in SOURCE, nested ones included."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found.append((child.end_lineno - child.lineno + 1, file, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source, filename=file), "")
    return found


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


FUNCTIONS = [size for path in SIZED for size in function_sizes(path.read_text(encoding="utf-8"), _relative(path))]


def test_no_module_over_600_lines():
    lines = {_relative(path): len(path.read_text(encoding="utf-8").splitlines()) for path in SIZED}
    over = [f"{file}: {count} lines" for file, count in sorted(lines.items()) if count > MAX_MODULE_LINES]
    assert not over, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(over)


def test_no_function_over_80_lines():
    over = [f"{file} {name}: {size} lines" for size, file, name in sorted(FUNCTIONS) if size > MAX_FUNCTION_LINES]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(over)


def test_median_function_is_small():
    median = statistics.median(size for size, _, _ in FUNCTIONS)
    assert median <= MAX_MEDIAN_FUNCTION_LINES, f"median function is {median} lines over {len(FUNCTIONS)} functions"


def test_the_size_check_counts_methods_and_nested_functions():
    source = "class A:\n    def m(self):\n        def inner():\n            return 1\n\n        return inner\n"
    assert function_sizes(source, "a.py") == [(5, "a.py", "A.m"), (2, "a.py", "A.m.inner")]

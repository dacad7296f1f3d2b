"""The architecture, checked on the source (AST), imports inside functions included.

- `selector/` never imports streamlit or the app's pages: it is the plain-data core that the app, the command line
  and the report share.
- Only `selector/scoring.py` talks to scikit-criteria, so one module owns the scorer's version quirks.
- The imports between `selector` modules form no cycle: the modules can be put in layers where each imports only
  from the layers below it (no module imports upward). A cycle is printed as the path that closes it.
- The command-line modules are reached only through `selector/__main__.py`.
"""

from __future__ import annotations

import ast
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

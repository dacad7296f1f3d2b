"""README facts that are data: the table of value scales equals the knowledge's ranked criteria.

Regenerate the table with ``PYTHONPATH=. .venv/bin/python tests/test_readme.py`` after changing a scale or a group.
"""

from __future__ import annotations

from pathlib import Path

from selector.knowledge.loading import bundled

README = Path(__file__).resolve().parent.parent / "README.md"


def scale_rows() -> list[str]:
    """The README's value-scale table, one line per criterion ranked (positive sub-weight) by some group."""
    kb = bundled()
    ranked: dict[str, list[str]] = {}
    for group in kb.groups.values():
        for gc in group.criteria:
            if gc.weight > 0:
                ranked.setdefault(gc.criterion, []).append(group.id)
    rows = ["| Criterion | Better | Scale (unit) | Shape | Ranked in |", "| --- | --- | --- | --- | --- |"]
    for c in kb.criteria.values():
        if c.id in ranked:
            lo, hi = c.scale
            better = "higher" if c.objective == "max" else "lower"
            rows.append(
                f"| `{c.id}` | {better} | {lo:,.6g}-{hi:,.6g} {c.unit} | {c.shape} | {', '.join(ranked[c.id])} |"
            )
    return rows


def test_the_readme_lists_every_ranked_criterion_with_its_value_scale():
    lines = [line.strip() for line in README.read_text(encoding="utf-8").splitlines()]
    start = lines.index(scale_rows()[0])
    table = lines[start : lines.index("", start)]
    assert table == scale_rows(), "README's value-scale table differs from criteria.yaml: regenerate it"


def test_the_readme_documents_every_workload_field_and_the_sources_of_its_tables():
    from dataclasses import fields

    from selector.decision.workload import Workload

    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Fit my workload") : text.index("## The data model")]
    missing = [f.name.replace("_", "-") for f in fields(Workload) if f"`{f.name.replace('_', '-')}`" not in section]
    assert not missing, f"README 'Fit my workload' does not document the workload fields {missing}"
    assert "Sources of the model facts" in section and "Sources of the support table" in section


if __name__ == "__main__":
    print("\n".join("   " + row for row in scale_rows()))


def _performance_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Performance machinery")
    return text[start : text.index("\n## ", start + 1)]


def test_every_test_the_performance_section_names_exists() -> None:
    import re

    root = README.parent
    section = _performance_section()
    cited = re.findall(r"`(tests/[\w/]+\.py)((?:::\w+)?)`|`::(\w+)`", section)
    assert len(cited) >= 20
    last = None
    for path, name, continued in cited:
        if path:
            last = root / path
            assert last.is_file(), f"README names {path}, which does not exist"
        name = name.removeprefix("::") or continued
        if name:
            assert re.search(rf"^def {name}\(", last.read_text(encoding="utf-8"), re.M), f"{last.name} has no {name}"


def test_every_module_the_performance_section_names_exists() -> None:
    import re

    for path in re.findall(r"`((?:selector|app_pages)/[\w/]+\.py)", _performance_section()):
        assert (README.parent / path).is_file(), f"README names {path}, which does not exist"

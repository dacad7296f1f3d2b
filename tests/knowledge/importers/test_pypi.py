"""selector.knowledge.importers.pypi: the Python Package Index snapshot -> reference claims per entity, re-readable."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selector.__main__ import main
from selector.knowledge import importers
from selector.knowledge import loading as knowledge
from selector.knowledge.locators import ENTRY_KEY, Snapshots, convert
from tests.conftest import KNOWLEDGE

DATASET = "pypi-simple"
RAW = KNOWLEDGE / "imports" / "raw" / DATASET / "projects.json"


@pytest.fixture(scope="module")
def imported() -> importers.Imported:
    return importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]


def by_id(imported: importers.Imported) -> dict[str, dict]:
    return {c["id"]: c for c in imported.claims}


def test_every_mapped_project_gives_upkeep_claims_and_platforms_only_from_platform_wheels(imported) -> None:
    claims = by_id(imported)
    assert {"pypi-pytorch-torch-releases-12m", "pypi-pytorch-torch-os", "pypi-pytorch-torch-arch"} <= set(claims)
    # jax is pure Python: its release claims are its own, its platforms jaxlib's.
    assert "pypi-jax-jax-releases-12m" in claims and "pypi-jax-jax-os" not in claims
    assert claims["pypi-jax-jaxlib-os"]["value"] == 3
    # TensorRT-LLM ships source archives only on the index: no platform claim rather than a zero.
    assert "pypi-tensorrt-llm-tensorrt-llm-days-since-release" in claims
    assert not [c for c in claims if c.startswith("pypi-tensorrt-llm-") and c.endswith(("-os", "-arch"))]
    assert imported.unknown == {}  # every bundled project is in the alias table


def test_a_retired_package_is_left_out_with_its_reason_and_the_live_one_counts(imported) -> None:
    claims = by_id(imported)
    # tflite-runtime's last release was 2.14.0 in October 2023; TF Lite ships as ai-edge-litert since.
    assert "2.14.0" in imported.excluded["tflite-runtime"]
    assert claims["pypi-tflite-ai-edge-litert-releases-12m"]["value"] > 0
    assert not [c for c in claims if "tflite-runtime" in c]
    assert claims["pypi-pytorch-torch-days-since-release"]["value"] < 120


def test_every_claim_rereads_from_the_raw_snapshot(imported) -> None:
    snapshots = Snapshots(KNOWLEDGE)
    for claim in imported.claims:
        where = claim["locator"]
        row = snapshots.row(where["file"], where["row"], (ENTRY_KEY,))
        assert convert(row, where["column"], where["conversion"], "here") == claim["value"], claim["id"]
        assert claim["tier"] == "reference" and where["dataset"] == DATASET


def test_the_bundled_knowledge_loads_and_a_tampered_value_is_caught(tmp_path: Path) -> None:
    kb = knowledge.load(KNOWLEDGE)
    assert kb.claims["pypi-pytorch-torch-releases-12m"].locator.conversion == "pypi_releases_12m"
    copy = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, copy)
    text = (copy / "imports" / "pypi-simple.yaml").read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("    value:") and "pypi-tflite" not in line)
    (copy / "imports" / "pypi-simple.yaml").write_text(text.replace(old, "    value: 999.0", 1), encoding="utf-8")
    assert main(["validate", "--knowledge", str(copy)]) == 2


def test_a_broken_snapshot_names_the_project_and_writes_nothing(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    root = tmp_path / "knowledge"
    (root / "imports" / "raw" / DATASET).mkdir(parents=True)
    shutil.copy2(KNOWLEDGE / "datasets.yaml", root / "datasets.yaml")
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copy2(KNOWLEDGE / "imports" / "aliases.csv", root / "imports" / "aliases.csv")
    raw = root / "imports" / "raw" / DATASET / "projects.json"
    raw.write_text('{"torch": {"name": "torch", "fetched": "2026-12-01", "files": []}}\n', encoding="utf-8")
    output = tmp_path / "out.yaml"
    assert main(["import", DATASET, str(raw), "-o", str(output), "--knowledge", str(root)]) == 2
    err = capsys.readouterr().err
    assert "projects.json" in err and "entry 'torch'" in err and "needs `versions` and `files`" in err
    assert not output.exists()


def test_a_snapshot_wrapped_in_a_list_is_refused_not_a_traceback(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    root = tmp_path / "knowledge"
    (root / "imports" / "raw" / DATASET).mkdir(parents=True)
    shutil.copy2(KNOWLEDGE / "datasets.yaml", root / "datasets.yaml")
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copy2(KNOWLEDGE / "imports" / "aliases.csv", root / "imports" / "aliases.csv")
    raw = root / "imports" / "raw" / DATASET / "projects.json"
    raw.write_text("[" + RAW.read_text(encoding="utf-8") + "]", encoding="utf-8")
    output = tmp_path / "out.yaml"
    assert main(["import", DATASET, str(raw), "-o", str(output), "--knowledge", str(root)]) == 2
    err = capsys.readouterr().err
    assert "projects.json: JSON must be an object whose members are records" in err and not output.exists()

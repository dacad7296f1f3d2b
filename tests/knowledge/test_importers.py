"""The importers: every bundled import regenerates byte-identically; broken raw input is refused, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selector.__main__ import main
from selector.knowledge import importers
from selector.knowledge.models import Claim
from tests.conftest import FIXTURES, KNOWLEDGE

BROKEN = FIXTURES / "imports"


@pytest.fixture(scope="session")
def regenerated() -> dict[str, str]:
    """Every bundled import, regenerated once per test session from the bundled raw snapshots."""
    return importers.regenerate(KNOWLEDGE)


def test_every_dataset_with_an_import_is_regenerated(regenerated: dict[str, str]) -> None:
    bundled = sorted(p.relative_to(KNOWLEDGE).as_posix() for p in (KNOWLEDGE / "imports").glob("*.yaml"))
    assert sorted(regenerated) == bundled
    assert len(bundled) >= 3


@pytest.mark.parametrize("output", sorted(importers.OUTPUTS.values()))
def test_bundled_import_is_byte_identical_to_a_fresh_import(regenerated: dict[str, str], output: str) -> None:
    if output not in regenerated:
        pytest.skip(f"{output} is not bundled")
    assert (KNOWLEDGE / output).read_bytes() == regenerated[output].encode("utf-8")


def test_import_command_writes_the_same_bytes_twice(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    raw = KNOWLEDGE / "imports" / "raw" / "epoch-ml-hardware" / "ml_hardware.csv"
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert main(["import", "epoch-ml-hardware", str(raw), "-o", str(first)]) == 0
    assert main(["import", "epoch-ml-hardware", str(raw), "-o", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert "claims written" in capsys.readouterr().out


def test_units_are_converted_once(regenerated: dict[str, str]) -> None:
    import yaml

    claims = {
        c["id"]: Claim.model_validate(c)
        for c in yaml.safe_load(regenerated["imports/epoch-ml-hardware.yaml"])["claims"]
    }
    h100 = {c.metric: c.value for c in claims.values() if c.about == ("h100",)}
    # Epoch: 8.0e10 bytes, 3.35e12 bytes/s, 9.894e14 FLOP/s.
    assert (h100["memory_capacity_gb"], h100["memory_bandwidth_tb_s"], h100["tflops_bf16_dense"]) == (80.0, 3.35, 989.4)


def test_unknown_names_are_listed_not_guessed(regenerated: dict[str, str]) -> None:
    text = regenerated["imports/epoch-ml-hardware.yaml"]
    header = text.split("claims:", 1)[0]
    # A near-miss name stays unmapped: the 40 GB PCIe A100 is not the a100 (SXM4 80 GB) nor the a100-pcie (80 GB).
    assert "#   NVIDIA A100 PCIe (1 row)" in header
    assert "epoch-a100-pcie-" not in text
    # The H100 PCIe row has its own entity, never the SXM part's.
    assert "epoch-h100-pcie-memory" in text and "NVIDIA H100 PCIe" not in header


def test_mlperf_per_accelerator_figures_are_derived_and_scoped(regenerated: dict[str, str]) -> None:
    import yaml

    claims = yaml.safe_load(regenerated["imports/mlperf-inference-v5.1.yaml"])["claims"]
    cisco = next(
        c for c in claims if c["locator"]["result_id"] == "5.1-0015" and c["conditions"]["scenario"] == "Offline"
    )
    assert cisco["value"] == round(62351.6 / 16, 6)  # 8 accelerators per node x 2 nodes
    assert cisco["locator"]["derived"] is True and "derived" in cisco["unit"]
    assert {c["locator"]["division"] for c in claims} == {"closed"}
    assert {c["locator"]["availability"] for c in claims} == {"available"}
    header = regenerated["imports/mlperf-inference-v5.1.yaml"].split("claims:", 1)[0]
    assert "mixes accelerator models" in header


def _scratch(tmp_path: Path, dataset: str, fixture: str, name: str) -> tuple[Path, Path]:
    """A knowledge dir with the dataset records, entities and alias table, and `fixture` as its raw file."""
    root = tmp_path / "knowledge"
    (root / "imports" / "raw" / dataset).mkdir(parents=True)
    shutil.copy2(KNOWLEDGE / "datasets.yaml", root / "datasets.yaml")
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copy2(KNOWLEDGE / "imports" / "aliases.csv", root / "imports" / "aliases.csv")
    raw = root / "imports" / "raw" / dataset / name
    shutil.copy2(BROKEN / fixture, raw)
    return root, raw


@pytest.mark.parametrize(
    ("dataset", "fixture", "name", "expected"),
    [
        ("epoch-ml-hardware", "epoch_missing_column.csv", "ml_hardware.csv", "row 2: missing column `TDP (W)`"),
        ("epoch-ml-hardware", "epoch_non_numeric.csv", "ml_hardware.csv", "row 3: `lots` is not a number"),
        ("epoch-ml-hardware", "epoch_duplicate_key.csv", "ml_hardware.csv", "row 4: duplicate `Hardware name`"),
        (
            "mlperf-inference-v5.1",
            "mlperf_unknown_unit.json",
            "summary_results.json",
            "item 1: unknown unit 'Samples/s'",
        ),
    ],
)
def test_broken_raw_input_exits_2_naming_file_and_row_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture, dataset: str, fixture: str, name: str, expected: str
) -> None:
    root, raw = _scratch(tmp_path, dataset, fixture, name)
    output = tmp_path / "out.yaml"
    status = main(["import", dataset, str(raw), "-o", str(output), "--knowledge", str(root)])
    err = capsys.readouterr().err
    assert status == 2
    assert name in err and expected in err and "nothing written" in err
    assert not output.exists()
    assert list(tmp_path.glob(".out.yaml.*")) == []


def test_a_failed_import_leaves_the_previous_output_alone(tmp_path: Path) -> None:
    root, raw = _scratch(tmp_path, "epoch-ml-hardware", "epoch_non_numeric.csv", "ml_hardware.csv")
    output = tmp_path / "out.yaml"
    output.write_text("previous\n", encoding="utf-8")
    assert main(["import", "epoch-ml-hardware", str(raw), "-o", str(output), "--knowledge", str(root)]) == 2
    assert output.read_text(encoding="utf-8") == "previous\n"


def test_alias_table_entities_must_exist(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root, raw = _scratch(tmp_path, "epoch-ml-hardware", "epoch_duplicate_key.csv", "ml_hardware.csv")
    with (root / "imports" / "aliases.csv").open("a", encoding="utf-8") as handle:
        handle.write("epoch-ml-hardware,Made Up Chip,no-such-chip,\n")
    assert (
        main(["import", "epoch-ml-hardware", str(raw), "-o", str(tmp_path / "o.yaml"), "--knowledge", str(root)]) == 2
    )
    err = capsys.readouterr().err
    assert "entity `no-such-chip` is not defined" in err


def test_alias_table_refuses_an_unexplained_exclusion(tmp_path: Path) -> None:
    table = tmp_path / "aliases.csv"
    table.write_text("dataset,upstream_name,entity,note\nepoch-ml-hardware,X,,\n", encoding="utf-8")
    with pytest.raises(importers.ImportFailure, match="row 2: an exclusion"):
        importers.read_aliases(table)


def test_raw_files_must_lie_in_the_bundled_raw_folder(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    outside = tmp_path / "ml_hardware.csv"
    shutil.copy2(BROKEN / "epoch_non_numeric.csv", outside)
    assert main(["import", "epoch-ml-hardware", str(outside), "-o", str(tmp_path / "o.yaml")]) == 2
    assert "bundle the snapshot there first" in capsys.readouterr().err


def test_unknown_dataset_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["import", "nope", "x.csv", "-o", str(tmp_path / "o.yaml")]) == 2
    assert "unknown dataset `nope`" in capsys.readouterr().err

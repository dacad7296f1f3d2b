"""selector.knowledge.importers.repo_history: the derived repository-history table -> reference claims, re-readable."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from selector.__main__ import main
from selector.knowledge import importers
from selector.knowledge import loading as knowledge
from selector.knowledge.locators import Snapshots, convert
from tests.conftest import KNOWLEDGE

DATASET = "repo-history"
RAW = KNOWLEDGE / "imports" / "raw" / DATASET / "history.csv"


@pytest.fixture(scope="module")
def imported() -> importers.Imported:
    return importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, str]]:
    with RAW.open(encoding="utf-8", newline="") as f:
        return {r["repository"]: r for r in csv.DictReader(f)}


def by_id(imported: importers.Imported) -> dict[str, dict]:
    return {c["id"]: c for c in imported.claims}


def test_every_mapped_repository_gives_its_five_figures_and_tensorrt_is_left_out_with_why(imported) -> None:
    claims = by_id(imported)
    for entity in ("torchserve", "triton-server", "kserve", "executorch", "tflite", "mnn", "ncnn", "lmdeploy"):
        assert {f"repo-{entity}-{s}" for s in ("commits-12m", "authors-12m", "days-since-commit")} <= set(claims)
    assert "closed library" in imported.excluded["NVIDIA/TensorRT"]
    assert not [c for c in claims if c.startswith("repo-tensorrt-")]
    assert imported.unknown == {}


def test_the_figures_agree_with_each_other_as_a_history_must(rows) -> None:
    """Independent properties of any git history: authors never outnumber commits; the top organisation's commits
    are part of the total and its share is their ratio; a stopped project has no commit in the window."""
    for name, r in rows.items():
        commits, authors = int(r["commits_12m"]), int(r["authors_12m"])
        assert authors <= commits, name
        assert int(r["top_domain_commits"]) <= commits, name
        share = 100 * int(r["top_domain_commits"]) / commits if commits else 0.0
        assert float(r["top_domain_share_pct"]) == pytest.approx(share, abs=0.05), name
        assert len(r["commit"]) == 40 and r["snapshot_date"] == "2026-08-22", name
        assert (int(r["days_since_commit"]) > 365) == (commits == 0), name
    # TorchServe's README says it is no longer maintained: its history must show it.
    assert rows["pytorch/serve"]["commits_12m"] == "0"


def test_the_licence_is_stated_in_each_claim(imported, rows) -> None:
    claims = by_id(imported)
    assert "licence Apache-2.0" in claims["repo-kserve-commits-12m"]["text_en"]
    assert "licence BSD-3-Clause" in claims["repo-executorch-commits-12m"]["text_en"]
    assert rows["ml-explore/mlx"]["licence_spdx"] == "MIT"


def test_every_claim_rereads_from_the_raw_table(imported) -> None:
    snapshots = Snapshots(KNOWLEDGE)
    for claim in imported.claims:
        where = claim["locator"]
        row = snapshots.row(where["file"], where["row"], ("repository",))
        assert convert(row, where["column"], where["conversion"], "here") == claim["value"], claim["id"]
        assert claim["tier"] == "reference" and where["dataset"] == DATASET


def test_the_bundled_import_regenerates_byte_for_byte() -> None:
    text = importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[0]
    assert text == (KNOWLEDGE / "imports" / f"{DATASET}.yaml").read_text(encoding="utf-8")


def test_a_tampered_value_is_caught_by_validate(tmp_path: Path) -> None:
    kb = knowledge.load(KNOWLEDGE)
    assert kb.claims["repo-torchserve-commits-12m"].value == 0
    copy = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, copy)
    path = copy / "imports" / f"{DATASET}.yaml"
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("    value:"))
    path.write_text(text.replace(old, "    value: 999.0", 1), encoding="utf-8")
    assert main(["validate", "--knowledge", str(copy)]) == 2


def _bare_knowledge(tmp_path: Path, table: str) -> tuple[Path, Path]:
    root = tmp_path / "knowledge"
    (root / "imports" / "raw" / DATASET).mkdir(parents=True)
    shutil.copy2(KNOWLEDGE / "datasets.yaml", root / "datasets.yaml")
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copy2(KNOWLEDGE / "imports" / "aliases.csv", root / "imports" / "aliases.csv")
    raw = root / "imports" / "raw" / DATASET / "history.csv"
    raw.write_text(table, encoding="utf-8")
    return root, raw


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("repository,commit\npytorch/serve,abc\n", "missing column `commits_12m`"),
        (RAW.read_text(encoding="utf-8").replace(",0,0,,0,0.0,", ",none,0,,0,0.0,", 1), "`none` is not a number"),
        (
            RAW.read_text(encoding="utf-8") + RAW.read_text(encoding="utf-8").splitlines()[1] + "\n",
            "listed twice",
        ),
    ],
    ids=["missing-column", "not-a-number", "duplicate"],
)
def test_a_broken_table_names_file_and_row_and_writes_nothing(tmp_path: Path, capsys, table: str, words: str) -> None:  # noqa: ANN001
    root, raw = _bare_knowledge(tmp_path, table)
    output = tmp_path / "out.yaml"
    assert main(["import", DATASET, str(raw), "-o", str(output), "--knowledge", str(root)]) == 2
    err = capsys.readouterr().err
    assert "history.csv" in err and "row " in err and words in err
    assert not output.exists()


def test_each_mapped_repository_has_a_licence_and_governance_fact_matching_its_row(rows) -> None:
    kb = knowledge.load(KNOWLEDGE)
    aliases = importers.alias_map(importers.read_aliases(KNOWLEDGE / importers.ALIASES_FILE), DATASET)
    for name, r in rows.items():
        entity = aliases[name].entity
        if not entity:  # left out with its reason (NVIDIA/TensorRT's open parts)
            continue
        fact = kb.claims[f"fact-licence-{entity}"]
        assert f"licence {r['licence_spdx']} (LICENSE at commit {r['commit'][:12]})" in fact.text_en, name
        assert "governance: foundation" in fact.text_en or "governance: single vendor" in fact.text_en, name
        assert r["commit"] in kb.sources[fact.source].url

"""Synthetic knowledge bases k times today's size, for the scaling benchmark.

The bundled knowledge base is copied and then multiplied: every entity gets k-1 clones (`h200-x3`, "NVIDIA H200
(synthetic 3)"), every claim k-1 clones about the matching clone (ids `<id>-x3`, `based_on` pointing at the clones of
the same copy), and every group lists the clones of its members beside the originals. Numbers are varied by up to
+/-5 % (ratings stay on their scale, shares at most 100) so that clones do not tie. Claims tied to a bundled dataset
(a `locator`) are not cloned: their values must equal the raw snapshot, so a cloned rating that rested on them says
it rests on outside facts. Conditions are left alone, so a clone's claims still meet
the criteria their originals meet. Deterministic: the same k gives the same files.

Usage: PYTHONPATH=. python benchmarks/_synthetic.py K OUT_DIR
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
KNOWLEDGE = ROOT / "knowledge"


class _Dumper(yaml.SafeDumper):
    """Writes shared objects out in full: the guarded loader caps aliases, as it does for any upload."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _clone_id(record_id: str, copy: int) -> str:
    return f"{record_id}-x{copy}"


def _vary(value: float, unit: str, copy: int, salt: int) -> float:
    if unit.startswith(("rating", "stars")):
        return value  # a rating or a star count stays on its 1-5 scale
    step = ((copy * 7 + salt) % 11 - 5) / 100  # -5 % .. +5 %
    varied = round(value * (1 + step), 6)
    if unit == "%" and 0 <= value <= 100:
        return min(varied, 100.0)  # a share stays a share: the loader refuses one over 100
    return varied


def _clone_entity(entity: dict[str, Any], copy: int) -> dict[str, Any]:
    clone = {**entity, "id": _clone_id(entity["id"], copy), "name": f"{entity['name']} (synthetic {copy})"}
    clone.pop("name_zh", None)  # a Chinese name is matched against the articles; the clones are not in them
    # its facts are sourced by the clones of its fact claims (cloned like every claim without a locator)
    if entity.get("fact_claims"):
        clone["fact_claims"] = [_clone_id(ref, copy) for ref in entity["fact_claims"]]
    if entity.get("export_control"):
        control = entity["export_control"]
        clone["export_control"] = {**control, "claims": [_clone_id(ref, copy) for ref in control["claims"]]}
    if entity.get("successor"):
        clone["successor"] = _clone_id(entity["successor"], copy)
    return clone


def _clone_claim(claim: dict[str, Any], copy: int, cloned: dict[str, list[str]], salt: int) -> dict[str, Any]:
    clone = dict(claim)
    clone["id"] = _clone_id(claim["id"], copy)
    clone["about"] = [_clone_id(ref, copy) for ref in claim["about"]]
    if claim.get("subject"):
        clone["subject"] = _clone_id(claim["subject"], copy)
    if claim.get("based_on"):
        clone["based_on"] = [_clone_id(ref, copy) if ref in cloned else ref for ref in claim["based_on"]]
        if claim.get("subject") and not any(claim["subject"] in cloned.get(ref, ()) for ref in claim["based_on"]):
            # its evidence about its subject is tied to a dataset and not cloned: for the clone it is an outside fact
            clone["rationale"] = f"{claim.get('rationale', '')} (Synthetic clone: rests on outside facts.)".strip()
    if claim.get("overrides"):
        clone["overrides"] = _clone_id(claim["overrides"], copy) if claim["overrides"] in cloned else claim["overrides"]
    if claim.get("value") is not None:
        clone["value"] = _vary(float(claim["value"]), str(claim.get("unit", "")), copy, salt)
    return clone


def _documents() -> list[Path]:
    return sorted(path for path in KNOWLEDGE.rglob("*.yaml") if "raw" not in path.relative_to(KNOWLEDGE).parts)


def generate(k: int, out: Path) -> Path:
    """Write a knowledge base k times the bundled one into OUT (replaced if present); returns OUT."""
    if k < 1:
        raise ValueError("k must be at least 1")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(KNOWLEDGE, out)
    loaded = {path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in _documents()}
    entity_ids = {e["id"] for doc in loaded.values() if isinstance(doc, dict) for e in doc.get("entities") or ()}
    cloned_claims = {
        c["id"]: c["about"]
        for doc in loaded.values()
        if isinstance(doc, dict)
        for c in doc.get("claims") or ()
        if "locator" not in c and set(c["about"]) <= entity_ids
    }
    for path, doc in loaded.items():
        if not isinstance(doc, dict):
            continue
        changed = False
        if doc.get("entities"):
            doc["entities"] = [
                *doc["entities"],
                *(_clone_entity(e, copy) for copy in range(1, k) for e in doc["entities"]),
            ]
            changed = True
        if doc.get("claims"):
            originals = doc["claims"]
            clones = [
                _clone_claim(c, copy, cloned_claims, salt)
                for copy in range(1, k)
                for salt, c in enumerate(originals)
                if c["id"] in cloned_claims
            ]
            doc["claims"] = [*originals, *clones]
            changed = True
        if doc.get("groups"):
            for group in doc["groups"]:
                members = group["members"]
                group["members"] = [*members, *(_clone_id(m, copy) for copy in range(1, k) for m in members)]
            changed = True
        if changed:
            target = out / path.relative_to(KNOWLEDGE)
            text = yaml.dump(doc, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=120)
            target.write_text(text, encoding="utf-8")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.splitlines()[-1])
    print(generate(int(sys.argv[1]), Path(sys.argv[2])))

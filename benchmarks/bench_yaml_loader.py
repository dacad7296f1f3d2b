"""Benchmark: loading the knowledge with the pure-Python YAML loader and with LibYAML's C parser, in one run.

Run from the repository root: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_yaml_loader.py``.
For each loader of :mod:`selector.io.yamlio` it prints

* the time to parse every bundled knowledge file (:func:`selector.io.yamlio.parse_yaml`: parser, guarded composer,
  guards, construction), best of 5;
* the time of the whole knowledge load (:func:`selector.knowledge.loading.collect`: parsing + schema + cross-checks);
* the same whole load on ten times the data (the claims files repeated under new ids, as a large upload would be);

then the ratios python / libyaml. Both loaders share the composer and every guard (they are in Python), so the
ratio is what the C scanner and parser save. Nothing is asserted: compare the ratios, which the machine's load
affects alike.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

REPEAT = 5


def _best(fn, repeat: int = REPEAT) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _scaled_copy(source: Path, target: Path, times: int) -> None:
    """The knowledge with each claims file repeated `times` times under renamed claim ids (same checks, more data)."""
    shutil.copytree(source, target)
    for path in sorted((target / "claims").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        for copy in range(1, times):
            # Claim ids are unique across files: rename every `id:` of a claim record and the ids that cite them.
            renamed = re.sub(r"(?m)^(\s*-\s+id:\s*)([a-z0-9][a-z0-9_.\-]*)", rf"\g<1>\g<2>-x{copy}", text)
            (target / "claims" / f"{path.stem}-x{copy}.yaml").write_text(renamed, encoding="utf-8")


def main() -> None:
    """Print the load times per loader and their ratios."""
    from selector.io import yamlio
    from selector.knowledge import loading as knowledge

    files = sorted(knowledge.DEFAULT_KNOWLEDGE.rglob("*.yaml"))
    raws = [(str(p), p.read_bytes()) for p in files]
    size = sum(len(raw) for _, raw in raws)
    print(f"{len(raws)} knowledge files, {size:,} bytes; loaders available: {', '.join(yamlio.LOADERS)}")
    print(f"load average {os.getloadavg()[0]:.2f} (1 min)\n")
    if "libyaml" not in yamlio.LOADERS:
        print("PyYAML was built without LibYAML: nothing to compare")
        return
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "knowledge"
        _scaled_copy(knowledge.DEFAULT_KNOWLEDGE, big, 10)
        big_size = sum(p.stat().st_size for p in big.rglob("*.yaml"))
        kb, issues = knowledge.collect(big)
        assert kb is not None, [str(i) for i in issues if i.level == "ERROR"][:5]
        # Interleaved, best of REPEAT: a change in the machine's load between the loaders' turns cancels out.
        best: dict[str, list[float]] = {loader: [float("inf")] * 3 for loader in ("python", "libyaml")}
        for rep in range(REPEAT):
            for loader in best:
                yamlio.DEFAULT_LOADER = loader
                runs = (
                    lambda: [yamlio.parse_yaml(raw, name, 10 * yamlio.MAX_BYTES) for name, raw in raws],
                    lambda: knowledge.collect(knowledge.DEFAULT_KNOWLEDGE),
                    lambda big=big: knowledge.collect(big),
                )
                for i, run in enumerate(runs):
                    if i == 2 and rep >= 2:
                        continue  # the large load is slow; two turns each are enough
                    best[loader][i] = min(best[loader][i], _best(run, repeat=1))
        results = {loader: tuple(times) for loader, times in best.items()}
        yamlio.DEFAULT_LOADER = yamlio.LOADERS[0]
    print(f"{'loader':<10}{'parse files':>13}{'whole load':>13}{f'10x data ({big_size // 1000:,} kB)':>22}")
    for loader, (parse, whole, scaled) in results.items():
        print(f"{loader:<10}{parse * 1000:>11.0f}ms{whole * 1000:>11.0f}ms{scaled * 1000:>20.0f}ms")
    slow, fast = results["python"], results["libyaml"]
    print(
        f"{'ratio':<10}{slow[0] / fast[0]:>12.1f}x{slow[1] / fast[1]:>12.1f}x{slow[2] / fast[2]:>21.1f}x"
        "   (python / libyaml)"
    )


if __name__ == "__main__":
    main()

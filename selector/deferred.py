"""Stand-ins for modules a dependency imports but this application never uses: each imports the real module the
first time something reads one of its attributes.

scikit-criteria's package ``__init__`` imports every core module, and they import at the top what only its plots
(seaborn, and matplotlib under it), dominance graphs (networkx), min-max scaler (scikit-learn) and rankings
(scipy.stats) use. Scoring uses none of them but the dense ranking every aggregation function computes and this
application discards (:class:`DeferredStats` answers it). Deferred, they cost nothing at import, where scikit-learn
and scipy.stats are a large share of every process that scores (a command, a server start; ``python -X importtime``
and benchmarks/bench_cold.py measure it). Whoever uses one of them anyway (a user picking min-max scaling,
``from scipy.stats import kendalltau`` anywhere in the process) gets the real module. tests/test_deferred.py fails
when scikit-criteria stops importing one of them or stops ranking with ``scipy.stats.rankdata``: the stand-ins go
then.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Sequence
from typing import Any

import numpy as np

#: What :func:`selector.decision.scoring` defers before importing scikit-criteria. A package comes before its
#: submodules:
#: finding a submodule's spec imports its package, which must be the stand-in by then.
BY_SKCRITERIA = ("seaborn", "networkx", "scipy.stats", "sklearn", "sklearn.preprocessing")

#: Held while stand-ins are installed or replaced, and while the module that needs them is imported.
LOCK = threading.RLock()


class Deferred(types.ModuleType):
    """A stand-in in ``sys.modules`` that imports the real module the first time one of its attributes is read.

    ``import seaborn`` then costs nothing; ``seaborn.heatmap`` imports the real module, which replaces the stand-in
    in ``sys.modules``, and returns the attribute from it.
    """

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.real(), attribute)

    def real(self) -> types.ModuleType:
        """The real module, imported now if it has not been."""
        name = self.__name__
        with LOCK:
            # A deferred package goes with its deferred submodules and a submodule with its package: the real
            # package's __init__ runs before any of its submodules, as in an ordinary import.
            for key, module in list(sys.modules.items()):
                related = key == name or key.startswith(name + ".") or name.startswith(key + ".")
                if related and isinstance(module, Deferred):
                    del sys.modules[key]
            return importlib.import_module(name)


_FEW = 64  # values up to which the dense ranking is taken in plain Python


class DeferredStats(Deferred):
    """scipy.stats, deferred, answering the one call scikit-criteria makes on every scoring without importing it.

    Each aggregation function ends with ``scipy.stats.rankdata(scores, "dense")`` (skcriteria.utils.rank), whose
    result selector.decision.scoring does not use (it ranks with ``rank_scores``). Importing scipy.stats for it would
    cost
    every process its import, and each call scipy's argument handling; a 1-D finite array's dense ranks are its
    index among the sorted distinct values, plus one (a plain Python sort for a scoring's few values,
    ``numpy.unique`` for more). Any other call, and any other attribute, goes to the real scipy.stats (tests
    compare the two).
    """

    def rankdata(
        self, a: Any, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate"
    ) -> Any:
        values = np.asarray(a)
        if (
            method == "dense"
            and axis is None
            and nan_policy == "propagate"
            and values.ndim == 1
            and values.dtype.kind in "iuf"
            and not np.isnan(values).any()
        ):
            if len(values) > _FEW:
                return np.unique(values, return_inverse=True)[1].astype(np.int64) + 1
            # a scoring's few alternatives: numpy's per-call cost would be most of the work
            row = values.tolist()
            rank = {v: i for i, v in enumerate(sorted(set(row)), start=1)}
            return np.array([rank[v] for v in row], dtype=np.int64)
        return self.real().rankdata(a, method, axis=axis, nan_policy=nan_policy)


_KINDS: dict[str, type[Deferred]] = {"scipy.stats": DeferredStats}


def install(names: Sequence[str]) -> None:
    """Put a stand-in in ``sys.modules`` for each of `names` not imported yet (and installed: a missing one is left
    for its importer to report)."""
    with LOCK:
        for name in names:
            if name in sys.modules:
                continue
            spec = importlib.util.find_spec(name)
            if spec is None:
                continue
            stand_in = _KINDS.get(name, Deferred)(name)
            stand_in.__spec__ = spec
            # Whatever walks sys.modules reading __file__ (inspect.getmodule, which Streamlit's first element of a
            # process runs) must find it here, not import the real module through __getattr__; a submodule
            # imported on its own (scipy.stats._stats_py) is found through __path__.
            stand_in.__file__ = spec.origin
            stand_in.__path__ = spec.submodule_search_locations or []
            sys.modules[name] = stand_in
            package, _, child = name.rpartition(".")
            if isinstance(sys.modules.get(package), Deferred):
                # `from sklearn import preprocessing` then finds the stand-in without reading the package
                setattr(sys.modules[package], child, stand_in)

"""Server-side cost of the app's rerun after a weight change, against the floor of an empty Streamlit script.

Runs the app under AppTest (no browser, no network) and reports the median wall time of one rerun: the script
plus Streamlit's own handling of its messages. Target: the rerun after a weight change at most 3x the rerun of an
empty script.

What AppTest cannot see, and benchmarks/bench_browser.py measures in a real server and chromium instead:

* the server's work after each run: a real server runs Streamlit's post-run garbage collection (a full
  ``gc.collect(2)``, unless ``[runner] postScriptGC`` is off as in .streamlit/config.toml) and the websocket;
* the browser: loading the JavaScript of each kind of element (plotly's alone is ~4.7 MB), decoding and drawing
  them. After a weight change this is most of what a user waits for, and for a new session nearly all of it;
* a new session's first render and a page switch, which AppTest runs as plain reruns.

Its ratio is therefore a check on the script's own cost (what a change to the Python code moves), not on what a
user feels.

What a weight change reruns. The four dimension sliders and everything they change (leader, ranking table, why,
robustness badge, the contribution chart once asked for) are one ``st.fragment`` on the Recommend page. The
benchmark asks for the chart, so it times the heavier fragment. When the user moves one of
them, the browser sends the fragment's id with the rerun request and the server runs that fragment alone. AppTest
always reruns the whole script, so the benchmark sends the browser's request itself
(``tests/app/fragment_rerun.py``: ``RerunData(fragment_id=...)``, what ``AppSession`` builds from the browser's
message). The whole-page rerun (what a sub-criterion weight, method or scenario change costs) is printed too.

How it is measured. A server compiles each script once; AppTest makes a new ScriptCache on every run and so
recompiles every page each time, so one shared cache is given to the app and the floor alike. The app's reruns and
the floor's alternate rerun by rerun (the comparisons run in blocks between them), so that the load of this noisy
machine weighs on both. Every weighting is new (nothing cached can answer it). AppTest polls for the end of a run
every millisecond, which makes up most of the floor (a server does not poll); the ratio is what AppTest can
measure, not a browser's experience.

The breakdown lines show where the rest goes: the same elements drawn from data computed in advance ("drawing
alone"), and the pure computations behind a new weighting, outside Streamlit.

Where the fragment's time goes. Drawing is most of it: the four sliders, the leader, the badge, the ranking table,
the why sentence and the contribution chart, and Streamlit's own handling of each element is most of that (the
"drawing alone" line). A new weighting adds the computation inside the run: ``recommend()``, the sliders'
callback that writes the URL and the badge's cached lookup. The machine's load moves the ratio from one run to
the next, so quote it with the ``uptime`` load of the run.

What keeps a weight change's rerun small, and so why the code is shaped as it is:

* the fragment: a weight change does not rerun the scenario, the decision path or the evidence tables, and the
  static heading above the sliders stays outside it;
* inside it, everything the new weighting changes (ranking, verdict, chart data) is computed before anything is
  drawn: the numerical work in one stretch ran faster than the same work between Streamlit's calls;
* scikit-criteria's normalisation is kept per matrix and its aggregation called directly;
* the evidence grid, what is ranked and the decision path are kept per knowledge base (``selector.memo``), so the
  recommendation is computed afresh rather than through a Streamlit cache, whose bookkeeping on a miss costs more
  than the computation;
* the contribution chart is kept per session as its plain dict (``_widgets.KeptFigure``) and restacked in place:
  plotly's property setters validate every assignment and ``st.plotly_chart`` would deep-copy a figure;
* the verdict with its badge, the ranking (a static table, not a data grid) and its notes are one Markdown
  element, built from plain lists; the whole simplex's shares are kept per knowledge and preferences
  (``verdict.whole_simplex_share``), and who is first under a weighting is a max comparison, not a ranking;
* the slider row is one flex container rather than four columns, and each slider is given its state's value
  (without one, Streamlit copies the whole session state to learn whether it is a range slider); the four
  sliders' callback copies the preferences in force rather than rebuilding them from every control.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_app_rerun.py [--reruns 15] [--blocks 4]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.runtime.scriptrunner import script_runner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

from tests.app.fragment_rerun import fragment_reruns

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
TARGET_RATIO = 3.0
_SCRIPT_SECONDS: list[float] = []
Timing = tuple[float, float]  # (wall seconds of one AppTest rerun, seconds of script execution inside it)


def _instrument() -> None:
    """Share one ScriptCache between runs (as a server does) and time each script execution."""
    shared = ScriptCache()
    app_test.ScriptCache = lambda: shared
    local_script_runner.ScriptCache = lambda: shared
    run_script = script_runner.exec_func_with_error_handling

    def timed(func: Callable[[], Any], ctx: Any) -> Any:
        start = time.perf_counter()
        try:
            return run_script(func, ctx)
        finally:
            _SCRIPT_SECONDS.append(time.perf_counter() - start)

    script_runner.exec_func_with_error_handling = timed


def _timed(at: AppTest) -> Timing:
    _SCRIPT_SECONDS.clear()
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"the script raised: {at.exception[0].value}")
    return elapsed, sum(_SCRIPT_SECONDS)


def _started(script: Path) -> AppTest:
    at = AppTest.from_file(str(script), default_timeout=120)
    at.run()  # cold start: imports, knowledge load, caches
    at.slider(key="w-risk").set_value(14)
    at.run()  # the first scoring call imports scikit-criteria
    if any(t.key == "show-contribution-chart" for t in at.toggle):
        at.toggle(key="show-contribution-chart").set_value(True)
        at.run()
    return at


def _empty(folder: Path) -> AppTest:
    script = folder / "empty.py"
    script.write_text("import streamlit as st  # noqa: F401\n", encoding="utf-8")
    at = AppTest.from_file(str(script), default_timeout=60)
    at.run()
    return at


# Every element the fragment redraws after a weight change, drawn from a ranking computed once in advance: what
# the fragment would cost if computing the new ranking, its chart data and the badge took no time at all.
_DRAWING_ALONE = """
import streamlit as st
from app_pages._cached import bundled_kb
from app_pages._widgets import session_figure, untitled_chart
from selector import verdict
from selector.decision import recommend
from selector.charts.contributions import contribution_bars, restack_contribution_bars
from selector.views.recommend import BADGE_HELP, contributions_frame, ranking_markdown
from selector.decision.preferences import Preferences

kb = bundled_kb()
rec = recommend.recommend(kb, Preferences(group=next(iter(kb.groups))))
judged = verdict.judge(rec)
parts = rec.result.contributions
order = [r.name for r in rec.ranking]
values = {kb.entity_name(a): parts[i] for i, a in enumerate(rec.matrix.alternatives)}


@st.fragment
def weights_and_ranking():
    with st.container(horizontal=True, gap="medium"):
        for dim in kb.dimensions.values():
            st.slider(dim.name_en, 0, 100, int(dim.weight), key=f"w-{dim.id}", width=220, help=dim.description_en)
    st.markdown(ranking_markdown(rec, judged, "Weighted sum"), help=BADGE_HELP)
    if st.session_state.get("show-contribution-chart"):
        figure = session_figure(
            "contribution-figure", (), lambda: contribution_bars(contributions_frame(kb, rec.matrix, parts), order, "c")
        )
        restack_contribution_bars(figure.spec, values, order)
        untitled_chart(figure, key="contribution-chart")


st.subheader("What matters to you")
weights_and_ranking()
st.toggle("Show what each criterion adds as a chart", key="show-contribution-chart")
"""


def measure(reruns: int, blocks: int) -> dict[str, list[Timing]]:
    """Interleaved timings: fragment reruns, whole-page reruns, sub-criterion reruns, drawing alone, the floor."""
    out: dict[str, list[Timing]] = {k: [] for k in ("fragment", "page", "sub", "drawing", "floor")}
    with tempfile.TemporaryDirectory() as folder:
        drawing_script = Path(folder) / "drawing.py"
        drawing_script.write_text(_DRAWING_ALONE, encoding="utf-8")
        fragment, page, drawing = _started(APP), _started(APP), _started(drawing_script)
        empty = _empty(Path(folder))
        page.session_state["cw-box"] = True  # the sub-criterion sliders are drawn while their box is open
        page.run()
        sub_sliders = [s.key for s in page.slider if str(s.key).startswith("cw-")]
        for block in range(blocks):
            # each block pins the cost weight to its own value, so no weighting repeats across blocks
            for at in (fragment, page, drawing):
                at.slider(key="w-cost").set_value(30 + block)
                at.run()
            for step in range(reruns):
                for key, at in (("fragment", fragment), ("drawing", drawing)):
                    at.slider(key="w-performance").set_value(41 + step)
                    with fragment_reruns(at, at.slider(key="w-performance")):
                        out[key].append(_timed(at))
                # the floor right beside each fragment rerun: the machine's speed drifts within a block
                out["floor"].append(_timed(empty))
            for step in range(reruns):
                page.slider(key="w-performance").set_value(41 + step)
                out["page"].append(_timed(page))
            for step in range(reruns):
                # each sub-criterion slider moves by half a step once per block: every state is new
                slider = page.slider(key=sub_sliders[step % len(sub_sliders)])
                slider.set_value(slider.value + (0.5 if block % 2 == 0 else -0.5))
                out["sub"].append(_timed(page))
    return out


def pure_costs(repeats: int) -> dict[str, float]:
    """Median seconds of the computations behind a new weighting, outside Streamlit."""
    from selector.decision import recommend
    from selector.decision.preferences import Preferences
    from selector.knowledge import loading as knowledge
    from selector.robustness.analysis import acceptability

    kb = knowledge.load()
    group = next(iter(kb.groups))
    recommend.recommend(kb, Preferences(group=group))  # imports scikit-criteria
    ranking, analysis = [], []
    for step in range(repeats):
        prefs = Preferences(group=group, dimension_weights={"performance": 41 + step})
        start = time.perf_counter()
        rec = recommend.recommend(kb, prefs)
        ranking.append(time.perf_counter() - start)
        start = time.perf_counter()
        acceptability(rec, samples=2000, seed=0)
        analysis.append(time.perf_counter() - start)
    return {"recommend": statistics.median(ranking), "acceptability": statistics.median(analysis)}


def _median_ms(timings: list[Timing], index: int = 0) -> float:
    return statistics.median(t[index] for t in timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--reruns", type=int, default=15, help="reruns per block and measure (at most 50: slider values 41..90)"
    )
    parser.add_argument("--blocks", type=int, default=4, help="interleaved blocks (at most 20)")
    args = parser.parse_args()
    if not (1 <= args.reruns <= 50 and 1 <= args.blocks <= 20):
        parser.error("--reruns must be 1..50 and --blocks 1..20 (every measure needs weightings not seen before)")
    _instrument()
    timings = measure(args.reruns, args.blocks)
    pure = pure_costs(args.reruns)
    floor = _median_ms(timings["floor"])
    ratio = _median_ms(timings["fragment"]) / floor

    def line(label: str, ms: float, extra: str = "") -> str:
        return f"{label:<50} {ms:7.2f} ms {ms / floor:5.2f}x floor{extra}"

    def measured(label: str, key: str, note: str = "") -> str:
        return line(label, _median_ms(timings[key]), f"  (script {_median_ms(timings[key], 1):.2f} ms{note})")

    print(f"medians over {args.blocks} interleaved blocks of {args.reruns} reruns")
    print(measured("rerun after a dimension-weight change (fragment):", "fragment"))
    print(measured("empty script rerun (floor):", "floor"))
    print("for comparison:")
    print(measured("  the same change rerunning the whole page:", "page"))
    print(measured("  whole page after a sub-criterion change:", "sub", "; badge re-sampled"))
    print(measured("  the fragment's elements, drawing alone:", "drawing", "; nothing computed"))
    print("computations behind a new weighting, outside Streamlit:")
    print(line("  recommend() (matrix + scoring):", pure["recommend"] * 1000))
    print(line("  robustness.acceptability, 2,000 samples:", pure["acceptability"] * 1000, "  (the badge's SMAA)"))
    verdict = "within" if ratio <= TARGET_RATIO else "ABOVE"
    print(f"ratio: {ratio:.2f}x ({verdict} the {TARGET_RATIO:g}x target)")


if __name__ == "__main__":
    main()

"""selector.decision.workload_fit: a workload turns an LLM group's columns into latency-bounded throughput and cost at
load,
removes who cannot run it (with the reason, as a hard constraint does) and says which measurement each cell used."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from selector import i18n
from selector.decision import matrix, recommend, workload_fit
from selector.decision.preferences import PreferenceError, Preferences
from selector.knowledge import loading as knowledge
from tests.refusals import said_in_both

SERVING = "llm-serving-single-accelerator"
TIGHT = "model=llama-3.1-8b,context=2048,output=512,concurrency=16,ttft-ms=200,tpot-ms=50"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _ranked(kb, **prefs) -> list[str]:  # noqa: ANN001
    return [r.id for r in recommend.recommend(kb, Preferences(group=SERVING, **prefs)).ranking]


def test_tight_limits_rank_differently_from_the_offline_peak(kb) -> None:
    offline, tight = _ranked(kb), _ranked(kb, workload=TIGHT)
    assert sorted(offline) == sorted(tight)
    assert offline != tight


def test_each_cell_says_which_measurement_it_used(kb) -> None:
    m = matrix.build(kb, Preferences(group=SERVING, workload=TIGHT))
    assert workload_fit.THROUGHPUT in m.criteria and "accelmark-suite-a" not in m.criteria
    column = m.criteria.index(workload_fit.THROUGHPUT)
    cells = [row[column] for row in m.cells]
    for cell in cells:
        if cell.imputed:
            assert "no AccelMark online measurement meets TTFT <= 200 ms and TPOT <= 50 ms" in cell.note
            assert "offline peak is not used" in cell.note and cell.evidence == ()
        else:
            assert cell.note.startswith("latency-bounded: AccelMark Llama-3-8B online")
            assert cell.evidence and all("-online-" in claim_id for claim_id in cell.evidence)
    assert any(c.imputed for c in cells) and any(not c.imputed for c in cells)
    # a cost computed from a benchmarked rate and a reference price is as strong as the price
    cost = m.cells[m.alternatives.index("h100")][m.criteria.index(workload_fit.COST)]
    assert cost.tier == "reference" and "accelmark-price-h100" in cost.evidence
    replaced = {e.id: e.reason for e in m.excluded_criteria}
    assert replaced["accelmark-suite-a"] == "replaced by workload-throughput (your workload)"
    assert any(n.startswith("Workload: model=llama-3.1-8b") for n in m.notes)


def test_without_a_workload_the_ranking_says_it_uses_offline_peaks(kb) -> None:
    m = matrix.build(kb, Preferences(group=SERVING))
    assert any("throughput columns are offline peaks" in n for n in m.notes)
    # a group without LLM benchmark columns says nothing of the kind
    assert not any("offline peaks" in n for n in matrix.build(kb, Preferences(group="edge-accelerators")).notes)


def test_members_that_cannot_run_are_removed_with_the_reason(kb) -> None:
    fp8 = "model=llama-3.1-70b,precision=fp8,context=8192,output=1024,concurrency=32,ttft-ms=2000,tpot-ms=200"
    m = matrix.build(kb, Preferences(group=SERVING, workload=fp8))
    removed = {e.id: e.reason for e in m.excluded_alternatives}
    assert "a100" in removed and "not FP8" in removed["a100"] and "vllm-nvidia-ampere" in removed["a100"]
    # Llama 3.1 405B in BF16 (810 GB) is beyond 8 x 24 GB cards
    big = matrix.build(kb, Preferences(group=SERVING, workload="model=llama-3.1-405b,precision=bf16"))
    reason = {e.id: e.reason for e in big.excluded_alternatives}["rtx-4090"]
    assert "cannot run your workload" in reason and "does not fit on 8 x" in reason
    assert "h200" in big.alternatives  # 8 x 141 GB hold 810 GB of weights


def test_unknown_memory_removes_unless_unknown_values_are_kept(kb) -> None:
    w = "model=llama-3.1-70b,precision=fp8,ttft-ms=3000,tpot-ms=250"
    group = "small-llm-inference-accelerators"
    removed = {e.id for e in matrix.build(kb, Preferences(group=group, workload=w)).excluded_alternatives}
    assert "l40s" in removed
    kept = matrix.build(kb, Preferences(group=group, workload=w, keep_unknown=True))
    assert "l40s" in kept.alternatives


def test_limits_no_measurement_meets_are_a_clear_refusal(kb) -> None:
    with pytest.raises(PreferenceError, match="no accelerator of this group has a measurement within"):
        matrix.build(kb, Preferences(group="small-llm-inference-accelerators", workload="model=llama-3.1-8b,tpot-ms=5"))


def test_an_unknown_model_or_engine_is_refused(kb) -> None:
    with pytest.raises(PreferenceError, match=r"not in knowledge/llm_models\.yaml"):
        matrix.build(kb, Preferences(group=SERVING, workload="model=gpt-5"))
    with pytest.raises(PreferenceError, match="engine `ollama` has no row"):
        matrix.build(kb, Preferences(group=SERVING, workload="model=llama-3.1-8b,engine=ollama"))


def test_exclude_alternative_removes_members_without_a_value(kb) -> None:
    m = matrix.build(kb, Preferences(group=SERVING, workload=TIGHT, missing="exclude-alternative"))
    assert not m.imputed_cells
    assert any(e.reason == "no value within your workload" for e in m.excluded_alternatives)


def test_the_fit_table_answers_every_member(kb) -> None:
    w = workload_fit.stated(kb, Preferences(group=SERVING, workload=TIGHT + ",price=2,api-price=0.2"))
    rows = workload_fit.fit_table(kb, SERVING, w)
    assert [r.id for r in rows] == list(kb.groups[SERVING].members)
    h100 = next(r for r in rows if r.id == "h100")
    assert h100.runs is True and h100.accelerators == 1 and "fits on one" in h100.memory
    assert h100.throughput == pytest.approx(25 * 310)
    assert any(line.startswith("rent: USD") for line in h100.cost) and any("API" in line for line in h100.cost)


@pytest.mark.slow
def test_the_report_says_which_measurement_each_workload_cell_used(kb) -> None:
    from selector.report import build, render

    prefs = Preferences(group=SERVING, workload=TIGHT)
    text = render.render_markdown(build.build_report(kb, prefs, samples=50, seed=0))
    assert "No workload stated" not in text
    assert "Workload cells of NVIDIA H100 SXM (80 GB): Throughput within your latency limits" in text
    assert "p99 TTFT 124 ms, p99 TPOT 39.8 ms, run 831c95a7" in text
    assert "offline peak is not used" in text  # the members without a rate within the limits say so
    offline = render.render_markdown(build.build_report(kb, Preferences(group=SERVING), samples=50, seed=0))
    assert "throughput columns are offline peaks" in offline


def test_a_stated_rate_says_how_many_accelerators_serve_it(kb) -> None:
    # H100 within 200 ms / 50 ms: 25 requests/s x 310 = 7,750 output tokens/s; 30 requests/s x 512 tokens = 15,360
    # tokens/s -> 2 accelerators
    w = workload_fit.stated(kb, Preferences(group=SERVING, workload=TIGHT + ",rate=30"))
    h100 = next(r for r in workload_fit.fit_table(kb, SERVING, w) if r.id == "h100")
    assert any(line.startswith("for 30 requests/s x 512 output tokens: 2 accelerator(s)") for line in h100.cost)


# Workloads that reach every sentence of the fit: tight limits, a rate, prices and power, no limits (the offline
# peak), limits no MLPerf Server result meets, a model too large for most accelerators, an engine named.
SAID = [
    TIGHT + ",rate=30,price=2,api-price=0.2,power-price=0.12",
    "model=llama-3.1-8b,api-input-price=0.1,api-output-price=0.4",
    "model=llama-3.1-70b,ttft-ms=100,tpot-ms=20,power-price=0.1",
    "model=llama-3.1-405b,precision=fp8,engine=vllm",
    "model=deepseek-v3,precision=fp8,concurrency=64",
]
ENGLISH_RUN = re.compile(r"(?<![\w/-])[A-Za-z][A-Za-z'’-]*(?: [A-Za-z0-9][A-Za-z0-9'’.+/-]*){3,}")
NUMBERS = re.compile(r"\d[\d,.]*\d|\d")
HAN = re.compile(r"[\u4e00-\u9fff]")


def _sentences(kb, text: str) -> list[str]:  # noqa: ANN001
    """Every sentence the workload fit writes for `text`: the fit table's and the ranked matrix's."""
    w = workload_fit.stated(kb, Preferences(group=SERVING, workload=text))
    rows = workload_fit.fit_table(kb, SERVING, w)
    said = [s for r in rows for s in (r.memory, r.support, r.throughput_note, *r.cost)]
    m = matrix.build(kb, Preferences(group=SERVING, workload=text, missing="impute-worst"))
    said += [c.note for row in m.cells for c in row if c.note]
    said += [e.reason for e in (*m.excluded_alternatives, *m.excluded_criteria)]
    return said + list(m.notes)


def _without_names(kb, text: str) -> str:  # noqa: ANN001
    """`text` without the knowledge's names (accelerators, engines, models, criteria) and the claims' scopes (a
    price's "on demand, estimated from ..."): data, which a Chinese page shows as it is."""
    names = [e.name for e in kb.entities.values()] + [m.name for m in kb.llm_models.values()]
    names += [c.name_en for c in kb.criteria.values()] + ["AccelMark", "MLPerf", "Offline", "Server"]
    names += [c.conditions.scope for c in kb.claims.values() if c.conditions.scope]
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


@pytest.mark.parametrize("text", SAID)
def test_every_sentence_of_the_fit_is_said_in_chinese_with_its_numbers(kb, text) -> None:
    said = _sentences(kb, text)
    assert said
    # the fit's own sentences are kept as Phrases (the rest are fixed catalog messages): a page says them in Chinese
    assert sum(isinstance(s, i18n.Phrase) for s in said) > len(said) / 2
    for sentence in said:
        chinese = i18n.stored(sentence, "zh")
        assert i18n.stored(sentence, "en") == sentence
        assert HAN.search(chinese), sentence
        assert not ENGLISH_RUN.findall(_without_names(kb, chinese)), chinese
        assert not Counter(NUMBERS.findall(sentence)) - Counter(NUMBERS.findall(chinese)), chinese


def test_the_fit_table_in_chinese_is_the_english_table_said_in_chinese(kb) -> None:
    w = workload_fit.stated(kb, Preferences(group=SERVING, workload=SAID[0]))
    en, zh = workload_fit.fit_table(kb, SERVING, w), workload_fit.fit_table(kb, SERVING, w, "zh")
    for e, z in zip(en, zh, strict=True):
        assert (z.id, z.name, z.runs, z.accelerators, z.throughput, z.evidence) == (
            e.id,
            e.name,
            e.runs,
            e.accelerators,
            e.throughput,
            e.evidence,
        )
        assert z.memory == i18n.stored(e.memory, "zh") != e.memory
        assert z.cost == tuple(i18n.stored(line, "zh") for line in e.cost)


# A refusal keeps its English text and is said in Chinese with the user's values (issue 36)
@pytest.mark.parametrize(
    ("stated", "english", "values"),
    [
        (
            "model=my-own",
            "workload: model `my-own` is not in knowledge/llm_models.yaml and its facts are incomplete (missing "
            "params-b, layers, kv-heads, head-dim); choose one of ",
            ("`my-own`", "params-b, layers, kv-heads, head-dim", "deepseek-r1"),
        ),
        (
            "model=llama-3.1-8b,engine=foo",
            "workload: engine `foo` has no row in knowledge/support.yaml; use ",
            ("`foo`", "knowledge/support.yaml", "vllm"),
        ),
    ],
)
def test_a_refusal_is_english_as_before_and_chinese_with_the_same_values(kb, stated, english, values):
    prefs = Preferences(group="llm-serving-single-accelerator", workload=stated)
    with pytest.raises(PreferenceError) as refused:
        workload_fit.stated(kb, prefs)
    assert str(refused.value).startswith(english)  # the rest lists the knowledge's models or engines
    said_in_both(refused.value, str(refused.value), values)

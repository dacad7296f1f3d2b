"""selector.decision.memory_fit against cases computed by hand: a dense GQA model, an MLA model (a different attention
layout), a model that needs two accelerators, and one that fits on none."""

from __future__ import annotations

import pytest

from selector.decision import memory_fit, workload
from selector.decision.workload import WorkloadError
from selector.knowledge import loading as knowledge


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _facts(kb, text: str):  # noqa: ANN001, ANN202
    w = workload.parse(text)
    return memory_fit.model_facts(kb, w), w


def test_dense_gqa_model_on_one_accelerator(kb) -> None:
    # Llama 3.1 8B in BF16: 8.03e9 x 2 B = 16.06 GB of weights. KV per token: 2 (K and V) x 32 layers x 8 KV heads
    # x 128 x 2 B = 131,072 B; 8 requests x (4,096 + 512) tokens = 36,864 tokens -> 4.832 GB.
    model, w = _facts(kb, "model=llama-3.1-8b,precision=bf16,context=4096,output=512,concurrency=8")
    assert memory_fit.kv_bytes_per_token(model, "bf16") == 131_072
    assert memory_fit.weights_gb(model, "bf16") == pytest.approx(16.06)
    assert memory_fit.kv_gb(model, w) == pytest.approx(36_864 * 131_072 / 1e9)
    fit = memory_fit.fit(model, w, "h100", "H100", 80.0)
    # 16.06 + 4.83 = 20.89 GB <= 72 GB usable (80 GB less the default 10 %)
    assert fit.count == 1 and fit.usable_gb == pytest.approx(72.0)
    assert fit.per_accelerator_gb == pytest.approx(16.06 + 4.8318, abs=1e-3)
    assert "fits on one H100" in fit.text


def test_a_70b_model_at_fp8_with_32_long_requests_needs_two_h200(kb) -> None:
    # 70.6 GB of FP8 weights; KV (BF16) per token 2 x 80 x 8 x 128 x 2 B = 327,680 B; 32 x 9,216 tokens -> 96.64 GB.
    # One H200 holds 126.9 GB (141 less 10 %): 70.6 + 96.64 = 167.2 does not fit; on two, each holds half the
    # weights and half the KV heads: 35.3 + 48.32 = 83.6 GB.
    model, w = _facts(kb, "model=llama-3.1-70b,precision=fp8,context=8192,output=1024,concurrency=32")
    fit = memory_fit.fit(model, w, "h200", "H200", 141.0)
    assert fit.kv_gb == pytest.approx(294_912 * 327_680 / 1e9)
    assert fit.count == 2
    assert fit.per_accelerator_gb == pytest.approx(35.3 + 96.636 / 2, abs=1e-2)
    assert fit.text.startswith("Llama 3.1 70B at FP8: 70.6 GB weights + 96.6 GB KV cache (BF16) for 32 x 9,216")
    assert "fits on 2 x H200 (tensor parallel 2)" in fit.text


def test_mla_caches_one_latent_per_layer_and_copies_it_on_every_rank(kb) -> None:
    # DeepSeek-V3: 61 layers x (512 latent + 64 rotary) x 2 B = 70,272 B per token, whatever its 128 heads; a GQA
    # layout with 128 KV heads of 128 would cache 2 x 61 x 128 x 128 x 2 = 3,997,696 B (57 times more).
    model, w = _facts(kb, "model=deepseek-v3,precision=fp8,context=32768,output=1024,concurrency=16")
    assert model.attention == "mla"
    assert memory_fit.kv_bytes_per_token(model, "bf16") == 61 * 576 * 2
    cache = 16 * 33_792 * 70_272 / 1e9  # 37.99 GB
    assert memory_fit.kv_gb(model, w) == pytest.approx(cache)
    # the latent has no heads to split: each of 8 ranks holds it whole, beside an eighth of 671 GB of weights
    assert memory_fit.kv_share(model, cache, 8) == pytest.approx(cache)
    fit = memory_fit.fit(model, w, "h200", "H200", 141.0)
    assert fit.count == 8 and fit.per_accelerator_gb == pytest.approx(671 / 8 + cache)
    # on 80 GB parts an eighth of the weights (83.9 GB) alone exceeds 72 GB usable: it fits on no count of 8
    none = memory_fit.fit(model, w, "h100", "H100", 80.0)
    assert none.count == 0 and none.fits is False and "does not fit on 8 x H100" in none.text


def test_gqa_heads_are_copied_beyond_their_count() -> None:
    model = memory_fit.ModelFacts("m", "M", 30.5, 48, "gqa", 4, 128, None, None, 3.3, "x")
    assert memory_fit.kv_share(model, 8.0, 2) == pytest.approx(4.0)
    assert memory_fit.kv_share(model, 8.0, 4) == pytest.approx(2.0)
    assert memory_fit.kv_share(model, 8.0, 8) == pytest.approx(2.0)  # 4 heads over 8 ranks: one head each


def test_unknown_memory_says_so_instead_of_guessing(kb) -> None:
    model, w = _facts(kb, "model=llama-3.1-8b")
    fit = memory_fit.fit(model, w, "x", "Some card", None)
    assert fit.count is None and fit.fits is None and "memory is unknown" in fit.text


def test_your_own_model_and_your_facts_over_a_bundled_one(kb) -> None:
    own, _ = _facts(kb, "model=my-13b,params-b=13,layers=40,kv-heads=40,head-dim=128")
    assert own.source == "your workload's facts"
    assert memory_fit.kv_bytes_per_token(own, "fp16") == 2 * 40 * 40 * 128 * 2
    tuned, _ = _facts(kb, "model=llama-3.1-8b,layers=16")
    assert tuned.layers == 16 and tuned.kv_heads == 8 and "your facts" in tuned.source
    with pytest.raises(WorkloadError, match="missing kv-heads, head-dim"):
        _facts(kb, "model=my-13b,params-b=13,layers=40")


def test_every_bundled_model_cites_its_config_and_states_its_layout(kb) -> None:
    assert {"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3.3-70b", "deepseek-v3", "mixtral-8x7b"} <= set(
        kb.llm_models
    )
    for model in kb.llm_models.values():
        assert model.config_url.startswith("https://") and model.config_url.endswith("config.json")
        assert f'"num_hidden_layers": {model.layers}' in model.quote
        if model.attention == "gqa":
            assert f'"num_key_value_heads": {model.kv_heads}' in model.quote
        else:
            assert f'"kv_lora_rank": {model.kv_lora_rank}' in model.quote

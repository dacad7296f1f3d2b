"""``--lang en|zh`` on the command line (selector.commands._context): rank, report, sensitivity and validate write
their text for people in Chinese or English; ids, JSON keys and numbers stay as they are; a repeated or unknown
--lang exits 2 naming the languages."""

from __future__ import annotations

import json
import re

import pytest

from selector.__main__ import main

# Left to `make test` (marked slow: tests/conftest.py): each call loads the whole knowledge.
pytestmark = pytest.mark.slow

HAN = re.compile(r"[\u4e00-\u9fff]")
EDGE = "edge-accelerators"
SCORE = re.compile(r"^\s*\d+=?\s+(.+?)\s+(\d\.\d{4})\s", re.M)  # a ranking row: rank, name, score


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rank_table_in_chinese_has_chinese_headers_and_the_english_scores(capsys):
    code, zh, err = run(capsys, "rank", "--group", EDGE, "--lang", "zh")
    assert code == 0, err
    _, en, _ = run(capsys, "rank", "--group", EDGE)
    assert "排名" in zh and "得分" in zh and "入围" in zh and "决策路径：" in zh
    assert "推荐：" in zh and "Decision path:" not in zh and "Why:" not in zh
    assert "Decision path:" in en and not HAN.search(en.split("\n")[2])  # English by default
    assert SCORE.findall(zh) == SCORE.findall(en) != []


def test_rank_json_keeps_its_keys_and_translates_the_sentences(capsys):
    _, en, _ = run(capsys, "rank", "--group", EDGE, "--format", "json")
    code, zh, err = run(capsys, "rank", "--group", EDGE, "--format", "json", "--lang", "zh")
    assert code == 0, err
    en, zh = json.loads(en), json.loads(zh)
    assert zh.keys() == en.keys() and zh["verdict"].keys() == en["verdict"].keys()
    assert zh["ranking"] == en["ranking"]
    # a cell's ids, names and numbers stay; its note is a sentence for people and follows --lang
    assert [{**c, "note": ""} for c in zh["cells"]] == [{**c, "note": ""} for c in en["cells"]]
    notes = [(c["note"], e["note"]) for c, e in zip(zh["cells"], en["cells"], strict=True) if e["note"]]
    assert notes and all(HAN.search(z) and not HAN.search(e) for z, e in notes)
    assert zh["verdict"]["recommended"] == en["verdict"]["recommended"]
    assert HAN.search(zh["verdict"]["headline"]) and not HAN.search(en["verdict"]["headline"])
    assert HAN.search(zh["why"]) and HAN.search(zh["verdict"]["badge"])
    assert HAN.search(zh["dimension_basis"][0]["text"])


def test_sensitivity_in_chinese(capsys):
    code, zh, err = run(capsys, "sensitivity", "--group", EDGE, "--samples", "200", "--lang", "zh")
    assert code == 0, err
    assert "临界点：" in zh and "方法一致性：" in zh and "排名逆转：" in zh and "Tipping points:" not in zh
    _, out, _ = run(capsys, "sensitivity", "--group", EDGE, "--samples", "200", "--format", "json", "--lang", "zh")
    _, out_en, _ = run(capsys, "sensitivity", "--group", EDGE, "--samples", "200", "--format", "json")
    data, english = json.loads(out), json.loads(out_en)
    assert data.keys() == english.keys() and data["smaa"] == english["smaa"]
    assert HAN.search(data["badge"]) and HAN.search(data["method_agreement"]["summary"])


def test_report_in_chinese_to_stdout(capsys):
    code, out, err = run(
        capsys, "report", "--group", EDGE, "--samples", "100", "--format", "md", "-o", "-", "--lang", "zh"
    )
    assert code == 0, err
    assert "## 背景与问题陈述" in out and "## 决策结果" in out and "Decision Outcome" not in out


def test_validate_says_it_in_chinese(capsys):
    code, out, _ = run(capsys, "validate", "--lang", "zh")
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("知识库有效：")


@pytest.mark.parametrize("command", [["validate"], ["rank", "--group", EDGE], ["sensitivity", "--group", EDGE]])
def test_a_repeated_or_unknown_lang_exits_2_naming_the_languages(command, capsys):
    with pytest.raises(SystemExit) as twice:
        main([*command, "--lang", "zh", "--lang", "en"])
    assert twice.value.code == 2
    assert "--lang is given twice; give it once (en, zh)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as unknown:
        main([*command, "--lang", "fr"])
    assert unknown.value.code == 2
    assert "language 'fr' is not available; use one of en, zh" in capsys.readouterr().err


def test_a_workload_report_in_chinese_has_no_english_note(capsys, tmp_path):
    from tests.app.test_language import english_found

    workload = "model=llama-3.1-8b,context=2048,ttft-ms=200,tpot-ms=50"
    argv = ["report", "--group", "llm-serving-single-accelerator", "--workload", workload, "--samples", "100"]
    for lang in ("zh", "en"):
        code, _, err = run(capsys, *argv, "--format", "md", "-o", str(tmp_path / f"{lang}.md"), "--lang", lang)
        assert code == 0, err
    zh, en = ((tmp_path / f"{lang}.md").read_text(encoding="utf-8") for lang in ("zh", "en"))
    # the claims' English renderings are data the Chinese report shows after the quote
    shown = "\n".join(line for line in zh.splitlines() if not line.startswith("- 英文："))
    assert not english_found(shown), english_found(shown)[:3]
    assert "的工作负载单元格" in zh and "Workload cells of" in en and len(english_found(en)) >= 20


@pytest.mark.parametrize("command", [("rank",), ("sensitivity", "--samples", "10")])
def test_a_refusal_follows_lang_with_the_users_values(command, capsys):
    argv = [*command, "--group", "no-such-group"]
    code, _, zh = run(capsys, *argv, "--lang", "zh")
    assert code == 2
    assert zh.startswith("error: 未知选型类别 `no-such-group`；已知类别：training-frameworks"), zh
    code, _, en = run(capsys, *argv)
    assert code == 2
    assert en.startswith("error: unknown group `no-such-group`; known groups: training-frameworks"), en

"""selector.i18n: the message catalogs are complete and compiled, languages are negotiated and validated, numbers
and dates follow the locale."""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
import pickle
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from selector import i18n

ROOT = Path(__file__).resolve().parent.parent
PO = i18n.LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "N_": None}
# babel.cfg's sections: (directory, pattern, extractor)
SOURCES = [
    ("app.py", "app.py", "python"),
    ("app_pages", "**.py", "python"),
    ("selector", "**.py", "python"),
    ("selector/report/templates", "**.j2", "jinja2"),
]


def extracted() -> set[str]:
    """Every message the code marks, as `make i18n` extracts it (same keywords and files as babel.cfg)."""
    config = (ROOT / "babel.cfg").read_text()
    for folder, pattern, method in SOURCES:
        section = f"[{method}: {folder if folder.endswith('.py') else folder + '/' + pattern}]"
        assert section in config, f"babel.cfg lacks {section}"
    found: set[str] = set()
    for folder, pattern, method in SOURCES:
        if folder.endswith(".py"):
            base, method_map = ROOT, [(folder, method)]
        else:
            base, method_map = ROOT / folder, [(pattern, method)]
        for _file, _line, message, _comments, _context in extract_from_dir(
            base, method_map, keywords=KEYWORDS, comment_tags=()
        ):
            found.add(message)
    return found


def test_the_report_templates_messages_are_extracted():
    # the report's headings live in its templates: the catalog must hold them, or a Chinese report keeps English
    found = extracted()
    assert {"Decision matrix and its evidence", "Chosen option:", "Context and Problem Statement"} <= found


def test_every_translation_call_is_one_the_extractor_sees():
    # `i18n.translator(lang)("text")` translates at run time but pybabel only extracts `_("text")` and
    # `N_("text")`: such a message would never reach the catalog and stay English in every language
    called = re.compile(r"translator\([^)]*\)\(\s*[\"']")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("selector", "app_pages")
        for path in (ROOT / folder).rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if called.search(line)
    ]
    assert not offenders, f"bind `_ = i18n.translator(lang)` and call `_(...)`: {offenders}"


def catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="zh")


def test_every_interface_message_has_its_chinese_translation():
    messages = {m.id: m.string for m in catalog() if m.id}
    code = extracted()
    assert code, "the extractor found no message: babel.cfg or the keywords changed"
    missing = sorted(code - set(messages))
    assert not missing, f"run `make i18n` and translate: {missing[:5]}"
    untranslated = sorted(m for m in code if not messages[m].strip())
    assert not untranslated, f"messages without a Chinese translation: {untranslated[:5]}"
    stale = sorted(set(messages) - code)
    assert not stale, f"catalog entries no code uses (run `make i18n`): {stale[:5]}"


def test_translations_keep_every_placeholder_and_markup():
    placeholder = re.compile(r"\{[a-z_]+\}")
    for message in catalog():
        if not message.id:
            continue
        assert sorted(placeholder.findall(message.string)) == sorted(placeholder.findall(message.id)), message.id
        assert message.string.count("**") == message.id.count("**"), message.id


def test_the_compiled_catalog_is_the_catalog():
    buffer = io.BytesIO()
    write_mo(buffer, catalog())
    assert MO.read_bytes() == buffer.getvalue(), "selector/locale/zh/LC_MESSAGES/messages.mo is stale: run make i18n"


def test_translator_translates_into_chinese_and_english_is_the_source():
    assert i18n.translator("zh")("Recommend") == "选型推荐"
    assert i18n.translator("en")("Recommend") == "Recommend"
    assert i18n.translator("zh")("a message no catalog has") == "a message no catalog has"


@pytest.mark.parametrize(
    ("browser", "expected"),
    [
        *[("zh-CN", "zh"), ("zh_TW", "zh"), ("zh-Hant-HK", "zh"), ("zh", "zh")],
        *[("en-GB", "en"), ("fr-FR", "en"), (None, "en"), ("", "en"), ("not a locale", "en")],
    ],
)
def test_the_first_visit_follows_the_browser_language(browser, expected):
    assert i18n.negotiate(browser) == expected


def test_an_unknown_language_is_refused_with_those_allowed():
    assert i18n.check_language("zh") == "zh"
    with pytest.raises(i18n.LanguageError, match="use one of en, zh"):
        i18n.check_language("fr")


def test_pick_prefers_the_language_and_falls_back_to_the_other():
    assert i18n.pick("zh", "Training frameworks", "训练框架") == "训练框架"
    assert i18n.pick("en", "Training frameworks", "训练框架") == "Training frameworks"
    assert i18n.pick("zh", "PyTorch", None) == "PyTorch"
    assert i18n.pick("en", None, "昇腾") == "昇腾"


def test_dates_follow_the_locale():
    assert i18n.format_date(dt.date(2026, 12, 2), "en") == "Dec 2, 2026"
    assert i18n.format_date(dt.date(2026, 12, 2), "zh") == "2026年12月2日"


# --- every sentence selector/ writes for people, in Chinese: no catalog sentence left in English ----------------


def _sentences(lang: str) -> str:
    """What the selector's sentence functions write in `lang`, over every group (ranked with its defaults and with
    an answer that makes a rule prefer another option), one report and one robustness analysis, and the rare
    branches (ties, reversals, disagreeing methods, flagged leads) built directly."""
    from selector import flagged_lead, verdict
    from selector.commands import rank, sensitivity
    from selector.decision import basis, recommend
    from selector.decision.preferences import Preferences
    from selector.knowledge import loading
    from selector.report import build, render
    from selector.robustness import agreement, analysis, figure, reversal, tipping
    from selector.views.recommend import ranking_markdown

    kb = loading.load()
    texts = []
    for group in kb.groups:
        for answers in ({}, {"goal": "industrial"}):
            rec = recommend.recommend(kb, Preferences(group=group, answers=answers))
            judged = verdict.judge(rec, lang=lang)
            texts += [judged.headline, *judged.details, judged.badge, rec.why_in(lang), rec.preference_in(lang)]
            texts += [b.text for b in basis.dimension_basis(kb, rec.matrix, lang=lang)]
            texts.append(ranking_markdown(rec, judged, "MAVT", lang=lang))
    prefs = Preferences(group="gpu-inference-runtimes", answers={"goal": "industrial"}, exclude_vendors=("intel",))
    report = build.build_report(kb, prefs, samples=200, lang=lang)
    texts += [render.render_markdown(report), render.render_html(report)]
    rec = recommend.recommend(kb, prefs)
    result = analysis.analyse(rec, samples=200)
    texts += [rank._table(kb, rec, verdict.judge(rec, lang=lang), lang), sensitivity._table(rec, result, lang)]
    tips = [tipping.TippingPoint("cost", w, 0.25, "A", "B", "mavt", "value", True) for w in (0.1, 0.5)]
    texts += [t.text(lang=lang) for t in tips]
    moves = [
        reversal.Perturbation("remove", "C", {}, (("A", "B"),), ()),
        reversal.Perturbation("add_copy", "C", {}, (), (("A", "B"),)),
    ]
    texts += [reversal.RankReversalReport("mavt", "value", ("A", "B", "C"), (1, 2, 3), tuple(moves), 1).text(lang=lang)]
    split = agreement.MethodAgreement(
        ("A", "B"),
        ("mavt", "topsis"),
        ("value", "vector"),
        None,
        None,
        ("A", "B"),
        np.full((2, 2), np.nan),
        {"wpm": "x"},
    )
    texts += [split.text(lang=lang), figure.badge("A", 0.4, 2000, 0.3, lang=lang)]
    for decides in (True, False):
        texts.append(flagged_lead.FlaggedLead("A", ("cost (c1: outdated)",), "B", decides).sentence(lang=lang))
    return "\n".join(texts)


@pytest.mark.slow
def test_every_sentence_of_the_selector_is_chinese_when_asked():
    from tests.app.test_language import english_found

    found = english_found(_sentences("zh"))
    assert not found, f"English sentences left in the selector's Chinese output: {found[:5]}"
    # the same check finds the English sentences in the English output (it can fail)
    assert len(english_found(_sentences("en"))) >= 40


# --- Phrase: a sentence built from a marked template and fields, said in either language ------------------------

# four or more English words in a row (as tests/app/test_language.py finds English on a Chinese page)
HAN = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"(?<![\w/-])[A-Za-z][A-Za-z'’-]*(?: [A-Za-z0-9][A-Za-z0-9'’.+/-]*){3,}")
NUMBERS = re.compile(r"\d[\d,.]*\d|\d")


def _fits_on_one_h200() -> i18n.Phrase:
    from selector.decision import memory_fit

    need = i18n.Phrase(
        memory_fit.NEED,
        model="Llama 3.1 8B",
        precision="BF16",
        weights="16.1 GB",
        cache="0.3 GB",
        cache_precision="BF16",
        requests="1",
        tokens="2,560",
    )
    room = i18n.Phrase(memory_fit.ROOM, memory="141.0 GB", usable="126.9 GB", overhead="10%")
    where = i18n.Phrase(memory_fit.ONE, name="NVIDIA H200")
    return i18n.Phrase(memory_fit.FITS, need=need, where=where, room=room, per="16.4 GB")


def test_a_phrase_is_its_english_text():
    phrase = _fits_on_one_h200()
    # what the f-string wrote before the note became a Phrase, character for character
    before = (
        "Llama 3.1 8B at BF16: 16.1 GB weights + 0.3 GB KV cache (BF16) for 1 x 2,560 tokens: fits on one NVIDIA "
        "H200 (141.0 GB, 126.9 GB usable after 10% runtime overhead; 16.4 GB on each)"
    )
    assert phrase == before and str(phrase) == before and type(str(phrase)) is str
    assert phrase.in_("en") == before and i18n.stored(phrase, "en") == before
    assert hash(phrase) == hash(before) and {phrase: 1}[before] == 1
    assert json.dumps({"note": phrase}) == json.dumps({"note": before})


def test_a_phrase_in_chinese_translates_every_part_and_keeps_every_number_and_name():
    phrase = _fits_on_one_h200()
    chinese = phrase.in_("zh")
    assert chinese != str(phrase) and HAN.search(chinese)
    assert i18n.stored(phrase, "zh") == chinese
    assert not ENGLISH_RUN.findall(chinese.replace("NVIDIA H200", "").replace("Llama 3.1 8B", ""))
    # every number of the English, as many times (the Chinese writes "one H200" as "1 张 H200": one more)
    assert not Counter(NUMBERS.findall(str(phrase))) - Counter(NUMBERS.findall(chinese))
    assert "NVIDIA H200" in chinese and "Llama 3.1 8B" in chinese
    # the nested phrases are said in Chinese too (the room and where it fits), not left as their English
    assert "usable after" not in chinese and "one NVIDIA" not in chinese
    assert "扣除 10% 运行时开销后可用 126.9 GB" in chinese and "1 张 NVIDIA H200" in chinese


def test_a_template_the_catalog_lacks_stays_english_with_its_fields_said():
    inner = i18n.Phrase(i18n.N_("no TDP known"))
    phrase = i18n.Phrase("a template no catalog holds: {why}", why=inner)
    assert phrase.in_("zh") == "a template no catalog holds: TDP 未知"
    assert i18n.Phrase("no catalog holds this").in_("zh") == "no catalog holds this"
    # a plain field is a value shown as it is, even when it reads like a catalog message
    assert i18n.Phrase(i18n.N_("{first}; {second}"), first="Recommend", second="2").in_("zh") == "Recommend；2"


def test_joined_phrases_join_in_the_language_and_a_twin_says_its_own_chinese():
    parts = [i18n.Phrase(i18n.N_("no TDP known")), "run 3", i18n.Phrase.twin("Throughput", "吞吐量")]
    joined = i18n.joined(parts)
    assert joined == "no TDP known; run 3; Throughput"
    assert joined.in_("zh") == "TDP 未知；run 3；吞吐量"
    assert i18n.joined([]) == "" and i18n.joined(["only"]) == "only"
    assert i18n.Phrase.twin("Latency", None).in_("zh") == "Latency"  # no Chinese twin: the English stays


def test_a_phrase_survives_pickling_and_copying_and_cannot_be_changed():
    phrase = _fits_on_one_h200()
    for copied in (pickle.loads(pickle.dumps(phrase)), copy.deepcopy(phrase)):
        assert type(copied) is i18n.Phrase and copied == phrase and copied.in_("zh") == phrase.in_("zh")
    twin = pickle.loads(pickle.dumps(i18n.Phrase.twin("Throughput", "吞吐量")))
    assert twin.in_("zh") == "吞吐量"
    with pytest.raises(AttributeError, match="immutable"):
        phrase.template = "x"

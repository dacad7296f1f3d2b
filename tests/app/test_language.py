"""The language switch through AppTest: `lang=zh` in the link gives the Chinese interface (navigation, sidebar and
the translated pages), the switch changes it and writes the link, and a saved profile keeps it."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from selector import i18n
from tests.app.helpers import APP, ok

PO = i18n.LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po"
HAN = re.compile(r"[\u4e00-\u9fff]")


def page_text(at: AppTest) -> str:
    parts = [e.value for e in (*at.title, *at.subheader, *at.markdown, *at.caption)]
    parts += [e.label for e in (*at.expander, *at.toggle, *at.selectbox, *at.tabs)]
    parts += [" ".join(map(str, t.value.columns)) for t in at.table]
    return "\n".join(str(p) for p in parts)


def english_messages() -> list[str]:
    with PO.open("rb") as f:
        # the messages that are sentences (a word like "Export" may also be a dataset's own term)
        return [m.id for m in read_po(f) if m.id and len(m.id.split()) >= 4]


def english_found(text: str) -> list[str]:
    """The interface sentences of the catalog that `text` shows in English (placeholders filled with anything)."""
    found = []
    for message in english_messages():
        shape = re.compile(".+?".join(re.escape(part) for part in re.split(r"\{[a-z_]+\}", message)))
        if shape.search(text):
            found.append(message)
    return found


def opened_page(path: str, lang: str | None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if lang:
        at.query_params["lang"] = lang
    ok(at.run())
    return ok(at.switch_page(path).run())


def data_sources(lang: str | None) -> AppTest:
    return opened_page("app_pages/data_sources.py", lang)


# The pages whose every interface text goes through the catalogs: (page, its Chinese title, Chinese it must show).
TRANSLATED = [
    ("app_pages/data_sources.py", "数据来源与许可", ("证据等级", "内置知识库")),
    ("app_pages/frameworks.py", "框架与运行时", ("评分为 1 到 5", "指标")),
    ("app_pages/evidence.py", "证据", ("知识库中的每条论断", "原文引述（中文）", "论断之间的冲突")),
    ("app_pages/accelerators.py", "加速芯片", ("规格浏览", "细分市场", "x 轴")),
    ("app_pages/techniques.py", "技术、案例与资源", ("文章对优化技术", "显示适用于")),
]


@pytest.mark.parametrize(("path", "title", "expected"), TRANSLATED)
def test_lang_zh_in_the_link_gives_the_chinese_page(path, title, expected):
    at = opened_page(path, "zh")
    assert at.title[0].value == title
    text = page_text(at)
    for chinese in expected:
        assert chinese in text
    found = english_found(text)
    assert not found, f"English interface text on the Chinese page: {found[:3]}"
    # the same check finds the English page's sentences (it can fail)
    assert len(english_found(page_text(opened_page(path, "en")))) >= 2


def test_without_lang_the_page_is_english_and_the_link_stays_as_it_was():
    at = data_sources(None)
    assert at.title[0].value == "Data sources and licences"
    assert not HAN.search(at.title[0].value)
    assert "lang" not in at.query_params


def test_the_switch_changes_the_language_and_writes_it_into_the_link():
    at = AppTest.from_file(APP, default_timeout=60)
    ok(at.run())
    at = ok(at.switch_page("app_pages/data_sources.py").run())
    switch = at.sidebar.button_group[0]
    ok(switch.set_value("zh").run())
    assert at.title[0].value == "数据来源与许可"
    assert at.query_params["lang"] == ["zh"] or at.query_params["lang"] == "zh"
    ok(at.sidebar.button_group[0].set_value("en").run())
    assert at.title[0].value == "Data sources and licences"


def test_an_unknown_lang_in_the_link_keeps_english():
    at = data_sources("fr")
    assert at.title[0].value == "Data sources and licences"

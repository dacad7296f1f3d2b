"""app_pages/_cached.py: the Export page's report and files are cached by one key, :class:`ReportKey`, whose hash
stands for the knowledge and the session's files by the knowledge's data hash, as their underscored arguments did."""

from __future__ import annotations

import dataclasses

from app_pages._cached import ReportKey, export_files, report_for
from selector.decision.preferences import Preferences

PREFS = Preferences(group="edge-accelerators").model_dump_json()


def test_a_key_is_the_knowledge_hash_the_preferences_the_address_the_front_matter_and_the_language(kb):
    key = ReportKey(kb, PREFS, "https://selector.example.org", (), "", "en")
    assert key.data_hash == kb.data_hash
    assert key.cache_key() == (kb.data_hash, PREFS, "https://selector.example.org", "", "en")
    # the session's files only feed the decision record's digest: the knowledge's hash differs whenever they do
    with_files = dataclasses.replace(key, uploads=(("mine.yaml", b"claims: []\n"),))
    assert with_files == key and hash(with_files) == hash(key)
    other_prefs = Preferences(group="training-frameworks").model_dump_json()
    changes = [{"lang": "zh"}, {"meta_json": '{"title": "T"}'}, {"app_url": ""}, {"prefs_json": other_prefs}]
    assert all(dataclasses.replace(key, **change) != key for change in changes)


def test_the_report_and_the_files_are_made_once_per_key(kb):
    key = ReportKey(kb, PREFS, "", (), "", "en")
    report = report_for(key)
    assert report_for(ReportKey(kb, PREFS, "", (("mine.yaml", b"x"),), "", "en")) is report
    files = export_files(key)
    assert export_files(ReportKey(kb, PREFS, "", (), "", "en")) is files
    assert set(files) == {"md", "html", "csv", "xlsx"}
    chinese = report_for(dataclasses.replace(key, lang="zh"))
    assert chinese is not report and chinese.lang == "zh"

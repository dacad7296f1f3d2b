"""app_pages/_cached.py: the Export page's report and files are cached by one key, :class:`ReportKey`, whose hash
stands for the knowledge and the session's files by the knowledge's data hash, as their underscored arguments did;
a decision profile's file is made once per profile."""

from __future__ import annotations

import dataclasses

from app_pages._cached import ReportKey, export_files, profile_yaml, report_for
from selector import profile
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


def test_a_profile_file_is_made_once_per_profile_and_is_that_profiles_dump():
    first = profile.make(Preferences(group="edge-accelerators"), {}, [], language="en")
    second = profile.make(Preferences(group="edge-accelerators"), {"tiers": ["measured"]}, [], language="en")
    texts = [profile_yaml(p.model_dump_json(), p) for p in (first, second)]
    assert texts == [profile.dump(first), profile.dump(second)] and texts[0] != texts[1]
    # the JSON is the key: the same profile again is the file already made, not a new dump
    assert profile_yaml(first.model_dump_json(), second) == texts[0]

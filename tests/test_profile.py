"""Tests of selector/profile.py: a profile survives save -> load -> save byte for byte, ranks exactly like the
preferences it was saved from, re-validates its embedded uploads, and refuses bad files with their line."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector import i18n, profile
from selector.decision import recommend
from selector.decision.elicitation import Elicitation, percentages
from selector.decision.preferences import MISSING_POLICIES, PreferenceError, Preferences
from selector.decision.problem import METHODS, ScoringError
from selector.decision.requirement import Requirement
from selector.io.yamlio import parse_yaml
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from tests.conftest import FIXTURES, KNOWLEDGE
from tests.examples import examples

# Left to `make test` (marked slow: tests/conftest.py): embedded uploads re-checked against the whole knowledge.
pytestmark = pytest.mark.slow

UPLOADS = FIXTURES / "uploads"
KB = knowledge.load()

ids = st.from_regex(r"[a-z0-9][a-z0-9_.\-]{0,12}", fullmatch=True)
weights = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
# Profiles refuse the characters selector.io.textpolicy refuses (controls, bidi, zero-width: Cc, Cf, Zl, Zp).
# Unassigned code points (Cn) are left out too: the policy's table includes format controls newer than Python
# 3.11's Unicode 14 data (U+13439-U+1343F, Unicode 15), which that data calls unassigned.
_HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp", "Cn")
file_names = st.text(
    alphabet=st.characters(blacklist_categories=_HIDDEN_CATEGORIES, blacklist_characters="/\\"), min_size=1, max_size=30
).filter(lambda s: s.strip() == s and s)
_VISIBLE = st.characters(blacklist_categories=_HIDDEN_CATEGORIES) | st.sampled_from("\n\t\r")


def visible_text(max_size: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=_VISIBLE, max_size=max_size)


@st.composite
def any_preferences(draw) -> Preferences:
    """Preferences with arbitrary (not necessarily known) ids: for the file format, not for ranking."""
    return Preferences(
        group=draw(ids),
        answers=draw(st.dictionaries(ids, ids, max_size=3)),
        dimension_weights=draw(st.dictionaries(ids, weights, max_size=4)),
        criterion_weights=draw(st.dictionaries(ids, weights, max_size=4)),
        method=draw(ids),
        scaler=draw(st.none() | ids),
        missing=draw(st.sampled_from(MISSING_POLICIES)),
        use_flagged=draw(st.booleans()),
    )


@st.composite
def any_profile(draw) -> profile.Profile:
    filter_keys = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
    names = draw(st.lists(file_names, max_size=3, unique=True))
    return profile.Profile(
        preferences=draw(any_preferences()),
        filters=draw(st.dictionaries(filter_keys, st.lists(visible_text(20), max_size=3).map(tuple), max_size=3)),
        uploads=tuple(profile.EmbeddedUpload(name=n, text=draw(visible_text(200))) for n in names),
    )


@settings(max_examples=examples(300), deadline=None)
@given(any_profile())
def test_save_load_save_is_byte_identical(p: profile.Profile) -> None:
    text = profile.dump(p)
    loaded = profile.load(text, check_uploads=False)
    assert loaded == p
    assert profile.dump(loaded) == text


@settings(max_examples=examples(300), deadline=None)
@given(st.dictionaries(visible_text(8), visible_text(40) | weights | st.booleans() | st.none(), max_size=5))
def test_dump_yaml_is_read_back_unchanged_by_the_guarded_reader(data: dict) -> None:
    from selector.io.yamlio import dump_yaml

    parsed, issues = parse_yaml(dump_yaml(data).encode("utf-8"), "t.yaml")
    assert issues == []
    assert parsed.data == data


def test_look_alikes_are_quoted_so_that_the_guarded_reader_accepts_them() -> None:
    p = profile.make(Preferences(group="1e3", answers={"no": "on"}, method="1.5e-3"), {"text": ["1e3", "yes", "~"]})
    text = profile.dump(p)
    assert "'1e3'" in text and "'no'" in text and "'on'" in text
    assert profile.load(text) == p


@st.composite
def ranking_preferences(draw) -> Preferences:
    """Preferences that fit the bundled knowledge (they may still be unrankable, e.g. every weight zero)."""
    group = draw(st.sampled_from(list(KB.groups)))
    questions = draw(st.lists(st.sampled_from(list(KB.questions)), unique=True, max_size=3))
    answers = {q: draw(st.sampled_from([o.id for o in KB.questions[q].options])) for q in questions}
    dims = draw(st.dictionaries(st.sampled_from(list(KB.dimensions)), weights, max_size=4))
    criteria = [gc.criterion for gc in KB.groups[group].criteria]
    crits = draw(st.dictionaries(st.sampled_from(criteria), st.floats(0, 10), max_size=3))
    method = draw(st.sampled_from(list(METHODS)))
    scaler = draw(st.none() | st.sampled_from(METHODS[method].scalers))
    return Preferences(
        group=group,
        answers=answers,
        dimension_weights=dims,
        criterion_weights=crits,
        method=method,
        scaler=scaler,
        missing=draw(st.sampled_from(MISSING_POLICIES)),
        use_flagged=draw(st.booleans()),
    )


def _outcome(prefs: Preferences):
    try:
        return recommend.recommend(KB, prefs).to_dict()
    except (PreferenceError, ScoringError) as exc:
        return (type(exc), str(exc))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranking_preferences())
def test_a_loaded_profile_ranks_exactly_like_its_preferences(prefs: Preferences) -> None:
    loaded = profile.load(profile.dump(profile.make(prefs)))
    assert loaded.to_preferences() == prefs
    assert _outcome(loaded.to_preferences()) == _outcome(prefs)


# ----------------------------------------------------------------------------------------------------------
# Embedded uploads


def test_embedded_uploads_are_revalidated_and_rebuild_the_same_knowledge() -> None:
    chip = Upload("good_new_chip.yaml", (UPLOADS / "good_new_chip.yaml").read_bytes())
    orin = Upload("good_orin_override.csv", (UPLOADS / "good_orin_override.csv").read_bytes())
    prefs = Preferences(group="my-edge-accelerators", method="topsis")
    loaded = profile.load(profile.dump(profile.make(prefs, uploads=[chip, orin])))
    results = profile.check(loaded)
    assert [r.ok for r in results] == [True, True]
    kb, issues = knowledge.collect(KNOWLEDGE, extra=profile.merge_uploads(loaded))
    assert kb is not None, [str(i) for i in issues]
    assert {"fixture-npu", "u-orin-tops"} <= set(kb.entities) | set(kb.claims)
    assert recommend.recommend(kb, loaded.to_preferences()).ranking[0].id == "fixture-npu"


def test_a_profile_with_an_invalid_upload_is_refused_naming_the_upload() -> None:
    bad = Upload("negative_tops.csv", (UPLOADS / "negative_tops.csv").read_bytes())
    text = profile.dump(profile.make(Preferences(group="edge-accelerators"), uploads=[bad]))
    with pytest.raises(profile.ProfileError) as caught:
        profile.load(text)
    assert caught.value.issues
    assert all(i.file == "negative_tops.csv (embedded in profile.yaml)" for i in caught.value.issues)
    assert {i.line for i in caught.value.issues} == {2, 3}
    assert profile.load(text, check_uploads=False).uploads[0].name == "negative_tops.csv"


def test_crlf_uploads_are_embedded_with_lf_and_still_validate() -> None:
    data = (UPLOADS / "good_new_chip.csv").read_bytes()
    assert b"\r\n" in data
    p = profile.make(Preferences(group="edge-accelerators"), uploads=[Upload("chip.csv", data)])
    assert "\r" not in p.uploads[0].text
    assert profile.check(profile.load(profile.dump(p)))[0].ok


# ----------------------------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("preferences:\n  group: edge-accelerators\n  colour: red\n", 3, "unknown key `preferences.colour`"),
        ("preferences:\n  group: edge-accelerators\n  dimension_weights: {cost: -1}\n", 3, "negative"),
        ("version: 1\nfilters: {}\n", 1, "missing required key `preferences`"),
        ("version: 2\npreferences: {group: a}\n", 1, "`version`"),
        ("preferences:\n  group: a\n  use_flagged: no\n", 3, "read by YAML 1.1 as the boolean"),
        ("preferences: {group: a}\npreferences: {group: b}\n", 2, "duplicate key `preferences`"),
        ("- a\n- b\n", 1, "a profile is a mapping"),
        ("preferences: {group: a}\nuploads:\n  - {name: ../x.csv, text: ''}\n", 3, "without directories"),
    ],
)
def test_bad_profiles_are_refused_with_their_line(text: str, line: int | None, fragment: str) -> None:
    with pytest.raises(profile.ProfileError) as caught:
        profile.load(text)
    issues = caught.value.issues
    assert any(fragment in i.message for i in issues), [str(i) for i in issues]
    assert any(i.line == line for i in issues if fragment in i.message), [str(i) for i in issues]


def test_an_alias_bomb_profile_is_refused() -> None:
    with pytest.raises(profile.ProfileError, match="more than 50 aliases"):
        profile.load((UPLOADS / "alias_bomb.yaml").read_bytes())


def test_profile_size_is_capped() -> None:
    with pytest.raises(profile.ProfileError, match="limit"):
        profile.load(b"#" * (profile.MAX_PROFILE_BYTES + 1))


def test_two_uploads_with_one_name_are_refused() -> None:
    twice = [Upload("a.csv", b"x"), Upload("a.csv", b"y")]
    with pytest.raises(ValueError, match="more than once"):
        profile.make(Preferences(group="g"), uploads=twice)


def test_filters_are_plain_lists_of_strings() -> None:
    p = profile.make(Preferences(group="g"), {"tiers": ["measured", "claimed"], "text": ["吞吐"]})
    text = profile.dump(p)
    assert "吞吐" in text, "allow_unicode keeps Chinese readable"
    assert "tiers:\n  - measured\n  - claimed\n" in text
    assert set(string.printable) >= set(text) - set("吞吐")


# ----------------------------------------------------------------------------------------------------------
# The shareable link

# Weights as a link writes them (``%g``, six significant digits): every value a slider can produce is one of these.
link_weights = weights.filter(lambda w: float(f"{w:g}") == w) | st.integers(0, 10_000).map(float)


@st.composite
def link_profile(draw) -> profile.Profile:
    p = draw(any_profile())
    prefs = p.preferences.model_copy(
        update={
            "dimension_weights": draw(st.dictionaries(ids, link_weights, max_size=4)),
            "criterion_weights": draw(st.dictionaries(ids, link_weights, max_size=4)),
        }
    )
    return p.model_copy(update={"preferences": prefs})


@settings(max_examples=examples(300), deadline=None)
@given(link_profile())
def test_a_link_rebuilds_the_profile_whose_uploads_fit(p: profile.Profile) -> None:
    params = profile.to_link_params(p)
    fits = profile.DATA_PARAM in params
    assert fits == (bool(p.uploads) and profile.encode_uploads(p.uploads) is not None)
    rebuilt = profile.from_link_params(params, check_uploads=False)
    if fits or not p.uploads:
        assert rebuilt == p
    else:
        assert rebuilt == p.model_copy(update={"uploads": ()})
    assert all(len(v) <= profile.MAX_LINK_DATA_CHARS for k, v in params.items() if k == profile.DATA_PARAM)
    assert all(set(v) <= set(string.ascii_letters + string.digits + "-_") for k, v in params.items() if k == "ev")


def test_link_params_keep_the_preference_parameters_unchanged() -> None:
    from selector.decision.preferences import to_query

    prefs = Preferences(group="edge-accelerators", dimension_weights={"cost": 60}, method="topsis")
    p = profile.make(prefs, {"tiers": ["measured"]}, [Upload("a.csv", b"x,y\n")])
    params = profile.to_link_params(p)
    assert {k: v for k, v in params.items() if k not in profile.LINK_PARAMS} == to_query(prefs)
    assert set(params) - set(to_query(prefs)) == {"ev", "data"}


def test_preference_params_name_every_parameter_the_preferences_write() -> None:
    # The app clears and reads exactly these keys: one the preferences write but the list lacks would linger in a
    # link after a reset.
    every_field = Preferences(
        group="g",
        answers={"target": "edge"},
        dimension_weights={"cost": 70},
        criterion_weights={"power-w": 2},
        method="topsis",
        scaler="vector",
        missing="impute-median",
        use_flagged=False,
        constraints=["power-w<=10"],
        exclude_vendors=["nvidia"],
        exclude=["h200"],
        keep_unknown=True,
        elicitation=Elicitation(method="swing", answers=("cost=100",)),
        workload="model=llama-3.1-8b,ttft-ms=200",
        requirement=Requirement(choosing="accelerator", memory_gb=141),
    )
    assert set(profile.to_link_params(profile.make(every_field))) == set(profile.PREFERENCE_PARAMS)


def test_uploads_too_large_for_a_link_are_left_out() -> None:
    import os

    noise = os.urandom(6_000).hex()  # incompressible: far more than 4,000 characters once encoded
    p = profile.make(Preferences(group="g"), uploads=[Upload("big.csv", noise.encode())])
    assert profile.encode_uploads(p.uploads) is None
    assert profile.DATA_PARAM not in profile.to_link_params(p)


def test_a_link_re_validates_its_uploads_like_a_profile_load() -> None:
    chip = Upload("good_new_chip.yaml", (UPLOADS / "good_new_chip.yaml").read_bytes())
    good = profile.to_link_params(profile.make(Preferences(group="my-edge-accelerators"), uploads=[chip]))
    assert profile.check(profile.from_link_params(good))[0].ok
    bad = Upload("negative_tops.csv", (UPLOADS / "negative_tops.csv").read_bytes())
    params = profile.to_link_params(profile.make(Preferences(group="edge-accelerators"), uploads=[bad]))
    with pytest.raises(profile.ProfileError) as caught:
        profile.from_link_params(params)
    assert all(i.file == "negative_tops.csv (embedded in the link)" for i in caught.value.issues)


def _b64(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _tampered() -> list[tuple[str, str]]:
    import zlib

    good = profile.encode_uploads((profile.EmbeddedUpload(name="a.csv", text="entity,metric\n" * 20),))
    assert good is not None
    flipped = good[:10] + ("A" if good[10] != "A" else "B") + good[11:]
    return [
        (good[: len(good) // 2], "cut short"),
        (flipped, "zlib"),
        (good + "!", "base64url"),
        ("x" * (profile.MAX_LINK_DATA_CHARS + 1), "at most 4,000"),
        (_b64(b"plain text, not compressed"), "zlib"),
        (_b64(zlib.compress(b"\0" * 3_000_000, 9)), "more than 100,000 bytes"),
        (_b64(zlib.compress(b"\xff\xfe")), "JSON"),
        (_b64(zlib.compress(b'{"name": "a.csv"}')), "{name, text}"),
        (_b64(zlib.compress(b'[{"name": "../a.csv", "text": ""}]')), "without directories"),
        (_b64(zlib.compress(b'[{"name": "a", "text": ""}, {"name": "a", "text": ""}]')), "more than once"),
    ]


@pytest.mark.parametrize(("data", "fragment"), _tampered())
def test_a_tampered_data_parameter_is_refused_saying_what_is_wrong(data: str, fragment: str) -> None:
    assert len(data) <= profile.MAX_LINK_DATA_CHARS or fragment == "at most 4,000"
    with pytest.raises(profile.ProfileError) as caught:
        profile.from_link_params({"group": "edge-accelerators", "data": data})
    message = str(caught.value)
    assert "parameter `data`" in message and fragment in message, message


@pytest.mark.parametrize(
    ("ev", "fragment"),
    [
        ("%%%", "base64url"),
        (_b64(b"not json"), "JSON"),
        (_b64(b'["tiers"]'), "filters map"),
        (_b64(b'{"Bad Key": ["x"]}'), "Bad Key"),
    ],
)
def test_malformed_filters_are_refused(ev: str, fragment: str) -> None:
    with pytest.raises(profile.ProfileError, match="parameter `ev`") as caught:
        profile.from_link_params({"group": "g", "ev": ev})
    assert fragment in str(caught.value)


def test_a_link_without_a_group_needs_a_default() -> None:
    with pytest.raises(profile.ProfileError, match="names no `group`"):
        profile.from_link_params({})
    assert profile.from_link_params({}, default_group="g").preferences.group == "g"


def test_a_profile_without_elicitation_has_no_elicitation_key() -> None:
    text = profile.dump(profile.make(Preferences(group="training-frameworks", dimension_weights={"cost": 70})))
    assert "elicitation" not in text
    assert profile.load(text, check_uploads=False).preferences.elicitation is None


def test_a_profile_keeps_how_the_weights_were_elicited() -> None:
    record = Elicitation(
        method="pairwise",
        answers=(
            "performance/cost=3",
            "performance/ecosystem=5",
            "performance/risk=5",
            "cost/ecosystem=2",
            "cost/risk=3",
            "ecosystem/risk=1/2",
        ),
    )
    kb = knowledge.load()
    weights = percentages(record.result(list(kb.dimensions)).weights)
    prefs = Preferences(group="training-frameworks", dimension_weights=weights, elicitation=record)
    text = profile.dump(profile.make(prefs))
    assert "method: pairwise" in text and "ecosystem/risk=1/2" in text
    loaded = profile.load(text, check_uploads=False)
    assert loaded.preferences == prefs
    assert profile.dump(loaded) == text
    assert loaded.preferences.checked(kb).elicited.acceptable


def test_a_profile_with_a_bad_elicitation_names_its_line() -> None:
    text = "preferences:\n  group: training-frameworks\n  elicitation:\n    method: pairwise\n    answers: [a/b=99]\n"
    with pytest.raises(profile.ProfileError) as caught:
        profile.load(text, check_uploads=False)
    assert "outside Saaty's scale" in str(caught.value)
    assert any(issue.line == 5 for issue in caught.value.issues)


def test_a_link_parameter_given_twice_with_different_values_is_refused() -> None:
    params = {"group": "mobile-runtimes", "w": ["performance=40", "performance=10,cost=5"]}
    with pytest.raises(profile.ProfileError) as caught:
        profile.from_link_params(params, check_uploads=False)
    assert any("`w` is given 2 times" in i.message for i in caught.value.issues)
    same = profile.from_link_params({"group": "mobile-runtimes", "w": ["cost=5", "cost=5"]}, check_uploads=False)
    assert same.preferences.dimension_weights == {"cost": 5.0}


def test_an_answer_given_twice_in_one_link_value_is_refused_like_on_the_command_line() -> None:
    with pytest.raises(profile.ProfileError, match="given twice"):
        profile.from_link_params({"group": "mobile-runtimes", "answers": "goal=a,goal=b"}, check_uploads=False)


def test_the_language_travels_in_the_profile_and_the_link() -> None:
    prefs = Preferences(group="edge-accelerators")
    saved = profile.make(prefs, language="zh")
    text = profile.dump(saved)
    assert "language: zh" in text
    assert profile.load(text).language == "zh"
    params = profile.to_link_params(saved)
    assert params[profile.LANG_PARAM] == "zh"
    assert profile.from_link_params(params).language == "zh"
    # saved without a language: the file reads as before the field existed, and the reader's browser decides
    plain = profile.dump(profile.make(prefs))
    assert "language" not in plain and profile.load(plain).language is None


def test_a_link_or_profile_with_an_unknown_language_is_refused_with_the_languages_allowed() -> None:
    with pytest.raises(profile.ProfileError, match="`lang`: language 'fr' is not available; use one of en, zh"):
        profile.from_link_params({"group": "edge-accelerators", "lang": "fr"})
    with pytest.raises(profile.ProfileError, match="language"):
        profile.load("preferences: {group: edge-accelerators}\nlanguage: fr\n")


def test_a_links_refusals_keep_their_english_and_are_said_in_chinese_with_its_values():
    # issue 36: each issue's message is the refusal's phrase, said in the page's language where shown
    with pytest.raises(profile.ProfileError) as refused:
        profile.from_link_params({"w": ["cost=1", "cost=2"], "cw": "tdp-w=abc"})
    first, second = (issue.message for issue in refused.value.issues)
    assert first == "`w` is given 2 times with different values; give it once"
    assert second == "it names no `group`; add group=<a group id>"
    assert "`w`" in i18n.stored(first, "zh") and "2" in i18n.stored(first, "zh")
    assert "`group`" in i18n.stored(second, "zh") and "链接" in i18n.stored(second, "zh")
    with pytest.raises(profile.ProfileError) as refused:
        profile.from_link_params({"group": "training-frameworks", "w": "performance=-1"})
    [issue] = refused.value.issues
    assert issue.message == "dimension weights weight `performance` is negative (-1.0); weights must be >= 0"
    assert i18n.stored(issue.message, "zh") == "维度权重 `performance` 为负数（-1.0）；权重必须 >= 0"

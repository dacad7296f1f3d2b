"""Decision profiles: preferences, evidence filters and the user's uploads in one self-contained YAML file or link.

A profile is what a user saves to come back to (or hand to a colleague) a decision: the group, scenario answers,
weights, method, scaler, missing-value policy and flagged-claims choice
(:class:`selector.decision.preferences.Preferences`),
the evidence-page filters, and the text of every file they uploaded, so that loading it anywhere rebuilds the same
knowledge and the same ranking. Loading reads with the guarded parser and re-validates the embedded uploads.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from selector.adr import DecisionMeta
from selector.decision.preferences import PreferenceError, Preferences, from_query, to_query
from selector.errors import SelectorError
from selector.i18n import N_, Language, LanguageError, Phrase, check_language
from selector.io import textpolicy
from selector.io.yamlio import dump_yaml, parse_yaml
from selector.issues import Issue, schema_issues
from selector.knowledge.loading import DEFAULT_KNOWLEDGE, Upload
from selector.record import MAX_RECORD_CHARS
from selector.uploads.intake import MAX_UPLOAD_BYTES, UploadResult, validate_upload

FORMAT_VERSION = 1
MAX_EMBEDDED_UPLOADS = 8
#: Embedded uploads dominate a profile's size; YAML quoting may add a little to each.
MAX_PROFILE_BYTES = MAX_EMBEDDED_UPLOADS * MAX_UPLOAD_BYTES * 2
PROFILE_NAME = "profile.yaml"
#: The parameters that carry the preferences (every key selector.decision.preferences.to_query may write).
PREFERENCE_PARAMS = (
    "group",
    "answers",
    "w",
    "cw",
    "method",
    "scaler",
    "missing",
    "flagged",
    "must",
    "xv",
    "x",
    "unknown",
    "el",
    "wl",
    "req",
)
#: The link's own parameters beside the preferences': Evidence filters and uploads.
FILTERS_PARAM = "ev"
DATA_PARAM = "data"
#: The interface language (selector.i18n); absent means the reader's browser decides.
LANG_PARAM = "lang"
LINK_PARAMS = (FILTERS_PARAM, DATA_PARAM, LANG_PARAM)
#: Longest `data` a link carries; larger uploads are shared as a profile file instead.
MAX_LINK_DATA_CHARS = 4_000
#: A link's uploads decompress to at most this many bytes: 25 times the largest `data`, far above what real files
#: compress by, while a repetitive hostile file cannot inflate a 4,000-character link into a megabyte to check.
MAX_LINK_DECOMPRESSED_BYTES = 100_000
MAX_LINK_FILTERS_CHARS = 4_000
LINK_NAME = "the link"

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _visible(value: str) -> str:
    # The same characters every reader refuses (selector.io.textpolicy): a profile must not smuggle them in escaped.
    problem = textpolicy.first_hidden(value)
    if problem is not None:
        raise ValueError(problem)
    return value


FilterKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
FilterValue = Annotated[str, StringConstraints(max_length=200), AfterValidator(_visible)]


class ProfileError(SelectorError, ValueError):
    """A profile that cannot be loaded; ``issues`` says every problem with its line."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        errors = [i for i in self.issues if i.level == "ERROR"]
        super().__init__(f"{len(errors)} problem(s) in the profile:\n" + "\n".join(str(i) for i in errors))


class EmbeddedUpload(BaseModel):
    """One uploaded file, by name and full text, exactly as the user gave it (line endings normalised)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_visible)]
    text: Annotated[str, StringConstraints(max_length=MAX_UPLOAD_BYTES), AfterValidator(_visible)]

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        if _CONTROL.search(v) or "\n" in v or "/" in v or "\\" in v:
            raise ValueError("a file name without directories, line breaks or control characters")
        return v

    @classmethod
    def from_upload(cls, upload: Upload) -> EmbeddedUpload:
        """Embed an upload's bytes (UTF-8 text; CRLF line endings become LF, which CSV and YAML read alike)."""
        return cls(name=upload.name, text=upload.data.decode("utf-8").replace("\r\n", "\n"))


class Profile(BaseModel):
    """A decision profile: preferences + evidence filters + embedded uploads.

    ``filters`` holds the evidence page's filters as plain lists of strings (e.g. ``{"tiers": ["measured"]}``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = FORMAT_VERSION
    preferences: Preferences
    filters: dict[FilterKey, tuple[FilterValue, ...]] = Field(default_factory=dict)
    uploads: tuple[EmbeddedUpload, ...] = Field(default=(), max_length=MAX_EMBEDDED_UPLOADS)
    # The decision record of the ranking when the profile was saved (selector.record.to_text), for `recheck`;
    # checked (digest included) only when re-checked, so that loading a profile never depends on it.
    record: Annotated[str, StringConstraints(max_length=MAX_RECORD_CHARS), AfterValidator(_visible)] | None = None
    # The interface language the profile was saved in; None lets the reader's browser decide.
    language: Language | None = None
    # The decision record's front matter (title, status, deciders, consulted, informed, review-by; selector.adr).
    decision: DecisionMeta | None = None

    @field_validator("uploads")
    @classmethod
    def _distinct_names(cls, v: tuple[EmbeddedUpload, ...]) -> tuple[EmbeddedUpload, ...]:
        names = [u.name for u in v]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"upload name(s) {', '.join(twice)} appear more than once; each file is embedded once")
        return v

    def to_preferences(self) -> Preferences:
        """The preferences to rank with."""
        return self.preferences


def make(
    preferences: Preferences,
    filters: dict[str, Sequence[str]] | None = None,
    uploads: Sequence[Upload] = (),
    record: str | None = None,
    language: Language | None = None,
    decision: DecisionMeta | None = None,
) -> Profile:
    """Build a profile from what a session holds (the uploads as the user gave them, the ranking's record, the
    interface language, the decision's front matter; left out when it is the default)."""
    return Profile(
        preferences=preferences,
        filters={k: tuple(v) for k, v in (filters or {}).items()},
        uploads=tuple(EmbeddedUpload.from_upload(u) for u in uploads),
        record=record,
        language=language,
        decision=None if decision is None or decision.is_default else decision,
    )


def upload_files(profile: Profile) -> list[tuple[str, bytes]]:
    """The embedded uploads as (name, bytes), as a decision record digests them (selector.record.uploads_digest)."""
    return [(u.name, u.text.encode("utf-8")) for u in profile.uploads]


def dump(profile: Profile) -> str:
    """The profile as YAML text: keys sorted, floats in shortest round-trip form, multi-line texts as blocks.

    ``dump(load(dump(p))) == dump(p)`` byte for byte.
    """
    header = "# AI Stack Selector decision profile: load it on the My data page or with `selector rank --profile`.\n"
    data = profile.model_dump(mode="json")
    if data["preferences"]["elicitation"] is None:
        del data["preferences"]["elicitation"]  # a profile without elicitation reads exactly as before it existed
    for optional in ("record", "language", "decision"):
        if data[optional] is None:
            del data[optional]  # a profile saved without a decision record, a language or front matter reads as before
    return header + dump_yaml(data, sort_keys=True)


def load(
    text: str | bytes,
    kb_dir: Path = DEFAULT_KNOWLEDGE,
    check_uploads: bool = True,
    name: str = PROFILE_NAME,
) -> Profile:
    """Read a profile written by :func:`dump` (or by hand).

    Parameters
    ----------
    text
        The YAML text or bytes.
    kb_dir
        The knowledge the embedded uploads are checked against.
    check_uploads
        Re-validate the embedded uploads (default); a profile whose uploads do not validate is refused.
    name
        The file name used in messages.

    Raises
    ------
    ProfileError
        With every problem and its line: unsafe or malformed YAML, unknown keys, bad values, invalid uploads.
    """
    raw = text.encode("utf-8") if isinstance(text, str) else text
    parsed, issues = parse_yaml(raw, name, MAX_PROFILE_BYTES)
    if parsed is None:
        raise ProfileError(issues)
    if not isinstance(parsed.data, dict):
        raise ProfileError([Issue("ERROR", name, 1, None, "a profile is a mapping with the key `preferences`")])
    try:
        profile = Profile.model_validate(parsed.data)
    except ValidationError as exc:
        hint = "a profile has version, preferences, filters, uploads, record, language and decision"
        raise ProfileError(schema_issues(exc, name, parsed.line_of, hint, whole="profile")) from None
    if check_uploads:
        check(profile, kb_dir, name)
    return profile


def check(profile: Profile, kb_dir: Path = DEFAULT_KNOWLEDGE, name: str = PROFILE_NAME) -> list[UploadResult]:
    """Validate the embedded uploads in order (each against the knowledge and the ones before it).

    `name` is the profile's file name (or ``the link``): the issues say ``upload.csv (embedded in <name>)``.

    Returns
    -------
    list of UploadResult
        One per embedded upload; their ``upload`` fields are what to merge (``knowledge.collect(extra=...)``).

    Raises
    ------
    ProfileError
        If any upload has an ERROR; the issues name the upload file and the profile it came from.
    """
    results: list[UploadResult] = []
    problems: list[Issue] = []
    accepted: list[Upload] = []
    for embedded in profile.uploads:
        result = validate_upload(embedded.name, embedded.text.encode("utf-8"), kb_dir, others=accepted)
        results.append(result)
        if result.ok:
            accepted.append(result.upload)
        else:
            problems.extend(
                Issue(i.level, f"{i.file} (embedded in {name})", i.line, i.record, i.message) for i in result.errors
            )
    if problems:
        raise ProfileError(problems)
    return results


def merge_uploads(profile: Profile, kb_dir: Path = DEFAULT_KNOWLEDGE, name: str = PROFILE_NAME) -> list[Upload]:
    """The profile's uploads checked and converted, ready for ``knowledge.collect(kb_dir, extra=...)``."""
    return [result.upload for result in check(profile, kb_dir, name)]


# ----------------------------------------------------------------------------------------------------------
# The shareable link: preferences + `ev` (filters) + `data` (uploads, when small)


def _link_error(param: str, message: str) -> ProfileError:
    return ProfileError([Issue("ERROR", f"{LINK_NAME} (parameter `{param}`)", None, None, message)])


def _b64encode(data: bytes) -> str:
    # URL-safe alphabet without padding: the text needs no percent-encoding in an address.
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str, param: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_\-]*", text):
        raise _link_error(param, "it holds characters outside base64url (A-Z, a-z, 0-9, - and _); copy the whole link")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise _link_error(param, "it is not valid base64url (cut short?); copy the whole link") from None


def _canonical_json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def encode_filters(filters: Mapping[str, Sequence[str]]) -> str | None:
    """The Evidence filters as the link's `ev` value (base64url of canonical JSON); None when there are none."""
    if not filters:
        return None
    return _b64encode(_canonical_json({k: list(v) for k, v in filters.items()}))


def decode_filters(text: str) -> dict[str, tuple[str, ...]]:
    """Read an `ev` value written by :func:`encode_filters`.

    Raises
    ------
    ProfileError
        When the value is too long, not base64url, not JSON, or not a mapping of filter names to lists of strings.
    """
    if len(text) > MAX_LINK_FILTERS_CHARS:
        raise _link_error(
            FILTERS_PARAM, f"it is {len(text):,} characters long; a link's filters fit in {MAX_LINK_FILTERS_CHARS:,}"
        )
    raw = _b64decode(text, FILTERS_PARAM)
    try:
        data = json.loads(raw.decode("utf-8"))
        return Profile.model_validate({"preferences": {"group": "x"}, "filters": data}).filters
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise _link_error(FILTERS_PARAM, "it does not decode to JSON; copy the whole link") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise _link_error(FILTERS_PARAM, f"`{where}`: {first['msg']}; filters map a name to a list of texts") from None


def encode_uploads(uploads: Sequence[EmbeddedUpload]) -> str | None:
    """The uploads as the link's `data` value: base64url(zlib(canonical JSON of the profile's uploads section)).

    Returns
    -------
    str or None
        None when there are no uploads or they do not fit a link (longer than ``MAX_LINK_DATA_CHARS`` encoded, or
        more than ``MAX_LINK_DECOMPRESSED_BYTES`` once decompressed): share the profile file instead.
    """
    if not uploads:
        return None
    payload = _canonical_json([u.model_dump(mode="json") for u in uploads])
    if len(payload) > MAX_LINK_DECOMPRESSED_BYTES:
        return None
    text = _b64encode(zlib.compress(payload, 9))
    return text if len(text) <= MAX_LINK_DATA_CHARS else None


_UPLOADS_SECTION = TypeAdapter(tuple[EmbeddedUpload, ...])


def decode_uploads(text: str) -> tuple[EmbeddedUpload, ...]:
    """Read a `data` value written by :func:`encode_uploads`; never decompresses more than the cap.

    Raises
    ------
    ProfileError
        When the value is too long, not base64url, not zlib, decompresses past ``MAX_LINK_DECOMPRESSED_BYTES``, is
        not JSON, or is not a list of ``{name, text}`` files (the uploads themselves are checked by :func:`check`).
    """
    if len(text) > MAX_LINK_DATA_CHARS:
        raise _link_error(
            DATA_PARAM,
            f"it is {len(text):,} characters long; a link carries at most "
            f"{MAX_LINK_DATA_CHARS:,} (larger files travel as a profile file)",
        )
    raw = _b64decode(text, DATA_PARAM)
    inflater = zlib.decompressobj()
    try:
        payload = inflater.decompress(raw, MAX_LINK_DECOMPRESSED_BYTES + 1)
    except zlib.error:
        raise _link_error(DATA_PARAM, "it is not zlib data (altered or cut short); copy the whole link") from None
    if len(payload) > MAX_LINK_DECOMPRESSED_BYTES or inflater.unconsumed_tail:
        raise _link_error(DATA_PARAM, f"it decompresses to more than {MAX_LINK_DECOMPRESSED_BYTES:,} bytes")
    if not inflater.eof:
        raise _link_error(DATA_PARAM, "its compressed data is cut short; copy the whole link")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise _link_error(DATA_PARAM, "it does not decode to JSON; copy the whole link") from None
    try:
        uploads = _UPLOADS_SECTION.validate_python(data)
        Profile(preferences=Preferences(group="x"), uploads=uploads)  # the profile's own limits (count, names)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "uploads"
        raise _link_error(DATA_PARAM, f"`{where}`: {first['msg']}; it should list files as {{name, text}}") from None
    return uploads


def to_link_params(profile: Profile) -> dict[str, str]:
    """The profile as URL query parameters: the preferences' (``to_query``), `ev` and, when small, `data`.

    Weights travel as ``to_query`` writes them (``%g``: six significant digits), which every slider value fits.
    Whether the uploads fit is ``DATA_PARAM in to_link_params(p)`` (see :func:`encode_uploads`).
    """
    params = to_query(profile.preferences)
    filters = encode_filters(profile.filters)
    if filters is not None:
        params[FILTERS_PARAM] = filters
    data = encode_uploads(profile.uploads)
    if data is not None:
        params[DATA_PARAM] = data
    if profile.language is not None:
        params[LANG_PARAM] = profile.language
    return params


def _single_values(params: Mapping[str, str | Sequence[str]]) -> tuple[dict[str, str], list[Issue]]:
    """The link's parameters with one value each, and an issue for each parameter given more than once.

    A browser keeps every ``w=`` of ``?w=a&w=b``; taking the last would rank with settings the link's author may not
    have meant, so a repeated parameter is refused (with different values) or read once (the same value repeated).
    """
    single: dict[str, str] = {}
    issues: list[Issue] = []
    for key, value in params.items():
        values = [value] if isinstance(value, str) else list(value)
        distinct = list(dict.fromkeys(values))
        if len(distinct) > 1:
            message = Phrase(
                N_("`{key}` is given {count} times with different values; give it once"),
                key=key,
                count=str(len(values)),
            )
            issues.append(Issue("ERROR", LINK_NAME, None, None, message))
        if distinct:
            single[key] = distinct[-1]
    return single, issues


def from_link_params(
    params: Mapping[str, str],
    default_group: str | None = None,
    kb_dir: Path = DEFAULT_KNOWLEDGE,
    check_uploads: bool = True,
) -> Profile:
    """Rebuild a profile from a link's query parameters (the inverse of :func:`to_link_params`).

    Parameters
    ----------
    params
        The query parameters; those that are not the link's own are ignored.
    default_group
        The group when the link names none.
    kb_dir
        The knowledge the carried uploads are checked against.
    check_uploads
        Re-validate the carried uploads exactly like a profile load (default).

    Raises
    ------
    ProfileError
        With every problem: malformed preferences, filters or `data`, and invalid uploads.
    """
    problems: list[Issue] = []
    params, repeated = _single_values(params)
    problems.extend(repeated)
    preferences = None
    if "group" not in params and default_group is None:
        problems.append(
            Issue("ERROR", LINK_NAME, None, None, Phrase(N_("it names no `group`; add group=<a group id>")))
        )
    else:
        try:
            preferences = from_query(params, default_group or "")
        except PreferenceError as exc:
            problems.append(Issue("ERROR", LINK_NAME, None, None, exc.message))  # a phrase: said where shown
    filters: dict[str, tuple[str, ...]] = {}
    uploads: tuple[EmbeddedUpload, ...] = ()
    language = None
    if LANG_PARAM in params:
        try:
            language = check_language(params[LANG_PARAM])
        except LanguageError as exc:
            problems.append(Issue("ERROR", LINK_NAME, None, None, f"`{LANG_PARAM}`: {exc}"))
    for param in (FILTERS_PARAM, DATA_PARAM):
        if param not in params:
            continue
        try:
            if param == FILTERS_PARAM:
                filters = decode_filters(params[param])
            else:
                uploads = decode_uploads(params[param])
        except ProfileError as exc:
            problems.extend(exc.issues)
    if problems or preferences is None:
        raise ProfileError(problems)
    profile = Profile(preferences=preferences, filters=filters, uploads=uploads, language=language)
    if check_uploads:
        check(profile, kb_dir, LINK_NAME)
    return profile

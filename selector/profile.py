"""Decision profiles: preferences, evidence filters and the user's uploads in one self-contained YAML file.

A profile is what a user saves to come back to (or hand to a colleague) a decision: the group, scenario answers,
weights, method, scaler, missing-value policy and flagged-claims choice (:class:`selector.preferences.Preferences`),
the evidence-page filters, and the text of every file they uploaded, so that loading it anywhere rebuilds the same
knowledge and the same ranking. Loading reads with the guarded parser and re-validates the embedded uploads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

from selector.knowledge import DEFAULT_KNOWLEDGE, Upload
from selector.preferences import Preferences
from selector.uploads import MAX_UPLOAD_BYTES, UploadResult, dump_yaml, validate_upload
from selector.yamlio import Issue, parse_yaml

FORMAT_VERSION = 1
MAX_EMBEDDED_UPLOADS = 8
#: Embedded uploads dominate a profile's size; YAML quoting may add a little to each.
MAX_PROFILE_BYTES = MAX_EMBEDDED_UPLOADS * MAX_UPLOAD_BYTES * 2
PROFILE_NAME = "profile.yaml"

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
FilterKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
FilterValue = Annotated[str, StringConstraints(max_length=200)]


class ProfileError(ValueError):
    """A profile that cannot be loaded; ``issues`` says every problem with its line."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        errors = [i for i in self.issues if i.level == "ERROR"]
        super().__init__(f"{len(errors)} problem(s) in the profile:\n" + "\n".join(str(i) for i in errors))


class EmbeddedUpload(BaseModel):
    """One uploaded file, by name and full text, exactly as the user gave it (line endings normalised)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    text: Annotated[str, StringConstraints(max_length=MAX_UPLOAD_BYTES)]

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

    def to_upload(self) -> Upload:
        return Upload(self.name, self.text.encode("utf-8"))


class Profile(BaseModel):
    """A decision profile: preferences + evidence filters + embedded uploads.

    ``filters`` holds the evidence page's filters as plain lists of strings (e.g. ``{"tiers": ["measured"]}``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = FORMAT_VERSION
    preferences: Preferences
    filters: dict[FilterKey, tuple[FilterValue, ...]] = Field(default_factory=dict)
    uploads: tuple[EmbeddedUpload, ...] = Field(default=(), max_length=MAX_EMBEDDED_UPLOADS)

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
) -> Profile:
    """Build a profile from what a session holds (the uploads as the user gave them)."""
    return Profile(
        preferences=preferences,
        filters={k: tuple(v) for k, v in (filters or {}).items()},
        uploads=tuple(EmbeddedUpload.from_upload(u) for u in uploads),
    )


def dump(profile: Profile) -> str:
    """The profile as YAML text: keys sorted, floats in shortest round-trip form, multi-line texts as blocks.

    ``dump(load(dump(p))) == dump(p)`` byte for byte.
    """
    header = "# AI Stack Selector decision profile: load it on the My data page or with `selector rank --profile`.\n"
    return header + dump_yaml(profile.model_dump(mode="json"), sort_keys=True)


def _issues(exc: ValidationError, parsed_lines, name: str) -> list[Issue]:  # noqa: ANN001 - selector.yamlio.Parsed
    issues = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        where = ".".join(str(p) for p in loc) or "profile"
        if err["type"] == "extra_forbidden":
            message = f"unknown key `{where}`; a profile has version, preferences, filters and uploads"
        elif err["type"] == "missing":
            message = f"missing required key `{where}`"
        else:
            message = f"`{where}`: {err['msg']}"
        issues.append(Issue("ERROR", name, parsed_lines.line_of(loc), None, message))
    return issues


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
        raise ProfileError(_issues(exc, parsed, name)) from None
    if check_uploads:
        check(profile, kb_dir)
    return profile


def check(profile: Profile, kb_dir: Path = DEFAULT_KNOWLEDGE) -> list[UploadResult]:
    """Validate the embedded uploads in order (each against the knowledge and the ones before it).

    Returns
    -------
    list of UploadResult
        One per embedded upload; their ``upload`` fields are what to merge (``knowledge.collect(extra=...)``).

    Raises
    ------
    ProfileError
        If any upload has an ERROR; the issues name the upload file and say it came from the profile.
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
                Issue(i.level, f"{i.file} (embedded in the profile)", i.line, i.record, i.message)
                for i in result.errors
            )
    if problems:
        raise ProfileError(problems)
    return results


def merge_uploads(profile: Profile, kb_dir: Path = DEFAULT_KNOWLEDGE) -> list[Upload]:
    """The profile's uploads checked and converted, ready for ``knowledge.collect(kb_dir, extra=...)``."""
    return [result.upload for result in check(profile, kb_dir)]

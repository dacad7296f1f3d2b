"""Where evidence comes from: source documents and their sections, the bundled dataset snapshots, and the
locator of a number inside a snapshot (with the footnote it renders with)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StringConstraints, field_validator, model_validator

from selector.knowledge.fields import Count, Id, IsoDate, Name, RawPath, Record, ShortText, Text, Title, Upstream


class Section(Record):
    """A part of a source document; `lines` is the inclusive 1-based line range it covers."""

    id: Annotated[str, StringConstraints(pattern=r"^[0-9a-z.]+$", max_length=20)]
    heading_zh: Text
    heading_en: Text
    lines: tuple[Count, Count]

    @field_validator("lines")
    @classmethod
    def _ordered(cls, v: tuple[int, int]) -> tuple[int, int]:
        if v[0] < 1 or v[1] < v[0]:
            raise ValueError("lines must be [first, last] with 1 <= first <= last")
        return v


# `document`: a public web page or filing (datasheet, product page, regulation) that sources entity facts.
SourceKind = Literal["article", "assessment", "user", "dataset", "document"]


class RawTableSpec(Record):
    """One bundled raw file (or a folder of one-object JSON files) of a dataset, and the columns keying its rows.

    With ``key`` empty, each file is one row, named by its parent folder (an AccelMark submission).
    """

    file: RawPath
    key: tuple[ShortText, ...] = ()


class Source(Record):
    """A document claims come from: an article (text kept in knowledge/sources/), our assessment, a user, or a
    public dataset whose raw snapshot is bundled under ``knowledge/imports/raw/<id>/``.

    A ``dataset`` source names its licence, the attribution the licence requires, the upstream
    ``repository@commit:path`` and the snapshot date, and the licence files bundled beside the raw data.
    """

    id: Id
    kind: SourceKind = "article"
    # A bare file name inside knowledge/sources/: no directories, so a source cannot point outside the knowledge.
    file: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*\.txt$", max_length=120)] | None = (
        None
    )
    title_zh: Title | None = None
    title_en: Title
    language: Literal["zh", "en"] = "zh"
    author: Name | None = None
    sections: tuple[Section, ...] = ()
    licence: ShortText | None = None
    attribution: Text | None = None
    upstream: tuple[Upstream, ...] = ()
    snapshot_date: IsoDate | None = None
    licence_files: tuple[RawPath, ...] = ()
    tables: tuple[RawTableSpec, ...] = ()
    url: ShortText | None = None
    retrieved: IsoDate | None = None  # a `document`'s retrieval (or recording) date
    notes_en: Text | None = None

    @model_validator(mode="after")
    def _article_needs_text(self) -> Source:
        if self.kind == "article" and (not self.file or not self.sections or not self.title_zh):
            raise ValueError("an article source needs `file`, `title_zh` and `sections`")
        if self.kind == "dataset":
            missing = [
                key
                for key in ("licence", "attribution", "upstream", "snapshot_date", "licence_files", "tables")
                if not getattr(self, key)
            ]
            if missing:
                raise ValueError(f"a dataset source needs {', '.join(f'`{k}`' for k in missing)}")
        if self.kind == "document" and (not self.url or not self.retrieved):
            raise ValueError("a document source needs its `url` and the date it was `retrieved` (YYYY-MM-DD)")
        return self

    def table_for(self, file: str) -> RawTableSpec | None:
        """The table spec a bundled raw `file` belongs to: the same file, or a folder above it."""
        for spec in self.tables:
            if file == spec.file or file.startswith(spec.file.rstrip("/") + "/"):
                return spec
        return None


Conversion = Literal[
    "none",  # the raw number as it stands
    "flops_to_tflops",  # FLOP/s or OP/s -> 10^12 per second
    "bytes_to_gb",  # bytes -> 10^9 bytes
    "gib_to_gb",  # binary GiB -> 10^9 bytes (a figure labelled GB that is GiB)
    "bytes_per_s_to_tb_per_s",  # bytes/s -> 10^12 bytes/s
    "sparse_to_dense",  # a 2:4 structured-sparsity peak -> the dense peak (half of it)
    "per_accelerator",  # a system's result / (accelerators per node x nodes): a derived figure
    "pypi_releases_12m",  # final releases in the year up to the fetch date (selector.knowledge.releases)
    "pypi_days_since_release",  # days since the newest final release
    "pypi_os_count",  # operating systems the newest release's platform wheels cover
    "pypi_arch_count",  # CPU architectures the newest release's platform wheels cover
]


class Locator(Record):
    """Where a benchmarked or reference number lies in a bundled raw snapshot, and how it was converted.

    ``file`` is the bundled copy under ``knowledge/imports/raw/``; ``row`` the upstream row key (MLPerf result
    location, AccelMark submission folder, Epoch hardware name, ...); ``column`` the raw field read. The benchmark
    fields (``result_id`` .. ``availability``) are the footnote every benchmarked number renders with.
    """

    dataset: Id
    upstream: Upstream
    file: RawPath
    row: ShortText
    column: ShortText
    conversion: Conversion = "none"
    retrieved: IsoDate
    licence: ShortText
    derived: bool = False
    result_id: ShortText | None = None
    round: ShortText | None = None
    division: ShortText | None = None
    category: ShortText | None = None
    availability: ShortText | None = None
    verification: ShortText | None = None

    def footnote(self) -> str:
        """The footnote a number from this locator renders with (result id, round, division, category, ...)."""
        parts = [f"{self.dataset}"]
        if self.result_id:
            parts.append(f"result {self.result_id}")
        for label, value in (
            ("round", self.round),
            ("division", self.division),
            ("category", self.category),
            ("availability", self.availability),
            ("verification", self.verification),
        ):
            if value:
                parts.append(f"{label} {value}")
        parts.append(f"row {self.row!r}")
        if self.derived:
            parts.append("derived (per accelerator), not a verified result")
        parts.append(f"retrieved {self.retrieved}")
        parts.append(self.licence)
        return "; ".join(parts)

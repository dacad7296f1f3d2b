"""The checks across records and files of the knowledge: ids unique, references resolve, quotes verbatim inside
their section, dataset numbers re-read from their raw rows, assessments, decision data, the metric vocabulary and
the texts in both languages.

:func:`selector.knowledge.loading.collect` reads and validates each file, then runs :class:`Checker` over all of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from selector import value as value_scale
from selector.io.yamlio import Parsed
from selector.issues import Issue
from selector.knowledge import bilingual, facts, vocabulary, workload_facts
from selector.knowledge.locators import RawError, Snapshots
from selector.knowledge.models import SECTIONS, Claim, KnowledgeFile

_SINGULAR = {"entities": "entity", "criteria": "criterion", "llm_models": "LLM model", "support": "support row"}
_SOURCE_KIND = {
    "claimed": "article",
    "assessed": "assessment",
    "measured": "user",
    "benchmarked": "dataset",
    "reference": "dataset",
}


@dataclass(frozen=True)
class Loaded:
    """One knowledge file read and validated against the schema: its name, bytes, parsed data and records."""

    name: str
    raw: bytes
    parsed: Parsed
    content: KnowledgeFile
    user: bool = False


def line(loaded: Loaded, section: str, index: int, *field: Any) -> int | None:
    return loaded.parsed.line_of((section, index, *field))


class Checker:
    """Cross-record rules; each method is one concern and appends to `issues`."""

    def __init__(self, files: list[Loaded], texts: dict[str, str], snapshots: Snapshots) -> None:
        self.files = files
        self.texts = texts
        self.snapshots = snapshots
        self.issues: list[Issue] = []
        self.by_id: dict[str, dict[str, tuple[Any, Loaded, int]]] = {s: {} for s in SECTIONS}
        self.texts_checked: dict[str, int] = {}  # records whose texts in both languages were checked, by kind

    def records(self, section: str) -> Iterable[tuple[Any, Loaded, int]]:
        for loaded in self.files:
            for index, record in enumerate(getattr(loaded.content, section)):
                yield record, loaded, index

    def error(self, loaded: Loaded, section: str, index: int, record: str, message: str, *field: Any) -> None:
        self.issues.append(Issue("ERROR", loaded.name, line(loaded, section, index, *field), record, message))

    def unique_ids(self) -> None:
        for section in SECTIONS:
            for record, loaded, index in self.records(section):
                seen = self.by_id[section].get(record.id)
                if seen is not None:
                    first = seen[1].name + ":" + str(line(seen[1], section, seen[2]))
                    self.error(
                        loaded,
                        section,
                        index,
                        record.id,
                        f"duplicate {_SINGULAR.get(section, section[:-1])} id (first at {first})",
                    )
                else:
                    self.by_id[section][record.id] = (record, loaded, index)

    def group_fits(self, group: Any, loaded: Loaded, index: int) -> None:
        """A group says what it answers (`fits`), and what it says fits its members: accelerators are chosen among
        accelerators, software among frameworks; platforms are a property of software only."""
        here = (loaded, "groups", index, group.id)
        if group.fits is None:
            if loaded.user:
                return  # a user's file may not define groups at all; the warning is for knowledge directories
            self.issues.append(
                Issue(
                    "WARNING",
                    loaded.name,
                    line(loaded, "groups", index),
                    group.id,
                    "group has no `fits` (what it answers: choosing, tasks, where); the requirement-first start on "
                    "Recommend cannot offer it",
                )
            )
            return
        wanted = "accelerator" if group.fits.choosing == "accelerator" else "framework"
        for member in group.members:
            entity = self.by_id["entities"].get(member)
            if entity is not None and entity[0].kind != wanted:
                message = (
                    f"fits.choosing is `{group.fits.choosing}` but member `{member}` is a {entity[0].kind}; "
                    f"a group choosing {group.fits.choosing} holds {wanted}s only"
                )
                self.error(*here, message, "fits", "choosing")
        if group.fits.platforms and group.fits.choosing == "accelerator":
            self.error(*here, "fits.platforms is for software; an accelerator group names `where` only", "fits")

    def ref(self, loaded, section, index, record_id, target_section, target_id, what, *field) -> bool:  # noqa: ANN001
        if target_id in self.by_id[target_section]:
            return True
        self.error(
            loaded,
            section,
            index,
            record_id,
            f"{what} `{target_id}` is not defined in any {target_section} file; add it or fix the id",
            *field,
        )
        return False

    def datasets(self) -> None:
        """A dataset's licence files are bundled beside its raw snapshot."""
        for source, loaded, index in self.records("sources"):
            for licence_file in source.licence_files:
                if not (self.snapshots.root / licence_file).is_file():
                    self.error(
                        loaded,
                        "sources",
                        index,
                        source.id,
                        f"licence file `{licence_file}` is not bundled under knowledge/imports/raw/",
                        "licence_files",
                    )

    def entities(self) -> None:
        for entity, loaded, index in self.records("entities"):
            if entity.vendor:
                self.ref(loaded, "entities", index, entity.id, "entities", entity.vendor, "vendor", "vendor")
            for group in entity.groups:
                self.ref(loaded, "entities", index, entity.id, "groups", group, "group", "groups")
            facts.check_entity(self, entity, loaded, index)

    def claims(self) -> None:
        for claim, loaded, index in self.records("claims"):
            here = (loaded, "claims", index, claim.id)
            for entity in claim.about:
                self.ref(*here, "entities", entity, "entity", "about")
            for key in ("hardware", "baseline_entity"):
                target = getattr(claim.conditions, key)
                if target:
                    self.ref(*here, "entities", target, f"conditions.{key}", "conditions", key)
            for other in claim.based_on:
                self.ref(*here, "claims", other, "based_on claim", "based_on")
            if claim.overrides:
                self.ref(*here, "claims", claim.overrides, "overridden claim", "overrides")
            if self.ref(*here, "sources", claim.source, "source", "source"):
                self._claim_source(claim, *here)

    def _claim_source(self, claim: Claim, loaded, section, index, record_id) -> None:  # noqa: ANN001
        source = self.by_id["sources"][claim.source][0]
        expected = _SOURCE_KIND[claim.tier]
        if claim.tier == "reference" and claim.locator is None:
            expected = "document"  # a fact claim (the model allows no other reference claim without a locator)
        if source.kind != expected and not (claim.tier == "assessed" and source.kind == "user"):
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"a `{claim.tier}` claim must cite a source of kind `{expected}`, but `{source.id}` is `{source.kind}`",
                "source",
            )
            return
        if claim.locator is not None:
            self._locator(claim, source, loaded, section, index, record_id)
            return
        if claim.tier != "claimed":
            return
        sections = {s.id: s for s in source.sections}
        part = sections.get(claim.section)
        if part is None:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"section `{claim.section}` is not a section of source `{source.id}` (known: {', '.join(sections)})",
                "section",
            )
            return
        text = self.texts.get(source.id, "")
        at = text.find(claim.quote)
        if at < 0:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"quote is not a verbatim substring of document `{source.id}`; copy it exactly from the text",
                "quote",
            )
            return
        # A quote may occur more than once; it is enough that one occurrence lies inside the cited section.
        while at >= 0:
            line = text.count("\n", 0, at) + 1
            if part.lines[0] <= line <= part.lines[1]:
                return
            at = text.find(claim.quote, at + 1)
        self.error(
            loaded,
            section,
            index,
            record_id,
            f"quote is in document `{source.id}` but not inside section `{part.id}` "
            f"(lines {part.lines[0]}-{part.lines[1]}); cite the section that contains it",
            "section",
        )

    def assessments(self) -> None:
        """Our ratings: each rests on a claim about its own subject (or says it rests on outside facts), is scored
        on its criterion's scale, and that criterion says what the levels of the scale mean."""
        claims = self.by_id["claims"]
        rated_metrics: set[str] = set()
        for claim, loaded, index in self.records("claims"):
            if claim.tier != "assessed":
                continue
            if claim.kind == "rating" and claim.metric:
                rated_metrics.add(claim.metric)
            subject = claim.subject_id
            cited = [claims[c][0] for c in claim.based_on if c in claims]
            if not any(subject in other.about for other in cited) and not claim.rests_on_outside_facts:
                self.error(
                    loaded,
                    "claims",
                    index,
                    claim.id,
                    f"`based_on` cites no claim about `{subject}`, the entity this rating is about; cite one, or "
                    "say in the rationale which outside facts it rests on (the words 'outside facts')",
                    "based_on",
                )
        for crit, loaded, index in self.records("criteria"):
            if crit.metric in rated_metrics and not crit.rubric:
                self.error(
                    loaded,
                    "criteria",
                    index,
                    crit.id,
                    f"criterion `{crit.id}` is filled by assessed ratings but has no `rubric`; say what each level "
                    "1-5 of its scale means",
                )

    def _locator(self, claim: Claim, source, loaded, section, index, record_id) -> None:  # noqa: ANN001
        """The locator resolves in the bundled raw snapshot and the stored value is the converted raw value."""
        locator = claim.locator
        if locator.upstream not in source.upstream:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"locator upstream `{locator.upstream}` is not one of dataset `{source.id}`'s upstream snapshots",
                "locator",
                "upstream",
            )
        if locator.licence != source.licence:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"locator licence `{locator.licence}` differs from dataset `{source.id}`'s `{source.licence}`",
                "locator",
                "licence",
            )
        spec = source.table_for(locator.file)
        if spec is None:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"`{locator.file}` is not a raw file of dataset `{source.id}` (its tables: "
                + ", ".join(t.file for t in source.tables)
                + ")",
                "locator",
                "file",
            )
            return
        try:
            if not spec.key:
                folder = locator.file.rsplit("/", 2)[-2] if locator.file.count("/") >= 1 else ""
                if locator.row != folder:
                    raise RawError(f"{locator.file}: row must be the file's folder `{folder}`, not {locator.row!r}")
            raw_value = self.snapshots.resolve(locator.file, locator.row, spec.key, locator.column, locator.conversion)
        except RawError as exc:
            self.error(loaded, section, index, record_id, f"locator does not resolve: {exc}", "locator")
            return
        if raw_value != claim.value:
            self.error(
                loaded,
                section,
                index,
                record_id,
                f"value {claim.value!r} differs from the raw snapshot's {raw_value!r} "
                f"(column `{locator.column}`, conversion `{locator.conversion}`); re-run the importer",
                "value",
            )

    def decision_data(self) -> None:
        for dim, loaded, index in self.records("dimensions"):
            for claim in dim.claims:
                self.ref(loaded, "dimensions", index, dim.id, "claims", claim, "claim", "claims")
        for crit, loaded, index in self.records("criteria"):
            self.ref(loaded, "criteria", index, crit.id, "dimensions", crit.dimension, "dimension", "dimension")
            if crit.conditions.hardware:
                self.ref(
                    loaded,
                    "criteria",
                    index,
                    crit.id,
                    "entities",
                    crit.conditions.hardware,
                    "hardware",
                    "conditions",
                    "hardware",
                )
            if crit.derived is not None:
                for role, target in crit.derived.inputs:
                    here = (loaded, "criteria", index, crit.id)
                    known = self.ref(*here, "criteria", target, f"derived.{role}", "derived")
                    if known and self.by_id["criteria"][target][0].derived is not None:
                        self.error(
                            loaded,
                            "criteria",
                            index,
                            crit.id,
                            f"derived.{role} `{target}` is itself derived; derive from measured criteria only",
                            "derived",
                        )
        for group, loaded, index in self.records("groups"):
            for member in group.members:
                self.ref(loaded, "groups", index, group.id, "entities", member, "member", "members")
            for gc in group.criteria:
                self.ref(loaded, "groups", index, group.id, "criteria", gc.criterion, "criterion", "criteria")
            self.group_fits(group, loaded, index)
        for question, loaded, index in self.records("questions"):
            for option in question.options:
                for group in option.groups:
                    self.ref(loaded, "questions", index, question.id, "groups", group, "group", "options")
        for rule, loaded, index in self.records("rules"):
            here = (loaded, "rules", index, rule.id)
            for claim in rule.claims:
                self.ref(*here, "claims", claim, "claim", "claims")
            for entity in (*rule.recommend, *rule.exclude):
                self.ref(*here, "entities", entity, "candidate", "recommend")
            for group in rule.groups:
                self.ref(*here, "groups", group, "group", "groups")
            self.answers(here, rule.when, "when")
            facts.check_rule(self, rule, here)

    def answers(self, here: tuple, given: Mapping[str, Sequence[str]], field: str) -> None:
        """Each question of `given` is defined and each answer is one of its options."""
        for qid, answers in given.items():
            if self.ref(*here, "questions", qid, "question", field):
                options = {o.id for o in self.by_id["questions"][qid][0].options}
                for answer in answers:
                    if answer not in options:
                        self.error(
                            *here,
                            f"answer `{answer}` is not an option of question `{qid}` "
                            f"(options: {', '.join(sorted(options))})",
                            field,
                        )

    def scenario_links(self) -> None:
        for link, loaded, index in self.records("scenario_links"):
            here = (loaded, "scenario_links", index, link.id)
            if link.entity is not None:
                self.ref(*here, "entities", link.entity, "entity", "entity")
            self.answers(here, link.serves, "serves")

    def vocabulary(self) -> None:
        """The bundled claims and the criteria use declared metrics, in their units and direction, within bounds.

        A user's file may bring a metric of its own: no criterion reads it, so it is stored, not ranked.
        """
        metrics = {metric_id: found[0] for metric_id, found in self.by_id["metrics"].items()}
        for section in ("claims", "criteria"):
            for record, loaded, index in self.records(section):
                if loaded.user or record.metric is None:
                    continue
                here = (loaded, section, index, record.id)
                metric = vocabulary.find(metrics, record.metric)
                if metric is None:
                    self.error(
                        *here,
                        f"metric `{record.metric}` is not in the metric vocabulary (knowledge/metrics.yaml); use a "
                        "listed id or add it there",
                        "metric",
                    )
                    continue
                if metric.units and record.unit is not None and record.unit not in metric.units:
                    self.error(
                        *here,
                        f"unit `{record.unit}` is not a unit of metric `{record.metric}` "
                        f"({', '.join(metric.units)}); convert the value or add the unit to knowledge/metrics.yaml",
                        "unit",
                    )
                if section == "criteria":
                    wanted = {"max": "higher", "min": "lower"}[record.objective]
                    if metric.better is not None and metric.better != wanted:
                        self.error(
                            *here,
                            f"objective `{record.objective}` contradicts metric `{record.metric}`, where "
                            f"{metric.better} is better",
                            "objective",
                        )
                elif record.value is not None:
                    problem = vocabulary.bound_problem(metrics, record.metric, record.value, f"{record.value:g}")
                    if problem:
                        self.error(*here, problem, "value")

    def value_scales(self) -> None:
        """Every criterion a group ranks has a usable value scale, and every value that fills a criterion lies on
        it (the value model maps the scale onto 0..1; a value outside has no meaning there)."""
        ranked = {gc.criterion for group, _, _ in self.records("groups") for gc in group.criteria}
        criteria = []
        for crit, loaded, index in self.records("criteria"):
            if crit.scale is None:
                if crit.id in ranked:
                    self.error(
                        loaded,
                        "criteria",
                        index,
                        crit.id,
                        f"criterion `{crit.id}` is ranked by a group but has no `scale`; give its value scale "
                        "[worst-or-best, best-or-worst] fixed from the domain (e.g. [1, 5] for a rating)",
                    )
                continue
            try:
                value_scale.check_bounds(
                    float(crit.scale[0]), float(crit.scale[1]), crit.shape, f"criterion `{crit.id}`"
                )
            except value_scale.ValueScaleError as exc:
                self.error(loaded, "criteria", index, crit.id, str(exc), "scale")
                continue
            criteria.append(crit)
        for claim, loaded, index in self.records("claims"):
            if claim.value is None:
                continue
            for crit in criteria:
                lo, hi = crit.scale
                if crit.reads(claim) and value_scale.outside(claim.value, lo, hi):
                    self.error(
                        loaded,
                        "claims",
                        index,
                        claim.id,
                        value_scale.outside_message(crit.id, claim.value, lo, hi, crit.unit),
                        "value",
                    )

    def both_languages(self) -> None:
        """Every English text has its Chinese twin and the reverse (:mod:`selector.knowledge.bilingual`)."""
        checked: Counter = Counter()
        for loaded in self.files:
            found, counts = bilingual.check(loaded.content, loaded.parsed.line_of, loaded.name, loaded.user)
            self.issues.extend(found)
            checked.update(counts)
        self.texts_checked = dict(checked)

    def stated_once(self) -> None:
        """One source stating one figure twice with different values (same entities, metric, unit, comparator,
        conditions, kind and tier) is ambiguous: which one is meant? Dataset rows carry a locator (each row is its
        own system or run), and a claim that overrides the other replaces it: neither is a repetition."""
        first: dict[tuple, tuple[Claim, Loaded, int]] = {}
        for claim, loaded, index in self.records("claims"):
            if claim.value is None or claim.metric is None or claim.locator is not None:
                continue
            key = (
                claim.source,
                claim.subject,
                claim.about,
                claim.metric,
                claim.unit,
                claim.comparator,
                claim.conditions,
                claim.kind,
                claim.tier,
            )
            earlier = first.setdefault(key, (claim, loaded, index))
            other = earlier[0]
            if (
                other is claim
                or other.value == claim.value
                or claim.id == other.overrides
                or claim.overrides == other.id
            ):
                continue
            where = f"{earlier[1].name}:{line(earlier[1], 'claims', earlier[2])}"
            message = (
                f"states `{claim.metric}` of {', '.join(claim.about)} again with a different value ({claim.value:g} "
                f"here, {other.value:g} in claim `{other.id}` at {where}) for the same source and conditions; "
                "keep one, or give the conditions that differ"
            )
            self.error(loaded, "claims", index, claim.id, message, "value")

    def run(self) -> list[Issue]:
        self.unique_ids()
        self.stated_once()
        self.datasets()
        self.entities()
        self.claims()
        self.assessments()
        self.value_scales()
        self.decision_data()
        self.scenario_links()
        self.vocabulary()
        workload_facts.check(self, {e.id: e.kind for e, _, _ in self.records("entities")})
        self.both_languages()
        return self.issues

"""Does an engine run an accelerator at a precision: the answer of the support table (``knowledge/support.yaml``),
with the rows it rests on."""

from __future__ import annotations

from dataclasses import dataclass

from selector.i18n import N_, Phrase
from selector.knowledge.models import KnowledgeBase

RUN = N_("{engines} run {precision} on {name} ({cited})")
ANY_ENGINE = N_("any engine")
NO_ROW = N_("knowledge/support.yaml documents no {who} for {name}")
OTHER_PRECISIONS = N_("{who} runs {name} but its documentation lists {listed}, not {precision} (support.yaml: {cited})")


@dataclass(frozen=True)
class Answer:
    """``runs``: True (a row lists it), False (rows name the accelerator, none at this precision), None (no row)."""

    runs: bool | None
    rows: tuple[str, ...]
    text: str


def _rows(kb: KnowledgeBase, accelerator: str, engine: str | None) -> list:
    """The support rows naming `accelerator` (for `engine` only, when given)."""
    return [r for r in kb.support.values() if accelerator in r.accelerators and engine in (None, r.engine)]


def runs(kb: KnowledgeBase, accelerator: str, precision: str, engine: str | None = None) -> Answer:
    """Whether `engine` (or, when None, any engine of the table) runs `accelerator` at `precision`."""
    rows = _rows(kb, accelerator, engine)
    who = kb.entity_name(engine) if engine else Phrase(ANY_ENGINE)
    name = kb.entity_name(accelerator)
    good = [r for r in rows if precision in r.precisions]
    if good:
        engines = ", ".join(dict.fromkeys(kb.entity_name(r.engine) for r in good))
        cited = ", ".join(r.id for r in good)
        text = Phrase(RUN, engines=engines, precision=precision.upper(), name=name, cited=cited)
        return Answer(True, tuple(r.id for r in good), text)
    if not rows:
        return Answer(None, (), Phrase(NO_ROW, who=who, name=name))
    listed = ", ".join(p.upper() for p in sorted({p for r in rows for p in r.precisions}))
    cited = ", ".join(r.id for r in rows)
    text = Phrase(OTHER_PRECISIONS, who=who, name=name, listed=listed, precision=precision.upper(), cited=cited)
    return Answer(False, tuple(r.id for r in rows), text)

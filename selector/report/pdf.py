"""The report model as an A4 PDF through WeasyPrint, its charts drawn as SVG images.

A script that writes a PDF (``python -m selector report -o r.pdf``) must import WeasyPrint with its Pango bindings
and the decision record's reader, and, to rank, scikit-criteria: :class:`PdfWorker` does the first imports in a
second process while the caller ranks, then lays the page out there (benchmarks/bench_cold.py measures the whole
process). The app renders in its own process (:func:`render_pdf` without a worker).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from markupsafe import Markup

from selector import i18n
from selector.report.model import Report, ReportError
from selector.report.render import TEMPLATES, environment, figures, template_context


def render_pdf(report: Report, worker: PdfWorker | None = None) -> bytes:
    """The report as an A4 PDF: title block, table of contents with page numbers, charts, page numbers.

    Parameters
    ----------
    report
        From :func:`selector.report.build.build_report`.
    worker
        Lay the page out in this worker's process (WeasyPrint already imported there); default: in this process.

    Returns
    -------
    bytes
        The PDF file.

    Raises
    ------
    ReportError
        When WeasyPrint or its system libraries (Pango) are not installed.
    """
    page = print_page(report)
    try:
        return worker.to_pdf(page) if worker is not None else page_to_pdf(page)
    except (ImportError, OSError) as exc:
        raise ReportError(
            f"PDF output needs WeasyPrint and its system libraries ({exc}); install the Debian packages "
            "libpango-1.0-0 and libpangoft2-1.0-0 (make install does), or choose Markdown or HTML"
        ) from exc


def print_page(report: Report) -> str:
    """The report as the HTML page WeasyPrint lays out (print styles, charts as SVG images)."""
    css = Markup(
        (TEMPLATES / "report.css").read_text(encoding="utf-8")
        + "\n"
        + (TEMPLATES / "report_print.css").read_text(encoding="utf-8")
        + page_furniture(report.lang)
    )
    return (
        environment(markdown=False)
        .get_template("report_pdf.html.j2")
        .render(**template_context(report), charts=figures(report, inline=False), css=css)
    )


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def page_furniture(lang: str) -> str:
    """The running heads and page numbers in the report's language (report_print.css writes them in English)."""
    if lang == i18n.SOURCE_LANGUAGE:
        return ""
    _ = i18n.translator(i18n.check_language(lang))
    numbers = " ".join(
        f"counter({part[1:-1]})" if part in ("{page}", "{pages}") else _css_string(part)
        for part in re.split(r"(\{pages?\})", _("Page {page} of {pages}"))
        if part
    )
    head, data = _css_string(_("AI Stack Selector · decision record")), _css_string(_("knowledge data") + " ")
    return (
        f"\n@page {{ @top-right {{ content: {head}; }} @bottom-left {{ content: {data} string(datahash); }} "
        f"@bottom-right {{ content: {numbers}; }} }}\n"
    )


def page_to_pdf(page: str) -> bytes:
    """Lay `page` (from :func:`print_page`) out as a PDF with WeasyPrint.

    Raises
    ------
    ImportError, OSError
        When WeasyPrint or its Pango libraries cannot be loaded.
    """
    from weasyprint import HTML, Attachment

    from selector import record

    # The decision record the page holds travels as the PDF's embedded file decision-record.json (`recheck`).
    text = record.find(page.encode("utf-8"), "page")
    attachments = [] if text is None else [Attachment(string=text, name=record.ATTACHMENT_NAME)]
    return HTML(string=page, base_url=str(TEMPLATES)).write_pdf(attachments=attachments)


def _import_weasyprint() -> None:
    # Imported now, so that the page is laid out as soon as it arrives: WeasyPrint, and the decision record's
    # reader that page_to_pdf needs for the attachment (it would otherwise be imported once the page has come).
    import weasyprint  # noqa: F401

    from selector import record  # noqa: F401


def _end_with_parent(parent: int) -> None:
    """In the worker: end as soon as the process that started it is gone (killed with SIGKILL, say).

    A worker whose caller died would otherwise wait on its queue for minutes, holding the caller's pipes open.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class PdfWorker:
    """One worker process that imports WeasyPrint (and whatever else :func:`page_to_pdf` imports) as soon as it
    starts, and then lays out one page at a time.

    Started by a caller that will need a PDF before it ranks, so that the two imports run side by side on two
    cores. A worker that cannot start or that stops is replaced by this process: the PDF is then drawn here, as
    without a worker. Use it as a context manager, so that the process ends with the caller's work.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._warm: Future | None = None
        try:
            # spawn, not fork: the caller may already run threads (numpy's), which a forked child must not inherit
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_end_with_parent,
                initargs=(os.getpid(),),
            )
            self._warm = self._pool.submit(_import_weasyprint)
        except (OSError, RuntimeError):
            self.close()

    def to_pdf(self, page: str) -> bytes:
        """:func:`page_to_pdf` of `page`, in the worker when it runs, else here."""
        if self._pool is not None:
            try:
                return self._pool.submit(page_to_pdf, page).result()
            except (BrokenProcessPool, RuntimeError):
                self.close()
        return page_to_pdf(page)

    def close(self, now: bool = False) -> None:
        """End the worker: after its current task, or at once with `now` (the caller is being interrupted)."""
        if self._pool is None:
            return
        if now:
            # ProcessPoolExecutor has no public way to stop a task under way: its processes are ended directly
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=not now, cancel_futures=True)
        self._pool = None

    def __enter__(self) -> PdfWorker:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        # Ctrl-C, SIGTERM (SystemExit from selector.__main__) or an error: the worker ends with the command
        self.close(now=kind is not None)

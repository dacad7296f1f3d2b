"""The report model as an A4 PDF through WeasyPrint, its charts drawn as SVG images."""

from __future__ import annotations

from markupsafe import Markup

from selector.report.model import Report, ReportError
from selector.report.render import SECTIONS, TEMPLATES, environment, figures


def render_pdf(report: Report) -> bytes:
    """The report as an A4 PDF: title block, table of contents with page numbers, charts, page numbers.

    Parameters
    ----------
    report
        From :func:`selector.report.build.build_report`.

    Returns
    -------
    bytes
        The PDF file.

    Raises
    ------
    ReportError
        When WeasyPrint or its system libraries (Pango) are not installed.
    """
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        raise ReportError(
            f"PDF output needs WeasyPrint and its system libraries ({exc}); install the Debian packages "
            "libpango-1.0-0 and libpangoft2-1.0-0 (make install does), or choose Markdown or HTML"
        ) from exc
    css = Markup(
        (TEMPLATES / "report.css").read_text(encoding="utf-8")
        + "\n"
        + (TEMPLATES / "report_print.css").read_text(encoding="utf-8")
    )
    page = (
        environment(markdown=False)
        .get_template("report_pdf.html.j2")
        .render(report=report, sections=SECTIONS, charts=figures(report, inline=False), css=css)
    )
    return HTML(string=page, base_url=str(TEMPLATES)).write_pdf()

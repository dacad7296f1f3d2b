"""The report model as an A4 PDF through WeasyPrint, with static SVG charts drawn by kaleido."""

from __future__ import annotations

import atexit
import base64
import contextlib
import threading
import warnings
from typing import Any

from markupsafe import Markup

from selector.report.model import Report, ReportError
from selector.report.render import FIGURE, SECTIONS, TEMPLATES, environment


class _StaticImages:
    """Static chart images through kaleido, whose browser is started once (~2 s) and reused (~0.15 s a chart).

    The browser is a process-wide resource, so one instance serves every report; the lock keeps concurrent
    reports (Streamlit sessions are threads) from sharing a half-started server, and lets :meth:`warm_up` start
    it in the background while the caller does other work.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started = False
        self._warming: threading.Thread | None = None

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        try:
            import kaleido

            kaleido.start_sync_server(mathjax=False, silence_warnings=True)
            # Stop the browser before interpreter shutdown removes its profile directory under it.
            atexit.register(kaleido.stop_sync_server, silence_warnings=True)
        except Exception:  # without the server, fig.to_image still works, starting a browser per call
            pass

    def svg(self, fig: Any, width: int, height: int) -> bytes:
        with self._lock:
            self._start()
            with warnings.catch_warnings():
                # plotly warns that its kaleido options are ignored once the server runs: expected here.
                warnings.simplefilter("ignore")
                return fig.to_image(format="svg", width=width, height=height)

    def warm_up(self) -> None:
        """Start the browser in a background thread (once); a later :meth:`svg` waits for it through the lock."""
        if self._started or self._warming is not None:
            return

        def draw_nothing() -> None:
            import plotly.graph_objects as go

            # No browser: nothing to warm; render_pdf says so in place of each chart.
            with contextlib.suppress(Exception):
                self.svg(go.Figure(), 10, 10)

        self._warming = threading.Thread(target=draw_nothing, name="kaleido-warm-up", daemon=True)
        self._warming.start()


_IMAGES = _StaticImages()


def prepare_pdf() -> None:
    """Start the browser that draws the PDF's charts in the background, so the next :func:`render_pdf` need not
    wait ~2 s for it. Returns at once; calling it again does nothing."""
    _IMAGES.warm_up()


# Chart size in CSS pixels for print: the A4 text block is ~170 mm, about 640 px at 96 dpi.
_PRINT_WIDTH = 760


def render_pdf(report: Report) -> bytes:
    """The report as an A4 PDF: title block, table of contents with page numbers, static charts, page numbers.

    A chart that cannot be drawn (no browser for kaleido) is replaced by a line saying why.

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
    from selector.charts.report import report_figures

    blocks = {}
    for key, (caption, fig) in report_figures(report).items():
        # WeasyPrint's SVG renderer drops plotly's gradient colour bars; the cells print their values anyway.
        fig.update_traces(showscale=False, selector={"type": "heatmap"})
        try:
            svg = _IMAGES.svg(fig, _PRINT_WIDTH, int(fig.layout.height or 400))
        except Exception as exc:  # a report without one chart beats no report (e.g. no browser for kaleido)
            missing = Markup('<p class="chart-missing">Chart not available: {}</p>').format(exc)
            blocks[key] = FIGURE.format(caption, missing)
            continue
        data = base64.b64encode(svg).decode("ascii")
        image = Markup('<img class="chart" alt="{}" src="data:image/svg+xml;base64,{}">').format(caption, data)
        blocks[key] = FIGURE.format(caption, image)
    css = Markup(
        (TEMPLATES / "report.css").read_text(encoding="utf-8")
        + "\n"
        + (TEMPLATES / "report_print.css").read_text(encoding="utf-8")
    )
    page = (
        environment(markdown=False)
        .get_template("report_pdf.html.j2")
        .render(report=report, sections=SECTIONS, charts=blocks, css=css)
    )
    return HTML(string=page, base_url=str(TEMPLATES)).write_pdf()

"""The PDF report: A4 with page numbers and contents, the text of the report, hostile names as text."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from selector.report import pdf
from selector.report.model import ReportError, RobustnessInfo
from tests.report.conftest import ADR_HEADINGS

ROOT = Path(__file__).resolve().parents[2]


def _weasyprint_missing() -> str | None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"WeasyPrint or its system libraries (libpango) are missing: {exc}"
    if not shutil.which("pdftotext") or not shutil.which("pdftoppm"):
        return "poppler-utils (pdftotext, pdftoppm) is not installed"
    return None


needs_pdf = pytest.mark.skipif(_weasyprint_missing() is not None, reason=str(_weasyprint_missing()))


@pytest.fixture(scope="module")
def pdf_file(built, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "report.pdf"
    path.write_bytes(pdf.render_pdf(built))
    return path


def _pdftotext(path: Path, *options: str) -> str:
    return subprocess.run(["pdftotext", *options, str(path), "-"], check=True, capture_output=True, text=True).stdout


@pytest.mark.subprocess
@needs_pdf
def test_pdf_is_a4_with_page_numbers_and_contents(pdf_file):
    assert pdf_file.read_bytes()[:5] == b"%PDF-"
    info = subprocess.run(["pdfinfo", str(pdf_file)], check=True, capture_output=True, text=True).stdout
    assert "(A4)" in info
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert pages >= 3
    text = _pdftotext(pdf_file, "-layout")
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text
    contents = text.split("Contents", 1)[1].split("Page ", 1)[0]
    starts = {}
    for title in [*ADR_HEADINGS, "Appendix A: Scenario and Decision Path", "Evidence Appendix"]:
        # each entry is followed by the page it starts on (target-counter), two entries a line
        match = re.search(re.escape(title) + r"\s*\.?\s*(\d+)", contents)
        assert match and 1 <= int(match.group(1)) <= pages, f"contents entry for {title!r}"
        starts[title] = int(match.group(1))
    # the decision document (title block to More Information) is one or two pages; the appendix follows
    assert starts["More Information"] <= 2 < starts["Appendix A: Scenario and Decision Path"] <= 3


@pytest.mark.subprocess
@needs_pdf
def test_pdf_text_has_the_leader_the_weights_and_a_chinese_quote(built, pdf_file):
    text = _pdftotext(pdf_file, "-layout")
    assert built.leader in text and built.recommended in text
    for name, weight in (("Performance", 40), ("Cost", 25), ("Ecosystem", 20), ("Risk", 15)):
        assert re.search(rf"{name} \S+\s+{weight}\s+{weight}\s+{weight}\.0%", text), f"{name} weight row"
    flat = "".join(text.split())
    quotes = sorted((e.quote_zh for e in built.evidence if re.search(r"[\u4e00-\u9fff]", e.quote_zh)), key=len)
    assert quotes and "".join(quotes[0].split()) in flat
    assert "".join(quotes[-1].split()) in flat


@pytest.mark.subprocess
@needs_pdf
def test_pdf_first_page_is_not_blank(pdf_file, tmp_path):
    from PIL import Image

    subprocess.run(
        ["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", str(pdf_file), str(tmp_path / "page")], check=True
    )
    (png,) = tmp_path.glob("page*.png")
    image = Image.open(io.BytesIO(png.read_bytes())).convert("L")
    dark = sum(image.histogram()[:200])  # pixels clearly darker than the white page
    assert dark / (image.width * image.height) > 0.01


@pytest.mark.subprocess
@needs_pdf
def test_pdf_of_a_hostile_name_renders_it_as_text(hostile, tmp_path):
    path = tmp_path / "hostile.pdf"
    path.write_bytes(pdf.render_pdf(dataclasses.replace(hostile, robustness=RobustnessInfo(0, 0))))
    assert "<img src=x onerror=alert(1)>" in _pdftotext(path)


def test_pdf_without_weasyprint_says_what_to_install(built, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(ReportError, match="libpango"):
        pdf.render_pdf(built)


@pytest.mark.subprocess
@needs_pdf
def test_a_worker_lays_out_the_same_pdf(built, pdf_file, tmp_path):
    # the CLI's path: WeasyPrint imported and the page laid out in a second process
    with pdf.PdfWorker() as worker:
        path = tmp_path / "worker.pdf"
        path.write_bytes(pdf.render_pdf(built, worker))
        assert worker._pool is not None, "the worker process ran"
    assert _pdftotext(path, "-layout") == _pdftotext(pdf_file, "-layout")


@pytest.mark.subprocess
@needs_pdf
def test_a_worker_imports_what_page_to_pdf_imports_before_the_page_arrives():
    # what page_to_pdf imports in a fresh interpreter: each is imported by the worker's start, off the critical path
    probe = (
        "import sys; from selector.report import pdf; before = set(sys.modules); "
        "pdf.page_to_pdf('<p>x</p>'); print(' '.join(sorted(m for m in set(sys.modules) - before "
        "if m.startswith(('selector', 'weasyprint')))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    needed = set(done.stdout.split())
    assert {"weasyprint", "selector.record"} <= needed
    with pdf.PdfWorker() as worker:
        worker._warm.result()
        loaded = worker._pool.submit(eval, "set(__import__('sys').modules)").result()
    assert needed <= loaded, f"imported only once a page arrives: {sorted(needed - loaded)}"


@pytest.mark.subprocess
@needs_pdf
def test_a_worker_that_stops_leaves_the_pdf_to_this_process(built, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    with pdf.PdfWorker() as worker:

        def broken(*args, **kwargs):  # noqa: ANN002, ANN003
            raise BrokenProcessPool("the worker died")

        monkeypatch.setattr(worker._pool, "submit", broken)
        assert pdf.render_pdf(built, worker)[:5] == b"%PDF-"
        assert worker._pool is None, "the broken pool was shut down"


def test_weasyprint_missing_in_the_worker_says_what_to_install(built, monkeypatch):
    class Missing:
        def to_pdf(self, page: str) -> bytes:
            raise ImportError("No module named 'weasyprint'")

    with pytest.raises(ReportError, match="WeasyPrint and its system libraries"):
        pdf.render_pdf(built, Missing())


# The contents' page numbers as report_print.css placed them before they were positioned instead of floated: the
# reference the positioned numbers must match pixel for pixel.
FLOATED_NUMBERS = '.print-toc li a::after { content: leader(" ") target-counter(attr(href), page); float: right; }'
POSITIONED_NUMBERS = (
    ".print-toc li { position: relative; }\n"
    ".print-toc li a::after { content: target-counter(attr(href), page); position: absolute; right: 0; }"
)


@pytest.mark.subprocess
@pytest.mark.slow
@needs_pdf
def test_positioned_contents_numbers_look_exactly_like_the_floated_ones(built, tmp_path):
    from PIL import Image, ImageChops

    page = pdf.print_page(built)
    assert POSITIONED_NUMBERS in page, "report_print.css places the contents' numbers as this test expects"
    pages = {}
    for name, html in (("positioned", page), ("floated", page.replace(POSITIONED_NUMBERS, FLOATED_NUMBERS))):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(pdf.page_to_pdf(html))
        subprocess.run(["pdftoppm", "-r", "100", "-png", str(path), str(tmp_path / name)], check=True)
        pages[name] = sorted(tmp_path.glob(f"{name}-*.png"))
    assert len(pages["positioned"]) == len(pages["floated"]) >= 3
    for positioned, floated in zip(pages["positioned"], pages["floated"], strict=True):
        difference = ImageChops.difference(Image.open(positioned).convert("RGB"), Image.open(floated).convert("RGB"))
        assert difference.getbbox() is None, f"{positioned.name} differs from the floated layout"
    assert "Contents" in _pdftotext(tmp_path / "positioned.pdf")

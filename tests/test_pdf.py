"""The PDF report on the sample pages: content, page numbers, embedded fonts, Chinese text (also
on a machine without a CJK font), atomic writing."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from dedup_gui.core.model import DupType
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.export import export

from .conftest import REPO, SAMPLES

pypdf = pytest.importorskip("pypdf")

ZH_TITLE = "清明前后上山采茶记 - 云岭茶舍"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@pytest.fixture(scope="module")
def sample_pdf(sample_scan, tmp_path_factory) -> bytes:
    return export(sample_scan, tmp_path_factory.mktemp("pdf") / "report.pdf").read_bytes()


def _texts(data: bytes) -> list[str]:
    """Each page's text, whitespace collapsed, NFKC-normalized (Qt maps some CJK glyphs to
    look-alike code points such as KANGXI RADICAL MOUNTAIN for 山 in the PDF's text layer)."""
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    return [" ".join(unicodedata.normalize("NFKC", page.extract_text()).split()) for page in pages]


def _no_space(text: str) -> str:
    return "".join(text.split())


def _fonts(data: bytes) -> set[str]:
    names = set()
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        for font in (page.get("/Resources", {}).get("/Font") or {}).values():
            names.add(str(font.get_object().get("/BaseFont")))
    return names


def test_pdf_has_the_reports_content_and_numbered_pages(sample_pdf):
    assert sample_pdf.startswith(b"%PDF-")
    texts = _texts(sample_pdf)
    n = len(texts)
    assert n >= 4
    for i, text in enumerate(texts, 1):
        assert f"Page {i} of {n}" in text  # the footer of every page
    whole = " ".join(" ".join(texts).split())
    for needle in (
        "Duplicate pages report",
        "Pairs by type",
        "Thresholds",
        "Charts",
        "Hamming distance histogram",
        "Content/layout map",
        "What to keep",
        "Near-duplicate groups",
        "Duplicate pairs",
        "Files that could not be used",
        "content similarity 0.9852",
        "layout similarity 0.0769",  # of the templates (the print page is almost all article)
        "same content and different layout => content duplicate",
    ):
        assert needle in whole, needle
    # A path in a table cell wraps wherever the column ends ("night-rid e-safety.html" when the
    # scanned folder's path is long, as in a CI checkout): compared without the wrapping.
    assert "print/night-ride-safety.html" in _no_space(whole)
    assert _no_space(ZH_TITLE) in _no_space(whole)  # Chinese text, extractable


def test_pdf_embeds_its_fonts_including_a_chinese_one(sample_pdf):
    fonts = _fonts(sample_pdf)
    assert fonts, "no fonts"
    assert any("CJK" in f or "Hei" in f or "Han" in f or "Song" in f for f in fonts), fonts


def test_pdf_of_a_subset(sample_scan, tmp_path):
    content = next(p for p in sample_scan.pairs if p.type is DupType.CONTENT)
    data = export(sample_scan, tmp_path / "one.pdf", pairs=[content]).read_bytes()
    whole = " ".join(" ".join(_texts(data)).split())
    assert "shows the 1 of 7 compared pairs" in whole
    assert "Pair 1" in whole and "Pair 2" not in whole


def test_cancelled_pdf_leaves_no_file(sample_scan, tmp_path):
    class Cancel:
        def update(self, stage, done, total):
            pass

        def cancelled(self):
            return True

    with pytest.raises(ScanCancelled):
        export(sample_scan, tmp_path / "r.pdf", progress=Cancel())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not DEJAVU.is_dir(), reason=f"needs the DejaVu fonts at {DEJAVU} (Debian's fonts-dejavu-core)")
def test_pdf_renders_chinese_on_a_machine_without_a_cjk_font(tmp_path):
    # fontconfig sees only DejaVu, as on a fresh Debian machine: the bundled subset must be used.
    (tmp_path / "fonts.conf").write_text(
        f"<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'><fontconfig><dir>{DEJAVU}</dir>"
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    out = tmp_path / "r.pdf"
    code = (
        "import sys; from dedup_gui.core.pipeline.scan import scan_folder; from dedup_gui.core.model import ScanSettings;"
        "from dedup_gui.export import export; from dedup_gui.export import pdf as pdf_report;"
        f"r = scan_folder({str(SAMPLES)!r}, ScanSettings(workers=1, use_cache=False)); export(r, {str(out)!r});"
        "print(pdf_report.pdf_fonts().cjk)"
    )
    env = dict(
        os.environ, FONTCONFIG_FILE=str(tmp_path / "fonts.conf"), QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO)
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "('Noto Sans CJK SC Subset',)", proc.stdout  # the bundled font only
    data = out.read_bytes()
    assert any("NotoSansCJKscSubset" in f for f in _fonts(data)), _fonts(data)
    assert _no_space(ZH_TITLE) in _no_space(" ".join(_texts(data)))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (Debian's poppler-utils)")
def test_pdftoppm_renders_the_first_page(sample_pdf, tmp_path):
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(sample_pdf)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")], check=True, timeout=120
    )
    (png,) = tmp_path.glob("p-*.png")
    from PIL import Image  # matplotlib's dependency

    image = Image.open(png).convert("L")
    dark = sum(image.histogram()[:128])
    assert dark > 500, "the first page rendered blank"


def test_html_and_pdf_render_the_same_summary(sample_scan):
    from dedup_gui.core.reports.html import esc, html_from_report
    from dedup_gui.core.reports.model import build_report
    from dedup_gui.core.reports.summary import SECTIONS, report_summary
    from dedup_gui.export.pdf import _Html, ensure_app, pdf_fonts

    ensure_app()  # the fonts need a QGuiApplication, as in an export
    report = build_report(sample_scan, sample_scan.pairs[:2])
    s = report_summary(report)
    pdf_html = _Html(report, pdf_fonts(), 800).build([])
    for doc in (html_from_report(report, charts=False), pdf_html):
        for text in (s.heading, s.made, s.subset_note, *SECTIONS.values(), *(st.label for st in s.stats)):
            assert esc(text) in doc, text


def test_pdf_pages_option_limits_the_pdf(tmp_path):
    from .test_cli import run

    # The samples' PDF has 8 pages; --pdf-pages 3 shortens its lists and then stops at 3 pages,
    # each numbered "of 3".
    out = tmp_path / "r.pdf"
    proc = run("scan", str(SAMPLES), "-o", str(out), "--pdf-pages", "3", "--no-cache", "-q")
    assert proc.returncode == 0, proc.stderr
    texts = _texts(out.read_bytes())
    assert len(texts) == 3
    assert all(f"Page {i} of 3" in text for i, text in enumerate(texts, 1))
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "r0.pdf"), "--pdf-pages", "0")
    assert proc.returncode == 2 and "--pdf-pages: must be at least 1, not 0" in proc.stderr


@pytest.mark.slow  # about 12 s: 500 diff excerpts, the charts and two layouts of 1,200 pages' report
def test_pdf_of_a_big_site_fits_30_pages_and_says_what_it_left_out(tmp_path):
    from .synthetic_site import synthetic_result

    # 1,200 pages, 1,050 duplicate pairs of the four types, 300 keep clusters: listed whole, the
    # PDF would run to hundreds of pages.
    result = synthetic_result(1200)
    data = export(result, tmp_path / "big.pdf").read_bytes()
    texts = _texts(data)
    assert 10 <= len(texts) <= 30
    whole = " ".join(" ".join(texts).split())
    for label in ("full duplicate", "content duplicate", "layout duplicate", "partial duplicate"):
        assert f"{label.capitalize()}s (the most similar):" in whole  # every type, with its "N of M shown"
    assert "Pages to act on" in whole and "Largest keep clusters" in whole
    assert "the CSV, XLSX and JSON exports hold all 300." in whole  # the keep clusters, groups


def test_the_pdf_says_where_a_redirect_page_leads(tmp_path):
    # a redirect page is listed among the pages without text with where it leads (as in the HTML)
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.core.reports.model import build_report
    from dedup_gui.export.pdf import _Html, ensure_app, pdf_fonts

    (tmp_path / "old.html").write_text("<html><head><meta http-equiv=refresh content='0;url=new/'></head></html>")
    ensure_app()
    report = build_report(scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False)))
    assert "redirects to new/ (missing: no page there in the folder)" in _Html(report, pdf_fonts(), 800).build([])

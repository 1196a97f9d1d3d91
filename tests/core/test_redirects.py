"""Client-side redirect pages (a user's test on shared/realsite: 84 of the 99 pages "without usable
text" were mike's redirect stubs, reported with no word of where they lead): the meta refresh
read as browsers read it, its target resolved inside the scanned folder, and shown as the page's
status in the pages table, the reports and the CLI summary."""

from __future__ import annotations

import csv
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from dedup_gui.core.extraction.extract import extract
from dedup_gui.core.extraction.refresh import page_refresh, refresh_target
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.features import page_from_bytes
from dedup_gui.core.pipeline.redirects import (
    ADDRESS,
    MISSING,
    NOT_PAGE,
    OUTSIDE,
    PAGE,
    SELF,
    Redirect,
    page_redirects,
    resolve_redirect,
)
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.write import render, result_dict, summary_text
from dedup_gui.core.reports.xlsx import _summary_rows
from dedup_gui.core.views.tables import PagesTable

from .test_report import _validate

STATUS = PagesTable.COLUMNS.index("Status")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("0;url=x", (0.0, "x")),  # no space, lower case
        ("0; URL='x'", (0.0, "x")),  # upper case, quoted
        ("1; url=../../stable/advance/dhcp/", (1.0, "../../stable/advance/dhcp/")),  # mike's stubs
        ('  3 ,  Url = "a b.html" and more', (3.0, "a b.html")),  # comma, spaces around "=", text after the quote
        ("0;URL=  /x/  ", (0.0, "/x/")),  # spaces around the address are the URL parser's to drop
        ("0; x.html", (0.0, "x.html")),  # no "url=": the rest is the address
        ("0;urlish.html", (0.0, "urlish.html")),  # "url" not followed by "=": part of the address
        ("0.5; url=x", (0.0, "x")),  # fraction digits are read and ignored
        ("5", (5.0, "")),  # a reload of the page itself
        ("later; url=x", None),  # no delay: browsers ignore it
        ("0x; url=x", None),  # junk after the delay
    ],
)
def test_refresh_content_is_read_as_the_html_standard_says(content, expected) -> None:
    assert refresh_target(content) == expected


def test_the_first_valid_refresh_counts() -> None:
    metas = [("description", "x"), ("REFRESH", "soon; url=a"), (" refresh ", "0; url=b"), ("refresh", "0; url=c")]
    assert page_refresh(metas) == "b"
    assert page_refresh([("refresh", "30")]) == ""  # reloads itself: no redirect
    assert page_refresh([("content-type", "text/html")]) == ""


STUB = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Redirecting</title>"
    "<noscript><META HTTP-EQUIV='Refresh' CONTENT='0; URL=\"../../stable/x/\"'></noscript>"
    "<script>window.location.replace('../../elsewhere/');</script></head>"
    "<body>Redirecting to <a href='../../stable/x/'>../../stable/x/</a>...</body></html>"
)


@pytest.mark.parametrize("extractor", ["fast", "readability"])
def test_extraction_finds_the_refresh_and_the_page_keeps_no_usable_text(extractor: str) -> None:
    # the target of the meta refresh, as written; never the script's
    assert extract(STUB, extractor=extractor).refresh == "../../stable/x/"
    page = page_from_bytes("a/b/index.html", "/x", STUB.encode(), ScanSettings(extractor=extractor))
    assert page.redirect == "../../stable/x/"
    assert not page.has_text  # a redirect page is still no duplicate candidate
    assert "a client-side redirect: its meta refresh sends to ../../stable/x/" in page.notes


def test_a_script_redirect_alone_is_not_guessed() -> None:
    html = "<html><head><script>location.href='x.html'</script></head><body>Moved</body></html>"
    assert extract(html, extractor="fast").refresh == ""


@pytest.mark.parametrize(
    ("page", "target", "expected"),
    [
        ("advance/dhcp/index.html", "../../stable/advance/dpdk/", Redirect("../../stable/advance/dpdk/", PAGE,
         "stable/advance/dpdk/", "v1.16.x/advance/dpdk/index.html")),  # through the folder link
        ("advance/dhcp/index.html", "../../stable/advance/dhcp/", Redirect("../../stable/advance/dhcp/", MISSING,
         "stable/advance/dhcp/", linked="v1.16.x/advance/dhcp/")),
        ("r.html", "docs/a.html?x=1#top", Redirect("docs/a.html?x=1#top", PAGE, "docs/a.html", "docs/a.html")),
        ("docs/r.html", "/docs", Redirect("/docs", PAGE, "docs", "docs/index.html")),  # the folder is the site root
        ("docs/r.html", "/shop/", Redirect("/shop/", PAGE, "shop/", "shop/default.htm")),  # any index page name
        ("docs/r.html", "a%20b.html", Redirect("a%20b.html", MISSING, "docs/a b.html")),
        ("docs/r.html", "../logo.png", Redirect("../logo.png", NOT_PAGE, "logo.png", "logo.png")),
        ("docs/r.html", "#top", Redirect("#top", SELF, "docs/r.html", "docs/r.html")),
        ("docs/r.html", "../../../etc/passwd", Redirect("../../../etc/passwd", OUTSIDE)),
        ("docs/r.html", "HTTP://other.site/", Redirect("HTTP://other.site/", ADDRESS)),
        ("docs/r.html", "//cdn.example/x", Redirect("//cdn.example/x", ADDRESS)),
    ],
)  # fmt: skip
def test_targets_resolve_inside_the_folder(page: str, target: str, expected: Redirect) -> None:
    addresses = {p: p for p in ("docs/a.html", "docs/index.html", "docs/r.html", "v1.16.x/advance/dpdk/index.html",
                                "shop/default.htm")}  # fmt: skip
    links = {"stable/": "v1.16.x/"}
    assert resolve_redirect(page, target, addresses, links, {"logo.png": "logo.png"}) == expected


def test_notes_say_where_a_redirect_leads() -> None:
    assert (
        Redirect("../../stable/x/", MISSING, "stable/x/").note
        == "redirects to stable/x/ (missing: no page there in the folder)"
    )
    assert Redirect("s/", PAGE, "s/", "v/index.html").status == "redirects to s/ (→ v/index.html)"
    assert Redirect("../../..", OUTSIDE).note == "redirects to ../../.. (outside the scanned folder: not read)"
    assert Redirect("http://o/", ADDRESS).note == "redirects to http://o/ (an address outside the folder: not read)"


def _stub(target: str) -> bytes:
    return STUB.replace("../../stable/x/", target).encode()


ARTICLE = "".join(f"<p>Paragraph {i} of the guide tells how the controller restarts each agent.</p>" for i in range(5))


@pytest.fixture(scope="module")
def redirect_scan(tmp_path_factory):
    site = tmp_path_factory.mktemp("redirects") / "site"
    (site / "v2" / "guide").mkdir(parents=True)
    (site / "v2" / "guide" / "index.html").write_text(f"<html><body><article>{ARTICLE}</article></body></html>")
    (site / "guide").mkdir()
    (site / "guide" / "index.html").write_bytes(_stub("../latest/guide/"))  # exists, through a folder link
    (site / "old").mkdir()
    (site / "old" / "index.html").write_bytes(_stub("../latest/gone/"))  # missing
    (site / "out.html").write_bytes(_stub("../../../etc/"))  # climbs out of the folder
    (site / "away.html").write_bytes(_stub("http://other.site/"))  # another site
    os.symlink("v2", site / "latest")
    result = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    return result


def test_a_scan_shows_where_each_redirect_page_leads(redirect_scan) -> None:
    r = redirect_scan
    assert r.link_folders == {"latest/": "v2/"}
    notes = {r.pages[i].path: x.note for i, x in page_redirects(r).items()}
    assert notes == {
        "away.html": "redirects to http://other.site/ (an address outside the folder: not read)",
        "guide/index.html": "redirects to latest/guide/ (→ v2/guide/index.html)",
        "old/index.html": "redirects to latest/gone/ (missing: no page at v2/gone/, where its folder link leads)",
        "out.html": "redirects to ../../../etc/ (outside the scanned folder: not read)",
    }
    assert [p.has_text for p in r.pages] == [False, False, False, False, True]
    table = PagesTable()
    table.load(r)
    assert [table.display(i, STATUS) for i in range(len(r.pages))] == [
        "redirects to http://other.site/ (an address outside the folder: not read)",
        "redirects to latest/guide/ (→ v2/guide/index.html)",
        "redirects to latest/gone/ (missing: no page at v2/gone/, where its folder link leads)",
        "redirects to ../../../etc/ (outside the scanned folder: not read)",
        "ok",
    ]


def test_reports_and_the_cli_summary_name_the_redirects(redirect_scan) -> None:
    r = redirect_scan
    report = build_report(r)
    rows = list(csv.DictReader(io.StringIO(render(report, "pages-csv"))))
    by_path = {row["path"]: (row["status"], row["reason"]) for row in rows}
    assert by_path["old/index.html"] == (
        "redirect", "redirects to latest/gone/ (missing: no page at v2/gone/, where its folder link leads)")  # fmt: skip
    assert by_path["v2/guide/index.html"] == ("ok", "")
    data = result_dict(r)
    _validate(data)
    page = next(f for f in data["files"] if f["path"] == "guide/index.html")
    assert (page["status"], page["redirect"]) == ("redirect", {
        "target": "../latest/guide/", "kind": "page", "path": "latest/guide/", "page": "v2/guide/index.html",
        "note": "redirects to latest/guide/ (→ v2/guide/index.html)"})  # fmt: skip
    assert next(f for f in data["files"] if f["path"] == "v2/guide/index.html")["redirect"] is None
    assert (data["summary"]["redirect_pages"], data["summary"]["redirects_to_missing"]) == (4, 1)
    assert (
        "pages:    5 (4 without usable main text, of which 4 are redirect pages, 1 to a page not in the folder)"
        in summary_text(r)
    )
    assert ["redirect pages", 4] in _summary_rows(report)
    assert "redirects to latest/gone/ (missing: no page at v2/gone/, where its folder link leads)" in render(
        report, "html"
    )
    json.dumps(data)  # plain JSON


def test_html_and_pdf_list_the_redirects_to_no_page_first(redirect_scan) -> None:
    # A user's HTML and PDF said only "94 redirect pages" and listed the 12 redirects to no page
    # among the 404 pages without text; the CLI and XLSX counted them: now the reports do too,
    # from the same computation, and list each with its target before the pages without text.
    from dedup_gui.core.reports.summary import report_summary

    # (the PDF's list: tests/test_pdf_layout.py, where a QGuiApplication cannot spoil the window tests)

    report = build_report(redirect_scan)
    gone = "redirects to latest/gone/ (missing: no page at v2/gone/, where its folder link leads)"
    assert [(p.path, x.note) for p, x in report.missing_redirects()] == [("old/index.html", gone)]
    stats = {st.label: st.value for st in report_summary(report).stats}
    assert (stats["redirect pages"], stats["redirects to no page"]) == (4, 1)
    assert ["redirects to no page (target in the folder, no page there)", 1] in _summary_rows(report)
    html = render(report, "html")
    section = html[html.index("<section id='unusable'>") :]
    heading = section.index("<h3 id='missing-redirects'>Redirects to no page (1)</h3>")
    assert heading < section.index(gone) < section.index("Pages without usable main text")
    assert section.count("old/index.html") == 1  # not repeated among the pages without text
    # ...and in the client summary, before the keep advice: the urgent fix was at 95 % of a
    # 4.2 MB report (a tester), under the files not used
    summary = html[html.index("<section id='summary'>") : html.index("<section id='unusable'>")]
    lead = summary.index("<h3><a href='#missing-redirects'>Redirects to no page (1)</a></h3>")
    assert lead < summary.index(gone) < summary.index("Largest keep clusters")


def test_the_real_sites_redirect_stubs(shared_dir: Path, tmp_path: Path) -> None:
    # shared/realsite: mike's stubs advance/dhcp/ and advance/dpdk/ send to stable/..., and
    # stable -> v1.16.x; v1.16.x has advance/dpdk/ but no advance/dhcp/ (members 37 to 50 of the
    # archive: read quickly).
    wanted = {"advance/dhcp/index.html", "advance/dpdk/index.html", "v1.16.x/advance/dpdk/index.html"}
    site = tmp_path / "site"
    with tarfile.open(shared_dir / "realsite" / "site.tar.xz") as archive:
        for member in archive:
            if member.name in wanted:
                (site / member.name).parent.mkdir(parents=True, exist_ok=True)
                (site / member.name).write_bytes(archive.extractfile(member).read())
                wanted.discard(member.name)
                if not wanted:
                    break
    os.symlink("v1.16.x", site / "stable")
    r = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    notes = {r.pages[i].path: x.note for i, x in page_redirects(r).items()}
    assert notes == {
        "advance/dhcp/index.html": "redirects to stable/advance/dhcp/ "
        "(missing: no page at v1.16.x/advance/dhcp/, where its folder link leads)",
        "advance/dpdk/index.html": "redirects to stable/advance/dpdk/ (→ v1.16.x/advance/dpdk/index.html)",
    }
    assert [p.path for p in r.pages if not p.has_text] == ["advance/dhcp/index.html", "advance/dpdk/index.html"]


def test_an_immediate_redirect_is_never_a_duplicate_candidate():
    # The real site's English stubs read "Redirecting to ../../../stable/en/…" (8 tokens, just
    # enough text) and formed a near-duplicate group of ten redirect pages.  A refresh of 0 s is
    # a redirect as a 301 is: the page shows its target, and has no content of its own.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.features import page_from_bytes

    words = "Redirecting to the page about virtual private cloud peering in the stable docs"
    page = ("<html><head><meta http-equiv='refresh' content='{delay}; url=../../stable/x/'></head>"
            f"<body><p>{words}</p></body></html>")  # fmt: skip
    now = page_from_bytes("a/index.html", "/s/a/index.html", page.format(delay=0).encode(), ScanSettings())
    assert not now.has_text and now.redirect == "../../stable/x/"
    assert "an immediate redirect (after 0 s): not compared, as its content is its target's" in now.notes
    assert not any(n.startswith("no usable main text") for n in now.notes)
    # a page that shows its text for 10 s first is compared as any page
    later = page_from_bytes("b/index.html", "/s/b/index.html", page.format(delay=10).encode(), ScanSettings())
    assert later.has_text and later.redirect == "../../stable/x/"

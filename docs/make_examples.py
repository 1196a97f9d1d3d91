"""Rebuild the example reports in docs/ from the bundled sample pages.

    python docs/make_examples.py

writes ``docs/report-example.html``, ``docs/report-example.pdf``, ``docs/report-example.json``
and, where Debian's ``chromium`` and ``pdftoppm`` (poppler-utils) are installed, the pictures
``docs/report-html.png`` (the HTML report in headless Chromium), ``docs/report-html-tables.png``
(its keep plan and pairs tables, with the sort and filter controls its script adds) and ``docs/report-pdf-page1.png``
(the PDF's first page).  The folder is shown as ``resources/samples`` rather than this machine's
absolute path.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
sys.path.insert(0, str(REPO))

from dedup_gui.core.model import ScanSettings  # noqa: E402 - after the path set-up
from dedup_gui.core.pipeline.scan import scan_folder  # noqa: E402
from dedup_gui.export import export  # noqa: E402


def main() -> None:
    result = scan_folder(REPO / "resources" / "samples", ScanSettings(workers=1, use_cache=False))
    result = replace(result, root="resources/samples")
    html = export(result, DOCS / "report-example.html")
    pdf = export(result, DOCS / "report-example.pdf")
    export(result, DOCS / "report-example.json")
    print(f"wrote {html}, {pdf} and the JSON")
    chromium = shutil.which("chromium")
    if chromium:
        with tempfile.TemporaryDirectory() as profile:
            subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                 f"--user-data-dir={profile}", "--window-size=1280,2600",
                 f"--screenshot={DOCS / 'report-html.png'}", html.as_uri()],
                check=True, capture_output=True, timeout=180,
            )  # fmt: skip
            # the sortable, filterable tables: a copy with the summary and charts hidden (headless
            # Chromium paints nothing when told to scroll to an anchor)
            tables = Path(profile) / "tables.html"
            tables.write_text(
                html.read_text(encoding="utf-8").replace(
                    "</head>", "<style>header.top,#summary,#charts{display:none}</style></head>", 1
                ),
                encoding="utf-8",
            )
            subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                 f"--user-data-dir={Path(profile) / 'p2'}", "--window-size=1280,1300",
                 f"--screenshot={DOCS / 'report-html-tables.png'}", tables.as_uri()],
                check=True, capture_output=True, timeout=180,
            )  # fmt: skip
        print(f"wrote {DOCS / 'report-html.png'} and {DOCS / 'report-html-tables.png'}")
    if shutil.which("pdftoppm"):
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "100",
                "-png",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf),
                str(DOCS / "report-pdf-page1"),
            ],
            check=True,
            timeout=120,
        )
        print(f"wrote {DOCS / 'report-pdf-page1.png'}")


if __name__ == "__main__":
    main()

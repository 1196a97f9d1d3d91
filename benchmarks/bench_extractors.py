"""Per-page speed of the main-content extractors on real pages, one process.

    python benchmarks/bench_extractors.py [FOLDER]    # default: ../shared/corpus

Every .html file under FOLDER is decoded once; then, page by page, each extractor runs on the
page in turn, so that load from other jobs on the machine falls on all of them alike.  Printed:
pages per second and the speed-up over readability-lxml, for main-content extraction alone
(``main_text``) and for the whole per-page extraction (``extract``: also the title, URL and tag
sequence, from lxml's parse for readability and resiliparse, from the same lexbor parse as the
main content for fast).
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dedup_gui.core.extraction.extract import EXTRACTORS, extract, main_text
from dedup_gui.core.pipeline.decoding import decode_html


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared" / "corpus"
    texts = [decode_html(p.read_bytes()).text for p in sorted(folder.rglob("*.html"))]
    if not texts:
        print(f"no .html files under {folder}", file=sys.stderr)
        return 1
    names = list(EXTRACTORS)
    for text in texts[:10]:  # warm up imports and caches
        for name in names:
            main_text(text, name)
    for label, run in (("main_text", lambda t, n: main_text(t, n)), ("extract", lambda t, n: extract(t, extractor=n))):
        total = dict.fromkeys(names, 0.0)
        gc.collect()
        gc.disable()
        try:
            for text in texts:
                for name in names:
                    start = time.perf_counter()
                    run(text, name)
                    total[name] += time.perf_counter() - start
        finally:
            gc.enable()
        for name in names:
            speed = len(texts) / total[name]
            print(f"{label:9s} {name:12s} {speed:7.1f} pages/s  {total['readability'] / total[name]:5.2f}x")
    print(f"({len(texts)} pages from {folder})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

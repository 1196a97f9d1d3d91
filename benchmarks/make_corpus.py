"""Build a scaled benchmark corpus from the real pages in ../shared/corpus, with planted duplicates.

    python benchmarks/make_corpus.py --pages 1000 --out /tmp/bench-1000

Every page uses the chrome (the DOM) of a real saved page, with its paragraphs replaced:

Only templates where readability's main text is the filled paragraphs are used (so the planted
types are what an ideal extractor would see).

* a *distinct* page gets paragraphs drawn from the pool of all real paragraphs of the corpus,
  each with its words (CJK text: its characters) shuffled by a page-specific seed (real
  vocabulary and lengths, but no shingles shared by chance);
* planted duplicates of a distinct page, one per type: a *full* copy (re-indented, a timestamp
  comment added), a *content* copy (the same paragraphs in another real page's chrome), a
  *layout* copy (same chrome, half of the paragraphs replaced), and a *partial* copy (another
  chrome, half of the paragraphs plus new ones).

``truth.csv`` beside the pages lists every planted pair as ``left,right,type`` (paths relative to
the output folder).

With ``--warc`` the same pages (same ``--seed``: the same corpus) are written as one crawl archive,
``crawl.warc.gz`` in the output folder, instead of ``.html`` files: one gzip-compressed response
record per page, at the URL ``https://bench.example/<path>``; ``truth.csv`` then names the records
(``crawl.warc.gz#offset``), so ``bench_scan.py`` can scan the folder and the archive and compare.  Script and style bodies of the templates are emptied to keep the corpus
small; their tags stay, so layouts are unchanged.  Deterministic for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import copy
import csv
import random
import re
import sys
from pathlib import Path

import lxml.html

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dedup_gui.core.extraction.extract import main_text, parse_html  # noqa: E402
from dedup_gui.core.pipeline.decoding import decode_html  # noqa: E402
from dedup_gui.core.text.tokens import CJK_RANGES  # noqa: E402
from resources.make_sample_warc import http_response, record, write_warc  # noqa: E402

SHARED = REPO.parent / "shared" / "corpus"
CJK = re.compile(f"[{CJK_RANGES}]")
TYPES = ("full", "content", "layout", "partial")


def clean_template(root) -> bool:
    """Whether the main text readability finds in the filled template is the filled paragraphs
    (at least 90% of it): a planted duplicate should test the pipeline, not the extractor."""
    marks = [f"Marker paragraph {i} " + " ".join(f"m{i}w{j}" for j in range(30)) for i in range(8)]
    filled, slots = fill(root, marks)
    if slots < 3:
        return False
    text = main_text(html_of(filled).decode("utf-8"))[0]
    inside = sum(len(line) for line in text.splitlines() if line.startswith("Marker paragraph"))
    return bool(text) and inside >= 0.9 * len(text)


def load_templates(corpus: Path) -> tuple[list, list[str]]:
    """Real pages with at least 3 paragraphs as templates, and the pool of real paragraphs."""
    templates, pool = [], []
    for path in sorted(corpus.rglob("*.html")):
        if path.name == "expected.html":
            continue
        root = parse_html(decode_html(path.read_bytes()).text)
        if root is None:
            continue
        for el in root.iter("script", "style"):
            el.text = None
            for child in list(el):
                el.remove(child)
        paras = [p for p in root.iter("p") if len(p.text_content().strip()) >= 60]
        pool += [" ".join(p.text_content().split()) for p in paras]
        if len(paras) >= 3 and clean_template(root):
            templates.append(root)
    return templates, pool


def fill(template, paragraphs: list[str]):
    """A copy of ``template`` whose long paragraphs hold ``paragraphs`` (cycled if needed)."""
    root = copy.deepcopy(template)
    slots = [p for p in root.iter("p") if len(p.text_content().strip()) >= 60]
    for i, p in enumerate(slots):
        for child in list(p):
            p.remove(child)
        p.text = paragraphs[i] if i < len(paragraphs) else ""
    return root, len(slots)


def shuffled(text: str, rng: random.Random) -> str:
    """The words of ``text`` in a random order; Chinese, Japanese and Korean text, which has no
    spaces, is shuffled character by character (its shingles are character n-grams)."""
    if CJK.search(text):
        chars = list(text.replace(" ", ""))
        rng.shuffle(chars)
        return "".join(chars)
    words = text.split()
    rng.shuffle(words)
    return " ".join(words)


def html_of(root) -> bytes:
    return lxml.html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")


def build(n_pages: int, out: Path, seed: int) -> None:
    """Write ``n_pages`` pages (about 1 in 5 in planted groups) and truth.csv into ``out``."""
    rng = random.Random(seed)
    templates, pool = load_templates(SHARED)
    out.mkdir(parents=True, exist_ok=True)
    truth = []
    written = 0

    slots_of = {id(t): fill(t, [])[1] for t in templates}

    def other_template(k: int):
        while True:
            t = rng.choice(templates)
            if slots_of[id(t)] >= k:
                return t

    def new_paragraphs(k: int) -> list[str]:
        return [shuffled(rng.choice(pool), rng) for _ in range(k)]

    def write(name: str, data: bytes) -> str:
        nonlocal written
        rel = f"{name[:2]}/{name}.html"
        (out / rel).parent.mkdir(exist_ok=True)
        (out / rel).write_bytes(data)
        written += 1
        return rel

    group = 0
    while written < n_pages:
        template = rng.choice(templates)
        base_root, slots = fill(template, [])
        k = max(3, min(slots, 8))
        paras = new_paragraphs(k)
        root, _ = fill(template, paras)
        base = write(f"p{written:06d}", html_of(root))
        # One planted group for every fifth page, cycling through the four types.
        if group % 5 == 0 and written < n_pages:
            kind = TYPES[(group // 5) % 4]
            if kind == "full":
                data = html_of(root).replace(b"><", b">\n  <") + b"\n<!-- saved 2026-11-30 -->\n"
            elif kind == "content":
                other, _ = fill(other_template(k), paras)
                data = html_of(other)
            elif kind == "layout":
                half = paras[: (k + 1) // 2] + new_paragraphs(k - (k + 1) // 2)
                data = html_of(fill(template, half)[0])
            else:
                mixed = paras[: (k + 1) // 2] + new_paragraphs(3)
                data = html_of(fill(other_template(len(mixed)), mixed)[0])
            dup = write(f"d{written:06d}", data)
            truth.append((base, dup, kind))
        group += 1
    with open(out / "truth.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["left", "right", "type"])
        w.writerows(truth)
    print(f"wrote {written} pages and {len(truth)} planted pairs to {out}")


def pack_warc(out: Path) -> None:
    """Replace the ``.html`` pages of corpus folder ``out`` by ``out/crawl.warc.gz`` (one response
    record per page, in path order, streamed: one page in memory at a time) and rewrite its
    ``truth.csv`` with the records' paths."""
    pages = sorted(p.relative_to(out).as_posix() for p in out.glob("*/*.html"))
    stamp = "2026-11-30T12:00:00Z"
    records = (record(f"https://bench.example/{rel}", http_response((out / rel).read_bytes()), stamp) for rel in pages)
    offsets = write_warc(out / "crawl.warc.gz", records, compress=True)
    where = {rel: f"crawl.warc.gz#{offset}" for rel, offset in zip(pages, offsets)}
    with open(out / "truth.csv", newline="", encoding="utf-8") as fh:
        rows = [(where[r["left"]], where[r["right"]], r["type"]) for r in csv.DictReader(fh)]
    with open(out / "truth.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["left", "right", "type"])
        w.writerows(rows)
    for rel in pages:
        (out / rel).unlink()
    for folder in {(out / rel).parent for rel in pages}:
        folder.rmdir()
    print(f"packed {len(pages)} pages into {out / 'crawl.warc.gz'} ({(out / 'crawl.warc.gz').stat().st_size:,} bytes)")


def main() -> None:
    """Command line: ``--pages N --out DIR [--seed S] [--warc]``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--warc", action="store_true", help="write the pages as one crawl archive, crawl.warc.gz")
    args = ap.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"needs the real corpus at {SHARED}")
    build(args.pages, args.out, args.seed)
    if args.warc:
        pack_warc(args.out)


if __name__ == "__main__":
    main()

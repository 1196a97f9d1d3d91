"""A synthetic scan of a big site, built from the model objects directly (no files, no
extraction), for the report's size and speed checks (``tests/core/test_report_scale.py``,
``benchmarks/bench_report.py``).

The site: ``n_pages`` pages in 20 sections, in groups of four pages ``a b c d`` where ``a``
and ``b`` are full duplicates, ``a`` and ``c`` content duplicates, ``c`` and ``d`` layout
duplicates, and, in every other group, ``b`` and ``d`` partial duplicates; so about 3.5 duplicate
pairs per four pages, each of the four types well represented.  Every page has 200 word
shingles, half of them shared within its group, and a short main text.
"""

from __future__ import annotations

import numpy as np

from dedup_gui.core.model import DupType, Page, Pair, PairScores, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.cluster import build_clusters

SECTIONS = 20
SHINGLES = 200
WORDS = "tea hill road river morning bread market garden letter window stone summer".split()


def _page(i: int, group: int, shingles: np.ndarray) -> Page:
    section = f"section-{group % SECTIONS:02d}"
    path = f"{section}/topic-{group // SECTIONS:05d}/page-{i:06d}.html"
    words = [WORDS[(i * 7 + k * (1 + i % 5)) % len(WORDS)] for k in range(60)]
    return Page(
        path=path, abspath="/synthetic/" + path, size=20_000 + i % 977, sha1=f"{i:040x}", encoding="utf-8",
        encoding_source="meta", title=f"Page {i} of {section}: a title of ordinary length", url=None,
        main_text=" ".join(words), text_hash=f"{i:032x}", tag_sequence=("html", "body", "p"), simhash=i,
        shingles=shingles, minhash=np.zeros(1, np.uint64), word_count=SHINGLES + 3, has_text=True,
    )  # fmt: skip


def _pair(a: int, b: int, kind: DupType, content: float, layout: float) -> Pair:
    return Pair(a, b, PairScores(content, content, layout, 2, content), kind)


def synthetic_result(n_pages: int = 100_000) -> ScanResult:
    """The synthetic scan (see the module docstring) of ``n_pages`` pages (int, a multiple of 4).

    Returns:
        A :class:`~dedup_gui.core.model.ScanResult` with pages, pairs (most similar first within
        each type) and near-duplicate groups; no errors, no skipped files.
    """
    pages: list[Page] = []
    pairs: list[Pair] = []
    for g in range(n_pages // 4):
        base = np.arange(g * 1000, g * 1000 + SHINGLES, dtype=np.uint32)
        own = [np.arange(g * 1000 + 300 + k * 100, g * 1000 + 400 + k * 100, dtype=np.uint32) for k in range(4)]
        half = base[: SHINGLES // 2]
        shingles = [base, base, np.concatenate([half, own[2]]), np.concatenate([half, own[3]])]
        first = len(pages)
        pages += [_page(first + k, g, np.sort(shingles[k])) for k in range(4)]
        a, b, c, d = range(first, first + 4)
        spread = (g % 97) / 1000
        pairs.append(_pair(a, b, DupType.FULL, 1.0 - spread / 10, 1.0))
        pairs.append(_pair(a, c, DupType.CONTENT, 0.97 - spread / 2, 0.4))
        pairs.append(_pair(c, d, DupType.LAYOUT, 0.5 - spread, 0.9))
        if g % 2 == 0:
            pairs.append(_pair(b, d, DupType.PARTIAL, 0.4 - spread, 0.3))
    pairs.sort(key=lambda p: -p.scores.content_similarity)
    return ScanResult(
        "/synthetic/site", pages, [], pairs, build_clusters(len(pages), pairs), Thresholds(),
        ScanSettings(workers=1, use_cache=False), elapsed=1.0,
    )  # fmt: skip

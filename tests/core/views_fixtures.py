"""Small hand-made scans for the Qt-free view state tests (no fixture magic, no Qt)."""

from __future__ import annotations

import numpy as np

from dedup_gui.core.model import (
    Cluster,
    DupType,
    FileError,
    Page,
    Pair,
    PairScores,
    ScanResult,
    ScanSettings,
    Thresholds,
)


def page(path: str, words: int = 10, title: str = "", has_text: bool = True) -> Page:
    """A Page with the given visible features and dummy fingerprints."""
    return Page(path=path, abspath=f"/scan/{path}", size=1000, sha1="0" * 40, encoding="utf-8",
                encoding_source="meta", title=title, url=None, main_text=f"main text of {path}",
                text_hash="0" * 40, tag_sequence=("html", "body"), simhash=0,
                shingles=np.zeros(0, np.uint32), minhash=np.zeros(128, np.uint64), word_count=words,
                has_text=has_text)  # fmt: skip


def scores(content: float, hamming: int) -> PairScores:
    """PairScores with this content similarity and Hamming distance, 0.5 elsewhere."""
    return PairScores(content, 0.5, 0.5, hamming, 0.5)


def ties(errors: tuple[str, ...] = (), root: str = "/scan") -> ScanResult:
    """Five pairs whose content similarity, Hamming distance, left name and type all tie
    somewhere; "B/x.html" and "b/X.html" fold to the same name.  Page 4 has no pair; pages 0-3
    are cluster 1.  ``errors`` adds files that could not be used."""
    pages = [page(p) for p in ("B/x.html", "a/y.html", "b/X.html", "c/z.html", "d/w.html")]
    pairs = [
        Pair(0, 1, scores(0.5, 3), DupType.FULL),
        Pair(1, 2, scores(0.9, 3), DupType.DISTINCT),
        Pair(0, 2, scores(0.5, 1), DupType.LAYOUT),
        Pair(2, 3, scores(0.9, 7), DupType.FULL),
        Pair(1, 3, scores(0.1, 3), DupType.PARTIAL),
    ]
    clusters = [Cluster(1, (0, 1, 2, 3), frozenset({DupType.FULL, DupType.LAYOUT, DupType.PARTIAL}))]
    return ScanResult(root=root, pages=pages, errors=[FileError(e, "not a page") for e in errors],
                      pairs=pairs, clusters=clusters, thresholds=Thresholds(), settings=ScanSettings())  # fmt: skip

"""I-Match: a hand-computed signature, the IDF band, and groups of the sample pages."""

import hashlib
import math

import pytest

from dedup_gui.core.methods.imatch import (
    CollectionIdf,
    imatch_groups,
    imatch_signature,
    page_signature,
    signature_of_terms,
)
from dedup_gui.core.text.tokens import tokenize

DOCS = [
    "the cat sat on the mat",
    "the cat sat on the mat today",  # a copy with one added word
    "the dog ran",
    "a dog sat",
    "the bird sang",
]


@pytest.fixture(scope="module")
def idf():
    return CollectionIdf.from_token_sets(tokenize(d) for d in DOCS)


def test_collection_statistics_by_hand(idf):
    # N = 5.  df: the 4, sat 3, cat/on/mat/dog 2, today/ran/a/bird/sang 1.
    assert idf.documents == 5
    assert {t: idf.df[t] for t in ("the", "sat", "cat", "dog", "today")} == {
        "the": 4,
        "sat": 3,
        "cat": 2,
        "dog": 2,
        "today": 1,
    }
    # nidf = ln(N / df) / ln(N)
    assert idf.nidf("the") == pytest.approx(math.log(5 / 4) / math.log(5))  # 0.139: too common
    assert idf.nidf("sat") == pytest.approx(0.3174, abs=1e-4)
    assert idf.nidf("cat") == pytest.approx(0.5693, abs=1e-4)
    assert idf.nidf("today") == 1.0  # in one document only: too rare
    assert idf.nidf("unseen") == 1.0


def test_hand_computed_signature(idf):
    # Doc 1 keeps cat, mat, on, sat (0.2 <= nidf < 1); "the" is too common.
    s1 = imatch_signature(tokenize(DOCS[0]), idf)
    assert s1.kept == ("cat", "mat", "on", "sat")
    assert (s1.too_common, s1.too_rare, s1.unique_terms) == (1, 0, 5)
    assert s1.digest == hashlib.sha1(b"cat mat on sat").hexdigest() == "aaa5fd665272e5da33c82453a30a9426d712475f"
    # Doc 2 adds "today", a single-document term: dropped, so the copy keeps the signature.
    s2 = imatch_signature(tokenize(DOCS[1]), idf)
    assert (s2.too_common, s2.too_rare) == (1, 1)
    assert s2.matches(s1)
    assert imatch_signature(tokenize(DOCS[3]), idf).digest == "fc707d2776bea1ae4c1270dc35a008b1239faaaf"  # "dog sat"
    # Doc 5 keeps nothing ("the" common; "bird", "sang" rare): no signature, matches nothing.
    s5 = imatch_signature(tokenize(DOCS[4]), idf)
    assert s5.digest is None and not s5.matches(s5)
    assert s1.band == "0.2 <= nidf < 1 (5 documents)"


def test_without_collection_statistics_every_term_counts():
    a = imatch_signature(tokenize(DOCS[0]))
    b = imatch_signature(tokenize(DOCS[1]))
    assert a.kept == ("cat", "mat", "on", "sat", "the") and not a.matches(b)
    assert a.band == "every term (no collection statistics)"
    assert signature_of_terms([]) is None


def test_the_band_must_be_a_band(idf):
    with pytest.raises(ValueError):
        imatch_signature(["x"], idf, low=0.5, high=0.5)
    with pytest.raises(ValueError):
        imatch_signature(["x"], idf, low=-0.1)


def test_groups_of_the_sample_pages(sample_scan):
    pages = sample_scan.pages
    groups = [[pages[i].path for i in g] for g in imatch_groups(pages)]
    # The byte-identical mirror copy, the re-saved article, and the Chinese post in GBK and
    # UTF-8 (one sentence changed, its characters common elsewhere on the page).  The print
    # version of night-ride-safety keeps a byline whose date ("21 October 2023") other pages
    # share, so those terms pass the band and its signature differs.
    assert groups == [
        ["mirror/larkmoor-wheelers.example.org/articles/river-trail.html", "site/articles/river-trail.html"],
        ["site/archive/winter-maintenance.html", "site/articles/winter-maintenance.html"],
        ["warc/trail-crawl.warc.gz#462", "warc/trail-crawl.warc.gz#1090"],  # one page crawled at two URLs
        ["zh/spring-tea-picking-gbk.html", "zh/spring-tea-picking-utf8.html"],
    ]
    no_text = next(p for p in pages if not p.has_text)
    assert page_signature(no_text).digest is None

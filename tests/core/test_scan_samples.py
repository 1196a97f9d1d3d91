"""The engine end to end on the bundled sample pages: each designed pair gets its designed type."""

import csv

import pytest

from dedup_gui.core.model import DupType, ScanSettings, Thresholds
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import ScanCancelled

from ..conftest import SAMPLES


def _expected():
    with open(SAMPLES / "EXPECTED.csv", newline="", encoding="utf-8") as fh:
        return [(r["left"], r["right"], DupType(r["type"])) for r in csv.DictReader(fh)]


def _pair_types(result):
    return {frozenset((result.pages[p.left].path, result.pages[p.right].path)): p for p in result.pairs}


@pytest.mark.parametrize("left,right,expected", _expected(), ids=lambda v: str(v))
def test_designed_pairs_get_their_designed_type(sample_scan, left, right, expected):
    pair = _pair_types(sample_scan).get(frozenset((left, right)))
    if expected is DupType.DISTINCT:
        # Distinct pairs need not even be candidates; if they are, they must be distinct.
        assert pair is None or pair.type is DupType.DISTINCT
    else:
        assert pair is not None, f"{left} / {right} was not found as a candidate pair"
        assert pair.type is expected, pair.scores


def test_every_sample_file_gets_a_verdict(sample_scan):
    # 14 HTML pages and 4 HTML records of the crawl archive in the samples; .css/.svg files and
    # the _files resource folder are skipped, as are the archive's revisit record.
    paths = {p.path for p in sample_scan.pages}
    assert len(sample_scan.pages) == 18
    assert sample_scan.errors == []
    assert "elsewhere/vale-gazette-cafes_files/" in sample_scan.skipped
    assert "site/style.css" in sample_scan.skipped
    assert "zh/spring-tea-picking-gbk.html" in paths
    assert {"warc/trail-crawl.warc.gz#462", "warc/trail-crawl.warc.gz#1730"} <= paths
    assert sample_scan.skip_reason("warc/trail-crawl.warc.gz#3807") == (
        "a WARC revisit record: https://trails.example/lakes unchanged since warc/trail-crawl.warc.gz#2500,"
        " an exact duplicate of it; not read again"
    )


def test_the_sample_warc_file_is_the_one_its_script_writes(tmp_path, monkeypatch):
    # resources/make_sample_warc.py writes the same bytes at every run: the sample is its output.
    import resources.make_sample_warc as maker

    monkeypatch.setattr(maker, "OUT", tmp_path / "trail-crawl.warc.gz")
    maker.main()
    assert (tmp_path / "trail-crawl.warc.gz").read_bytes() == (SAMPLES / "warc" / "trail-crawl.warc.gz").read_bytes()


def test_exact_copy_is_a_byte_identical_full_duplicate(sample_scan):
    pair = _pair_types(sample_scan)[
        frozenset(("site/articles/river-trail.html", "mirror/larkmoor-wheelers.example.org/articles/river-trail.html"))
    ]
    s = pair.scores
    # Same bytes: every similarity is exactly 1 and the fingerprints are equal.
    assert s.identical_bytes and (s.content_similarity, s.layout_similarity, s.jaccard, s.hamming_distance) == (
        1.0,
        1.0,
        1.0,
        0,
    )


def test_gbk_page_decodes_and_matches_its_utf8_twin(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    gbk, utf8 = pages["zh/spring-tea-picking-gbk.html"], pages["zh/spring-tea-picking-utf8.html"]
    assert gbk.encoding == "gb18030"  # declared gb2312, decoded with its superset
    assert utf8.encoding == "utf-8"
    assert "\ufffd" not in gbk.main_text
    # The first paragraph is unchanged between the two saves.
    assert gbk.main_text.splitlines()[0] == utf8.main_text.splitlines()[0]
    # CJK text is tokenized per character, so word_count is about the number of Han characters.
    assert gbk.word_count > 300


def test_pages_without_text_are_marked_and_not_duplicates(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    for path in ("gallery/finish-line.html", "frames/club-frames.html"):
        assert not pages[path].has_text
        assert pages[path].simhash == 0
    no_text = {i for i, p in enumerate(sample_scan.pages) if not p.has_text}
    for pair in sample_scan.pairs:
        if pair.left in no_text or pair.right in no_text:
            assert pair.type is DupType.DISTINCT or pair.scores.identical_bytes


def test_urls_from_canonical_og_url_and_saved_from_comment(sample_scan):
    urls = {p.path: p.url for p in sample_scan.pages}
    assert urls["site/articles/winter-maintenance.html"].startswith("https://")  # <link rel=canonical>
    assert urls["site/articles/night-ride-safety.html"].startswith("https://")  # og:url
    assert urls["elsewhere/vale-gazette-cafes.html"].startswith("http")  # saved from url=


def test_clusters_group_each_duplicate_pair(sample_scan):
    # Seven designed duplicate pairs (one in the crawl archive), no page in two of them: seven
    # clusters of two pages.
    assert sorted(len(c.pages) for c in sample_scan.clusters) == [2] * 7
    types = set().union(*(c.types for c in sample_scan.clusters))
    assert types == {DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL}


def test_most_similar_pair_comes_first(sample_scan):
    first = sample_scan.pairs[0]
    assert first.type is DupType.FULL and first.scores.content_similarity == 1.0


def test_thresholds_change_the_type_without_rescanning(sample_scan):
    from dedup_gui.core.pipeline.classify import reclassify

    # The layout pair keeps 3 of 6 paragraphs: containment 0.49. A partial threshold above that
    # turns it distinct, and its cluster disappears.
    strict = reclassify(sample_scan, Thresholds(content_partial=0.6))
    pairs = _pair_types(strict)
    key = frozenset(("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html"))
    assert _pair_types(sample_scan)[key].type is DupType.LAYOUT
    assert pairs[key].type is DupType.DISTINCT
    assert len(strict.clusters) < len(sample_scan.clusters)


def test_pool_and_single_process_give_the_same_result(sample_scan):
    pooled = scan_folder(SAMPLES, ScanSettings(workers=2))
    assert [p.path for p in pooled.pages] == [p.path for p in sample_scan.pages]
    assert [p.simhash for p in pooled.pages] == [p.simhash for p in sample_scan.pages]
    assert [(p.left, p.right, p.type) for p in pooled.pairs] == [(p.left, p.right, p.type) for p in sample_scan.pairs]


def test_cancel_stops_the_scan():
    class CancelAfterFirst:
        def __init__(self):
            self.calls = 0

        def update(self, stage, done, total, detail=""):
            self.calls += 1

        def cancelled(self):
            return self.calls > 1

    with pytest.raises(ScanCancelled):
        scan_folder(SAMPLES, ScanSettings(workers=1), progress=CancelAfterFirst())


def test_input_folder_is_not_modified(tmp_path):
    import shutil

    folder = tmp_path / "in"
    shutil.copytree(SAMPLES, folder)

    def snapshot():
        return {
            p.relative_to(folder): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }

    before = snapshot()
    result = scan_folder(folder)
    from dedup_gui.core.reports.write import write_result

    write_result(result, tmp_path / "out.json")
    assert snapshot() == before


def test_the_fast_extractor_finds_the_designed_duplicates():
    # Resiliparse's main-content extraction (--extractor resiliparse) on the samples: the same
    # duplicate pairs, with the article text, not the site's navigation, as main text.
    fast = scan_folder(SAMPLES, ScanSettings(workers=1, extractor="resiliparse", use_cache=False))
    pages = {p.path: p for p in fast.pages}
    text = pages["site/articles/river-trail.html"].main_text
    assert "The Sallow River Trail begins behind the old tannery" in text
    found = {frozenset((fast.pages[p.left].path, fast.pages[p.right].path)): p.type for p in fast.pairs}
    for left, right, expected in _expected():
        if expected is not DupType.DISTINCT:
            assert found.get(frozenset((left, right))) is expected, (left, right)


def test_learning_the_site_templates_is_a_step_that_counts_pages():
    # A tester's window stood at "reading pages: 1,422 of 1,422 — less than a second left" for
    # 4 s while the scan learned each site's template, unannounced; then at "finding candidate
    # pairs: 0 of 1 — learning each site's template" for 2-6 s, the bar not moving.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder
    from dedup_gui.core.pipeline.site_template import CHECK_EVERY
    from dedup_gui.core.progress import STAGE_CANDIDATES, STAGE_TEMPLATES

    class Recorder:
        def __init__(self):
            self.seen = []

        def update(self, stage, done, total, detail=""):
            self.seen.append((stage, done, total, detail))

        def cancelled(self):
            return False

    progress = Recorder()
    result = scan_folder(SAMPLES, ScanSettings(workers=1, use_cache=False), progress=progress)
    n = len(result.pages)
    said = [s for s in progress.seen if s[0] == STAGE_TEMPLATES]
    # before the work, every CHECK_EVERY pages of taking the templates out, and at the end
    assert said == [(STAGE_TEMPLATES, 0, n, "")] + [(STAGE_TEMPLATES, i, n, "") for i in range(0, n, CHECK_EVERY)] + [
        (STAGE_TEMPLATES, n, n, "")
    ]
    assert progress.seen.index(said[-1]) < progress.seen.index((STAGE_CANDIDATES, 0, 1, ""))
    assert not [s for s in progress.seen if s[0] == STAGE_CANDIDATES and s[3]]  # no "0 of 1" with a story

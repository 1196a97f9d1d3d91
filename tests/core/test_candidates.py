"""Candidate pairs: every pair sharing an important part is found without comparing all pairs."""

import numpy as np

from dedup_gui.core.model import Page
from dedup_gui.core.pipeline.candidates import containment_pairs


def fake_page(i, shingles):
    arr = np.array(sorted(set(shingles)), dtype=np.uint32)
    return Page(
        path=f"p{i}", abspath=f"/p{i}", size=1, sha1=str(i), encoding="utf-8", encoding_source="meta",
        title="", url=None, main_text="x", text_hash=str(i), tag_sequence=(), simhash=i,
        shingles=arr, minhash=np.zeros(4, np.uint64), word_count=len(arr), has_text=True,
    )  # fmt: skip


def test_short_page_inside_a_long_one_is_found_exactly():
    long_page = fake_page(0, range(1000, 2000))  # 1000 shingles
    quote = fake_page(1, list(range(1000, 1030)) + list(range(5000, 5070)))  # 30 of its 100 inside
    other = fake_page(2, range(9000, 9100))
    # containment of the quote = 30/100 = 0.3; Jaccard = 30/1070 = 0.028 (Jaccard LSH misses it)
    assert containment_pairs([long_page, quote, other], 0.3) == {(0, 1)}
    assert containment_pairs([long_page, quote, other], 0.31) == set()


def test_boilerplate_shingles_do_not_count():
    # Shingle 7 is in every page (template text); alone it must not make pairs.
    pages = [fake_page(i, [7] + list(range(100 * (i + 1), 100 * (i + 1) + 3))) for i in range(60)]
    assert containment_pairs(pages, 0.2, max_posting=50) == set()
    assert len(containment_pairs(pages, 0.2, max_posting=100)) == 60 * 59 // 2


def test_many_copies_of_one_text_make_a_star_not_all_pairs(tmp_path):
    from dedup_gui.core.model import DupType, ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder

    body = "<p>" + " ".join(f"word{i}" for i in range(120)) + "</p>"
    for i in range(120):  # same main text, different bytes (a comment differs)
        (tmp_path / f"c{i:03d}.html").write_text(f"<html><!-- copy {i} --><body>{body}</body></html>")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False))
    assert len(result.pairs) == 119  # a star around the first copy, not 120 * 119 / 2 = 7,140
    assert all(p.type is DupType.FULL for p in result.pairs)
    assert len(result.clusters) == 1 and len(result.clusters[0].pages) == 120
    # and the scan says so, or a user counting pairs would think 7,021 were missed
    assert result.notes == [
        "1 group of more than 30 pages with identical main text (or identical bytes) was paired as a star: "
        "each page with the group's first page, not every two"
    ]


def test_pages_of_one_template_are_not_all_candidates():
    # 60 pages whose main texts share a 40-shingle template block and have 40 shingles of their
    # own: every two have Jaccard 40/120 = 0.33 and containment 0.5, so they would all be
    # candidates.  The block is in 60 > 50 pages, so it is boilerplate: only pages 3 and 4, which
    # also share 40 shingles of real content, stay a candidate pair.
    from dataclasses import replace

    from dedup_gui.core.fingerprints.shingles import minhash_signature
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.candidates import candidate_pairs

    rng = np.random.default_rng(11)
    pages = []
    for i in range(60):
        own = list(range(1000 * (i + 1), 1000 * (i + 1) + 40))
        if i in (3, 4):
            own += list(range(900_000, 900_040))
        page = fake_page(i, list(range(40)) + own)
        pages.append(replace(page, minhash=minhash_signature(page.shingles, 128), simhash=int(rng.integers(0, 2**63))))
    assert candidate_pairs(pages, ScanSettings(boilerplate_pages=50)) == [(3, 4)]
    # The scan tells it: 58 pages have half their shingles (40 of 80) in the boilerplate block;
    # pages 3 and 4 have 40 of 120.
    from dedup_gui.core.pipeline.candidates import find_candidates
    from dedup_gui.core.pipeline.scan import candidate_notes

    found = find_candidates(pages, ScanSettings(boilerplate_pages=50))
    assert (found.mostly_boilerplate, found.near_copy_stars) == (58, 0)
    assert candidate_notes(found, ScanSettings(boilerplate_pages=50)) == [
        "58 pages had half of their main text or more in more than 50 pages; that text counted as "
        "boilerplate (template text) and made no candidate pair (the command line's --boilerplate-pages sets the "
        "number of pages)"
    ]
    every = candidate_pairs(pages, ScanSettings(boilerplate_pages=100))
    assert len(every) == 60 * 59 // 2  # with a limit of 100 pages the block is content


def test_simhash_pairs_of_one_template_need_shared_content():
    # The 60 template pages again, now with SimHashes 1 bit apart (short main texts that are
    # mostly template text): SimHash alone must not pair them; pages 3 and 4 share content.
    # Pages 60..62 are all boilerplate (only the template block, e.g. thin "no results" pages):
    # for them SimHash is the only signal, so their SimHash pairs stay.
    from dataclasses import replace

    from dedup_gui.core.fingerprints.shingles import minhash_signature
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.candidates import candidate_pairs

    pages = []
    for i in range(63):
        own = list(range(1000 * (i + 1), 1000 * (i + 1) + 40)) if i < 60 else []
        if i in (3, 4):
            own += list(range(900_000, 900_040))
        page = fake_page(i, list(range(40)) + own)
        signature = minhash_signature(page.shingles, 128)
        pages.append(replace(page, simhash=(1 << 40) | (1 << (i % 40)), minhash=signature))
    found = candidate_pairs(pages, ScanSettings(boilerplate_pages=50))
    assert [p for p in found if p[1] < 60] == [(3, 4)]
    # each all-boilerplate page pairs with its SimHash neighbours (all 63 are within 2 bits)
    assert {(60, 61), (60, 62), (61, 62)} <= set(found)
    assert all(p[1] >= 60 for p in found if p != (3, 4))


def near_copies(n, shared=200, own=2, seed=5):
    """``n`` pages sharing ``shared`` shingles, each with ``own`` of its own, SimHashes 1 bit
    apart, with real 128-permutation MinHash signatures."""
    from dataclasses import replace

    from dedup_gui.core.fingerprints.shingles import minhash_signature

    pages = []
    for i in range(n):
        page = fake_page(i, list(range(shared)) + list(range(10_000 + own * i, 10_000 + own * (i + 1))))
        pages.append(replace(page, simhash=(1 << 50) | (1 << (i % 48)), minhash=minhash_signature(page.shingles, 128)))
    return pages


def test_near_copy_groups_gather_copies_not_pages_of_one_template():
    from dedup_gui.core.pipeline.candidates import near_copy_groups

    # 40 copies: 200 common shingles and 2 of their own, so Jaccard 200/204 = 0.98 >= 0.6.
    assert near_copy_groups(near_copies(40)) == [list(range(40))]
    # 20 own shingles each (about 5% of the words changed): Jaccard 200/240 = 0.83 >= 0.6.
    assert near_copy_groups(near_copies(40, own=20)) == [list(range(40))]
    # One template with 80 own shingles per page: Jaccard 200/360 = 0.56 < 0.6, no group.
    assert near_copy_groups(near_copies(40, own=80)) == []
    # SimHashes 4 bits apart (more than k = 3) are not near-copies, whatever their shingles.
    from dataclasses import replace

    far = [replace(p, simhash=(1 << 50) | (0b1111 << (4 * i))) for i, p in enumerate(near_copies(3))]
    assert near_copy_groups(far) == []


def test_many_near_copies_are_a_star_not_boilerplate():
    # 120 near-copies: every common shingle is in 120 > 50 texts, so by the boilerplate rule
    # alone nothing would pair them (the bug this guards).  They are one group of near-copies,
    # more than FULL_BUCKET_LIMIT = 30, so the pairs are a star around the first page.
    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.candidates import candidate_pairs

    assert candidate_pairs(near_copies(120), ScanSettings(boilerplate_pages=50)) == [(0, j) for j in range(1, 120)]
    # 20 copies (a group within the limit) keep every pair, as before.
    assert len(candidate_pairs(near_copies(20), ScanSettings(boilerplate_pages=50))) == 20 * 19 // 2


def test_scan_of_sixty_near_copies_finds_one_cluster(tmp_path):
    from dedup_gui.core.model import DupType, ScanSettings
    from dedup_gui.core.pipeline.scan import scan_folder

    words = [f"word{i}" for i in range(300)]
    for i in range(60):  # each copy has two words of its own: a date and a counter, say
        body = " ".join(words[:100] + [f"day{i}"] + words[100:200] + [f"count{i}"] + words[200:])
        (tmp_path / f"c{i:02d}.html").write_text(f"<html><body><article><p>{body}</p></article></body></html>")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False, boilerplate_pages=50))
    # Not none (every common shingle is in 60 > 50 texts), and not all 60 * 59 / 2 = 1,770:
    # the copies within 3 SimHash bits of c00 are a star around it; the few whose SimHash drifted
    # further (2 words of 302 change it by up to 5 bits here) are paired through the index.
    assert 59 <= len(result.pairs) < 1770 // 2
    assert sum(result.pages[p.left].path == "c00.html" for p in result.pairs) >= 31
    assert all(p.type is DupType.FULL for p in result.pairs)
    assert len(result.clusters) == 1 and len(result.clusters[0].pages) == 60
    assert any("near-copies of one page was paired as a star" in note for note in result.notes)
    from dedup_gui.core.reports.write import summary_dict
    from dedup_gui.gui.main_window import summarize

    assert summary_dict(result)["notes"] == result.notes  # the JSON and HTML reports say it too
    assert summarize(result).endswith(". Note: " + result.notes[-1])  # and the window's status line


def test_the_candidate_stage_stops_when_the_scan_is_cancelled():
    # Cancel during "finding candidate pairs" took 17 s to act on 2,000 template pages: the
    # stage now asks between steps.
    import pytest

    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.candidates import find_candidates
    from dedup_gui.core.progress import ScanCancelled

    calls = []

    def cancelled():
        calls.append(1)
        raise ScanCancelled()

    with pytest.raises(ScanCancelled):
        find_candidates(near_copies(50), ScanSettings(), check=cancelled)
    assert calls == [1]

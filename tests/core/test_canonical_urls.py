"""A canonical URL copied onto other content does not make a page the original (a new-user
test on ``../shared/pairs``: ``g0181_distinct.html`` is Daring Fireball's article inside Dropbox's
page, whose ``rel=canonical`` names the Dropbox article; the keep advice kept it and told the
client to drop the real Daring Fireball page, pointing it at the Dropbox address)."""

from __future__ import annotations

from dedup_gui.core.pipeline.canonical_urls import MAX_CLAIMANTS, address_key, contested_canonicals
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from tests.core.test_keep_clusters import FULL, LAYOUT, keep_rows, page, pair, result_of, same_time

DROPBOX = "https://dropbox.tech/infrastructure/asynchronous-task-scheduling-at-dropbox"


def _dropbox_frame_site():
    pages = [
        page("daringfireball.html", text="the article"),  # the original: states no address
        page("dropbox-blog.html", text="dropbox's article", url=DROPBOX),
        page("framed.html", text="the article", url=DROPBOX),  # the article in Dropbox's template
    ]
    # framed.html and daringfireball.html: the same article (full); framed.html and
    # dropbox-blog.html: the same template, other articles (layout)
    return result_of(pages, [pair(0, 2, FULL), pair(1, 2, LAYOUT, 0.1)])


def test_a_canonical_stated_by_pages_with_other_content_is_contested() -> None:
    assert contested_canonicals(_dropbox_frame_site()) == {1, 2}


def test_the_keep_rule_does_not_prefer_a_page_for_a_copied_canonical() -> None:
    # The old rule kept framed.html ("canonical URL"): it states an address, the original none.
    # Now the two rank equal on the canonical criterion; the path decides (same_time).
    result = _dropbox_frame_site()
    [cluster] = build_keep_clusters(result, same_time)
    assert keep_rows(result) == [["framed.html", "daringfireball.html"]]
    assert cluster.row_reason(2) == "not kept: later path in a tie"


def test_versions_of_one_document_stating_the_same_address_still_count() -> None:
    # Three versions of one page state the stable version's address; all are full duplicates,
    # so the address is not contested, and the page whose own path it is stays preferred.
    url = "https://docs.example.org/stable/guide/"
    pages = [page(f"{v}/guide/index.html", text="guide", url=url) for v in ("v1", "v2", "stable")]
    result = result_of(pages, [pair(0, 1, FULL), pair(0, 2, FULL), pair(1, 2, FULL)])
    assert contested_canonicals(result) == frozenset()
    assert keep_rows(result)[0][1] == "stable/guide/index.html"


def test_a_site_wide_canonical_contests_every_page_and_its_own_path_still_counts() -> None:
    # Every page names the home page (a theme's hard-coded canonical): none is preferred for it,
    # except the home page itself, whose path is the address.
    home = "https://blog.example.org/"
    pages = [page("index.html", text="home", url=home)]
    pages += [page(f"post{i}.html", text="same post" if i < 2 else f"post {i}", url=home) for i in range(MAX_CLAIMANTS)]
    result = result_of(pages, [pair(1, 2, FULL)])
    assert len(contested_canonicals(result)) == MAX_CLAIMANTS + 1
    assert address_key("https://Blog.example.org/index.html") == address_key(home) == ("blog.example.org", "")

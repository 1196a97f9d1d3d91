"""URL-level dedup: normalization rules, mirror hosts, mirror paths and the seen-URL filter."""

import math

import pytest

from dedup_gui.core.methods.urls import (
    compare_urls,
    host_key,
    normalize_url,
    page_url,
    remove_dot_segments,
    seen_urls,
    url_from_mirror_path,
    url_key,
    url_report,
)
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder


@pytest.mark.parametrize(
    "url, normalized",
    [
        ("HTTP://WWW.Example.COM/Path", "http://www.example.com/Path"),  # 1: scheme, host lower; path kept
        ("http://example.com.:80", "http://example.com/"),  # 1, 2: trailing dot, default port, empty path
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),  # other ports stay
        ("http://user:pw@example.com/a", "http://example.com/a"),  # 1: credentials dropped
        ("http://bücher.de/straße", "http://xn--bcher-kva.de/stra%C3%9Fe"),  # 1, 3: IDNA host, UTF-8 escapes
        ("http://example.com/%7euser/a%2fb%3a", "http://example.com/~user/a%2Fb%3A"),  # 3: escapes
        ("http://example.com/a b", "http://example.com/a%20b"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),  # 4: dot segments
        ("http://example.com/shop;jsessionid=0AF3/item", "http://example.com/shop/item"),  # 5
        ("http://example.com/docs/index.html", "http://example.com/docs"),  # 6, then 7
        ("http://example.com/Default.aspx", "http://example.com/"),  # 6 at the root
        ("http://example.com/docs/", "http://example.com/docs"),  # 7
        ("http://example.com/?b=2&a=1&a=0", "http://example.com/?a=0&a=1&b=2"),  # 8: sorted
        ("http://example.com/p?utm_source=x&UTM_Medium=y&fbclid=1&gclid=2&id=7", "http://example.com/p?id=7"),
        ("http://example.com/p?PHPSESSID=abc&jsessionid=d&sessionid=e", "http://example.com/p"),  # 8
        ("http://example.com/p?", "http://example.com/p"),
        ("http://example.com/p#section-2", "http://example.com/p"),  # 9
    ],
)
def test_normalization_rules(url, normalized):
    assert normalize_url(url) == normalized
    assert normalize_url(normalized) == normalized  # idempotent


def test_not_http_urls_are_refused():
    for bad in ("ftp://example.com/", "/relative/path", "mailto:someone@example.com", "http:///nohost"):
        with pytest.raises(ValueError):
            normalize_url(bad)
    with pytest.raises(ValueError):
        normalize_url("http://example.com:99999/")


def test_remove_dot_segments_rfc3986_examples():
    # RFC 3986 section 5.2.4's own examples.
    assert remove_dot_segments("/a/b/c/./../../g") == "/a/g"
    assert remove_dot_segments("mid/content=5/../6") == "mid/6"
    assert remove_dot_segments("/../a") == "/a"


def test_http_and_https_are_one_page():
    assert url_key("https://example.com/a/") == url_key("http://example.com/a") == "//example.com/a"


def test_mirror_host_keys():
    assert host_key("www.example.com") == host_key("www.example.com.cn") == host_key("example.de") == "example"
    assert host_key("example.co.uk") == host_key("www2.example.org") == "example"
    assert host_key("news.example.com") == "news.example" != host_key("example.com")
    assert host_key("192.168.0.1") == "192.168.0.1" and host_key("localhost") == "localhost"


def test_url_from_mirror_paths():
    assert url_from_mirror_path("www.example.com/index.html") == "http://www.example.com/index.html"
    assert url_from_mirror_path("crawl/www.example.com.cn/news/a.html") == "http://www.example.com.cn/news/a.html"
    assert url_from_mirror_path("example.com:8080/a.html") == "http://example.com:8080/a.html"
    assert url_from_mirror_path("example.com+8080/a.html") == "http://example.com:8080/a.html"  # wget on Windows
    assert url_from_mirror_path("10.0.0.7/list.php?page=2") == "http://10.0.0.7/list.php?page=2"
    assert url_from_mirror_path("site/articles/a.html") is None  # no folder looks like a host
    assert url_from_mirror_path("example.com") is None  # the file itself is no host folder


def test_page_urls_and_pair_verdicts_on_the_samples(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    mirror = page_url(pages["mirror/larkmoor-wheelers.example.org/articles/river-trail.html"])
    assert mirror.source == "mirror path"
    assert mirror.normalized == "http://larkmoor-wheelers.example.org/articles/river-trail.html"
    site = page_url(pages["site/articles/winter-maintenance.html"])
    archive = page_url(pages["site/archive/winter-maintenance.html"])
    assert site.source == archive.source == "page"
    same = compare_urls(site, archive)
    assert same.duplicate and same.known and same.reason == "same normalized URL"
    assert not compare_urls(site, mirror).duplicate
    unknown = compare_urls(page_url(pages["site/articles/river-trail.html"]), mirror)
    assert not unknown.known and not unknown.duplicate


def test_mirror_paths_on_mirror_hosts_are_duplicates():
    a = page_url_of("http://www.example.com/news/a.html")
    b = page_url_of("http://www.example.com.cn/news/a.html")
    c = page_url_of("http://www.example.com.cn/news/b.html")
    assert compare_urls(a, b).reason == "same path on mirror hosts www.example.com and www.example.com.cn"
    assert not compare_urls(a, c).duplicate


def page_url_of(url):
    from dedup_gui.core.methods.urls import PageUrl

    return PageUrl(0, url, normalize_url(url), "page")


def test_seen_urls_with_a_bloom_filter():
    keys = [
        url_key(u)
        for u in ("http://a.org/1", "https://a.org/1/", "http://a.org/2", "http://a.org/1#x", "http://b.org/")
    ]
    seen = seen_urls(keys)
    assert (seen.added, seen.distinct, seen.repeats, seen.false_positives) == (5, 3, 2, 0)
    # Sized for 5 URLs at 1 %: m = 48 bits, k = 7; the estimate counts the 3 distinct URLs.
    assert (seen.m, seen.k) == (48, 7)
    assert seen.false_positive_rate == pytest.approx((1 - math.exp(-7 * 3 / 48)) ** 7)


ARTICLE = """<html><head><title>{title}</title>{head}</head><body><nav>Home | News | About</nav>
<article><h1>{title}</h1>
<p>The river trail reopened this weekend after the winter floods washed away two bridges near the old mill.</p>
<p>Volunteers from three clubs rebuilt the crossings in six weekends, using timber donated by the sawmill.</p>
<p>Riders should still expect mud on the lower section, and the ford is closed until the water level drops.</p>
</article><footer>Example News</footer></body></html>"""


def test_url_report_groups_mirror_hosts_whose_pages_duplicate(tmp_path):
    for host in ("www.example.com", "www.example.com.cn"):
        for name, title in (("trail.html", "Trail reopens"), ("index.html", "Trail reopens")):
            page = tmp_path / host / "news" / name
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(ARTICLE.format(title=title, head=""), encoding="utf-8")
    canonical = '<link rel="canonical" href="https://www.example.com/news/trail.html?utm_source=feed">'
    (tmp_path / "saved.html").write_text(ARTICLE.format(title="Trail reopens", head=canonical), encoding="utf-8")
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False))
    report = url_report(result)
    paths = [p.path for p in result.pages]
    assert len(report.urls) == 5
    same = [sorted(paths[i] for i in g) for g in report.same_url]
    assert same == [["saved.html", "www.example.com/news/trail.html"]]
    (group,) = report.mirror_groups
    assert group.key == "example" and group.hosts == ("www.example.com", "www.example.com.cn")
    assert (group.shared_paths, group.duplicate_paths, group.mirrors) == (2, 2, True)
    assert report.seen.repeats == 1 and report.seen.false_positives == 0

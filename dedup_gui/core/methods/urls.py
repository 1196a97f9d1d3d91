"""URL-level dedup: normalized URLs, mirror hosts, and a Bloom filter of seen URLs.

A crawler's cheapest dedup never fetches a page twice: it normalizes each URL and checks it
against the URLs seen so far, in a Bloom filter when there are billions (Broder and
Mitzenmacher 2004; :mod:`.bloom`).  Mirrors (``www.example.com`` and ``www.example.com.cn``)
serve the same pages under other hosts; they are grouped here when their pages with the same
path are duplicates of each other.

Normalization (:func:`normalize_url`) applies RFC 3986 section 6.2.2 (syntax-based) and 6.2.3
(scheme-based) normalization, then the usual crawler rules:

1. scheme and host lower-cased; the host IDNA-encoded (``bücher.de`` -> ``xn--bcher-kva.de``)
   and without a trailing dot; user name and password dropped;
2. the scheme's default port dropped (80 for http, 443 for https); an empty path becomes ``/``;
3. percent-encoding normalized: escapes of unreserved characters decoded, other escapes in
   upper case, characters that need escaping (spaces, non-ASCII) escaped as UTF-8;
4. dot segments removed (RFC 3986 section 5.2.4: ``/a/./b/../c`` -> ``/a/c``);
5. session ids in the path dropped (``;jsessionid=...``);
6. a directory index as the last segment dropped (``/docs/index.html`` -> ``/docs/``; also
   ``index.htm``, ``index.php``, ``index.shtml``, ``index.jsp``, ``index.asp``, ``default.asp``,
   ``default.aspx``, ``default.htm``);
7. a trailing slash dropped, except for the root (``/docs/`` -> ``/docs``);
8. query parameters sorted by name and value; tracking parameters (``utm_*``, ``fbclid``,
   ``gclid``, ``dclid``, ``gbraid``, ``wbraid``, ``msclkid``, ``yclid``, ``mc_cid``, ``mc_eid``,
   ``igshid``, ``_ga``, ``_gl``) and session ids (``jsessionid``, ``phpsessid``,
   ``aspsessionid``, ``sessionid``, ``session_id``) dropped, names compared case-insensitively;
   an empty query dropped;
9. the fragment dropped.

Rules 6 and 7 are heuristics (servers may treat those URLs differently), as is treating http
and https as one page in :func:`url_key`; SEO crawlers report such pairs as duplicate URLs.

Mirror hosts (:func:`host_key`): two hosts are mirror candidates when they are equal after
dropping a leading ``www`` (or ``www2``...), then a trailing two-letter country code (``.cn``,
``.de``), then a generic second-level or top-level label (``com``, ``net``, ``org``, ``co``,
``ac``...): ``www.example.com``, ``example.com.cn``, ``example.de`` and ``example.co.uk`` all
give ``example``.  That is deliberately broad; a group counts as mirrors only when its pages
are duplicates (:func:`url_report`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from dedup_gui.core.methods.bloom import BloomFilter
from dedup_gui.core.model import DupType, Page, ScanResult

DEFAULT_PORTS = {"http": 80, "https": 443}
DIRECTORY_INDEXES = frozenset(
    [
        "index.html",
        "index.htm",
        "index.php",
        "index.shtml",
        "index.jsp",
        "index.asp",
        "default.asp",
        "default.aspx",
        "default.htm",
    ]
)
TRACKING_PARAMETERS = frozenset(
    ["fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "mc_cid", "mc_eid", "igshid", "_ga", "_gl"]
)
SESSION_PARAMETERS = frozenset(["jsessionid", "phpsessid", "aspsessionid", "sessionid", "session_id"])
GENERIC_LABELS = frozenset(
    ["com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "co", "ac", "or", "ne", "go"]
)

_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sessionid)=[^/]*", re.IGNORECASE)
_WWW = re.compile(r"www\d*")
_HOST = re.compile(
    r"^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}|\d{1,3}(?:\.\d{1,3}){3})(?:[:+]\d{1,5})?$",
    re.IGNORECASE,
)


def _normalize_escapes(text: str) -> str:
    def fix(match: re.Match) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()

    return _ESCAPE.sub(fix, text)


def remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4: resolve ``.`` and ``..`` segments of a path.

    Example:
        >>> remove_dot_segments("/a/b/c/./../../g")
        '/a/g'
    """
    inp = path
    out: list[str] = []
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith(("./", "/./")):
            inp = inp[2:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../"):
            inp = inp[3:]
            if out:
                out.pop()
        elif inp == "/..":
            inp = "/"
            if out:
                out.pop()
        elif inp in (".", ".."):
            inp = ""
        else:
            start = 1 if inp.startswith("/") else 0
            end = inp.find("/", start)
            end = len(inp) if end < 0 else end
            out.append(inp[:end])
            inp = inp[end:]
    return "".join(out)


def _host(hostname: str) -> str:
    host = hostname.lower().rstrip(".")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def _dropped_parameter(name: str) -> bool:
    lower = name.lower()
    return lower.startswith("utm_") or lower in TRACKING_PARAMETERS or lower in SESSION_PARAMETERS


def normalize_url(url: str) -> str:
    """Normalize an absolute http(s) URL by the rules of the module docstring.

    Args:
        url: an absolute ``http://`` or ``https://`` URL.

    Returns:
        The normalized URL (str).

    Raises:
        ValueError: not an absolute http(s) URL, or a malformed port.

    Example:
        >>> normalize_url("HTTP://www.Example.com:80/a/./b/../index.html?utm_source=x&b=2&a=1#top")
        'http://www.example.com/a?a=1&b=2'
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an absolute http(s) URL: {url!r}")
    host = _host(parts.hostname)
    port = parts.port  # raises ValueError for a bad port
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = _PATH_SESSION.sub("", parts.path)
    path = quote(_normalize_escapes(path), safe="/%:@!$&'()*+,;=" + _UNRESERVED)
    path = remove_dot_segments(path) or "/"
    head, _, last = path.rpartition("/")
    if last.lower() in DIRECTORY_INDEXES:
        path = head + "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    params = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _dropped_parameter(k)]
    query = urlencode(sorted(params), quote_via=quote, safe="")
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "")


def url_key(url: str) -> str:
    """The key two URLs of one page share: the normalized URL without its scheme, so http and
    https count as one page (str, e.g. ``"//www.example.com/a"``).

    Raises:
        ValueError: not an absolute http(s) URL.
    """
    return normalize_url(url).split(":", 1)[1]


def host_key(host: str) -> str:
    """The key mirror hosts share (see the module docstring).

    Example:
        >>> host_key("www.example.com"), host_key("www.example.com.cn"), host_key("news.example.de")
        ('example', 'example', 'news.example')
    """
    host = _host(host).split(":")[0]
    if re.fullmatch(r"[\d.]+", host) or "." not in host:
        return host
    labels = host.split(".")
    if len(labels) > 1 and _WWW.fullmatch(labels[0]):
        labels = labels[1:]
    if len(labels) > 1 and len(labels[-1]) == 2 and labels[-1].isalpha():
        labels = labels[:-1]
    if len(labels) > 1 and labels[-1] in GENERIC_LABELS:
        labels = labels[:-1]
    return ".".join(labels) or host


def url_from_mirror_path(path: str) -> str | None:
    """The URL a ``wget -r`` or HTTrack mirror file was saved from, read from its path.

    Both tools save ``http://host/a/b.html`` as ``host/a/b.html`` below their output folder
    (HTTrack below a project folder).  The first folder whose name looks like a host name
    (dotted labels ending in letters, or an IPv4 address, optionally with ``:port`` or
    ``+port``) starts the URL; a ``?`` in the file name starts the query (wget keeps it).
    HTTrack's renamed query pages and wget's ``-nH`` (no host folders) give no URL.

    Args:
        path: the file's path relative to the scanned folder, ``/`` separators.

    Returns:
        ``"http://host/path"`` (str), or ``None`` when no folder looks like a host.

    Example:
        >>> url_from_mirror_path("mirror/www.example.com/docs/index.html")
        'http://www.example.com/docs/index.html'
    """
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    for i, part in enumerate(parts[:-1]):
        if _HOST.match(part):
            host = part.replace("+", ":")
            return f"http://{host}/" + "/".join(parts[i + 1 :])
    return None


@dataclass(frozen=True)
class PageUrl:
    """A page's known URL.

    Attributes:
        page: index of the page in the scan (or in the list given).
        url: the URL as found.
        normalized: :func:`normalize_url` of it.
        source: ``"page"`` (canonical link, ``og:url`` or saved-from comment) or
            ``"mirror path"`` (:func:`url_from_mirror_path`).
    """

    page: int
    url: str
    normalized: str
    source: str

    @property
    def key(self) -> str:
        """:func:`url_key` of the URL (str)."""
        return self.normalized.split(":", 1)[1]

    @property
    def host(self) -> str:
        """The normalized host (str, with a non-default port)."""
        return self.key[2:].split("/", 1)[0]

    @property
    def path(self) -> str:
        """Normalized path and query (str, starts with ``/``)."""
        rest = self.key[2:]
        return rest[rest.index("/") :] if "/" in rest else "/"


def page_url(page: Page, index: int = 0) -> PageUrl | None:
    """The known URL of a page: its own (``Page.url``), else one read from a mirror path.

    Args:
        page: the page.
        index: the page's index, stored in the result.

    Returns:
        A :class:`PageUrl`, or ``None`` when no usable URL is known.
    """
    for url, source in ((page.url, "page"), (url_from_mirror_path(page.path), "mirror path")):
        if url:
            try:
                return PageUrl(index, url, normalize_url(url), source)
            except ValueError:
                continue
    return None


@dataclass(frozen=True)
class UrlComparison:
    """What URL-level dedup says about two pages.

    Attributes:
        left, right: the normalized URLs, or ``None`` where unknown.
        duplicate: ``True`` when both are known and name one page (same :func:`url_key`) or the
            same path on mirror hosts (same :func:`host_key`).
        reason: the verdict in words.
    """

    left: str | None
    right: str | None
    duplicate: bool
    reason: str

    @property
    def known(self) -> bool:
        """``True`` when both URLs are known, so the method applies."""
        return self.left is not None and self.right is not None


def compare_urls(a: PageUrl | None, b: PageUrl | None) -> UrlComparison:
    """Compare two pages' known URLs (see :class:`UrlComparison`)."""
    left, right = (a.normalized if a else None), (b.normalized if b else None)
    if a is None or b is None:
        return UrlComparison(left, right, False, "URL unknown for " + ("both pages" if a is b else "one page"))
    if a.key == b.key:
        return UrlComparison(left, right, True, "same normalized URL")
    if a.path == b.path and a.host != b.host and host_key(a.host) == host_key(b.host):
        return UrlComparison(left, right, True, f"same path on mirror hosts {a.host} and {b.host}")
    return UrlComparison(left, right, False, "different URLs")


@dataclass(frozen=True)
class MirrorGroup:
    """Hosts that share a :func:`host_key`, with the evidence of their pages.

    Attributes:
        key: the shared host key.
        hosts: the hosts, sorted.
        shared_paths: paths found on two or more of the hosts.
        duplicate_paths: those whose pages are duplicates of each other (every pair of pages
            with that path is a non-distinct pair of the scan, or byte-identical).
        pages: indices of the pages on these hosts, ascending.
    """

    key: str
    hosts: tuple[str, ...]
    shared_paths: int
    duplicate_paths: int
    pages: tuple[int, ...]

    @property
    def mirrors(self) -> bool:
        """``True`` when at least half of the shared paths (and at least one) hold duplicates."""
        return self.duplicate_paths > 0 and 2 * self.duplicate_paths >= self.shared_paths


@dataclass(frozen=True)
class SeenUrls:
    """A crawler's "seen" check over the pages' URLs, in page order, with a Bloom filter.

    Attributes:
        m, k: the filter's bits and hash functions.
        added: URL keys added (pages with a URL).
        distinct: distinct URL keys among them.
        false_positive_rate: the estimate ``(1 - e^(-k n / m))^k`` for n = ``distinct``.
        repeats: URLs the filter called seen that really were (duplicates caught).
        false_positives: URLs the filter called seen that were not (an exact set tells).
    """

    m: int
    k: int
    added: int
    distinct: int
    false_positive_rate: float
    repeats: int
    false_positives: int


def seen_urls(keys: Sequence[str], fp_rate: float = 0.01, capacity: int | None = None) -> SeenUrls:
    """Run a Bloom filter "seen before?" check over URL keys in order.

    Args:
        keys: URL keys (:func:`url_key`) in crawl order.
        fp_rate: false-positive rate the filter is sized for.
        capacity: items the filter is sized for (default: ``len(keys)``).

    Returns:
        :class:`SeenUrls`.
    """
    bf = BloomFilter.for_capacity(capacity or len(keys), fp_rate)
    exact: set[str] = set()
    repeats = false_positives = 0
    for key in keys:
        if key in bf:
            if key in exact:
                repeats += 1
            else:
                false_positives += 1
        if key not in exact:
            bf.add(key)
            exact.add(key)
    return SeenUrls(bf.m, bf.k, len(keys), len(exact), bf.false_positive_rate(), repeats, false_positives)


@dataclass(frozen=True)
class UrlReport:
    """URL-level dedup of a scan.

    Attributes:
        urls: the pages' known URLs (pages without one are left out).
        same_url: groups of pages sharing a :func:`url_key` (tuples of page indices, >= 2).
        mirror_groups: host groups sharing a :func:`host_key` (two or more hosts); check
            :attr:`MirrorGroup.mirrors` for the confirmed ones.
        seen: the Bloom-filter "seen" check over the URLs in page order.
    """

    urls: list[PageUrl]
    same_url: list[tuple[int, ...]]
    mirror_groups: list[MirrorGroup]
    seen: SeenUrls


def url_report(result: ScanResult, fp_rate: float = 0.01) -> UrlReport:
    """URL-level dedup of a scan: same-URL groups, mirror hosts and the seen-URL filter.

    Args:
        result: a finished scan (pages' URLs and its classified pairs).
        fp_rate: false-positive rate of the seen-URL Bloom filter.

    Returns:
        :class:`UrlReport`.
    """
    urls = [u for i, p in enumerate(result.pages) if (u := page_url(p, i)) is not None]
    by_key: dict[str, list[int]] = {}
    for u in urls:
        by_key.setdefault(u.key, []).append(u.page)
    same_url = sorted((tuple(g) for g in by_key.values() if len(g) > 1), key=lambda g: (-len(g), g))
    duplicate = {(p.left, p.right) for p in result.pairs if p.type is not DupType.DISTINCT}

    def dup(i: int, j: int) -> bool:
        i, j = min(i, j), max(i, j)
        return (i, j) in duplicate or result.pages[i].sha1 == result.pages[j].sha1

    by_host_key: dict[str, dict[str, list[PageUrl]]] = {}
    for u in urls:
        by_host_key.setdefault(host_key(u.host), {}).setdefault(u.host, []).append(u)
    groups = []
    for key, hosts in sorted(by_host_key.items()):
        if len(hosts) < 2:
            continue
        by_path: dict[str, list[PageUrl]] = {}
        for host_urls in hosts.values():
            for u in host_urls:
                by_path.setdefault(u.path, []).append(u)
        shared = [us for us in by_path.values() if len({u.host for u in us}) > 1]
        dup_paths = sum(
            1
            for us in shared
            if all(dup(a.page, b.page) for a in us for b in us if a.page < b.page and a.host != b.host)
        )
        pages = tuple(sorted(u.page for us in hosts.values() for u in us))
        groups.append(MirrorGroup(key, tuple(sorted(hosts)), len(shared), dup_paths, pages))
    return UrlReport(urls, same_url, groups, seen_urls([u.key for u in urls], fp_rate))

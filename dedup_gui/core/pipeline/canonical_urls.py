"""A page's stated address (its canonical URL, ``og:url`` or the browser's "saved from"
comment: :attr:`Page.url`) as the keep rule and the canonical status read it: whether it can be
a canonical URL at all, whether it names the page's own file, and whether pages with other
content state it too (a template's canonical copied onto other articles).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from urllib.parse import urlsplit

from dedup_gui.core.model import DupType, ScanResult
from dedup_gui.core.site_paths import is_index_name


def canonical_problem(url: str | None) -> str | None:
    """Why a page's stated address cannot be its canonical URL, or ``None`` when it can.

    An address must be absolute (``http`` or ``https`` with a host) and must not have a file
    name inside its path (``…/latest/index.htmluser/jit.html``, a template's missing slash).

    Example:
        >>> canonical_problem("https://docs.example.org/latest/index.htmluser/jit.html")
        'a file name inside the path (index.htmluser)'
        >>> canonical_problem("https://docs.example.org/latest/user/jit.html") is None
        True
    """
    if not url:
        return "no address"
    try:
        parts = urlsplit(url)
    except ValueError:
        return "not a valid URL"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return "not an absolute http(s) URL"
    for segment in parts.path.split("/")[:-1]:
        if _FILE_IN_PATH.search(segment):
            return f"a file name inside the path ({segment})"
    return None


_FILE_IN_PATH = re.compile(r"\.(?:html?|php|aspx?|jsp)(?=.)", re.IGNORECASE)


def url_matches_path(url: str, paths: Sequence[str]) -> bool:
    """Whether one of ``paths`` (page paths relative to the scanned folder) ends with the path
    of ``url`` (``/a/b.html`` ~ ``site/a/b.html``; ``/a/`` ~ ``a/index.html`` or another
    index page, :data:`~dedup_gui.core.site_paths.INDEX_NAMES`; ``/`` ~ any ``index.*``) (bool;
    ``False`` for an empty or malformed address).

    Example:
        >>> url_matches_path("https://example.org/docs/a/", ["mirror/docs/a/index.html"])
        True
    """
    if not url:
        return False
    try:
        url_path = urlsplit(url).path.strip("/")
    except ValueError:  # a malformed address matches no path
        return False
    for path in paths:
        folder, _, name = path.rpartition("/")
        if not url_path:
            if name.startswith("index.") or is_index_name(name):
                return True
        elif (
            path == url_path
            or path.endswith("/" + url_path)
            or is_index_name(name)
            and (folder == url_path or folder.endswith("/" + url_path))
        ):
            return True
    return False


def address_key(url: str) -> tuple[str, str] | None:
    """The host and path an address names, compared loosely: lower-case host, no scheme, port,
    query or fragment, no trailing index file (:data:`~dedup_gui.core.site_paths.INDEX_NAMES`)
    or slash (``None`` for a malformed one).

    Example:
        >>> address_key("HTTPS://Docs.Example.org:443/guide/index.html?x=1#top")
        ('docs.example.org', '/guide')
    """
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    path = parts.path
    last = path.rsplit("/", 1)[-1]
    if is_index_name(last):
        path = path[: -len(last)]
    return host, path.rstrip("/")


#: A canonical URL stated by more pages than this names no page of them: a site-wide template
#: canonical (every page pointing at the home page), not each page's own address.
MAX_CLAIMANTS = 200
_SAME_CONTENT = (DupType.FULL, DupType.CONTENT)


def contested_canonicals(result: ScanResult) -> frozenset[int]:
    """The pages whose stated canonical URL a page with other content states too.

    A canonical URL names one document.  When two pages that are not full or content
    duplicates of each other (and whose main texts differ) state the same one, it was copied
    with a template onto another article (a blog theme's hard-coded canonical, a page saved
    inside another site's frame), and says nothing about which page is the original: the keep
    rule then does not prefer a page for stating it, unless the page's own path is that
    address (:func:`url_matches_path`).  Many versions of one document stating their stable
    version's address are contested only where their contents differ.

    Args:
        result: the scan (its pages' :attr:`Page.url` and its measured pairs' types).

    Returns:
        Indices into ``result.pages`` (frozenset[int]); a URL stated by more than
        :data:`MAX_CLAIMANTS` pages contests all of them.
    """
    claimants: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, page in enumerate(result.pages):
        if page.url and canonical_problem(page.url) is None and (key := address_key(page.url)) is not None:
            claimants[key].append(i)
    groups = [pages for pages in claimants.values() if len(pages) > 1]
    if not groups:
        return frozenset()
    same = {(p.left, p.right) for p in result.pairs if p.type in _SAME_CONTENT and not p.not_duplicate}
    texts = [page.main_text for page in result.pages]
    contested: set[int] = set()
    for pages in groups:
        if len(pages) > MAX_CLAIMANTS:
            contested.update(pages)
            continue
        for x, a in enumerate(pages):
            for b in pages[x + 1 :]:
                if (min(a, b), max(a, b)) not in same and texts[a] != texts[b]:
                    contested.update((a, b))
    return frozenset(contested)

"""Which page to keep: the keep rule, stated once, and the ranking of pages that applies it.

The rule (:data:`KEEP_RULE`) prefers the page that states the canonical address, then the page
in the newest released version folder, then the page with the longest main content, then the
oldest file; the first path in alphabetical order breaks remaining ties, so the choice never
depends on the order files were found in.  The keep clusters it is applied to, pages that are each a full or content duplicate of the page kept,
are built by :mod:`dedup_gui.core.pipeline.keep_clusters`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from dedup_gui.core.model import CRITERIA, DEFAULT_ORDER, Cluster, KeepPolicy, Page, ScanResult  # noqa: F401 (re-exported)
from dedup_gui.core.pipeline.canonical_urls import (
    canonical_problem,
    contested_canonicals,
    url_matches_path,
)
from dedup_gui.core.pipeline.languages import (  # noqa: F401  (default_script, has_language_folder, text_script re-exported)
    CJK_LANGUAGES,
    default_script,
    has_language_folder,
    is_language_folder,
    language_of,
    text_script,
)

_CRITERION_TEXT = {
    "canonical": "the page at the canonical URL: a page that states its own address (rel=canonical, og:url or "
    "the browser's 'saved from' comment; a malformed address, such as a file name inside the path, is ignored, "
    "and so is one that pages with other content state too, a template's, unless it is the page's own path), "
    "preferring one whose file path (or its path through a symbolic link) ends with that address's path",
    "version": "the page in the newest released version folder (stable/, current/, latest/, or a version folder "
    "a symbolic link of one of these names points to, ranked as that name; then v1.16.x before v1.9.x, 2024-05 "
    "before 2023-11; then a pre-release: a version folder a link named dev/, next/, nightly/, unstable/, "
    "preview/, main/ or master/ points to; the aliases a site's versions.json (mike) declares count as such "
    "links; a version folder before other folders)",
    "pattern": "a page whose path or URL matches the preferred pattern",
    "shortest_url": "the page with the shortest path (its URL within the site)",
    "longest_content": "the page with the longest main content",
    "newest_file": "the newest file (modification time)",
    "oldest_file": "the oldest file (modification time)",
}


def keep_rule_text(policy: KeepPolicy | None = None) -> str:
    """A keep policy in words, as the reports print it (str; default: :data:`KEEP_RULE`)."""
    self = policy or KeepPolicy()
    parts = "; else ".join(_CRITERION_TEXT[c] for c in self.order)
    decided = ""
    if self.chosen:
        decided += "The pages you chose to keep are kept first. "
    if self.reference_folders:
        decided += f"Pages under the reference folders ({', '.join(self.reference_folders)}) are always kept. "
    if "pattern" in self.order:
        parts = parts.replace("the preferred pattern", f"the preferred pattern {self.pattern!r}")
    return (
        "A keep cluster is a page to keep and the pages to drop for it: each page dropped is a full or content "
        "duplicate of the page kept (or has identical bytes or main text), and no two pages of a keep cluster "
        "were measured as less, so pages joined only by layout or partial duplicates, or by a chain of "
        "duplicates, never share one. Nor do two pages that are different documents by their paths: a page "
        "is another version of a document only at the same path in another version folder (a page that moved "
        "between versions starts a document of its own), and pages in different language folders (en/, zh/, "
        "pt-br/) are different documents; a page outside any is in the site's own language (a Chinese site's zh/ "
        "copies are the same documents as its default pages). "
        + decided
        + f"The page to keep is {parts}; remaining ties go to the first path in alphabetical order. Pages "
        "are taken in this order: each page with duplicates in no keep cluster yet is kept, with them."
    )


_CRITERION_SHORT = {
    "canonical": "the page at its canonical URL",
    "version": "the page in the newest released version folder",
    "pattern": "a page matching the preferred pattern",
    "shortest_url": "the shortest path",
    "longest_content": "the longest main content",
    "newest_file": "the newest file",
    "oldest_file": "the oldest file",
}


def keep_rule_line(policy: KeepPolicy | None = None) -> str:
    """The keep rule's criteria in order, in one sentence, for the top of a report's keep
    section (the whole rule, :func:`keep_rule_text`, follows it in a note) and the line
    ``scan --keep-csv`` prints, e.g. ``"Kept: the
    page at its canonical URL, else the page in the newest released version folder, else the
    longest main content, else the oldest file."`` (str; default: :data:`KEEP_RULE`'s policy)."""
    self = policy or KeepPolicy()
    parts = [_CRITERION_SHORT[c] for c in self.order]
    if "pattern" in self.order:
        parts = [p.replace("the preferred pattern", f"the preferred pattern {self.pattern!r}") for p in parts]
    first = []
    if self.chosen:
        first.append("the pages you chose")
    if self.reference_folders:
        first.append(f"pages under {', '.join(self.reference_folders)}")
    lead = f"{' and '.join(first)} first, then " if first else ""
    return f"Kept: {lead}{', else '.join(parts)}."


#: The default keep rule in words, as reports print it.
KEEP_RULE = keep_rule_text()
#: Folders that documentation sites name for the version readers are sent to (Read the Docs,
#: mike): the release first, then the others, all before numbered versions.
NAMED_VERSIONS = {"stable": (0,), "current": (1,), "latest": (2,)}
#: Names of links (mike's aliases) to a version not yet released: a pre-release, ranked last.
PRE_RELEASE_NAMES = frozenset({"dev", "next", "nightly", "unstable", "preview", "main", "master"})
#: A folder named as a version: ``v1.16.x``, ``2.0``, ``0.50.1``, ``v3``, ``2024``, ``2024-05-01``.
_VERSION_FOLDER = re.compile(r"v?(\d+(?:[.-]\d+)*)(?:\.x)?", re.IGNORECASE)


def _version_of(folder: str) -> tuple | None:
    named = NAMED_VERSIONS.get(folder.lower())
    if named is not None:
        return (0, named)
    found = _VERSION_FOLDER.fullmatch(folder)
    if found:
        return (1, tuple(-int(n) for n in re.split(r"[.-]", found.group(1))))
    return None


#: A folder named as a publication date: ``2020-05`` or ``2020-05-14`` (a blog's archive).
_DATE_FOLDER = re.compile(r"(?:19|20)\d\d-(?:0?[1-9]|1[0-2])(?:-\d{1,2})?")
#: A year folder (``2020``) or a month or day folder under it (``05``, ``14``).
_YEAR_FOLDER = re.compile(r"(?:19|20)\d\d")
_MONTH_OR_DAY_FOLDER = re.compile(r"\d{1,2}")


def _is_dated(folders: Sequence[str]) -> bool:
    """Whether a path's folders carry a publication date (``2020-05/``, or ``2020/05/``):
    a blog or news archive, where the date says when a post was published, not which
    version of a document it is."""
    for i, folder in enumerate(folders):
        if _DATE_FOLDER.fullmatch(folder):
            return True
        if _YEAR_FOLDER.fullmatch(folder) and i + 1 < len(folders) and _MONTH_OR_DAY_FOLDER.fullmatch(folders[i + 1]):
            return True
    return False


def _link_name(path: str, address: str) -> str | None:
    """The name of the folder link through which a page at ``path`` is also at ``address``
    (``"stable"`` for ``v1.16.x/a.html`` at ``stable/a.html``), when that link stands where the
    address's first version folder stands (so a link below a version folder is no version);
    ``None`` for a link to a file or anything else (str | None)."""
    pf, af = path.split("/"), address.split("/")
    if pf[-1] != af[-1]:
        return None  # a link to the file itself, not to a folder
    common = 1
    while common < min(len(pf), len(af)) and pf[-1 - common] == af[-1 - common]:
        common += 1
    at = len(af) - 1 - common  # the link: the last folder of the address before their common tail
    if at < 0:
        return None
    first = next((i for i, f in enumerate(af[:-1]) if _version_of(f) or f.lower() in PRE_RELEASE_NAMES), None)
    return af[at].lower() if first == at else None


def version_rank(path: str, also_at: Sequence[str] = (), aliases: Mapping[str, str] | None = None) -> tuple:
    """How a page's path ranks by its version folder, newest released first (a sort key:
    smaller is newer).

    The first folder of ``path`` named as a version gives its rank: ``stable``, ``current`` and
    ``latest`` first (Read the Docs and mike name them for the version readers are sent to),
    then numbered or dated folders (``v1.16.x``, ``2.0``, ``2024-05``), newest first, then
    pre-releases; a page in none of them ranks last (an ``archive/`` copy is older).

    Sites name versions by symbolic links (mike's aliases: ``stable -> v1.16.x``, ``dev ->
    v1.17.x``), which the scan reads once, at the target, keeping the link's address as a second
    address (:attr:`ScanResult.also_at`).  A page also at ``stable/``, ``current/`` or
    ``latest/`` ranks as that name; one also at a pre-release link (:data:`PRE_RELEASE_NAMES`)
    and at no released name ranks after every released version, though its number is highest.
    The aliases a site declares in mike's ``versions.json`` count as such links, whether the
    alias folder is a link, a copy (``dev/`` holding ``v1.17.x``'s pages ranks as a
    pre-release of v1.17.x) or missing from the folder.

    Args:
        path: the page's path relative to the scanned folder (``/`` separators).
        also_at: its other addresses through symbolic links (:attr:`ScanResult.also_at`).
        aliases: the site's version aliases, ``{alias folder/: version folder/}``
            (:attr:`ScanResult.version_aliases`); ``None``: none.

    Returns:
        ``(0, name rank)`` for stable/current/latest, ``(1, negated numbers)`` for a released
        version, ``(2, negated numbers)`` for a pre-release, ``(3,)`` for none (tuple).

    Example:
        >>> sorted(["v1.9.x/a.html", "v1.16.x/a.html", "print/a.html", "en/stable/a.html"], key=version_rank)
        ['en/stable/a.html', 'v1.16.x/a.html', 'v1.9.x/a.html', 'print/a.html']
        >>> version_rank("v1.16.x/a.html", ["stable/a.html"]), version_rank("v1.17.x/a.html", ["dev/a.html"])
        ((0, (0,)), (2, (-1, -17)))
        >>> version_rank("v1.17.x/a.html", aliases={"dev/": "v1.17.x/"})
        (2, (-1, -17))
    """
    names = [name for address in also_at if (name := _link_name(path, address))]
    for alias, version in (aliases or {}).items():
        if path.startswith(version):  # the version's page: also at its alias
            names.append(alias.rstrip("/").rsplit("/", 1)[-1].lower())
        elif path.startswith(alias):  # a copy of the version under its alias's name
            names.append(alias.rstrip("/").rsplit("/", 1)[-1].lower())
            path = version + path[len(alias) :]
    own = next((found for f in path.split("/")[:-1] if (found := _version_of(f)) is not None), (3,))
    named = [(0, NAMED_VERSIONS[name]) for name in names if name in NAMED_VERSIONS]
    if named:
        return min(own, *named)
    if any(name in PRE_RELEASE_NAMES for name in names):
        return (2, own[1] if own[0] == 1 else ())
    return own


def documents_differ(a: str, b: str, site_script: str | None = None) -> str | None:
    """Why two page paths are different documents even when their pages are duplicates, or
    ``None``: what keeps them out of one keep cluster.

    A documentation site keeps each version of a document at the same path in each version
    folder, and each translation in a language folder: ``v1.12.x/guide/a.html`` and
    ``v1.17.x/guide/a.html`` are versions of one document, ``v1.12.x/advance/a.html`` and
    ``v1.17.x/vpc/a.html`` two documents (the page moved).  Two pages in different language
    folders are two documents; a page in a language folder and one outside any are two
    documents unless the folder's language is written in the script of the site's default
    pages (``en/a.html`` beside a Chinese site's ``a.html``: two documents, even when ``a.html``
    was never translated; ``zh/a.html``: a copy of the Chinese default pages, one document).
    Paths without version or language folders (a mirror, a print copy) are never told apart,
    nor are dated paths (``blog/2020/05/a.html`` and ``blog/2021/03/b.html``, a post published
    again under another date and name): a date folder says when a page was published, not
    which version of a document it is.

    Args:
        a, b: paths relative to the scanned folder, ``/`` separators.
        site_script: the script of the pages outside language folders (:func:`default_script`);
            ``None``: unknown, and a language folder on one side only makes two documents.

    Returns:
        ``"moved between versions"``, ``"other language"``, or ``None``.

    Example:
        >>> documents_differ("v1.12.x/advance/a.html", "v1.17.x/vpc/a.html")
        'moved between versions'
        >>> documents_differ("v1.10.x/en/a.html", "v1.10.x/a.html", "cjk")
        'other language'
        >>> documents_differ("v1.10.x/zh/a.html", "v1.12.x/a.html", "cjk") is None
        True
        >>> documents_differ("print/a.html", "site/articles/a.html") is None
        True
        >>> documents_differ("blog/2020/05/a.html", "blog/2021/03/b.html") is None
        True
    """
    fa, fb = a.split("/"), b.split("/")
    la = [lang for f in fa[:-1] if (lang := language_of(f))]
    lb = [lang for f in fb[:-1] if (lang := language_of(f))]
    if la and lb and la != lb:
        return "other language"
    if bool(la) != bool(lb):
        lang = (la or lb)[0]
        if ("cjk" if lang.split("-")[0] in CJK_LANGUAGES else "other") != site_script:
            return "other language"
    # the document's path: without its language folders and its version folder
    ra = [f for i, f in enumerate(fa) if i == len(fa) - 1 or language_of(f) is None]
    rb = [f for i, f in enumerate(fb) if i == len(fb) - 1 or language_of(f) is None]
    va = [i for i, f in enumerate(ra[:-1]) if _version_of(f) is not None]
    vb = [i for i, f in enumerate(rb[:-1]) if _version_of(f) is not None]
    dated = _is_dated(ra[:-1]) or _is_dated(rb[:-1])
    if (
        va
        and vb
        and not dated
        and [f for i, f in enumerate(ra) if i != va[0]] != [f for i, f in enumerate(rb) if i != vb[0]]
    ):
        return "moved between versions"
    return None


@dataclass(frozen=True)
class KeepChoice:
    """The page kept in one group of pages and the criterion that decided it.

    Attributes:
        cluster: the group's id.
        keep: index of the kept page in :attr:`ScanResult.pages`.
        duplicates: indices of the group's other pages, ascending.
        reason: which parts of the rule decided, in its order (:func:`keep_reason`), e.g.
            ``"canonical URL"`` or ``"newest version folder, then first path"``.
    """

    cluster: int
    keep: int
    duplicates: tuple[int, ...]
    reason: str


def file_mtime(page: Page) -> float:
    """Modification time of a page's file in seconds (``float('inf')`` when it cannot be read,
    so an unreadable file never counts as the oldest); a WARC page's is its capture time
    (``WARC-Date``, :attr:`Page.record_date`), not the archive file's."""
    if page.record_offset is not None:
        try:
            return datetime.fromisoformat(page.record_date.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return float("inf")
    try:
        return os.stat(page.abspath).st_mtime
    except OSError:
        return float("inf")


def _address(page: Page) -> str:
    """A page's address within its site: its path, or for a WARC page its URL's path (its shown
    path names the record: ``crawl.warc.gz#1234``, whose digits are no version)."""
    if page.record_offset is None:
        return page.path
    try:
        return urlsplit(page.url or "").path.lstrip("/")
    except ValueError:  # a malformed address
        return page.url or ""


def _path_matches_url(page: Page, also_at: tuple[str, ...] = ()) -> bool:
    """True when the page's file path, or one of its other addresses ``also_at`` (through
    symbolic links, :attr:`ScanResult.also_at`), ends with its URL's path (``/a/b.html`` ~
    ``site/a/b.html``; ``/a/`` ~ ``a/index.html``)."""
    return bool(page.url) and url_matches_path(page.url or "", (page.path, *also_at))


def rank_key(
    result: ScanResult,
    times: dict[int, float] | None = None,
    mtime: Callable[[Page], float] = file_mtime,
    policy: KeepPolicy | None = None,
) -> Callable[[int], tuple]:
    """The sort key of a keep rule: of any pages, the one whose key is smallest is kept.

    Args:
        result: the scan.
        times: a cache of file modification times by page index, filled as pages are ranked
            (so each file is read once); ``None`` for a new one.
        mtime: a page's file modification time in seconds; tests pass a fixed one.
        policy: the rule (default :class:`KeepPolicy`, :data:`KEEP_RULE`).

    Returns:
        ``key(page index) -> (not chosen, not in a reference folder, one part per criterion of
        the policy's order, path)`` (a tuple; lexicographic order is the rule's order),
        computed once per page.
    """
    policy = policy or KeepPolicy()
    times = {} if times is None else times
    pages = result.pages
    keys: dict[int, tuple] = {}
    chosen = set(policy.chosen)
    contested = contested_canonicals(result) if "canonical" in policy.order else frozenset()

    def mtime_of(i: int) -> float:
        if i not in times:
            times[i] = mtime(pages[i])
        return times[i]

    def part(criterion: str, i: int, page: Page) -> object:
        if criterion == "canonical":
            if canonical_problem(page.url) is not None:
                return (True, True)
            own = _path_matches_url(page, result.also_at.get(page.path, ()))
            if not own and i in contested:  # a template's address, stated by other content too
                return (True, True)
            return (False, not own)
        if criterion == "version":  # a crawl record's address is its URL: no links
            return version_rank(
                _address(page),
                () if page.record_offset is not None else result.also_at.get(page.path, ()),
                result.version_aliases,
            )
        if criterion == "pattern":
            return not policy.matches(page)
        if criterion == "shortest_url":
            return len(_address(page))  # its address within the site (some pages state a full URL, others none)
        if criterion == "longest_content":
            return -len(page.main_text)
        if criterion == "newest_file":
            return -mtime_of(i)
        return mtime_of(i)  # oldest_file

    def key(i: int) -> tuple:
        found = keys.get(i)
        if found is None:
            page = pages[i]
            found = keys[i] = (
                page.path not in chosen,
                not policy.is_reference(page.path),
                *(part(c, i, page) for c in policy.order),
                page.path,
            )
        return found

    return key


def keep_reason(keys: Sequence[tuple], policy: KeepPolicy | None = None) -> str:
    """Which parts of the rule set the best of some pages apart from the rest: each criterion
    that ruled out one of them, in the rule's order, so the reason names what decided against
    every page dropped, not only the last tie broken.

    Args:
        keys: the :func:`rank_key` keys of two or more pages.
        policy: the rule the keys were made with (default :class:`KeepPolicy`).

    Returns:
        The criteria joined by ``", then "``, each ``"your choice"``, ``"reference folder"``, a
        value of :data:`CRITERIA`, or ``"first path"`` (a tie the criteria left) (str).

    Example:
        >>> keys = [(False, True, 0, "a"), (False, True, 1, "b"), (False, True, 0, "c")]
        >>> keep_reason(keys, KeepPolicy(order=("version",)))
        'newest version folder, then first path'
    """
    policy = policy or KeepPolicy()
    names = ["your choice", "reference folder", *(CRITERIA[c] for c in policy.order)]
    candidates = list(keys)
    reasons = []
    for position, name in enumerate(names):
        best = min(k[position] for k in candidates)
        narrowed = [k for k in candidates if k[position] == best]
        if len(narrowed) < len(candidates):
            reasons.append(name)  # this criterion ruled out at least one page
        candidates = narrowed
        if len(candidates) == 1:
            break
    else:
        reasons.append("first path")  # the rule's criteria left a tie
    return ", then ".join(reasons) or "first path"


def choose_keep(
    result: ScanResult, cluster: Cluster, mtime: Callable[[Page], float] = file_mtime, policy: KeepPolicy | None = None
) -> KeepChoice:
    """Apply :data:`KEEP_RULE` to one group of pages.

    Args:
        result: the scan the group belongs to.
        cluster: the group (two or more pages; anything with ``id`` and ``pages``).
        mtime: a page's file modification time in seconds; tests pass a fixed one.

    Returns:
        The :class:`KeepChoice`.
    """
    key = rank_key(result, mtime=mtime, policy=policy)
    pages = list(cluster.pages)
    keep = min(pages, key=key)
    reason = keep_reason([key(i) for i in pages], policy)
    return KeepChoice(cluster.id, keep, tuple(i for i in pages if i != keep), reason)

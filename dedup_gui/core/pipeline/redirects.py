"""Where a redirect page leads: its meta refresh target resolved inside the scanned folder.

A page whose ``<meta http-equiv="refresh">`` names an address (:attr:`Page.redirect`, found
by :mod:`dedup_gui.core.extraction.refresh`) is a client-side redirect.  Its target is resolved
as a browser resolves a relative link of a page served from the folder: against the page's
path, ``/`` meaning the scanned folder itself (taken as the site's root), a folder address
(``x/``) meaning its index page (``index.html``, ``index.htm``…:
:data:`~dedup_gui.core.site_paths.INDEX_NAMES`); the query and fragment are left out.  A
target is then looked up among the scan's pages, their other addresses through symbolic links
(:attr:`ScanResult.also_at`) and the folder links the scan skipped (:attr:`ScanResult.link_folders`:
``stable/ -> v1.16.x/``).  Nothing is fetched or read: an address on another site, or a path
that climbs out of the folder, is only reported as such.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from dedup_gui.core.model import Page, ScanResult
from dedup_gui.core.site_paths import INDEX_NAMES

#: The target is a page of the scan (:attr:`Redirect.page`).
PAGE = "page"
#: The target is the redirect page itself (a refresh to ``#top`` or ``./``).
SELF = "self"
#: The target is a path inside the folder where the scan found no page.
MISSING = "missing"
#: The target is a file of the folder that is not a page (skipped, or not usable).
NOT_PAGE = "not a page"
#: The target path climbs out of the scanned folder (``../../..``): not read.
OUTSIDE = "outside"
#: The target is an absolute address (``http://other.site/``, ``//cdn/x``): not read.
ADDRESS = "address"

#: The Status of a redirect page in the pages table and reports.
REDIRECT_STATUS = "redirect"
#: What the window's status filter and the reports call the redirects whose target is in the
#: folder but no page (:func:`missing_redirects`).
MISSING_LABEL = "Redirects to no page"
#: How many folder links a path is followed through at most (links inside link targets).
_MAX_LINKS = 8


@dataclass(frozen=True)
class Redirect:
    """Where one redirect page leads.

    Attributes:
        target: the address as the page writes it (str, e.g. ``"../../stable/advance/dhcp/"``).
        kind: :data:`PAGE`, :data:`SELF`, :data:`MISSING`, :data:`NOT_PAGE`, :data:`OUTSIDE`
            or :data:`ADDRESS`.
        path: the target resolved inside the scanned folder (``"stable/advance/dhcp/"``; a
            folder ends in ``/``, ``""`` is the folder itself); ``""`` for :data:`OUTSIDE`
            and :data:`ADDRESS`.
        page: the path of the page of the scan it reaches (:data:`PAGE`, :data:`SELF`), or
            of the file that is not a page (:data:`NOT_PAGE`); else ``""``.
        linked: for :data:`MISSING`, the path the folder links lead ``path`` to, when they
            change it (``"v1.16.x/advance/dhcp/"``); else ``""``.
    """

    target: str
    kind: str
    path: str = ""
    page: str = ""
    linked: str = ""

    @property
    def inside(self) -> bool:
        """Whether the target resolves inside the scanned folder (:attr:`path` is meaningful) (bool)."""
        return self.kind not in (OUTSIDE, ADDRESS)

    @property
    def missing(self) -> bool:
        """Whether the target is inside the folder but no page of the scan (bool)."""
        return self.kind in (MISSING, NOT_PAGE)

    @property
    def note(self) -> str:
        """One line for the user, e.g. ``"redirects to stable/advance/dhcp/ (missing: no page
        there in the folder)"`` or ``"redirects to stable/x/ (→ v1.16.x/x/index.html)"`` (str)."""
        return self._says("redirects to")

    @property
    def status(self) -> str:
        """The page's Status in the pages table: :attr:`note`, the words the CSV's reason uses
        too (a tester read "redirect to" in the window and "redirects to" in the CSV) (str)."""
        return self.note

    def _says(self, verb: str) -> str:
        shown = self.path if self.inside else self.target
        why = {
            PAGE: f"→ {self.page}",
            SELF: "to itself",
            MISSING: f"missing: no page at {self.linked}, where its folder link leads"
            if self.linked
            else "missing: no page there in the folder",
            NOT_PAGE: f"→ {self.page}, a file that is no page",
            OUTSIDE: "outside the scanned folder: not read",
            ADDRESS: "an address outside the folder: not read",
        }[self.kind]
        return f"{verb} {shown or './'} ({why})"


def resolve_redirect(
    page_path: str,
    target: str,
    addresses: Mapping[str, str],
    link_folders: Mapping[str, str] | None = None,
    files: Mapping[str, str] | None = None,
) -> Redirect:
    """Resolve a redirect target written in page ``page_path`` inside the scanned folder.

    Args:
        page_path: the redirect page's path in the folder (str, ``/`` separators).
        target: the address it sends to, as written (str).
        addresses: every address of a page of the scan -> that page's path (its own path and
            its other addresses through symbolic links).
        link_folders: the folder links of the scan, ``{link/: target/}`` (shown paths).
        files: the other files of the folder that are no pages (skipped or not usable),
            path -> path.

    Returns:
        :class:`Redirect`.

    >>> resolve_redirect("advance/dhcp/index.html", "../../stable/advance/dhcp/", {},
    ...                  {"stable/": "v1.16.x/"}).note
    'redirects to stable/advance/dhcp/ (missing: no page at v1.16.x/advance/dhcp/, where its folder link leads)'
    """
    try:
        parts = urlsplit(target)
    except ValueError:  # "http://[oops": no address of the folder either
        return Redirect(target, ADDRESS)
    if parts.scheme or parts.netloc:
        return Redirect(target, ADDRESS)
    rel = unquote(parts.path)
    if rel.startswith("/"):
        base, rel = "", rel.lstrip("/")
    else:
        base = posixpath.dirname(page_path)
    if not rel:  # "#top", "?x": this very document (or the root, for "/")
        if not base and parts.path:
            rel = "./"
        else:
            return Redirect(target, SELF, page_path, page_path)
    norm = posixpath.normpath(posixpath.join(base, rel))
    if norm == ".." or norm.startswith("../") or norm.startswith("/"):
        return Redirect(target, OUTSIDE)
    folder = rel.endswith(("/", "/.", "/..")) or rel in (".", "..")
    path = "" if norm == "." else norm + ("/" if folder else "")
    names = [path + name for name in INDEX_NAMES] if folder or not path else [path, *(f"{path}/{name}" for name in INDEX_NAMES)]  # fmt: skip
    linked = [_through_links(name, link_folders or {}) for name in names]
    for name in (*names, *linked):
        if name in addresses:
            found = addresses[name]
            return Redirect(target, SELF if found == page_path else PAGE, path, found)
    for name in (*names, *linked):
        if files and name in files:
            return Redirect(target, NOT_PAGE, path, files[name])
    via = _through_links(path, link_folders or {})
    return Redirect(target, MISSING, path, linked=via if via != path else "")


def _through_links(path: str, link_folders: Mapping[str, str]) -> str:
    """``path`` with a leading folder link replaced by the folder it leads to, again while one
    leads on (at most :data:`_MAX_LINKS` times: loops are not in ``link_folders``, but stay safe)."""
    for _ in range(_MAX_LINKS):
        for link, to in link_folders.items():
            if path.startswith(link):
                path = to + path[len(link) :]
                break
        else:
            return path
    return path


def page_redirects(result: ScanResult) -> dict[int, Redirect]:
    """Where each redirect page of a scan leads.

    Args:
        result: the scan.

    Returns:
        ``{page index: Redirect}`` for the pages with a meta refresh address
        (:attr:`Page.redirect`), in page order.  A WARC record's target is resolved against
        its URL and reported as an address (the archive has no folder).
    """
    redirecting = [(i, p) for i, p in enumerate(result.pages) if p.redirect]
    if not redirecting:
        return {}
    addresses: dict[str, str] = {}
    for page in result.pages:
        addresses[page.path] = page.path
        for other in result.also_at.get(page.path, ()):
            addresses.setdefault(other, page.path)
    files = {e.path: e.path for e in result.errors}
    files.update((p, p) for p in result.skipped if not p.endswith("/"))
    return {i: _resolve_page(page, addresses, result.link_folders, files) for i, page in redirecting}


def _resolve_page(page: Page, addresses: dict[str, str], links: Mapping[str, str], files: dict[str, str]) -> Redirect:
    if page.record_offset is not None:
        return Redirect(page.redirect, ADDRESS)
    return resolve_redirect(page.path, page.redirect, addresses, links, files)


def page_status(page: Page) -> str:
    """The Status of a page in the pages table and reports: ``"redirect"`` for a client-side
    redirect page (whatever its text), else ``"ok"`` or ``"no usable text"`` (str)."""
    if page.redirect:
        return REDIRECT_STATUS
    return "ok" if page.has_text else "no usable text"


def missing_redirects(redirects: Mapping[int, Redirect]) -> list[int]:
    """The redirect pages of :func:`page_redirects` whose target is in the folder but no page of
    the scan (:attr:`Redirect.missing`): their page indices, ascending (list[int]).  The command
    line's count, the XLSX summary, the reports' "Redirects to no page" list and the window's
    status filter all come from this."""
    return sorted(i for i, r in redirects.items() if r.missing)


def redirect_counts(redirects: Mapping[int, Redirect]) -> tuple[int, int]:
    """``(redirect pages, those whose target is in the folder but no page of the scan)``
    of :func:`page_redirects` (tuple[int, int]; the second: :func:`missing_redirects`)."""
    return len(redirects), len(missing_redirects(redirects))

"""Client-side redirects: the target of a page's ``<meta http-equiv="refresh" content="0; url=...">``.

The ``content`` is read by the HTML Standard's "shared declarative refresh steps" (WHATWG HTML,
section 4.2.5.3, the ``refresh`` pragma), so ``0;url=x``, ``0; URL='x'``, ``5, x`` and upper
case or spaces around ``=`` are read as a browser reads them.  Nothing is fetched and no script
runs: a redirect made only by JavaScript (``window.location = ...``) is not guessed at.  A
refresh inside ``<noscript>`` counts (mike's and mkdocs' redirect pages put it there): a browser
without scripts, and a crawler that runs none, follows it.
"""

from __future__ import annotations

from collections.abc import Iterable

# ASCII whitespace of the HTML Standard: TAB, LF, FF, CR, SPACE.
_WS = "\t\n\f\r "


def refresh_target(content: str) -> tuple[float, str] | None:
    """The delay and the address of a ``refresh`` pragma's ``content``, by the HTML Standard's
    shared declarative refresh steps (WHATWG HTML 4.2.5.3).

    Args:
        content: the ``content`` attribute, e.g. ``"0; url=../b/"`` or ``"1;URL='x.html'"``.

    Returns:
        ``(delay in seconds (float), the address as written, quotes and surrounding
        whitespace taken off (str); ``""`` when it names none: a plain ``"30"`` reloads the
        page itself)``, or ``None`` when ``content`` is not a valid refresh (browsers ignore it).

    >>> refresh_target("0; URL='../x/'")
    (0.0, '../x/')
    >>> refresh_target("5")
    (5.0, '')
    >>> refresh_target("soon") is None
    True
    """
    n, pos = len(content), 0
    while pos < n and content[pos] in _WS:
        pos += 1
    start = pos
    while pos < n and content[pos].isascii() and content[pos].isdigit():
        pos += 1
    digits = content[start:pos]
    if not digits and (pos >= n or content[pos] != "."):
        return None
    while pos < n and (content[pos] == "." or (content[pos].isascii() and content[pos].isdigit())):
        pos += 1  # fractional digits are read and ignored
    delay = float(int(digits)) if digits else 0.0
    if pos < n:
        if content[pos] not in ";," + _WS:
            return None
        while pos < n and content[pos] in _WS:
            pos += 1
        if pos < n and content[pos] in ";,":
            pos += 1
        while pos < n and content[pos] in _WS:
            pos += 1
    if pos >= n:
        return delay, ""
    url = _skip_url_label(content, pos)
    # The URL parser strips leading and trailing C0 controls and spaces.
    url = url.strip("".join(map(chr, range(0x21))))
    return delay, url


def _skip_url_label(content: str, pos: int) -> str:
    """The address part of ``content`` from ``pos``: an optional ``URL =`` and quote taken off
    (steps 11.1 to 11.10 of the shared declarative refresh steps)."""
    n, url = len(content), content[pos:]
    if content[pos] in "Uu":
        pos += 1
        if not (pos < n and content[pos] in "Rr" and pos + 1 < n and content[pos + 1] in "Ll"):
            return url  # "parse": the whole rest is the address
        pos += 2
        while pos < n and content[pos] in _WS:
            pos += 1
        if pos >= n or content[pos] != "=":
            return url
        pos += 1
        while pos < n and content[pos] in _WS:
            pos += 1
    quote = content[pos] if pos < n and content[pos] in "'\"" else ""
    if quote:
        pos += 1
    url = content[pos:]
    if quote and quote in url:
        url = url[: url.index(quote)]
    return url


def refresh_of(metas: Iterable[tuple[str | None, str | None]]) -> tuple[str, float]:
    """The address and delay of a page's first ``refresh`` pragma with an address.

    Args:
        metas: as for :func:`page_refresh`.

    Returns:
        ``(address as written (str), delay in seconds (float))``, or ``("", 0.0)`` when the page
        has no refresh with an address.

    >>> refresh_of([("Refresh", "0; url=../x/")])
    ('../x/', 0.0)
    """
    for equiv, content in metas:
        if (equiv or "").strip().lower() == "refresh" and content is not None:
            found = refresh_target(content)
            if found is not None:
                return found[1], found[0]
    return "", 0.0


def page_refresh(metas: Iterable[tuple[str | None, str | None]]) -> str:
    """The address the first ``refresh`` pragma of a page sends to, as written.

    Args:
        metas: ``(http-equiv, content)`` of the page's ``<meta>`` elements in document order
            (either parser's tree; ``None`` for a missing attribute).

    Returns:
        The address (str, e.g. ``"../../stable/advance/dhcp/"``), or ``""`` when the page
        has no refresh with an address.  As in browsers, the first valid ``refresh`` pragma
        counts, whatever its delay; invalid ones are passed over.
    """
    return refresh_of(metas)[0]

"""How a saved site's file paths stand for its addresses: a folder's address (``…/install/``)
is saved as the folder's index page (``install/index.html``).

One list of index file names serves every place that maps one to the other: canonical
addresses, redirect targets, the keep rule's URL match and the shortened paths the window
shows.
"""

from __future__ import annotations

#: File names of a folder's index page, in the order a web server tries them (Apache's
#: ``DirectoryIndex``, IIS's default documents); ``wget -r`` saves a folder's address as the first.
INDEX_NAMES: tuple[str, ...] = (
    "index.html",
    "index.htm",
    "index.shtml",
    "index.php",
    "default.htm",
    "default.html",
    "default.aspx",
    "default.asp",
)
_INDEX_SET = frozenset(INDEX_NAMES)


def is_index_name(name: str) -> bool:
    """Whether a file name is a folder's index page (:data:`INDEX_NAMES`, any case) (bool).

    Example:
        >>> is_index_name("Index.HTML"), is_index_name("index.md")
        (True, False)
    """
    return name.lower() in _INDEX_SET

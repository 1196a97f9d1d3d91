"""Why one page of a keep cluster is not the page kept: the criterion of the keep rule that ruled
that page out, said of that page ("older version folder than the kept page (in v1.16.x/)",
"pre-release folder", "longer path").

The cluster's own reason (:func:`~dedup_gui.core.pipeline.keep.keep_reason`) names every criterion
that ruled out some page of the cluster; a row of the keep advice (the window's clusters tree,
the ``--keep-csv`` file) is about one page, and says which criterion decided against it: the
first part of the rule's sort key (:func:`~dedup_gui.core.pipeline.keep.rank_key`) where that
page's key differs from the kept page's.
"""

from __future__ import annotations

from collections.abc import Callable

from dedup_gui.core.model import KeepPolicy, ScanResult
from dedup_gui.core.pipeline.canonical_urls import canonical_problem
from dedup_gui.core.pipeline.keep import NAMED_VERSIONS, PRE_RELEASE_NAMES, version_rank

#: The rank classes of :func:`~dedup_gui.core.pipeline.keep.version_rank`: a version named
#: stable/current/latest, a pre-release, and no version folder at all.
_NAMED, _PRE_RELEASE, _NO_VERSION = 0, 2, 3


def version_folder(path: str) -> str | None:
    """The first folder of ``path`` named as a version or a pre-release (``"v1.16.x"`` for
    ``"v1.16.x/zh/a.html"``, ``"stable"``, ``"dev"``), or ``None`` (str | None).

    Example:
        >>> version_folder("docs/v1.16.x/advance/index.html"), version_folder("about/index.html")
        ('v1.16.x', None)
    """
    for folder in path.split("/")[:-1]:
        if version_rank(f"{folder}/x") != (_NO_VERSION,) or folder.lower() in PRE_RELEASE_NAMES:
            return folder
    return None


def _version_text(page_rank: tuple, kept_rank: tuple, kept_path: str) -> str:
    folder = version_folder(kept_path)
    # the folder whole, no "…": the keep CSV, XLSX and HTML print it (a user read "than the kept
    # v1.16.x/…" and took the ellipsis for a cut path)
    kept = f"the kept page (in {folder}/)" if folder else "the kept page"
    if page_rank[0] == _PRE_RELEASE:
        return "pre-release folder"
    if page_rank[0] == _NO_VERSION:
        return f"in no version folder, unlike {kept}" if folder else "in no version folder"
    if kept_rank[0] == _NAMED and page_rank[0] != _NAMED:
        own = version_rank(kept_path)  # the kept page's own numbers, without its link's name
        if own[0] != 1 or page_rank < own:  # newer by number (or not comparable): not older
            name = {rank: name for name, (rank,) in NAMED_VERSIONS.items()}[kept_rank[1][0]]
            return f"not the {name} version, unlike {kept}"
    return f"older version folder than {kept}"


def drop_reason(
    result: ScanResult, kept: int, page: int, key: Callable[[int], tuple], policy: KeepPolicy | None = None
) -> str:
    """Why ``page`` is dropped for ``kept`` in one keep cluster: the criterion of the keep rule
    that ruled it out, said of ``page`` (str), e.g. ``"older version folder than the kept page
    (in v1.16.x/)"``, ``"pre-release folder"``, ``"states no canonical URL"``, ``"longer path"``,
    ``"shorter main content (812 vs 1,304 characters)"``, ``"newer file"``; ``"same rank, later
    path"`` when only the alphabetical tie-break set them apart.

    Args:
        result: the scan.
        kept: index of the kept page in ``result.pages``.
        page: index of a dropped page of the same keep cluster.
        key: the rule's sort key (:func:`~dedup_gui.core.pipeline.keep.rank_key` of ``result``
            and ``policy``).
        policy: the rule the key was made with (default :class:`KeepPolicy`).

    Returns:
        The reason (str); ``"kept"`` when ``page`` is ``kept``.
    """
    if page == kept:
        return "kept"
    policy = policy or KeepPolicy()
    ours, theirs = key(page), key(kept)
    position = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b), len(ours) - 1)
    pages = result.pages
    if position == 0:
        return "you chose to keep another page"
    if position == 1:
        return "the kept page is in a reference folder"
    if position == len(ours) - 1:
        return "later path in a tie"
    criterion = policy.order[position - 2]
    if criterion == "canonical":
        problem = canonical_problem(pages[page].url)
        if problem == "no address":
            reason = "states no canonical URL"
        elif problem is not None:
            reason = f"malformed canonical URL ({problem})"
        elif ours[position] == (True, True):  # a valid address that did not count
            reason = "its canonical URL is stated by pages with other content too (a template's)"
        else:
            reason = "its canonical URL is another page's address"
        # An older version without a canonical link read as "add one" (a tester): the version
        # folder, which would rule it out too, is said as well.
        if "version" in policy.order[position - 1 :]:
            at = policy.order.index("version") + 2
            if ours[at] > theirs[at]:
                reason += "; also " + _version_text(ours[at], theirs[at], pages[kept].path)
        return reason
    if criterion == "version":
        return _version_text(ours[position], theirs[position], pages[kept].path)
    if criterion == "pattern":
        return f"does not match the preferred pattern {policy.pattern!r}"
    if criterion == "shortest_url":
        return "longer path"
    if criterion == "longest_content":
        return f"shorter main content ({len(pages[page].main_text):,} vs {len(pages[kept].main_text):,} characters)"
    return "older file" if criterion == "newest_file" else "newer file"

"""The user's keep decisions, without Qt: "Keep this page instead" applied to a result, and the
pages chosen per folder, stored beside the user's settings (never in the scanned folder).

As dupeGuru's "Make selected into reference", a choice pins one page as the page kept in its keep
cluster (:attr:`~dedup_gui.core.model.KeepPolicy.chosen`); the window swaps its result for one
with the new policy (``dataclasses.replace(result, keep_policy=...)``), whose keep clusters
(:func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`) follow it.  Re-classification
keeps a result's policy, so a choice survives threshold changes; the chosen paths are saved per
folder, in a small JSON file named by a hash of the folder's resolved path, and applied to every
later scan of that folder, so a choice survives rescans.  The pairs marked "not a duplicate"
(the ignore list, :mod:`dedup_gui.core.views.ignore_list`) are stored in the same file and
applied the same way.

The keep rule the user arranged in the Re-prioritize dialog (:mod:`dedup_gui.core.views.reprioritize`:
the criteria order, the pattern, the reference folders) is stored there too and applied the same
way, so it survives rescans.

File layout (JSON): ``{"version": 3, "folder": ..., "chosen": [path, ...], "not_duplicates":
[[path, path], ...], "keep_rule": null | {"order": [criterion, ...], "pattern": str,
"reference_folders": [folder, ...]}}``; a version 1 file (no ``"not_duplicates"``) reads as an
empty ignore list, a version 1 or 2 file (no ``"keep_rule"``) as the default rule.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs

from dedup_gui.core.atomic import atomic_write_text
from dedup_gui.core.columns import pair_columns
from dedup_gui.core.model import KeepPolicy, ScanResult, Thresholds, path_pair
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.keep_clusters import KeepCluster, keep_clusters_of

#: Version of the per-folder file's layout (the ``"version"`` key).
DECISIONS_VERSION = 3


def default_decisions_dir() -> Path:
    """Where the per-folder decisions live by default: ``folders/`` in the user's configuration
    folder for the application (``platformdirs.user_config_dir("dedup-gui")``; on Linux
    ``~/.config/dedup-gui/folders``) (Path)."""
    return Path(platformdirs.user_config_dir("dedup-gui", appauthor=False)) / "folders"


def folder_key(folder: str | Path) -> str:
    """The name of a folder's decisions file: the SHA-256 of its resolved path (``~``
    expanded), first 24 hex digits, so a folder reached by two spellings has one file (str)."""
    resolved = str(Path(folder).expanduser().resolve())
    return hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:24]


@dataclass(frozen=True)
class FolderDecisions:
    """What the user decided for one scanned folder.

    Attributes:
        folder: the folder, resolved (str); written into the file so a person can tell the
            files apart.
        chosen: paths (relative to the folder, ``/`` separators) of the pages chosen to keep,
            sorted (tuple[str, ...]).
        not_duplicates: the pairs of page paths marked "not a duplicate", each
            :func:`~dedup_gui.core.model.path_pair`, sorted (tuple[tuple[str, str], ...]).
        keep_rule: the keep rule the user arranged (Re-prioritize): a
            :class:`~dedup_gui.core.model.KeepPolicy` whose ``order``, ``pattern`` and
            ``reference_folders`` count (its ``chosen`` is ignored: see :attr:`chosen`), or
            ``None`` for the default rule.
    """

    folder: str
    chosen: tuple[str, ...] = ()
    not_duplicates: tuple[tuple[str, str], ...] = ()
    keep_rule: KeepPolicy | None = None


def _rule_of(policy: KeepPolicy) -> KeepPolicy | None:
    """The part of ``policy`` stored as the folder's keep rule (no chosen pages), or ``None``
    when it is the default rule."""
    rule = replace(policy, chosen=())
    return None if rule == KeepPolicy() else rule


def decisions_of(folder: str | Path, result: ScanResult) -> FolderDecisions:
    """Everything the user decided for ``folder``, as ``result`` holds it: its keep policy's
    chosen pages and rule, and its ignore list (:class:`FolderDecisions`)."""
    resolved = str(Path(folder).expanduser().resolve())
    policy = result.keep_policy
    return FolderDecisions(resolved, policy.chosen, result.not_duplicates, _rule_of(policy))


def _read_rule(data: object) -> KeepPolicy | None:
    """A stored ``"keep_rule"`` value as a policy (``None`` for null).

    Raises:
        ValueError: it is not a keep rule (unknown criteria, wrong types).
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("'keep_rule' is not an object")
    order, pattern, folders = data.get("order"), data.get("pattern", ""), data.get("reference_folders", [])
    if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
        raise ValueError("'keep_rule.order' is not a list of criteria")
    if not isinstance(pattern, str):
        raise ValueError("'keep_rule.pattern' is not text")
    if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
        raise ValueError("'keep_rule.reference_folders' is not a list of folders")
    return KeepPolicy(order=tuple(order), pattern=pattern, reference_folders=tuple(folders))


def decisions_path(base: str | Path, folder: str | Path) -> Path:
    """The decisions file of ``folder`` under ``base`` (Path; it may not exist)."""
    return Path(base) / f"{folder_key(folder)}.json"


def load_decisions(base: str | Path, folder: str | Path) -> tuple[FolderDecisions, str]:
    """The decisions stored for ``folder`` under ``base``.

    A missing file gives no decisions.  A file that cannot be read as decisions is renamed to
    ``<name>.unreadable`` (kept for the user, not overwritten by the next save) and gives no
    decisions, with a note saying so.

    Args:
        base: the decisions folder (:func:`default_decisions_dir` for the user's).
        folder: the scanned folder.

    Returns:
        ``(decisions, note)``: the :class:`FolderDecisions` and ``""``, or a sentence on the
        unreadable file (str).
    """
    resolved = str(Path(folder).expanduser().resolve())
    path = decisions_path(base, folder)
    empty = FolderDecisions(resolved)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return empty, ""
    except OSError as exc:
        return empty, f"The saved keep choices of this folder could not be read ({exc.strerror or exc})."
    try:
        data = json.loads(text)
        chosen = data["chosen"]
        if not isinstance(chosen, list) or not all(isinstance(p, str) for p in chosen):
            raise ValueError("'chosen' is not a list of paths")
        marked = data.get("not_duplicates", [])  # absent from version 1 files
        if not isinstance(marked, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(p, str) for p in m) for m in marked
        ):
            raise ValueError("'not_duplicates' is not a list of pairs of paths")
        not_duplicates = tuple(sorted({path_pair(a, b) for a, b in marked}))
        rule = _read_rule(data.get("keep_rule"))  # absent from version 1 and 2 files
    except (ValueError, KeyError, TypeError) as exc:
        aside = path.with_name(path.name + ".unreadable")
        try:
            path.replace(aside)
        except OSError:
            aside = path
        return empty, f"The saved keep choices of this folder were unreadable ({exc}); kept as {aside}."
    return FolderDecisions(resolved, tuple(sorted(set(chosen))), not_duplicates, rule), ""


def save_decisions(base: str | Path, decisions: FolderDecisions) -> Path:
    """Write ``decisions`` to its folder's file under ``base`` (atomically; ``base`` is made
    if missing).

    Returns:
        The file written (Path).

    Raises:
        OSError: the file could not be written (the previous one is unchanged).
    """
    path = decisions_path(base, decisions.folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "version": DECISIONS_VERSION,
        "folder": decisions.folder,
        "chosen": sorted(set(decisions.chosen)),
        "not_duplicates": [list(p) for p in sorted({path_pair(a, b) for a, b in decisions.not_duplicates})],
        "keep_rule": None,
    }
    rule = decisions.keep_rule
    if rule is not None and _rule_of(rule) is not None:
        data["keep_rule"] = {
            "order": list(rule.order),
            "pattern": rule.pattern,
            "reference_folders": list(rule.reference_folders),
        }
    return atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def keep_cluster_of_page(result: ScanResult, page: int) -> KeepCluster | None:
    """The keep cluster holding page ``page`` (index into ``result.pages``), or ``None``."""
    return next((k for k in keep_clusters_of(result) if page == k.keep or page in k.duplicates), None)


def policy_keeping(result: ScanResult, page: int) -> KeepPolicy:
    """``result``'s keep policy with page ``page`` chosen to keep ("Keep this page instead"):
    the page's path joins :attr:`~dedup_gui.core.model.KeepPolicy.chosen`, and any other chosen
    page of its keep cluster leaves it (one choice per keep cluster).

    Returns:
        The new :class:`KeepPolicy`.

    Raises:
        ValueError: ``page`` is in no keep cluster (nothing is dropped for it or it for another)
            or is no page of ``result``.
    """
    if not 0 <= page < len(result.pages):
        raise ValueError(f"no page {page} in this scan")
    cluster = keep_cluster_of_page(result, page)
    if cluster is None:
        raise ValueError(f"{result.pages[page].path} is in no keep cluster: no page is dropped for it")
    members = {result.pages[i].path for i in cluster.pages}
    path = result.pages[page].path
    chosen = tuple(sorted({c for c in result.keep_policy.chosen if c not in members} | {path}))
    return replace(result.keep_policy, chosen=chosen)


def with_policy(result: ScanResult, policy: KeepPolicy) -> ScanResult:
    """``result`` with keep policy ``policy``: the same pages, pairs and groups; its pair columns
    are shared with ``result`` (the pairs are the same) and its keep clusters built now.

    Returns:
        A new :class:`ScanResult` (or ``result`` itself when its policy is ``policy``).
    """
    if result.keep_policy == policy:
        return result
    new = replace(result, keep_policy=policy)
    pair_columns(new, pair_columns(result))
    keep_clusters_of(new)
    return new


def rekeep(shown: ScanResult, scan: ScanResult, policy: KeepPolicy, thresholds: Thresholds) -> ScanResult:
    """The result to show once the user's keep policy is ``policy``: ``shown`` with it when
    ``shown`` is classified under ``thresholds``, else the scan's own result ``scan``
    re-classified under them with it (a threshold change not yet shown is not lost).

    Returns:
        A :class:`ScanResult` with its pair columns and keep clusters built.
    """
    if shown.thresholds == thresholds:
        return with_policy(shown, policy)
    new = reclassify(replace(scan, keep_policy=policy), thresholds)
    pair_columns(new).build_all()
    keep_clusters_of(new)
    return new


def apply_decisions(result: ScanResult, decisions: FolderDecisions) -> ScanResult:
    """``result`` with the keep rule of ``decisions`` (when one is stored), the pages chosen
    in it kept and the pairs of its ignore list marked "not a duplicate" (``DISTINCT``,
    re-classified under ``result``'s own thresholds); paths no longer in the folder are
    harmless: they match no page.

    Returns:
        A :class:`ScanResult` (``result`` itself when there is nothing to apply).
    """
    if not decisions.chosen and not decisions.not_duplicates and decisions.keep_rule is None:
        return result
    base = result.keep_policy if decisions.keep_rule is None else decisions.keep_rule
    chosen = tuple(sorted(set(result.keep_policy.chosen) | set(decisions.chosen)))
    new = replace(result, keep_policy=replace(base, chosen=chosen))
    marked = tuple(sorted(set(result.not_duplicates) | set(decisions.not_duplicates)))
    if marked != result.not_duplicates:
        new = reclassify(replace(new, not_duplicates=marked), result.thresholds)
    return new

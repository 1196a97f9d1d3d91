"""The Re-prioritize dialog's state, without Qt: the keep criteria in the user's order, each on or
off, the preferred pattern and the reference folders, turned into a keep policy.

As dupeGuru's "Re-Prioritize Results" dialog (its ``core/gui/prioritize_dialog.py`` beside the
Qt dialog), the state and its rules live here and are tested without a screen; the dialog
(:mod:`dedup_gui.gui.reprioritize_dialog`) only draws them.  OK gives a new
:class:`~dedup_gui.core.model.KeepPolicy`; the window re-runs only the keep stage with it
(:func:`dedup_gui.core.views.decisions.with_policy`) and stores it per folder with the other
decisions (:mod:`dedup_gui.core.views.decisions`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath

from dedup_gui.core.model import CRITERIA, DEFAULT_ORDER, KeepPolicy

#: What each criterion means, in one line for the dialog's list (key -> text).
CRITERION_HELP = {
    "canonical": "the page at its own canonical URL (a malformed address is ignored)",
    "version": "the newest released version folder (stable/, latest/ or a folder they link to, v2 before v1, "
    "2024 before 2023; a folder a dev/ or nightly/ link points to after them)",
    "pattern": "a path or URL matching the pattern below",
    "shortest_url": "the shortest path",
    "longest_content": "the longest main content",
    "newest_file": "the newest file (modification time)",
    "oldest_file": "the oldest file (modification time)",
}


def reference_folder_of(root: str | Path, folder: str | Path) -> str:
    """A reference folder as a keep policy stores it, checked: the one rule of the window's
    Re-prioritize dialog and of ``scan --reference-folder``.

    Args:
        root: the scanned folder (str | Path).
        folder: an absolute path, or a path relative to ``root`` (``~`` is expanded).

    Returns:
        The folder relative to ``root``, ``/`` separators, e.g. ``"v1/sub"`` (str).

    Raises:
        ValueError: the folder is not strictly inside ``root`` (after resolving ``..`` and
            symbolic links), is ``root`` itself (every page would be kept), or, when ``root`` is
            an existing folder, is no folder in it (a typo would otherwise keep nothing, silently).
    """
    base = Path(root).expanduser().resolve()
    path = Path(folder).expanduser()
    if not path.is_absolute():
        path = base / path
    path = path.resolve()
    try:
        relative = path.relative_to(base)
    except ValueError:
        raise ValueError(f"{folder} is not inside the scanned folder {base}") from None
    text = PurePosixPath(*relative.parts).as_posix()
    if text in ("", "."):
        raise ValueError("the scanned folder itself cannot be a reference folder: every page would be kept")
    if base.is_dir() and not path.is_dir():
        raise ValueError(f"there is no folder {folder} in the scanned folder {base}")
    return text


class ReprioritizeState:
    """The keep criteria in order, each enabled or not, the pattern and the reference folders.

    Args:
        policy: the keep policy to start from (its order gives the enabled criteria, first;
            the other criteria follow, disabled, in :data:`CRITERIA` order).
        root: the scanned folder; reference folders must lie under it, and exist in it when it
            exists (str | Path).

    Attributes:
        pattern: the preferred pattern (str; shell wildcards or a substring).
        chosen: the pages the user chose to keep, carried over unchanged (tuple[str, ...]).
    """

    def __init__(self, policy: KeepPolicy, root: str | Path) -> None:
        self._root = Path(root).expanduser().resolve()
        self._rows: list[list] = [[key, True] for key in policy.order]
        self._rows += [[key, False] for key in CRITERIA if key not in policy.order]
        self.pattern = policy.pattern
        self._folders: list[str] = list(policy.reference_folders)
        self.chosen = policy.chosen

    # --- the criteria ---------------------------------------------------------------------

    def criteria(self) -> list[str]:
        """Every criterion key in the current order, enabled or not (list[str])."""
        return [key for key, _on in self._rows]

    def enabled(self, key: str) -> bool:
        """Whether criterion ``key`` is in force (bool).

        Raises:
            KeyError: ``key`` is no criterion.
        """
        return self._rows[self._position(key)][1]

    def order(self) -> tuple[str, ...]:
        """The enabled criteria in order: the policy's :attr:`~KeepPolicy.order` (tuple[str, ...])."""
        return tuple(key for key, on in self._rows if on)

    def label(self, key: str) -> str:
        """The list text of criterion ``key``, e.g. ``"canonical URL: the page at its own …"`` (str)."""
        return f"{CRITERIA[key]}: {CRITERION_HELP[key]}"

    def _position(self, key: str) -> int:
        for i, (k, _on) in enumerate(self._rows):
            if k == key:
                return i
        raise KeyError(f"no keep criterion {key!r}; use one of {', '.join(CRITERIA)}")

    def set_enabled(self, key: str, on: bool) -> None:
        """Put criterion ``key`` in force or out of it (its place in the list is kept).

        Raises:
            KeyError: ``key`` is no criterion.
        """
        self._rows[self._position(key)][1] = bool(on)

    def move(self, row: int, to: int) -> int:
        """Move the criterion at ``row`` to position ``to`` (clamped to the list).

        Returns:
            Its new position (int).

        Raises:
            IndexError: ``row`` is outside the list.
        """
        if not 0 <= row < len(self._rows):
            raise IndexError(f"no criterion at row {row}")
        to = max(0, min(to, len(self._rows) - 1))
        self._rows.insert(to, self._rows.pop(row))
        return to

    def move_up(self, row: int) -> int:
        """Move the criterion at ``row`` one place up (more important); returns its new row."""
        return self.move(row, row - 1)

    def move_down(self, row: int) -> int:
        """Move the criterion at ``row`` one place down; returns its new row."""
        return self.move(row, row + 1)

    def set_pattern(self, text: str) -> bool:
        """Take the preferred pattern the user typed, and put the pattern criterion in force or
        out of it to match: typing a pattern while it is off ticks it and moves it to the top
        (typed, the pattern is the user's stated preference; the default rule's last criterion,
        oldest file, would otherwise decide every cluster before it), and clearing the pattern
        unticks it (its place is kept).  A pattern typed while the criterion is on leaves its
        tick and place alone.

        Args:
            text: the pattern (str; shell wildcards or a substring; blank for none).

        Returns:
            Whether the criteria changed (bool), so a list drawing them is redrawn.
        """
        had, has = bool(self.pattern.strip()), bool(text.strip())
        self.pattern = text
        on = self.enabled("pattern")
        if has and not had and not on:
            self.move(self._position("pattern"), 0)
            self.set_enabled("pattern", True)
            return True
        if had and not has and on:
            self.set_enabled("pattern", False)
            return True
        return False

    def set_keys(self, keys: list[str]) -> None:
        """Take the order of a list the user rearranged by dragging (every key once).

        Raises:
            ValueError: ``keys`` is not the criteria in some order.
        """
        if sorted(keys) != sorted(CRITERIA):
            raise ValueError(f"the criteria must each appear once; got {', '.join(keys)}")
        on = {key: flag for key, flag in self._rows}
        self._rows = [[key, on[key]] for key in keys]

    def reset(self) -> None:
        """The default rule: :data:`DEFAULT_ORDER` enabled, the rest disabled; no pattern, no
        reference folders (the chosen pages stay)."""
        self._rows = [[key, True] for key in DEFAULT_ORDER] + [[k, False] for k in CRITERIA if k not in DEFAULT_ORDER]
        self.pattern = ""
        self._folders = []

    # --- reference folders ----------------------------------------------------------------

    def reference_folders(self) -> tuple[str, ...]:
        """The reference folders, relative to the scanned folder, ``/`` separators (tuple[str, ...])."""
        return tuple(self._folders)

    def add_reference_folder(self, folder: str | Path) -> str:
        """Add a reference folder: pages under it are always kept.

        Args:
            folder: an absolute path, or a path relative to the scanned folder.

        Returns:
            The folder as stored: relative to the scanned folder, ``/`` separators (str).

        Raises:
            ValueError: the folder is refused by :func:`reference_folder_of` (outside the scanned
                folder, the scanned folder itself, or missing from it), or already listed (the list
                is unchanged).
        """
        text = reference_folder_of(self._root, folder)
        if text in self._folders:
            raise ValueError(f"{text} is already a reference folder")
        self._folders.append(text)
        return text

    def remove_reference_folder(self, folder: str) -> None:
        """Remove reference folder ``folder`` (as :meth:`reference_folders` lists it).

        Raises:
            ValueError: it is not listed.
        """
        self._folders.remove(folder)

    # --- the result -----------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What keeps OK from applying the state, in sentences; empty when it can (list[str])."""
        found = []
        if not self.order():
            found.append("Enable at least one criterion.")
        if self.enabled("pattern") and not self.pattern.strip():
            found.append("Type a pattern, or disable the pattern criterion.")
        return found

    def policy(self) -> KeepPolicy:
        """The keep policy of the state (the chosen pages carried over).

        Raises:
            ValueError: :meth:`problems` is not empty (its sentences joined).
        """
        found = self.problems()
        if found:
            raise ValueError(" ".join(found))
        return replace(
            KeepPolicy(),
            order=self.order(),
            pattern=self.pattern.strip(),
            reference_folders=tuple(self._folders),
            chosen=self.chosen,
        )

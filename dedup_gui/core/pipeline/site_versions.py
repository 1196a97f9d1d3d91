"""The version aliases a documentation site declares in mike's ``versions.json``.

mike (the MkDocs version manager, https://github.com/jimporter/mike) deploys each version of a
site in a folder (``v1.16.x/``) and writes a ``versions.json`` beside them listing every version
with its aliases::

    [{"version": "v1.17.x", "title": "v1.17.x (dev)", "aliases": ["dev"]},
     {"version": "v1.16.x", "title": "v1.16.x (stable)", "aliases": ["current", "stable"]}]

An alias is published as a symbolic link, a redirect page or a copy of the version's folder;
in a mirror or an archive the links are often lost, so a ``dev/`` copy and its ``v1.17.x/``
would otherwise look like an unknown folder and the newest released version.  The keep rule
reads the aliases from this file (:func:`dedup_gui.core.pipeline.keep.version_rank`).

The file is read, never run or fetched: only a JSON list of objects with a string
``"version"`` and a list of string ``"aliases"`` is used, names that are one plain folder
name each; anything else is ignored with a note.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

#: The name mike gives the file.
VERSIONS_FILE = "versions.json"
#: A larger ``versions.json`` is not read (a real one lists tens of versions: a few kB).
MAX_VERSIONS_BYTES = 1 << 20


def _plain_folder(name: object) -> str | None:
    """A version or alias name usable as one folder name, or ``None``."""
    if not isinstance(name, str):
        return None
    name = name.strip().strip("/")
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        return None
    return name


def parse_mike_versions(text: str, folder: str = "") -> dict[str, str]:
    """The aliases one ``versions.json`` declares, as folder paths.

    Args:
        text: the file's text (JSON).
        folder: the folder holding the file, relative to the scanned folder, ``""`` or ending
            in ``/`` (``"docs/"``).

    Returns:
        ``{alias folder/: version folder/}`` relative to the scanned folder, e.g.
        ``{"stable/": "v1.16.x/", "dev/": "v1.17.x/"}`` (dict[str, str]); names that are not
        one plain folder name are left out.

    Raises:
        ValueError: the text is not JSON, or not a list of objects (``json.JSONDecodeError``
            is a ``ValueError``).

    Example:
        >>> parse_mike_versions('[{"version": "2.0", "aliases": ["latest"]}]', "docs/")
        {'docs/latest/': 'docs/2.0/'}
    """
    data = json.loads(text)
    if not isinstance(data, list) or not all(isinstance(entry, dict) for entry in data):
        raise ValueError("not a list of versions")
    aliases: dict[str, str] = {}
    for entry in data:
        version = _plain_folder(entry.get("version"))
        names = entry.get("aliases")
        if version is None or not isinstance(names, list):
            continue
        for name in names:
            alias = _plain_folder(name)
            if alias is not None and alias != version:
                aliases[f"{folder}{alias}/"] = f"{folder}{version}/"
    return aliases


def read_version_aliases(root: str, paths: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """The version aliases of every mike ``versions.json`` among a scan's files.

    Args:
        root: the scanned folder (absolute path).
        paths: files of the scan relative to ``root`` (``/`` separators), already checked to
            lie inside it (the walk's pages and skipped files); those named ``versions.json``
            are read, at most :data:`MAX_VERSIONS_BYTES` each.

    Returns:
        ``({alias folder/: version folder/}, notes)``: the aliases, sorted by alias; and one
        note per file that could not be used, with its reason (list[str]).
    """
    aliases: dict[str, str] = {}
    notes: list[str] = []
    for path in sorted(p for p in paths if p.rsplit("/", 1)[-1] == VERSIONS_FILE):
        folder = path[: -len(VERSIONS_FILE)]
        try:
            with open(os.path.join(root, path), "rb") as stream:
                data = stream.read(MAX_VERSIONS_BYTES + 1)
            if len(data) > MAX_VERSIONS_BYTES:
                raise ValueError(f"larger than {MAX_VERSIONS_BYTES:,} bytes")
            aliases.update(parse_mike_versions(data.decode("utf-8-sig"), folder))
        except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
            notes.append(f"{path}: version aliases not read ({error})")
    return dict(sorted(aliases.items())), notes

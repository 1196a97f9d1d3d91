"""Ground truth for the extraction benchmark (:mod:`.extraction_eval`): the pages of a corpus
folder with their human-made main text, found by the folder's layout (``shared/corpus``, its
SOURCES.md):

- a folder with ``source.html`` and ``expected.html`` (mozilla/readability's test pages): the
  truth is the visible text of ``expected.html`` (:func:`~dedup_gui.core.extraction.dom_text.body_text`),
  the language the ``lang`` of ``expected-metadata.json`` beside it;
- a folder with a ``cleaned/`` subfolder (the Chinese Web Content Extraction Dataset): each
  ``X.html`` with a ``cleaned/X.txt``, the hand-cut text;
- a JSON file of ``{"file": ..., "with": [...], "without": [...]}`` entries (trafilatura's
  ``evaldata.json``): each page it names beside it, scored by those snippets.

Other ``.html`` files (gne's pages) have no ground truth: counted, not scored.  Each page with a
truth text is put in a language group (:func:`language_group`): English, CJK or other.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.extraction.dom_text import body_text, parse_html
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.text.tokens import CJK_RANGES, tokenize

#: The language groups of the token-scored pages; the snippet pages are their own group.
LANGUAGES = ("English", "CJK", "other")
SNIPPETS = "snippets"

#: ``shared/corpus`` beside the repository (as the tests and benchmarks find ``../shared``).
DEFAULT_CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"

_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
# Frequent English function words that are not frequent words of the other Latin-script languages
# of the corpus (no "a", "in", "on"): a quarter of the words of the corpus's English truth texts,
# at most 2 % of its Spanish, French, German, Portuguese or Czech ones.
_ENGLISH_WORDS = frozenset(
    "the of and to is that for with was this are you have from it by not his her they which were "
    "has had been their will would there what or an at as but its can all more who".split()
)
_ENGLISH_SHARE = 0.08
_CJK_LANGS = ("zh", "ja", "ko")


@dataclass(frozen=True)
class TruthPage:
    """One page with ground truth.

    Attributes:
        name: its path relative to the corpus folder, with ``/`` (a readability page: its folder).
        path: the page's HTML file; html: the page, decoded (:func:`.decoding.decode_html`).
        source: its layout: ``"readability"``, ``"cleaned"`` or ``"snippets"``.
        language: ``"English"``, ``"CJK"`` or ``"other"``; ``None`` for a snippet page.
        truth: the truth text ("" for a snippet page).
        with_snippets, without_snippets: the snippets that must / must not be in the main text
            (snippet pages only).
    """

    name: str
    path: Path
    html: str
    source: str
    language: str | None
    truth: str = ""
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """The page's group: its language, or ``"snippets"`` (str)."""
        return self.language or SNIPPETS


@dataclass(frozen=True)
class GroundTruth:
    """What :func:`load_ground_truth` found under ``folder``: the ``pages`` with ground truth
    (sorted by name), the ``unlabelled`` ``.html`` files (no ground truth, not scored) and the
    ``problems``: files that could not be used, each with the reason (str)."""

    folder: Path
    pages: tuple[TruthPage, ...]
    unlabelled: tuple[Path, ...]
    problems: tuple[str, ...]


def language_group(lang: str | None, text: str, direction: str | None = None) -> str:
    """``"English"``, ``"CJK"`` or ``"other"`` for a page.

    From the language tag when there is one (``en-US`` -> English; ``zh``, ``ja``, ``ko`` -> CJK;
    any other -> other); else a right-to-left ``direction`` is other; else it is guessed from the
    text: CJK when at least half its tokens are CJK characters, English when at least 8 % of its
    words are frequent English function words ("the", "of", "and"...), other otherwise.

    Args:
        lang: a BCP 47 language tag, or ``None``/"" when unknown.
        text: the page's truth text.
        direction: the text direction (``"ltr"``/``"rtl"``) if known.

    Returns:
        str, one of :data:`LANGUAGES`.
    """
    primary = (lang or "").strip().lower().replace("_", "-").split("-")[0]
    if primary:
        return "English" if primary == "en" else "CJK" if primary in _CJK_LANGS else "other"
    if (direction or "").lower() == "rtl":
        return "other"
    tokens = tokenize(text)
    cjk = sum(1 for t in tokens if len(t) == 1 and _CJK_CHAR.match(t))
    if tokens and cjk * 2 >= len(tokens):
        return "CJK"
    words = len(tokens) - cjk
    english = sum(1 for t in tokens if t in _ENGLISH_WORDS)
    return "English" if words and english >= _ENGLISH_SHARE * words else "other"


def _read_text(path: Path) -> str:
    return decode_html(path.read_bytes()).text


def _rel(path: Path, folder: Path) -> str:
    return path.relative_to(folder).as_posix()


def _readability_page(folder: Path, here: Path) -> TruthPage:
    meta_path = here / "expected-metadata.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    meta = {k: v for k, v in meta.items() if isinstance(v, str)} if isinstance(meta, dict) else {}
    truth = body_text(parse_html(_read_text(here / "expected.html")))
    return TruthPage(_rel(here, folder), here / "source.html", _read_text(here / "source.html"), "readability",
                     language_group(meta.get("lang"), truth, meta.get("dir")), truth)  # fmt: skip


def _cleaned_page(folder: Path, path: Path, cleaned: Path) -> TruthPage:
    truth = _read_text(cleaned)
    return TruthPage(_rel(path, folder), path, _read_text(path), "cleaned", language_group(None, truth), truth)


def _snippet_entries(path: Path) -> list[dict]:
    """The entries of a trafilatura-style evaluation JSON ([] if the file is not one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:  # not UTF-8, not JSON: some other file
        return []
    entries = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("file"), str)
            and ("with" in e or "without" in e)
            and isinstance(e.get("with", []), list) and isinstance(e.get("without", []), list)]  # fmt: skip


def _snippet_page(folder: Path, here: Path, entry: dict) -> TruthPage:
    path = here / entry["file"]
    if here.resolve() not in path.resolve().parents or not path.is_file():
        raise ValueError(f"{entry['file']!r} is named for evaluation but not found beside the JSON file")
    withs, withouts = (tuple(str(s) for s in entry.get(key, [])) for key in ("with", "without"))
    return TruthPage(_rel(path, folder), path, _read_text(path), "snippets", None, "", withs, withouts)


def load_ground_truth(folder: str | Path) -> GroundTruth:
    """Find every page with ground truth under ``folder`` by the three layouts of the module
    docstring, and read it.  The folder is only read; symbolic links to folders are not followed.

    Args:
        folder: the corpus folder (e.g. :data:`DEFAULT_CORPUS`).

    Returns:
        :class:`GroundTruth`.  A file that cannot be read or parsed is listed in its
        ``problems`` and left out; it never stops the search.

    Raises:
        ValueError: ``folder`` is not a folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"not a folder: {folder}")
    pages: dict[Path, TruthPage] = {}
    truth_files: set[Path] = set()
    problems: list[str] = []
    html_files: list[Path] = []

    def add(where: Path, make: Callable[..., TruthPage], *args) -> None:
        try:
            page = make(folder, *args)
            pages[page.path] = page
        except (OSError, ValueError) as exc:
            problems.append(f"{_rel(where, folder)}: {getattr(exc, 'strerror', None) or exc}")

    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        here, names = Path(dirpath), sorted(filenames)
        pages_here = [n for n in names if n.lower().endswith((".html", ".htm"))]
        html_files += [here / n for n in pages_here]
        if "source.html" in names and "expected.html" in names:
            truth_files.add(here / "expected.html")
            add(here, _readability_page, here)
        if "cleaned" in dirnames:
            for name in pages_here:
                cleaned = here / "cleaned" / (name.rsplit(".", 1)[0] + ".txt")
                if cleaned.is_file():
                    add(here / name, _cleaned_page, here / name, cleaned)
        for name in (n for n in names if n.lower().endswith(".json")):
            try:
                entries = _snippet_entries(here / name)
            except OSError as exc:
                problems.append(f"{_rel(here / name, folder)}: {exc.strerror or exc}")
                continue
            for entry in entries:
                add(here / name, _snippet_page, here, entry)
    unlabelled = tuple(p for p in html_files if p not in pages and p not in truth_files)
    return GroundTruth(folder, tuple(sorted(pages.values(), key=lambda p: p.name)), unlabelled, tuple(problems))

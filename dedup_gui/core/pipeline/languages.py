"""Language folders and scripts: which folder names stand for a language (``en/``, ``zh/``,
``pt-br/``), and whether a text is written in CJK characters.  The keep rule uses them to tell a
translation from a copy (:func:`dedup_gui.core.pipeline.keep.documents_differ`); the window's
paths keep a language folder in sight when shortened.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dedup_gui.core.model import Page
from dedup_gui.core.text.tokens import CJK_RANGES

#: A folder named as a language or locale: ``en``, ``zh``, ``pt-br``, ``zh_CN``, ``zh-hans``.
_LANGUAGE_FOLDER = re.compile(r"[a-z]{2}(?:[-_](?:[a-z]{2}|hans|hant))?", re.IGNORECASE)
#: ISO 639-1 codes of the languages most web sites are written in (a two-letter folder that is
#: not one of them, such as ``js`` or ``ui``, is not taken for a language).
_LANGUAGES = frozenset(
    "ar bg bn ca cs da de el en es et fa fi fr he hi hr hu id it ja ko lt lv ms nb nl no pl pt ro ru sk sl sr sv "
    "th tr uk ur vi zh".split()
)


def language_of(folder: str) -> str | None:
    """The language a folder name stands for, lower case with "-" (``"zh-hans"`` for
    ``zh_Hans``), or ``None`` when it is no language folder (str | None)."""
    if _LANGUAGE_FOLDER.fullmatch(folder) and folder[:2].lower() in _LANGUAGES:
        return folder.lower().replace("_", "-")
    return None


#: Language folders whose text is written in CJK characters (the script of a page's text
#: tells a page outside language folders apart from them).
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")


def text_script(text: str) -> str | None:
    """The script a main text is written in, coarsely: ``"cjk"`` when CJK characters make up
    more than 5 % of its first 2,000 non-space characters (Chinese documentation is half
    commands, code and names: a quarter CJK on a typical page; an English page holds none),
    ``"other"`` otherwise, ``None`` for no text (str | None).

    Example:
        >>> text_script("安装 Kube-OVN 的步骤"), text_script("Install Kube-OVN"), text_script("")
        ('cjk', 'other', None)
    """
    sample = "".join(text[:4000].split())[:2000]
    if not sample:
        return None
    return "cjk" if len(_CJK_CHAR.findall(sample)) > 0.05 * len(sample) else "other"


def is_language_folder(folder: str) -> bool:
    """Whether a folder name is a language folder (``en``, ``zh``, ``pt-br``, ``zh_Hans``...) (bool)."""
    return language_of(folder) is not None


def has_language_folder(path: str) -> bool:
    """Whether a page path lies in a language folder (``en/``, ``zh/``, ``pt-br/``...) (bool)."""
    return any(language_of(f) for f in path.split("/")[:-1])


def default_script(pages: Sequence[Page], sample: int = 500) -> str | None:
    """The script of the pages outside language folders (their site's default language): the
    commoner :func:`text_script` of up to ``sample`` of them, evenly spread (str | None)."""
    outside = [p for p in pages if p.has_text and not has_language_folder(p.path)]
    if not outside:
        return None
    step = max(1, len(outside) // sample)
    counts: dict[str | None, int] = {}
    for page in outside[::step]:
        script = text_script(page.main_text)
        counts[script] = counts.get(script, 0) + 1
    return max(counts, key=lambda s: (counts[s], s is not None))

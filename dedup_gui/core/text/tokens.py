"""The one tokenizer: words for spaced languages, single characters for CJK text.

Chinese and Japanese are written without spaces, so splitting them on whitespace would make a
whole sentence one "word".  Instead every CJK character is a token (shingles of k tokens are
then character k-grams), and SimHash features of CJK runs are character bigrams.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from dedup_gui.core.gil_friendly import SUB_SLICE, sub_in_slices

CJK_RANGES = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0002fa1f"  # CJK Extensions B-F, Compatibility Supplement
)
_RUNS = re.compile(f"([{CJK_RANGES}]+)|([^\\W_{CJK_RANGES}]+)")
_WHITESPACE = re.compile(r"\s+")
#: What ``_RUNS`` calls a word in ASCII text, once the text is lower-cased.
_ASCII_WORDS = re.compile(r"[a-z0-9]+")
#: Characters of a CJK run made into tokens per C call (:func:`tokenize`).
_CJK_SLICE = 50_000


#: Characters that never show inside a word: the soft hyphen (U+00AD, a hyphenation hint), zero
#: width space (U+200B), word joiner (U+2060) and zero width no-break space (U+FEFF).  Left in,
#: they split "Wehr\u00adanlage" into two tokens and hide a phrase from a search.  (The zero
#: width joiner and non-joiner change how Persian, Indic and emoji text is written: they stay.)
INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u2060\ufeff"))


_INVISIBLE_CHARS = "".join(map(chr, INVISIBLE))


def drop_invisible(text: str) -> str:
    """``text`` without the :data:`INVISIBLE` characters (str).  Each is looked for (a C scan)
    and replaced only if present: ``str.translate`` with a mapping looks every character up in
    Python's dict, about 1 ms for a 100 KB page, 10 % of the ``fast`` extractor's time."""
    if text.isascii():
        return text
    for char in _INVISIBLE_CHARS:
        if char in text:
            text = text.replace(char, "")
    return text


def normalize_whitespace(text: str) -> str:
    r"""Drop the :data:`INVISIBLE` characters, collapse every run of whitespace to one space and
    strip the ends (str); in slices for a long text, so that other threads get the GIL meanwhile
    (:func:`.gil_friendly.sub_in_slices`).

    Example:
        >>> normalize_whitespace("  Wehr\u00adanlage \n Horka ")
        'Wehranlage Horka'
    """
    text = drop_invisible(text)
    if len(text) < SUB_SLICE:  # the same split (str.isspace characters), without the regex
        return " ".join(text.split())
    return sub_in_slices(_WHITESPACE, " ", text).strip()


def tokenize(text: str) -> list[str]:
    """Split text into tokens: lower-cased words, and each CJK character on its own.

    Args:
        text: any text.

    Returns:
        Tokens in text order (list[str]); punctuation and symbols are dropped.

    Example:
        >>> tokenize("SimHash 指纹, by Charikar!")
        ['simhash', '指', '纹', 'by', 'charikar']
    """
    if len(text) < SUB_SLICE:  # short texts in one C call (a long one would hold the GIL)
        if text.isascii():  # the same tokens as the loop below
            return _ASCII_WORDS.findall(text.lower())
        matches: Iterable[Sequence[str]] = _RUNS.findall(text)
    else:
        matches = (match.groups() for match in _RUNS.finditer(text))
    tokens: list[str] = []
    for cjk, word in matches:
        if cjk:
            # A long run a slice at a time: 1.6 million characters at once held the GIL 0.08 s.
            for start in range(0, len(cjk), _CJK_SLICE):
                tokens.extend(cjk[start : start + _CJK_SLICE])
        else:
            tokens.append(word.lower())
    return tokens


def simhash_features(text: str) -> Counter[str]:
    """Weighted SimHash features of a text: term frequency of words and CJK character bigrams.

    Args:
        text: the main text of a page.

    Returns:
        ``Counter`` mapping feature -> weight (term frequency, int).

    Example:
        >>> sorted(simhash_features("重复网页 the the").items())
        [('the', 2), ('复网', 1), ('网页', 1), ('重复', 1)]
    """
    features: Counter[str] = Counter()
    for match in _RUNS.finditer(text):
        cjk, word = match.groups()
        if cjk:
            if len(cjk) == 1:
                features[cjk] += 1
            else:
                features.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
        else:
            features[word.lower()] += 1
    return features

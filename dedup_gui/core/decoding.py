"""Bytes -> text: the one decoder of the product.

Order of evidence (after the WHATWG encoding sniffing rules, simplified):

1. a byte-order mark (UTF-8, UTF-16, UTF-32) always wins;
2. an XML declaration's ``encoding=`` (XHTML);
3. a charset declared in the page (``<meta charset>``, ``http-equiv`` Content-Type, or any
   ``charset=`` inside a ``<meta>`` tag), searched in the first 64 KiB; but bytes that are valid
   UTF-8 with multi-byte sequences are decoded as UTF-8 even when a legacy charset is declared,
   because legacy-encoded text is practically never valid UTF-8 and mislabelled UTF-8 pages are
   common (e.g. pages still declaring ``gb2312``);
4. detection with charset-normalizer.

Labels are mapped as browsers do: GB2312 and GBK decode as GB18030 (its superset), Latin-1 and
ASCII as Windows-1252.  Undecodable bytes are replaced (U+FFFD), counted and reported, never
dropped silently.
"""

from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass

import charset_normalizer

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Label -> codec, where browsers decode a label with a superset codec.
_LABEL_ALIASES = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "gb_2312-80": "gb18030",
    "gb_2312": "gb18030",
    "chinese": "gb18030",
    "csgb2312": "gb18030",
    "euc-cn": "gb18030",
    "cp936": "gb18030",
    "ms936": "gb18030",
    "windows-936": "gb18030",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "big5": "big5hkscs",
    # Browsers decode these labels with the Windows supersets (WHATWG Encoding Standard).
    "shift_jis": "cp932",
    "x-sjis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "ms_kanji": "cp932",
    "windows-31j": "cp932",
    "csshiftjis": "cp932",
    "euc-kr": "cp949",
    "euc_kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "korean": "cp949",
    "windows-949": "cp949",
    "tis-620": "cp874",
    "iso-8859-11": "cp874",
    "iso-8859-9": "cp1254",
    "latin5": "cp1254",
    "utf8": "utf-8",
    "unicode": "utf-16",
}

_SNIFF_BYTES = 64 * 1024
_XML_DECL = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']", re.I)
_META_TAG = re.compile(rb"<meta\b[^>]*>", re.I)
_COMMENT = re.compile(rb"<!--.*?-->", re.S)
_CHARSET_IN_META = re.compile(rb"charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.I)
#: How much more "chaos" (charset-normalizer's mess measure) Windows-1252 may show than the best
#: guess and still be preferred for undeclared Western pages.
WESTERN_MARGIN = 0.1
_CJK_CODECS = ("gb18030", "big5hkscs", "cp932", "shift_jis", "euc_jp", "cp949", "euc_kr")


@dataclass(frozen=True)
class Decoded:
    """The text of a file and how it was decoded.

    Attributes:
        text: the decoded text (str), BOM removed.
        encoding: Python codec name used (e.g. ``"utf-8"``, ``"gb18030"``).
        source: ``"bom"``, ``"xml"``, ``"meta"``, ``"utf-8"``, ``"detected"`` or ``"fallback"``.
        declared: the charset label the page declared, if any (str or None).
        replaced: number of undecodable byte sequences replaced by U+FFFD (int).
    """

    text: str
    encoding: str
    source: str
    declared: str | None
    replaced: int


def normalize_label(label: str) -> str | None:
    """Map a charset label to a Python codec name the way browsers do.

    Args:
        label: a charset label as written in a page, e.g. ``"GB2312"``, ``"utf8"``.

    Returns:
        A codec name (str), e.g. ``"gb18030"``, or ``None`` if Python knows no such codec.

    Example:
        >>> normalize_label("GB2312"), normalize_label("ISO-8859-1"), normalize_label("bogus")
        ('gb18030', 'cp1252', None)
    """
    key = label.strip().strip("\"'").lower()
    key = _LABEL_ALIASES.get(key, key)
    try:
        name = codecs.lookup(key).name
    except LookupError:
        return None
    if name in ("gb2312", "gbk"):
        return "gb18030"
    return name


def declared_charset(data: bytes) -> str | None:
    """Return the charset label declared in the first 64 KiB of a page, or ``None``.

    Looks at an XML declaration first, then every ``<meta>`` tag for ``charset=`` (this covers
    ``<meta charset=...>``, ``http-equiv`` Content-Type, and misspelled ``http-equiv`` forms).
    """
    head = data[:_SNIFF_BYTES]
    match = _XML_DECL.match(head)
    if match:
        return match.group(1).decode("ascii", "replace")
    # Browsers ignore a <meta> inside a comment; so do we.
    for meta in _META_TAG.finditer(_COMMENT.sub(b"", head)):
        found = _CHARSET_IN_META.search(meta.group(0))
        if found:
            return found.group(1).decode("ascii", "replace")
    return None


_counter = threading.local()


def _counting_replace(err: UnicodeDecodeError) -> tuple[str, int]:
    _counter.replaced = getattr(_counter, "replaced", 0) + 1
    return "\ufffd", err.end


codecs.register_error("dedup-gui-count-replace", _counting_replace)


def _count_replacements(data: bytes, encoding: str) -> tuple[str, int]:
    """Decode with U+FFFD for bad sequences; return the text and how many were replaced."""
    _counter.replaced = 0
    text = data.decode(encoding, errors="dedup-gui-count-replace")
    return text, _counter.replaced


def _is_multibyte_utf8(data: bytes) -> bool:
    if data.isascii():
        return False
    try:
        data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def decode_html(data: bytes) -> Decoded:
    """Decode the bytes of an HTML page.

    Args:
        data: the raw file bytes.

    Returns:
        :class:`Decoded` with the text and the evidence used.

    Raises:
        Nothing: undecodable bytes are replaced and counted in :attr:`Decoded.replaced`.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text, replaced = _count_replacements(data[len(bom) :], encoding)
            return Decoded(text, encoding, "bom", declared_charset(data), replaced)

    # UTF-16 without BOM: many NUL bytes in alternate positions.
    head = data[:512]
    if len(head) >= 4 and head[1::2].count(0) > len(head) * 0.4:
        text, replaced = _count_replacements(data, "utf-16-le")
        return Decoded(text, "utf-16-le", "detected", None, replaced)
    if len(head) >= 4 and head[0::2].count(0) > len(head) * 0.4:
        text, replaced = _count_replacements(data, "utf-16-be")
        return Decoded(text, "utf-16-be", "detected", None, replaced)

    label = declared_charset(data)
    encoding = normalize_label(label) if label else None
    source = "xml" if label and _XML_DECL.match(data[:_SNIFF_BYTES]) else "meta"
    if encoding in ("utf-16-le", "utf-16-be", "utf-16", "utf-32"):
        # A page that could be read as ASCII to find its label is not UTF-16 (WHATWG rule).
        encoding = "utf-8"
    if encoding and encoding != "utf-8" and _is_multibyte_utf8(data):
        text = data.decode("utf-8")
        return Decoded(text, "utf-8", "utf-8", label, 0)
    if encoding:
        text, replaced = _count_replacements(data, encoding)
        if encoding == "utf-8" and replaced and _mostly_utf8(data) is None:
            # Declared UTF-8, but not UTF-8 at all (a Latin-1 page with a copied template's
            # meta tag): detection reads it better than a page of U+FFFD.
            guessed = _detect(data)
            return Decoded(guessed.text, guessed.encoding, "detected", label, guessed.replaced)
        return Decoded(text, encoding, source, label, replaced)

    if data.isascii() or _is_multibyte_utf8(data):
        return Decoded(data.decode("utf-8"), "utf-8", "detected", None, 0)
    mostly = _mostly_utf8(data)
    if mostly is not None:
        return Decoded(mostly[0], "utf-8", "detected", None, mostly[1])
    return _detect(data)


def _mostly_utf8(data: bytes) -> tuple[str, int] | None:
    """UTF-8 text with a few stray bytes (a Latin-1 "ö" pasted into a UTF-8 page): the text and
    the number replaced, if the valid multi-byte characters outnumber the bad bytes 20 to 1."""
    text, replaced = _count_replacements(data, "utf-8")
    multibyte = sum(1 for c in text if ord(c) >= 0x80) - replaced
    if replaced and multibyte >= 20 * replaced:
        return text, replaced
    if replaced and multibyte >= 3 and replaced <= 2 and multibyte >= 2 * replaced:
        return text, replaced
    return None


def _detect(data: bytes) -> Decoded:
    """Decode bytes with no usable declaration, by charset-normalizer's detection."""
    matches = charset_normalizer.from_bytes(data[: 512 * 1024])
    best = matches.best()
    encoding = normalize_label(best.encoding) if best is not None else None
    # Western text reads almost equally well in a dozen single-byte code pages (cp850, cp1257,
    # mac_roman...); where Windows-1252 is about as plausible as the best guess, take it, as
    # browsers do for undeclared pages.
    if best is not None and encoding != "cp1252":
        western = [m for m in matches if normalize_label(m.encoding) == "cp1252"]
        if western and western[0].chaos <= best.chaos + WESTERN_MARGIN:
            encoding = "cp1252"
    # Detectors often take short Chinese texts for Cyrillic or Thai single-byte text; a strict
    # GB18030 decode that yields mostly CJK characters is the likelier reading.
    if encoding not in _CJK_CODECS:
        cjk = _strict_cjk_reading(data)
        if cjk:
            encoding = cjk
    if not encoding:
        text, replaced = _count_replacements(data, "cp1252")
        return Decoded(text, "cp1252", "fallback", None, replaced)
    text, replaced = _count_replacements(data, encoding)
    return Decoded(text, encoding, "detected", None, replaced)


# CJK ideographs, kana, Hangul, CJK punctuation and full-width forms.
_CJK_CHAR = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


def _strict_cjk_reading(data: bytes) -> str | None:
    """The CJK codec under which the bytes read as CJK text, if there is one."""
    sample = data[: 256 * 1024]
    non_ascii = sum(1 for b in sample if b >= 0x80)
    if non_ascii < 4:
        return None
    # CJK characters are runs of high bytes; Western accented letters are lone high bytes
    # between ASCII letters (which a GB18030 reading would swallow as trail bytes).
    paired = sum(
        1
        for i, b in enumerate(sample)
        if b >= 0x80 and ((i + 1 < len(sample) and sample[i + 1] >= 0x80) or (i > 0 and sample[i - 1] >= 0x80))
    )
    if paired < 0.8 * non_ascii:
        return None
    for encoding in ("gb18030", "big5hkscs", "cp932"):
        text, replaced = _count_replacements(sample, encoding)
        wide = [c for c in text if ord(c) >= 0x80]
        # A few bad sequences (a truncated last character, one corrupt byte) are tolerated.
        if replaced > max(2, len(wide) // 200):
            continue
        if wide and len(_CJK_CHAR.findall(text)) >= 0.8 * len(wide):
            return encoding
    return None

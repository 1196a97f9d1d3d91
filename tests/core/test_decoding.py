"""Tests of dedup_gui.core.pipeline.decoding: bytes -> text, on small hand-made pages.

Every page is written here as a Python str and encoded with a known codec, so the expected text is
the str itself: a right decode gives it back exactly (round trip), nothing cut, nothing replaced.
"""

from __future__ import annotations

import codecs

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.decoding import BROWSER_CODECS, declared_charset, decode_html, normalize_label
from dedup_gui.core.pipeline.features import page_from_bytes
from dedup_gui.core.pipeline.scan import scan_folder

# A realistic Chinese paragraph (four sentences) about duplicate-page detection.
ZH_PARAGRAPH = (
    "重复网页的检测是搜索引擎中的一个重要问题。"
    "互联网上大量内容相同或相近的网页不仅浪费了存储空间和带宽，还会降低检索结果的质量。"
    "常用的方法包括基于指纹的算法和基于文本相似度的计算，例如SimHash和最小哈希。"
    "本文介绍一种结合正文提取与特征串比较的网页去重方法，并在真实数据上进行了实验。"
)


def zh_page(head_extra: str = "", title: str = "网页去重技术简介", body: str = ZH_PARAGRAPH) -> str:
    return (
        f"<!DOCTYPE html>\n<html>\n<head>{head_extra}<title>{title}</title></head>\n"
        f"<body>\n<h1>{title}</h1>\n<p>{body}</p>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------------------------
# normalize_label / declared_charset
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        # Browsers decode GB2312 / GBK labels with GB18030, the superset (WHATWG "gbk" -> gb18030
        # decoder); Python's own gb2312 would fail on GBK-only characters.
        ("GB2312", "gb18030"),
        ("gbk", "gb18030"),
        ("x-gbk", "gb18030"),
        ("'GBK'", "gb18030"),  # quotes left over from sloppy markup are stripped
        (" gb2312 ", "gb18030"),
        ("GB18030", "gb18030"),
        # WHATWG maps Latin-1 and ASCII labels to windows-1252.
        ("ISO-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("us-ascii", "cp1252"),
        # Common spellings of other labels, to Python's canonical codec names.
        ("utf8", "utf-8"),
        ("UTF-8", "utf-8"),
        ("Shift-JIS", "cp932"),  # WHATWG: Shift_JIS labels decode as windows-31j
        ("windows-1251", "cp1251"),
        ("big5", "big5hkscs"),  # WHATWG's Big5 decoder is Big5-HKSCS
        # Unknown labels give None (no exception).
        ("bogus", None),
        ("", None),
    ],
)
def test_normalize_label(label: str, expected: str | None) -> None:
    assert normalize_label(label) == expected


def test_declared_charset_meta_charset() -> None:
    assert declared_charset(b'<html><head><meta charset="gbk"><title>x</title>') == "gbk"


def test_declared_charset_http_equiv() -> None:
    data = b'<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
    assert declared_charset(data) == "gb2312"


def test_declared_charset_xml_declaration_first() -> None:
    # The XML declaration is looked at before any <meta>.
    data = b'<?xml version="1.0" encoding="gbk"?>\n<html><head><meta charset="utf-8">'
    assert declared_charset(data) == "gbk"


def test_declared_charset_none() -> None:
    assert declared_charset(b"<html><head><title>x</title></head></html>") is None


def test_declared_charset_only_in_first_64_kib() -> None:
    # The documented sniff window is 64 KiB: a declaration after it is not found.
    data = b"<!--" + b"x" * (64 * 1024) + b'--><meta charset="gbk">'
    assert declared_charset(data) is None


# --------------------------------------------------------------------------------------------
# Declared Chinese pages
# --------------------------------------------------------------------------------------------


def test_gbk_page_with_meta_charset() -> None:
    page = zh_page('<meta charset="gbk">')
    decoded = decode_html(page.encode("gbk"))
    # Declared "gbk" is decoded with GB18030 (superset), found via <meta>; round trip is exact.
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "meta"
    assert decoded.declared == "gbk"
    assert decoded.replaced == 0


def test_gb2312_page_with_http_equiv() -> None:
    page = zh_page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    decoded = decode_html(page.encode("gb2312"))
    # http-equiv Content-Type declares gb2312 -> decoded as gb18030; all chars are in GB2312.
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "meta"
    assert decoded.declared == "gb2312"
    assert decoded.replaced == 0


def test_gb2312_label_with_gbk_only_character() -> None:
    # 镕 (U+9555) is not in GB2312 (Python's gb2312 codec cannot encode it) but is in GBK/GB18030;
    # pages labelled gb2312 are in practice GBK, so a browser shows it.  Decoding as gb18030 keeps
    # it and everything after it.
    body = "“镕”字不在GB2312字符集中，但GBK和GB18030都收录了它。后面的文字也必须完整保留。"
    with pytest.raises(UnicodeEncodeError):
        "镕".encode("gb2312")
    page = zh_page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">', body=body)
    decoded = decode_html(page.encode("gbk"))
    assert decoded.text == page
    assert "镕" in decoded.text
    assert "\ufffd" not in decoded.text
    assert decoded.text.endswith("</html>\n")  # nothing cut
    assert decoded.encoding == "gb18030"
    assert decoded.replaced == 0


def test_utf8_page_declaring_gb2312_is_read_as_utf8() -> None:
    # The bytes are valid UTF-8 with multi-byte sequences, which GB-encoded Chinese practically
    # never is, so the (wrong) gb2312 label is overruled: source "utf-8", label still reported.
    page = zh_page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    decoded = decode_html(page.encode("utf-8"))
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.source == "utf-8"
    assert decoded.declared == "gb2312"
    assert decoded.replaced == 0


def test_xhtml_xml_declaration_gbk() -> None:
    page = (
        '<?xml version="1.0" encoding="gbk"?>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>网页去重</title></head>'
        f"<body><p>{ZH_PARAGRAPH}</p></body></html>"
    )
    decoded = decode_html(page.encode("gbk"))
    # The XML declaration names gbk -> gb18030, source "xml".
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "xml"
    assert decoded.declared == "gbk"
    assert decoded.replaced == 0


def test_charset_declared_after_first_kilobyte() -> None:
    # 2 KB of comment before the <meta>: still inside the 64 KiB sniff window, so it is found
    # (a sniffer limited to 1024 bytes, like the WHATWG prescan, would miss it).
    comment = "<!-- " + "build info " * 200 + "-->\n"
    assert len(comment) > 2000
    page = comment + zh_page('<meta charset="gbk">')
    decoded = decode_html(page.encode("gbk"))
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "meta"
    assert decoded.declared == "gbk"


def test_malformed_content_charset_declaration() -> None:
    # `content="charset=gbk"` lacks the media type; any charset= inside a <meta> counts.
    page = zh_page('<meta http-equiv="Content-Type" content="charset=gbk">')
    decoded = decode_html(page.encode("gbk"))
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "meta"
    assert decoded.declared == "gbk"


def test_meta_inside_comment_is_ignored() -> None:
    page = zh_page('<!-- <meta charset="windows-1251"> --><meta charset="gbk">')
    decoded = decode_html(page.encode("gbk"))
    # Right: gbk -> gb18030 and the exact Chinese text.  Actual: cp1251, Cyrillic mojibake.
    assert decoded.encoding == "gb18030"
    assert decoded.text == page


# --------------------------------------------------------------------------------------------
# BOMs
# --------------------------------------------------------------------------------------------


def test_utf8_bom_wins_over_meta_windows_1252() -> None:
    page = (
        '<html><head><meta charset="windows-1252"><title>Café</title></head>'
        "<body><p>Crème brûlée — naïve “quotes” and 你好.</p></body></html>"
    )
    decoded = decode_html(codecs.BOM_UTF8 + page.encode("utf-8"))
    # A BOM always wins (WHATWG); the BOM itself is removed from the text; the declared label
    # is still reported.
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.source == "bom"
    assert decoded.declared == "windows-1252"
    assert decoded.replaced == 0


def test_utf16_le_with_bom() -> None:
    page = "<html><head><title>Überblick — 概要</title></head><body><p>Grüße, 你好!</p></body></html>"
    decoded = decode_html(codecs.BOM_UTF16_LE + page.encode("utf-16-le"))
    # FF FE is the UTF-16 LE BOM; the text comes back exactly, without the BOM.
    assert decoded.text == page
    assert decoded.encoding == "utf-16-le"
    assert decoded.source == "bom"
    assert decoded.replaced == 0


# --------------------------------------------------------------------------------------------
# Other legacy encodings, declared
# --------------------------------------------------------------------------------------------


def test_big5_page_with_declaration() -> None:
    page = (
        '<html><head><meta charset="big5"><title>網頁去重</title></head>'
        "<body><p>重複網頁的檢測是搜尋引擎的重要問題。</p></body></html>"
    )
    decoded = decode_html(page.encode("big5"))
    # big5 label -> Big5-HKSCS (WHATWG's Big5 decoder, a superset); exact round trip.
    assert decoded.text == page
    assert decoded.encoding == "big5hkscs"
    assert decoded.source == "meta"
    assert decoded.declared == "big5"
    assert decoded.replaced == 0


def test_windows_1251_page_with_declaration() -> None:
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
        "<title>Новости</title></head>"
        "<body><p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p></body></html>"
    )
    decoded = decode_html(page.encode("cp1251"))
    # windows-1251 is Python's cp1251; the Russian pangram comes back exactly.
    assert decoded.text == page
    assert decoded.encoding == "cp1251"
    assert decoded.source == "meta"
    assert decoded.declared == "windows-1251"
    assert decoded.replaced == 0


def test_shift_jis_page_with_declaration() -> None:
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
        "<title>お知らせ</title></head>"
        "<body><p>重複したウェブページを検出する方法について説明します。</p></body></html>"
    )
    decoded = decode_html(page.encode("shift_jis"))
    # Shift_JIS label -> cp932 (its Windows superset, as browsers do); exact round trip.
    assert decoded.text == page
    assert decoded.encoding == "cp932"
    assert decoded.source == "meta"
    assert decoded.declared == "Shift_JIS"
    assert decoded.replaced == 0


def test_shift_jis_label_with_windows_extension_character() -> None:
    page = '<html><head><meta charset="Shift_JIS"><title>手順</title></head><body><p>手順①を参照。</p></body></html>'
    decoded = decode_html(page.encode("cp932"))
    # A browser shows "手順①を参照。"; actual: "手順\ufffd@を参照。", replaced == 1.
    assert decoded.text == page
    assert decoded.replaced == 0


def test_euc_kr_label_with_uhc_syllable() -> None:
    page = '<html><head><meta charset="euc-kr"><title>소설</title></head><body><p>똠방각하</p></body></html>'
    decoded = decode_html(page.encode("cp949"))
    # A browser shows "똠방각하"; actual: "\ufffdc방각하", replaced == 1.
    assert decoded.text == page
    assert decoded.replaced == 0


# --------------------------------------------------------------------------------------------
# UTF-8 with a stray invalid byte
# --------------------------------------------------------------------------------------------

DE_PAGE = (
    "<html><head>{meta}<title>Über uns</title></head>"
    "<body><p>Grüße aus München – schöne Straße, große Brücke.</p></body></html>"
)


def _with_stray_byte(page: str) -> tuple[bytes, str]:
    """UTF-8 bytes of page with "schöne" written in Latin-1 (one stray 0xF6 byte)."""
    data = page.encode("utf-8").replace("schöne".encode(), b"sch\xf6ne", 1)
    return data, page.replace("schöne", "sch\ufffdne", 1)


def test_declared_utf8_with_one_stray_invalid_byte() -> None:
    data, expected = _with_stray_byte(DE_PAGE.format(meta='<meta charset="utf-8">'))
    decoded = decode_html(data)
    # Exactly the one bad byte is replaced by U+FFFD and counted; all other text is intact.
    assert decoded.text == expected
    assert decoded.encoding == "utf-8"
    assert decoded.source == "meta"
    assert decoded.replaced == 1


def test_undeclared_utf8_with_one_stray_invalid_byte() -> None:
    data, expected = _with_stray_byte(DE_PAGE.format(meta=""))
    decoded = decode_html(data)
    # 8 valid multi-byte UTF-8 sequences and one stray byte: the page is UTF-8.
    assert decoded.encoding == "utf-8"
    assert decoded.text == expected
    assert decoded.replaced == 1


def test_undeclared_utf8_chinese_with_one_stray_invalid_byte() -> None:
    page = zh_page()
    data = page.encode("utf-8").replace("检测".encode(), "检".encode() + b"\xff" + "测".encode(), 1)
    decoded = decode_html(data)
    # Right: UTF-8 with the single 0xFF replaced.
    assert decoded.encoding == "utf-8"
    assert decoded.text == page.replace("检测", "检\ufffd测", 1)
    assert decoded.replaced == 1


# --------------------------------------------------------------------------------------------
# Undeclared GBK: detection
# --------------------------------------------------------------------------------------------


def test_undeclared_gbk_paragraph_is_detected() -> None:
    page = zh_page()
    decoded = decode_html(page.encode("gbk"))
    # No BOM, no declaration, not UTF-8: detection must find a GB codec (gb18030 is the one the
    # decoder uses for GB text) and give the exact Chinese text back.
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "detected"
    assert decoded.declared is None
    assert decoded.replaced == 0


@pytest.mark.parametrize(
    ("title", "sentence"),
    [
        ("新闻", "今天天气很好。"),
        ("公司简介", "我们是一家专业的软件开发公司。"),
        ("联系我们", "欢迎来电咨询，我们将竭诚为您服务。"),
    ],
)
def test_short_undeclared_gbk_page_is_detected(title: str, sentence: str) -> None:
    # Short texts are hard for statistical detectors (they are often read as Cyrillic or Thai);
    # the decoder's strict GB18030 check must still give the exact text.
    page = f"<html><head><title>{title}</title></head><body><p>{sentence}</p></body></html>"
    decoded = decode_html(page.encode("gbk"))
    assert decoded.text == page
    assert decoded.encoding == "gb18030"
    assert decoded.source == "detected"
    assert decoded.replaced == 0


def test_pure_ascii_undeclared_is_utf8() -> None:
    page = "<html><head><title>Hello</title></head><body><p>Plain ASCII text.</p></body></html>"
    decoded = decode_html(page.encode("ascii"))
    # ASCII is a subset of UTF-8; nothing to detect.
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.replaced == 0


@pytest.mark.parametrize(
    "text,codec",
    [
        ("<html><body><p>La langue française est très répandue à Paris. Élève, garçon.</p></body></html>", "latin-1"),
        ("<html><body><p>Il était naïve, déjà là: “quote” — dash.</p></body></html>", "cp1252"),
    ],
)
def test_undeclared_western_pages_read_as_windows_1252(text, codec):
    # Detection alone picks cp1250/cp1257 for these (equally plausible to it); browsers read
    # undeclared Western pages as Windows-1252, and so must we: the text comes back exactly.
    decoded = decode_html(text.encode(codec))
    assert decoded.encoding == "cp1252" and decoded.text == text


def test_undeclared_cyrillic_stays_cyrillic():
    text = "<html><body><p>Привет, как дела? Это русский текст для проверки кодировки.</p></body></html>"
    assert decode_html(text.encode("cp1251")).text == text


def test_declared_utf8_that_is_really_latin1_is_detected():
    text = (
        '<html><head><meta charset="utf-8"></head><body><p>Café society: the naïve résumé, déjà vu.</p></body></html>'
    )
    decoded = decode_html(text.encode("cp1252"))
    assert decoded.text == text and decoded.encoding == "cp1252" and decoded.declared == "utf-8"


# --------------------------------------------------------------------------------------------
# Only the labels of the WHATWG Encoding Standard (what browsers know) are used
# --------------------------------------------------------------------------------------------

ASCII_PAGE = (
    "<html><head>{meta}<title>Plain page</title></head>"
    "<body><p>Hello world: a plain ASCII page, a~~b, 1+1=2, C:\\temp and \\u0041.</p></body></html>"
)
LATIN_PAGE = (
    "<html><head>{meta}<title>Café</title></head>"
    "<body><p>La langue française est très répandue à Paris. Élève, garçon, naïve.</p></body></html>"
)

# Python codecs that are no web encodings.  Before, each went straight to codecs.lookup: the
# text transforms (rot13, zlib, base64, hex, bz2, uu, quopri) and "undefined" raised on decode
# (the whole page became an error), EBCDIC and UTF-32 gave garbage, idna and punycode changed
# or rejected the text.
NOT_WEB_LABELS = [
    "rot13",
    "zlib",
    "base64",
    "hex",
    "bz2",
    "uu",
    "quopri",
    "idna",
    "punycode",
    "undefined",
    "cp037",
    "ebcdic-cp-us",
    "utf-32",
    "utf-32le",
    "UTF-32BE",
    "utf-7",
    "unicode_escape",
    "raw_unicode_escape",
    "cp500",
    "cp936",  # a Windows name of GBK, but no WHATWG label
]


@pytest.mark.parametrize("label", NOT_WEB_LABELS)
def test_label_browsers_do_not_know_is_ignored_on_an_ascii_page(label: str) -> None:
    page = ASCII_PAGE.format(meta=f'<meta charset="{label}">')
    decoded = decode_html(page.encode("ascii"))
    # Read as if undeclared: ASCII is UTF-8, the text is exactly the page.
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.source == "detected"
    assert decoded.declared == label
    assert decoded.ignored == "unknown"
    assert decoded.replaced == 0


@pytest.mark.parametrize("label", NOT_WEB_LABELS)
def test_label_browsers_do_not_know_is_ignored_on_a_latin_page(label: str) -> None:
    page = LATIN_PAGE.format(meta=f'<meta http-equiv="Content-Type" content="text/html; charset={label}">')
    decoded = decode_html(page.encode("cp1252"))
    # Undeclared Western bytes are read as Windows-1252 (as browsers do): the exact text.
    assert decoded.text == page
    assert decoded.encoding == "cp1252"
    assert decoded.source == "detected"
    assert decoded.declared == label
    assert decoded.ignored == "unknown"


@pytest.mark.parametrize(
    ("label", "sequence"),
    [
        ("utf-7", "+ADw-script+AD4-alert(1)+ADw-/script+AD4-"),  # UTF-7 would make this a <script>
        ("unicode_escape", "\\u0041\\x42\\n"),  # unicode_escape would make this "AB" and a newline
        ("raw_unicode_escape", "\\u0041"),
    ],
)
def test_escape_decoding_labels_do_not_change_the_text(label: str, sequence: str) -> None:
    page = f'<html><head><meta charset="{label}"></head><body><p>Code: {sequence} end.</p></body></html>'
    decoded = decode_html(page.encode("ascii"))
    assert decoded.text == page
    assert sequence in decoded.text
    assert decoded.encoding == "utf-8"


def test_xml_declaration_label_browsers_do_not_know_is_ignored() -> None:
    page = '<?xml version="1.0" encoding="rot13"?>\n<html><body><p>Uryyb means Hello in rot13.</p></body></html>'
    decoded = decode_html(page.encode("ascii"))
    # Before: LookupError ("'rot-13' is not a text encoding").
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.declared == "rot13"
    assert decoded.ignored == "unknown"


@pytest.mark.parametrize("label", ["iso-2022-kr", "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext"])
def test_replacement_encoding_labels_are_ignored(label: str) -> None:
    # WHATWG maps these to the "replacement" encoding (a browser shows one U+FFFD); the page is
    # read as undeclared instead.  Before, Python's hz codec turned "a~~b" into "a~b".
    page = ASCII_PAGE.format(meta=f'<meta charset="{label}">')
    decoded = decode_html(page.encode("ascii"))
    assert decoded.text == page
    assert "a~~b" in decoded.text
    assert decoded.encoding == "utf-8"
    assert decoded.declared == label
    assert decoded.ignored == "replacement"


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        # WHATWG aliases, mapped as browsers decode them.
        ("GB2312", "gb18030"),
        ("csiso58gb231280", "gb18030"),
        ("iso-ir-58", "gb18030"),
        ("latin1", "cp1252"),
        ("ascii", "cp1252"),
        ("cp819", "cp1252"),
        ("x-sjis", "cp932"),
        ("ms932", "cp932"),
        ("unicode-1-1-utf-8", "utf-8"),
        ("ks_c_5601-1987", "cp949"),
        ("EUC-KR", "cp949"),
        ("iso-8859-9", "cp1254"),
        ("tis-620", "cp874"),
        ("dos-874", "cp874"),
        ("iso-8859-8-i", "iso8859-8"),
        ("logical", "iso8859-8"),
        ("x-mac-cyrillic", "mac-cyrillic"),
        ("mac", "mac-roman"),
        ("cseuckr", "cp949"),
        ("big5-hkscs", "big5hkscs"),
        ("x-euc-jp", "euc_jp"),
        ("csiso2022jp", "iso2022_jp"),
        ("ibm866", "cp866"),
        ("koi8", "koi8-r"),
        ("iso-8859-16", "iso8859-16"),
        ("x-user-defined", "cp1252"),  # the HTML prescan reads x-user-defined as windows-1252
        ("utf-16", "utf-16-le"),
        ("utf-16be", "utf-16-be"),
        # Not WHATWG labels: no codec.
        ("rot13", None),
        ("cp037", None),
        ("utf-32", None),
        ("utf-7", None),
        ("euc-cn", None),
        ("iso-2022-kr", None),  # replacement encoding
    ],
)
def test_normalize_label_whatwg(label: str, expected: str | None) -> None:
    assert normalize_label(label) == expected


def test_x_user_defined_is_read_as_windows_1252() -> None:
    page = LATIN_PAGE.format(meta='<meta charset="x-user-defined">')
    decoded = decode_html(page.encode("cp1252"))
    # Before: not a Python codec, so detection ("detected"); the prescan makes it windows-1252.
    assert decoded.text == page
    assert decoded.encoding == "cp1252"
    assert decoded.source == "meta"
    assert decoded.ignored is None


def test_utf16_label_on_an_ascii_readable_page_is_utf8() -> None:
    page = '<html><head><meta charset="utf-16le"></head><body><p>Grüße, 你好</p></body></html>'
    decoded = decode_html(page.encode("utf-8"))
    # The page could be read as ASCII to find its label, so it is not UTF-16 (WHATWG prescan).
    assert decoded.text == page
    assert decoded.encoding == "utf-8"
    assert decoded.source == "meta"


# Every Python codec the WHATWG encodings decode with (one per encoding name of the standard).
WHATWG_CODECS = {
    "utf-8", "cp866", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7",
    "iso8859-8", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16", "koi8-r",
    "koi8-u", "mac-roman", "cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255",
    "cp1256", "cp1257", "cp1258", "mac-cyrillic", "gb18030", "big5hkscs", "euc_jp", "iso2022_jp",
    "cp932", "cp949", "utf-16-be", "utf-16-le",
}  # fmt: skip


def test_browser_codecs_are_the_whatwg_encodings() -> None:
    assert BROWSER_CODECS == WHATWG_CODECS


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        # charset-normalizer alone reads these as the codecs they were written in, which no browser
        # knows (before: cp437, johab, mac-latin2, cp855); detection must keep to web encodings.
        ("<html><body><p>Grüße aus München, schöne Straße. Ça va très bien.</p></body></html>", "cp850"),
        ("<html><body><p>안녕하세요 세계 여러분 반갑습니다</p></body></html>", "johab"),
        ("<html><body><p>Zażółć gęślą jaźń, Příliš žluťoučký kůň.</p></body></html>", "mac_latin2"),
        ("<html><body><p>Привет, как дела? Это русский текст.</p></body></html>", "cp855"),
    ],
)
def test_detection_only_picks_encodings_browsers_know(text: str, codec: str) -> None:
    decoded = decode_html(text.encode(codec))
    assert decoded.encoding in WHATWG_CODECS
    assert decoded.source in ("detected", "fallback")


# --------------------------------------------------------------------------------------------
# Ignored labels in a page and in a scan
# --------------------------------------------------------------------------------------------


def test_ignored_label_gets_a_note() -> None:
    page = ASCII_PAGE.format(meta='<meta charset="rot13">').encode("ascii")
    notes = page_from_bytes("a.html", "/x/a.html", page, ScanSettings(min_tokens=1)).notes
    # Only the "ignored" note: the label is not said to "not fit the bytes".
    assert [n for n in notes if "charset" in n] == [
        "declared charset 'rot13' is not an encoding browsers know: ignored"
    ]


def test_replacement_label_gets_a_note() -> None:
    page = ASCII_PAGE.format(meta='<meta charset="iso-2022-kr">').encode("ascii")
    notes = page_from_bytes("a.html", "/x/a.html", page, ScanSettings(min_tokens=1)).notes
    assert [n for n in notes if "charset" in n] == [
        "declared charset 'iso-2022-kr' is one browsers refuse to decode (WHATWG replacement encoding): ignored"
    ]


def test_scan_reads_pages_with_labels_browsers_do_not_know(tmp_path) -> None:
    article = " ".join(["The council met on Tuesday to discuss the new library budget."] * 20)
    (tmp_path / "rot13.html").write_text(
        f"<html><head><meta charset=rot13><title>Rot</title></head><body><p>{article}</p></body></html>"
    )
    (tmp_path / "zlib.html").write_text(
        f'<html><head><meta charset="zlib"><title>Zlib</title></head><body><p>{article}</p></body></html>'
    )
    # An MHTML archive whose HTML part has a bogus MIME charset (put into the page as <meta>).
    (tmp_path / "saved.mht").write_bytes(
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="XX"\r\n\r\n--XX\r\n'
        b'Content-Type: text/html; charset="base64"\r\n\r\n'
        + f"<html><head><title>Mht</title></head><body><p>{article}</p></body></html>".encode()
        + b"\r\n--XX--\r\n"
    )
    result = scan_folder(tmp_path, ScanSettings(workers=1))
    # Before: all three were errors ("LookupError").
    assert result.errors == []
    pages = {p.path: p for p in result.pages}
    assert sorted(pages) == ["rot13.html", "saved.mht", "zlib.html"]
    assert {p.main_text for p in pages.values()} == {article}
    assert {p.encoding for p in pages.values()} == {"utf-8"}
    assert "declared charset 'base64' is not an encoding browsers know: ignored" in pages["saved.mht"].notes


def test_the_http_charset_of_a_warc_record_comes_after_the_bom_and_before_the_page_s_own():
    from dedup_gui.core.pipeline.decoding import decode_html

    page = '<html><head><meta charset="utf-8"></head><body>caf\u00e9</body></html>'.encode("cp1252")
    # The header's label wins over the page's <meta> (WHATWG: transport layer before prescan).
    decoded = decode_html(page, "windows-1252")
    assert (decoded.encoding, decoded.source, decoded.declared) == ("cp1252", "http", "windows-1252")
    assert "caf\u00e9" in decoded.text
    # A byte-order mark wins over the header.
    decoded = decode_html(b"\xef\xbb\xbf" + "caf\u00e9".encode(), "windows-1252")
    assert (decoded.encoding, decoded.source, decoded.text) == ("utf-8", "bom", "caf\u00e9")
    # A label browsers do not know is passed over for the page's own.
    decoded = decode_html(b'<meta charset="gbk"><p>' + "\u4e2d\u6587".encode("gbk") + b"</p>", "bogus")
    assert (decoded.encoding, decoded.source) == ("gb18030", "meta")

"""Make the bundled CJK font used by the PDF report: a subset of Noto Sans CJK SC Regular.

Why: a fresh machine may have no Chinese font at all, and a PDF can only embed a font that
exists.  This subset (GB2312, the common characters of Big5, CJK punctuation, kana and
full-width forms: about 9,500 characters) lets the PDF report draw Chinese text anywhere; the
system's own CJK font, if any, draws the characters outside it (see README.md).

Run (fontTools comes with matplotlib):

    python resources/fonts/make_cjk_subset.py /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

The source is Debian's ``fonts-noto-cjk`` (Noto Sans CJK 2.004, SIL Open Font License 1.1, see
OFL.txt); any copy of ``NotoSansCJK-Regular.ttc`` or ``NotoSansCJKsc-Regular.otf`` works.
"""

import sys
from pathlib import Path

from fontTools import subset

OUT = Path(__file__).with_name("NotoSansCJKsc-Subset-Regular.otf")
FAMILY = "Noto Sans CJK SC Subset"
POSTSCRIPT = "NotoSansCJKscSubset-Regular"


def characters() -> str:
    chars = set()
    for b1 in range(0xA1, 0xF8):  # GB2312: the simplified Chinese characters in everyday use
        for b2 in range(0xA1, 0xFF):
            try:
                chars.add(bytes([b1, b2]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for b1 in range(0xA4, 0xC7):  # Big5 level 1: the common traditional characters
        for b2 in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            try:
                chars.add(bytes([b1, b2]).decode("big5"))
            except UnicodeDecodeError:
                pass
    for start, end in ((0x2000, 0x206F), (0x3000, 0x303F), (0x3040, 0x30FF), (0xFF00, 0xFFEF)):
        chars.update(chr(c) for c in range(start, end + 1))
    return "".join(sorted(chars))


def main(source: str) -> None:
    opts = subset.Options()
    # The default OpenType features: "*" would also keep thousands of alternates (vertical,
    # Japanese and traditional forms) that a report never draws.
    opts.layout_features = [f for f in opts.layout_features if f not in ("locl",)]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    if source.lower().endswith((".ttc", ".otc")):
        opts.font_number = 2  # Noto Sans CJK JP, KR, SC, TC, HK: SC is the third
    font = subset.load_font(source, opts)
    sub = subset.Subsetter(opts)
    sub.populate(text=characters())
    sub.subset(font)
    # A name of its own, so it never shadows a full Noto Sans CJK SC installed on the system.
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 6:
            names.setName(POSTSCRIPT, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 3:
            names.setName(
                f"2.004;{POSTSCRIPT};subset", record.nameID, record.platformID, record.platEncID, record.langID
            )
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [POSTSCRIPT]
        cff[cff.fontNames[0]].FullName = FAMILY
        cff[cff.fontNames[0]].FamilyName = FAMILY
    subset.save_font(font, str(OUT), opts)
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")

"""The PDF report's fonts and Qt application: the bundled Chinese font and the system's.

Qt embeds (subsets of) the fonts it draws with, so the PDF reads the same anywhere.  Chinese text
uses the bundled subset of Noto Sans CJK SC (``resources/fonts``), so a fresh machine with no CJK
font still renders it, and the system's Simplified Chinese font, if any, for rarer characters.

Without a running Qt application one is created on the ``offscreen`` platform (no display
needed), unless ``QT_QPA_PLATFORM`` says otherwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: The bundled CJK fallback font (a subset of Noto Sans CJK SC; see resources/fonts/README.md).
CJK_FALLBACK_FONT = Path(__file__).resolve().parents[2] / "resources" / "fonts" / "NotoSansCJKsc-Subset-Regular.otf"
#: System CJK families tried first, best first (full coverage beats the bundled subset).
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "Noto Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "SimHei",
    "AR PL UMing CN",
)
SANS_FAMILIES = ("DejaVu Sans", "Noto Sans", "Liberation Sans", "Arial", "Helvetica")
MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Consolas", "Courier New")

_app = None  # the QGuiApplication this module created, kept alive for later exports
_bundled: str | None = None  # family name of the registered bundled CJK font ("" if unreadable)


@dataclass(frozen=True)
class PdfFonts:
    """The font families a PDF report uses.

    Attributes:
        sans: families for text, in order: the Latin family, then the CJK families.
        mono: families for paths, in order.
        cjk: the CJK families, in order: the bundled subset first (its character map is
            one-to-one, so the PDF's text layer copies and searches as the right characters),
            then the system's Simplified Chinese font, if any, for characters the subset lacks.
    """

    sans: tuple[str, ...]
    mono: tuple[str, ...]
    cjk: tuple[str, ...]


def ensure_app():
    """Return the running ``QGuiApplication``, creating one (offscreen) if none runs.

    Returns:
        The application object.

    Raises:
        RuntimeError: a non-GUI ``QCoreApplication`` runs, which cannot draw fonts.
    """
    global _app
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QGuiApplication

    app = QCoreApplication.instance()
    if app is None:
        # A PDF needs fonts, not a screen: the offscreen platform works on a machine without one.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _app = QGuiApplication(["dedup-gui-pdf"])
        return _app
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("the PDF report needs a QGuiApplication, but a plain QCoreApplication is running")
    return app


def _bundled_family() -> str | None:
    """Register the bundled CJK subset once; its family name, or ``None`` if it cannot be read."""
    global _bundled
    from PySide6.QtGui import QFontDatabase

    if _bundled is None:
        font_id = QFontDatabase.addApplicationFont(str(CJK_FALLBACK_FONT))
        loaded = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        _bundled = loaded[0] if loaded else ""
    return _bundled or None


def pdf_fonts() -> PdfFonts:
    """Choose the report's fonts.  Needs a ``QGuiApplication`` (see :func:`ensure_app`).

    Chinese text is drawn with the bundled subset of Noto Sans CJK SC, which every machine has,
    and, for characters outside it, with the system's Simplified Chinese font if there is one.

    Returns:
        The :class:`PdfFonts`.

    Raises:
        RuntimeError: neither the bundled font nor a system font for Chinese can be used.
    """
    from PySide6.QtGui import QFontDatabase

    families = set(QFontDatabase.families())
    chinese = [f for f in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
               if not QFontDatabase.isPrivateFamily(f)]  # fmt: skip
    bundled = _bundled_family()
    system = next((f for f in CJK_FAMILIES if f in chinese), None)
    if system is None:
        system = next((f for f in chinese if f != bundled and "Mono" not in f), None)
    cjk = tuple(f for f in (bundled, system) if f)
    if not cjk:
        raise RuntimeError(f"no font for Chinese text: the bundled {CJK_FALLBACK_FONT} cannot be read")
    sans = tuple(f for f in SANS_FAMILIES if f in families)[:1]
    mono = tuple(f for f in MONO_FAMILIES if f in families)[:1]
    return PdfFonts((*sans, *cjk), (*mono, *sans, *cjk), cjk)

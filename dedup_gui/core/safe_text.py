"""Untrusted strings (file names, titles, URLs, reasons that quote them) made harmless per output.

A saved page chooses its own title, and whoever made the folder chose its file names; either can
carry characters that an output would obey instead of show:

* reports and tables: bidirectional controls reverse the text after them ("txt.exe" spoofing),
  so they are shown as ``<U+202E>`` markers (:func:`show_control_characters`);
* the terminal: ESC starts colour and cursor sequences, a newline can forge an ``error:`` line,
  so every control character is shown as a Python escape such as ``\\x1b`` (:func:`terminal_text`);
* spreadsheets: a CSV cell starting with ``=``, ``+``, ``-``, ``@``, TAB or CR is a live formula
  (CSV injection), so it gets a leading apostrophe (:func:`spreadsheet_cell`); every CSV the
  product writes goes through :func:`csv_text`, and :func:`from_spreadsheet_cell` undoes the
  prefix where a product CSV is read back (a LABELS.csv made from a PREDICTIONS.csv).

The JSON report keeps every string exact: tools read it, no person or spreadsheet does.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

#: Bidirectional formatting characters (Unicode UAX #9): the marks LRM, RLM and ALM (U+061C),
#: the embeddings and overrides U+202A-U+202E, the isolates U+2066-U+2069.
BIDI_CONTROLS = "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# The bidi controls, and the C0 controls other than tab, newline and carriage return, DEL and C1:
# invisible in a report or a table, some of them harmful there (ESC, BS, NUL).
_INVISIBLE = re.compile(f"[{BIDI_CONTROLS}\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

# C0, DEL and C1 control characters, the bidi controls, and the line and paragraph separators
# (Python's str.splitlines() and some terminals break lines at them).
_TERMINAL_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029" + BIDI_CONTROLS + "]")

#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection"),
#: plus NUL (OWASP ASVS 5.0, requirement 1.2.10).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\0")
# A plain decimal number: "-0.5" starts with a trigger but a spreadsheet reads it as a number,
# not a formula, so the product's own numbers are left alone.
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def show_control_characters(text: str) -> str:
    """Replace invisible control characters with visible ``<U+202E>`` markers.

    Page titles and file names are untrusted: a right-to-left override (U+202E) inside one would
    reverse the text after it in a report or a table ("txt.exe" spoofing), and ESC, BS or NUL
    in one reach a report as characters nobody sees.  Shown as markers, they are still visible to
    the reader and harm nothing.  The set is :data:`BIDI_CONTROLS`, the C0 controls other than
    tab, newline and carriage return, DEL, and the C1 controls.

    Args:
        text: any text.

    Returns:
        ``text`` with each such character replaced by ``<U+XXXX>`` (str).

    Example:
        >>> show_control_characters("evil\\u202etxt.exe\\x1b[31m")
        'evil<U+202E>txt.exe<U+001B>[31m'
    """
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _escape(match: re.Match) -> str:
    # The stdlib codec spells each character the way Python source would: \n, \x1b, \u202e.
    return match.group().encode("unicode_escape").decode("ascii")


def terminal_text(text: object) -> str:
    """Text that is safe to print to a terminal: control characters shown as escapes.

    C0 controls (ESC, BEL, newline, tab...), DEL, C1 controls, the line and paragraph separators
    U+2028/U+2029 and the bidi controls of :data:`BIDI_CONTROLS` become the escape Python's
    ``unicode_escape`` codec writes (``\\x1b``, ``\\n``, ``\\t``, ``\\x85``, ``\\u202e``), so a file
    name can neither recolour the terminal, move its cursor nor start a line of its own (a forged
    ``error:`` line).  Every other character, Chinese included, is kept.  A backslash is kept
    as it is, so a name that spells ``\\n`` literally prints the same as one holding a newline:
    the output is for reading, not for parsing.

    Args:
        text: the string to print (anything else is converted with ``str``).

    Returns:
        The escaped text (str), one line.

    Example:
        >>> terminal_text("a\\x1b[31mred\\n error: forged.html")
        'a\\\\x1b[31mred\\\\n error: forged.html'
    """
    return _TERMINAL_UNSAFE.sub(_escape, str(text))


def spreadsheet_cell(value):
    """A CSV cell that a spreadsheet shows as text, never runs as a formula.

    A string that starts with one of :data:`FORMULA_TRIGGERS` (``=HYPERLINK(...)``, ``+1.html``,
    ``@SUM.html``...) gets a leading apostrophe, as the OWASP page "CSV Injection" advises; so
    does a string that is apostrophes followed by a trigger, which keeps the prefix reversible
    (:func:`from_spreadsheet_cell`).  Numbers (int, float) and strings that are plain decimal
    numbers (``-0.5``) are returned unchanged: a spreadsheet reads them as numbers.  The
    ``defusedcsv`` package was not used: it misses TAB and CR and rewrites ``|`` inside cells.

    Args:
        value: the cell (str, int, float or None; None is written as an empty cell by ``csv``).

    Returns:
        The cell to write: ``value`` itself, or ``"'" + value``.

    Example:
        >>> spreadsheet_cell('=HYPERLINK("x").html'), spreadsheet_cell("-0.5"), spreadsheet_cell(-3)
        ('\\'=HYPERLINK("x").html', '-0.5', -3)
    """
    if not isinstance(value, str) or _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value if value.lstrip("'").startswith(FORMULA_TRIGGERS) else value


def from_spreadsheet_cell(text: str) -> str:
    """Undo :func:`spreadsheet_cell`: the string a neutralised cell stands for.

    Only an apostrophe followed by (apostrophes and) a formula trigger is removed, so a cell
    written by hand without the prefix (``=x.html``) or one that merely starts with an
    apostrophe (``'quoted'.html``) reads as it is.

    Args:
        text: a cell read from a CSV file.

    Returns:
        The original string (str).

    Example:
        >>> from_spreadsheet_cell("'=x.html"), from_spreadsheet_cell("=x.html"), from_spreadsheet_cell("'a.html")
        ('=x.html', '=x.html', "'a.html")
    """
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_TRIGGERS):
        return text[1:]
    return text


def csv_text(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    """The CSV text of a table, every cell passed through :func:`spreadsheet_cell`.

    Every CSV the product writes is made here (pairs, pages, keep, PREDICTIONS.csv), so no
    writer can forget the neutralising.

    Args:
        header: the column names.
        rows: the rows; cells are str, int, float or None.

    Returns:
        The CSV text (str): RFC 4180 quoting by Python's ``csv`` module, ``\\n`` line ends,
        header first.  A row with a carriage return inside a cell (a file name may hold one) is
        written with every cell quoted: with ``\\n`` line ends, Python 3.11's ``csv`` does not
        quote a lone CR, and a reader would end the row there.
    """
    out = io.StringIO()
    plain = csv.writer(out, lineterminator="\n")
    quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for row in (header, *rows):
        cells = [spreadsheet_cell(cell) for cell in row]
        (quoted if any(isinstance(c, str) and "\r" in c for c in cells) else plain).writerow(cells)
    return out.getvalue()

"""Untrusted strings made harmless for spreadsheets and terminals (dedup_gui.core.safe_text)."""

import csv
import io

import pytest

from dedup_gui.core.evaluation.evaluate import read_labels
from dedup_gui.core.safe_text import csv_text, from_spreadsheet_cell, spreadsheet_cell, terminal_text


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1.html", "'+1.html"),
        ("-1.html", "'-1.html"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("\0x", "'\0x"),
        ("'=x", "''=x"),  # apostrophes before a trigger get one more: the prefix stays reversible
        ("'a", "'a"),  # an apostrophe before text is no formula
        ("a=b", "a=b"),
        ("", ""),
        # The product's numbers: a spreadsheet reads them as numbers, not formulas.
        ("-0.5", "-0.5"),
        ("12", "12"),
        (-3, -3),
        (0.25, 0.25),
        (None, None),
    ],
)
def test_spreadsheet_cell(value, cell):
    assert spreadsheet_cell(value) == cell
    if isinstance(value, str):
        assert from_spreadsheet_cell(cell) == value


def test_from_spreadsheet_cell_reads_unprefixed_cells_as_they_are():
    # A LABELS.csv written by hand names "=x.html" without the apostrophe.
    assert from_spreadsheet_cell("=x.html") == "=x.html"
    assert from_spreadsheet_cell("'quoted'.html") == "'quoted'.html"


def test_csv_text_quotes_a_row_with_a_carriage_return_so_it_reads_back_whole():
    # Python 3.11's csv, with "\n" line ends, wrote a lone CR unquoted; a reader split the row there.
    text = csv_text(["path", "n"], [["\rCR.html", 3], ["a.html", 4]])
    assert text == 'path,n\n"\'\rCR.html","3"\na.html,4\n'
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["path", "n"], ["'\rCR.html", "3"], ["a.html", "4"]]


def test_labels_written_spreadsheet_safe_read_back_as_the_paths(tmp_path):
    labels = tmp_path / "LABELS.csv"
    labels.write_text(csv_text(["left", "right", "type"], [["=x.html", "-y.html", "full"]]), encoding="utf-8")
    assert labels.read_text(encoding="utf-8") == "left,right,type\n'=x.html,'-y.html,full\n"
    pair = read_labels(labels)[0]
    assert (pair.left, pair.right) == ("=x.html", "-y.html")


def test_terminal_text_escapes_every_control_character_and_keeps_the_rest():
    text = "\x00\x07\x1b[31m\n\r\t\x7f\x85\x9b\u200e\u200f\u061c\u202a\u202e\u2066\u2069\u2028 重复 é \\"
    assert terminal_text(text) == (
        "\\x00\\x07\\x1b[31m\\n\\r\\t\\x7f\\x85\\x9b\\u200e\\u200f\\u061c\\u202a\\u202e\\u2066\\u2069\\u2028 重复 é \\"
    )


def test_a_labels_row_with_more_fields_than_the_header_is_a_clear_error(tmp_path):
    # an unquoted path with a comma: csv.DictReader put the extra field under None, and
    # `classify`/`evaluate` died with "'list' object has no attribute 'strip'"
    import pytest

    labels = tmp_path / "LABELS.csv"
    labels.write_text("left,right,type\na.html,b.html,full\nc,d.html,e.html,full\n", encoding="utf-8")
    with pytest.raises(ValueError) as error:
        read_labels(labels)
    assert str(error.value) == (
        f"{labels}:3: 1 more field than the 3 columns of the header (quote a path or name that holds a comma)"
    )

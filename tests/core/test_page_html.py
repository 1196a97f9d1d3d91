"""The one helper that reads a scanned page's HTML again: read, decode, parse."""

import os

import pytest

from dedup_gui.core.pipeline.loading import PageReadError
from dedup_gui.core.pipeline.page_html import parse_page_html, read_page_html, read_page_tree


def test_reads_and_decodes_as_the_scan_does(tmp_path):
    page = tmp_path / "p.html"
    page.write_bytes(
        '<html><head><meta charset="windows-1252"></head><body><p>caf\xe9</p></body></html>'.encode("cp1252")
    )
    text = read_page_html("p.html", str(page), str(tmp_path), 10_000)
    assert "<p>café</p>" in text  # decoded by its declared charset, not as UTF-8
    tree = read_page_tree("p.html", str(page), None, 10_000)  # root None: read as it is
    assert tree.findtext(".//p") == "café"


def test_refuses_a_file_that_now_leads_out_of_the_folder(tmp_path):
    outside = tmp_path / "outside.html"
    outside.write_text("<p>secret</p>")
    folder = tmp_path / "scan"
    folder.mkdir()
    os.symlink(outside, folder / "p.html")
    with pytest.raises(PageReadError):
        read_page_html("p.html", str(folder / "p.html"), str(folder), 10_000)


def test_parsing_cuts_a_tag_with_too_many_attributes():
    # lxml is super-quadratic in one tag's attributes: the helper keeps the first 1,000
    attrs = " ".join(f"a{i}='x'" for i in range(3000))
    root = parse_page_html(f"<html><body><div {attrs}>kept</div></body></html>")
    div = root.find(".//div")
    assert len(div.attrib) == 1000 and div.text == "kept"
    assert parse_page_html("   ") is None

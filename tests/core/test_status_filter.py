"""The pages table's status filter (a new user's walkthrough on the real site: the redirect
pages and the pages without usable text were found only by sorting the Status column)."""

from __future__ import annotations

import dataclasses

import pytest

from dedup_gui.core.model import ScanResult, ScanSettings, Thresholds
from dedup_gui.core.views.pages_table import PagesTable
from tests.core.test_keep_clusters import page


def pages_result() -> ScanResult:
    """Two ok pages, one without usable text, a redirect to a page of the scan and one to a
    folder with no page."""
    pages = [
        page("v1.16.x/a/index.html"),
        page("v1.16.x/b/index.html"),
        dataclasses.replace(page("empty.html"), has_text=False),
        dataclasses.replace(page("a/index.html"), redirect="../v1.16.x/a/"),
        dataclasses.replace(page("c/index.html"), redirect="../v1.16.x/c/"),
    ]
    return ScanResult("/scan", pages, [], [], [], Thresholds(), ScanSettings())


def shown_paths(table: PagesTable) -> list[str]:
    return [table.file_at(r).path for r in range(table.row_count())]


def test_the_status_filter_offers_the_statuses_present_and_keeps_their_pages():
    table = PagesTable()
    table.set_result(pages_result())
    assert table.status_choices() == [
        ("All statuses", None),
        ("OK (2)", "ok"),
        ("No usable text (1)", "no text"),
        ("Redirects (2)", "redirects"),
        ("Redirects to no page (1)", "broken redirects"),
    ]
    table.set_status_filter("redirects")
    assert shown_paths(table) == ["a/index.html", "c/index.html"]
    assert table.display(table.record(1), 7).startswith("redirects to v1.16.x/c/ (missing")
    table.set_status_filter("broken redirects")
    assert shown_paths(table) == ["c/index.html"]
    table.set_status_filter("no text")
    assert shown_paths(table) == ["empty.html"]
    # with the other filters: a file-name filter narrows the same rows further
    table.set_status_filter("ok")
    table.set_text_filter("b/")
    assert shown_paths(table) == ["v1.16.x/b/index.html"]
    table.set_text_filter("")
    table.set_status_filter(None)
    assert table.row_count() == 5


def test_a_new_result_keeps_the_status_filter_only_if_it_has_such_pages():
    table = PagesTable()
    table.set_result(pages_result())
    table.set_status_filter("redirects")
    table.set_result(pages_result())
    assert table.status_filter() == "redirects" and table.row_count() == 2
    no_redirects = dataclasses.replace(pages_result(), pages=pages_result().pages[:3])
    table.set_result(no_redirects)
    # no redirect any more: "Redirects" is no choice, and every page is shown
    assert table.status_filter() is None and table.row_count() == 3
    assert [key for _label, key in table.status_choices()] == [None, "ok", "no text"]


def test_an_unknown_status_filter_is_refused_and_changes_nothing():
    table = PagesTable()
    table.set_result(pages_result())
    table.set_status_filter("ok")
    with pytest.raises(KeyError, match="no status filter 'moved'"):
        table.set_status_filter("moved")
    assert table.status_filter() == "ok" and table.row_count() == 2

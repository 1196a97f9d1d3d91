"""The HTML report's one script: sorting and filtering its tables, pinned by a CSP hash.

The script is a constant of this module: no page string is ever placed in it, and it reads the
report's data only from the table cells of the document (``textContent`` or a cell's ``data-v``
attribute), writing back only ``textContent``, the ``hidden`` flag of rows and the rows' order.
The report's Content-Security-Policy allows exactly this script by its SHA-256 hash (CSP Level 2,
"hash-source", https://www.w3.org/TR/CSP2/#script-src-hash-usage), so any other script, inline or
injected, is refused by the browser.

What it does, for every ``table.sortable``: a click on a column heading sorts by that column
(numbers as numbers for headings of class ``n``; again to reverse); a row of filters under the
headings, one per heading that has ``data-filter``: ``text`` (the cell holds the text, any case),
``select`` (one of the column's values) or ``min`` (a number at least this); a line under the
table says how many rows are shown.  Without the script (or with scripts off) the tables are
plain, readable tables; only sorting and filtering are lost.
"""

from __future__ import annotations

import base64
import hashlib

TABLE_SCRIPT = """
(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  function value(cell) {
    var v = cell ? cell.getAttribute("data-v") : "";
    return v === null ? cell.textContent.trim() : v;
  }
  function number(text) {
    var x = parseFloat(String(text).replace(/[,%\\s]/g, ""));
    return isNaN(x) ? -Infinity : x;
  }
  function setUp(table) {
    var head = table.tHead, body = table.tBodies[0];
    if (!head || !body) { return; }
    var headings = Array.prototype.slice.call(head.rows[0].cells);
    var rows = Array.prototype.slice.call(body.rows);
    var filters = [], filterRow = null;
    var count = document.createElement("p");
    count.className = "count";
    table.parentNode.insertBefore(count, table.nextSibling);
    function apply() {
      var shown = 0;
      rows.forEach(function (row) {
        var ok = filters.every(function (f) {
          var want = f.input.value.trim();
          if (want === "") { return true; }
          var have = value(row.cells[f.column]);
          if (f.kind === "min") { return number(have) >= number(want); }
          if (f.kind === "select") { return have === want; }
          return have.toLowerCase().indexOf(want.toLowerCase()) >= 0;
        });
        if (row.hidden === ok) { row.hidden = !ok; }
        if (ok) { shown += 1; }
      });
      count.textContent = shown.toLocaleString() + " of " + rows.length.toLocaleString() + " rows shown";
    }
    function sortBy(column, heading) {
      var up = heading.getAttribute("aria-sort") !== "ascending";
      headings.forEach(function (h) { h.removeAttribute("aria-sort"); });
      heading.setAttribute("aria-sort", up ? "ascending" : "descending");
      var numeric = heading.classList.contains("n");
      var keyed = rows.map(function (row, i) {
        var v = value(row.cells[column]);
        return {row: row, key: numeric ? number(v) : v, i: i};
      });
      keyed.sort(function (a, b) {
        var d = numeric ? a.key - b.key : collator.compare(a.key, b.key);
        return (up ? d : -d) || a.i - b.i;
      });
      rows = keyed.map(function (k) { return k.row; });
      var fragment = document.createDocumentFragment();
      rows.forEach(function (row) { fragment.appendChild(row); });
      body.appendChild(fragment);
    }
    headings.forEach(function (heading, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.title = "sort by this column";
      while (heading.firstChild) { button.appendChild(heading.firstChild); }
      heading.appendChild(button);
      button.addEventListener("click", function () { sortBy(column, heading); });
      var kind = heading.getAttribute("data-filter");
      if (!kind) { return; }
      if (!filterRow) {
        filterRow = head.insertRow(-1);
        filterRow.className = "filters";
        headings.forEach(function () { filterRow.appendChild(document.createElement("td")); });
      }
      var input;
      if (kind === "select") {
        input = document.createElement("select");
        var seen = {}, values = [""];
        rows.forEach(function (row) {
          var v = value(row.cells[column]);
          if (!Object.prototype.hasOwnProperty.call(seen, v)) { seen[v] = true; values.push(v); }
        });
        values.forEach(function (v) {
          var option = document.createElement("option");
          option.value = v;
          option.textContent = v === "" ? "all" : v;
          input.appendChild(option);
        });
      } else {
        input = document.createElement("input");
        input.type = kind === "min" ? "number" : "search";
        if (kind === "min") { input.step = "any"; input.placeholder = "at least"; }
        else { input.placeholder = "contains"; }
      }
      input.setAttribute("aria-label", "filter: " + button.textContent);
      input.addEventListener("input", apply);
      filterRow.cells[column].appendChild(input);
      filters.push({column: column, kind: kind, input: input});
    });
    count.textContent = rows.length.toLocaleString() + " rows";
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), setUp);
})();
"""


def script_hash(script: str = TABLE_SCRIPT) -> str:
    """The CSP hash-source of a script: ``'sha256-'`` and the base64 of the SHA-256 of its text
    as UTF-8, in quotes, as ``script-src`` takes it (str).

    Args:
        script: the exact text between ``<script>`` and ``</script>``.
    """
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"

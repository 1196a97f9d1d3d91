"""Writing scan results: CSV of pairs, JSON of everything, a simple HTML report.

Every file is written atomically (a temporary file in the target folder, then ``os.replace``),
so a failed export never leaves half a file nor damages an existing one.  Every string that
comes from a page is escaped in HTML output.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import tempfile
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from .. import __version__
from .classify import explain
from .model import TYPE_ORDER, DupType, ScanResult

#: Columns of PREDICTIONS.csv (DESIGN.md); the scan CSV adds ``cluster``.
PREDICTION_COLUMNS = [
    "left",
    "right",
    "type",
    "content_similarity",
    "content_containment",
    "layout_similarity",
    "hamming_distance",
    "jaccard",
]
FORMATS = (".csv", ".json", ".html", ".htm")


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        OSError: the folder cannot be written (e.g. ``PermissionError`` for a read-only place);
            no file is left behind and an existing file is untouched.
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def score_row(scores) -> list[str]:
    """The measure columns of a PREDICTIONS.csv row, formatted (list[str], 4 decimals)."""
    return [
        f"{scores.content_similarity:.4f}",
        f"{scores.content_containment:.4f}",
        f"{scores.layout_similarity:.4f}",
        str(scores.hamming_distance),
        f"{scores.jaccard:.4f}",
    ]


def pairs_csv(result: ScanResult) -> str:
    """CSV text with one row per pair that is not distinct (PREDICTIONS.csv columns + cluster)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*PREDICTION_COLUMNS, "cluster"])
    cluster_of = result.cluster_of()
    for pair in result.pairs:
        if pair.type is DupType.DISTINCT:
            continue
        left, right = result.pages[pair.left], result.pages[pair.right]
        writer.writerow(
            [left.path, right.path, pair.type.value, *score_row(pair.scores), cluster_of.get(pair.left, "")]
        )
    return out.getvalue()


def result_dict(result: ScanResult) -> dict:
    """Everything in a scan as plain JSON-ready data (dict): files with verdicts, pairs,
    clusters, thresholds, settings and the product version."""
    cluster_of = result.cluster_of()
    files = []
    for i, page in enumerate(result.pages):
        files.append(
            {
                "path": page.path,
                "status": "ok" if page.has_text else "no usable text",
                "size_bytes": page.size,
                "sha1": page.sha1,
                "encoding": page.encoding,
                "encoding_source": page.encoding_source,
                "title": page.title,
                "url": page.url,
                "word_count": page.word_count,
                "simhash": page.simhash_hex,
                "cluster": cluster_of.get(i),
                "notes": list(page.notes),
                "main_text": page.main_text,
            }
        )
    files += [{"path": e.path, "status": "error", "reason": e.reason} for e in result.errors]
    files += [{"path": p, "status": "skipped", "reason": "not a page"} for p in result.skipped]
    pairs = []
    for pair in result.pairs:
        s = pair.scores
        pairs.append(
            {
                "left": result.pages[pair.left].path,
                "right": result.pages[pair.right].path,
                "type": pair.type.value,
                "content_similarity": round(s.content_similarity, 6),
                "content_containment": round(s.content_containment, 6),
                "layout_similarity": round(s.layout_similarity, 6),
                "hamming_distance": s.hamming_distance,
                "jaccard": round(s.jaccard, 6),
                "identical_bytes": s.identical_bytes,
                "cluster": cluster_of.get(pair.left) if pair.type is not DupType.DISTINCT else None,
                "why": explain(s, result.thresholds),
            }
        )
    clusters = [
        {
            "id": c.id,
            "pages": [result.pages[i].path for i in c.pages],
            "types": [t.value for t in TYPE_ORDER if t in c.types],
        }
        for c in result.clusters
    ]
    return {
        "product": "dedup-gui",
        "version": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "folder": result.root,
        "summary": summary_dict(result),
        "thresholds": asdict(result.thresholds),
        "settings": asdict(result.settings),
        "files": files,
        "pairs": pairs,
        "clusters": clusters,
    }


def summary_dict(result: ScanResult) -> dict:
    """Counts of a scan: pages, pages without usable text, errors, skipped, pairs by type,
    clusters, seconds (dict)."""
    return {
        "pages": len(result.pages),
        "pages_without_text": sum(1 for p in result.pages if not p.has_text),
        "errors": len(result.errors),
        "skipped": len(result.skipped),
        "pairs_compared": len(result.pairs),
        "pairs_by_type": {t.value: n for t, n in result.type_counts().items()},
        "clusters": len(result.clusters),
        "seconds": round(result.elapsed, 2),
    }


def summary_text(result: ScanResult) -> str:
    """A few lines summarising a scan for the terminal (str)."""
    s = summary_dict(result)
    by_type = ", ".join(f"{n} {t}" for t, n in s["pairs_by_type"].items())
    lines = [
        f"folder:   {result.root}",
        f"pages:    {s['pages']} ({s['pages_without_text']} without usable main text); "
        f"{s['skipped']} other files skipped",
        f"errors:   {s['errors']}",
        f"pairs:    {s['pairs_compared']} compared: {by_type}",
        f"clusters: {s['clusters']}",
        f"time:     {s['seconds']:.1f} s",
    ]
    for err in result.errors:
        lines.append(f"  error: {err.path}: {err.reason}")
    return "\n".join(lines)


def html_report(result: ScanResult) -> str:
    """A simple, self-contained HTML report (no script, nothing remote; page strings escaped)."""
    e = html.escape
    s = summary_dict(result)
    t = result.thresholds
    cluster_of = result.cluster_of()
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>Duplicate pages in {e(result.root)}</title>",
        "<style>body{font:14px/1.4 sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}"
        "th{background:#eee}.n{text-align:right;font-variant-numeric:tabular-nums}</style>",
        "</head><body>",
        f"<h1>Duplicate pages in {e(result.root)}</h1>",
        f"<p>{s['pages']} pages ({s['pages_without_text']} without usable main text), {s['errors']} errors, "
        f"{s['skipped']} other files skipped, {s['pairs_compared']} pairs compared, {s['clusters']} clusters. "
        f"dedup-gui {e(__version__)}.</p>",
        f"<p>Thresholds: content same {t.content_same}, content partial {t.content_partial}, "
        f"layout same {t.layout_same}, Hamming k {t.hamming_k}.</p>",
        "<h2>Pairs by type</h2><table><tr><th>type</th><th>pairs</th></tr>",
    ]
    for dup_type, n in result.type_counts().items():
        out.append(f"<tr><td>{e(dup_type.label)}</td><td class='n'>{n}</td></tr>")
    out.append("</table><h2>Clusters</h2><table><tr><th>cluster</th><th>types</th><th>pages</th></tr>")
    for c in result.clusters:
        pages = "<br>".join(e(result.pages[i].path) for i in c.pages)
        types = ", ".join(x.value for x in TYPE_ORDER if x in c.types)
        out.append(f"<tr><td class='n'>{c.id}</td><td>{e(types)}</td><td>{pages}</td></tr>")
    out.append("</table><h2>Duplicate pairs</h2><table><tr><th>left</th><th>right</th><th>type</th>")
    out.append(
        "<th>content similarity</th><th>containment</th><th>layout similarity</th>"
        "<th>Hamming distance</th><th>Jaccard</th><th>cluster</th><th>why</th></tr>"
    )
    for pair in result.pairs:
        if pair.type is DupType.DISTINCT:
            continue
        a, b = result.pages[pair.left], result.pages[pair.right]
        cells = "".join(f"<td class='n'>{v}</td>" for v in score_row(pair.scores))
        why = "<br>".join(e(x) for x in explain(pair.scores, t))
        out.append(
            f"<tr><td>{e(a.path)}<br><small>{e(a.title)}</small></td><td>{e(b.path)}<br><small>{e(b.title)}</small></td>"
            f"<td>{e(pair.type.value)}</td>{cells}<td class='n'>{cluster_of.get(pair.left, '')}</td><td><small>{why}</small></td></tr>"
        )
    out.append("</table><h2>Files that could not be used</h2>")
    if result.errors:
        out.append("<table><tr><th>file</th><th>reason</th></tr>")
        out += [f"<tr><td>{e(x.path)}</td><td>{e(x.reason)}</td></tr>" for x in result.errors]
        out.append("</table>")
    else:
        out.append("<p>None.</p>")
    out.append("</body></html>\n")
    return "\n".join(out)


def write_result(result: ScanResult, path: str | Path) -> Path:
    """Write a scan result; the suffix of ``path`` picks the format (.csv, .json, .html).

    Returns:
        The path written.

    Raises:
        ValueError: unknown suffix.
        OSError: the file cannot be written (nothing is left half-written).
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".csv":
        text = pairs_csv(result)
    elif suffix == ".json":
        text = json.dumps(result_dict(result), ensure_ascii=False, indent=1) + "\n"
    elif suffix in (".html", ".htm"):
        text = html_report(result)
    else:
        raise ValueError(f"unknown output format {suffix or '(no suffix)'!r}: use one of .csv, .json, .html")
    atomic_write_text(target, text)
    return target

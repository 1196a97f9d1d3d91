"""Write the sample crawl archive, resources/samples/warc/trail-crawl.warc.gz, from hand-written pages.

    python resources/make_sample_warc.py

The pages are written here (no copied web content).  The archive holds what a crawler's WARC
holds: a warcinfo record, request and response records, a gzip-compressed and chunked response,
a style sheet and an image (not pages: counted), a redirect, a revisit of an unchanged page, and
the same article crawled at two URLs.  Its records and their expected types are in
resources/samples/EXPECTED.csv beside the folder pages'.

The helpers (:func:`http_response`, :func:`record`, :func:`write_warc`) are FastWARC's writer
put to this use; the tests and ``benchmarks/make_corpus.py --warc`` write their archives with them.
"""

from __future__ import annotations

import gzip as gzip_module
import uuid
from collections.abc import Iterable
from pathlib import Path

from fastwarc.stream_io import GzipWriter
from fastwarc.warc import WarcRecord, WarcRecordType

OUT = Path(__file__).resolve().parent / "samples" / "warc" / "trail-crawl.warc.gz"


def chunked(body: bytes, size: int = 200) -> bytes:
    """``body`` in HTTP/1.1 chunked transfer coding (RFC 9112 section 7.1), ``size`` bytes a chunk."""
    parts = [b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def http_response(
    body: bytes, content_type: str = "text/html; charset=utf-8", status: str = "200 OK", headers: Iterable[str] = ()
) -> bytes:
    """An HTTP/1.1 response as a WARC response record's block stores it (head, blank line, body).

    Args:
        body: the body as sent (already chunked or compressed if the headers say so).
        content_type: the ``Content-Type`` value (``""``: no such header).
        status: the status code and reason.
        headers: further header lines (``"Name: value"``).
    """
    lines = [f"HTTP/1.1 {status}"] + ([f"Content-Type: {content_type}"] if content_type else []) + list(headers)
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def record(
    url: str,
    block: bytes,
    date: str,
    record_type: WarcRecordType = WarcRecordType.response,
    headers: dict[str, str] | None = None,
) -> WarcRecord:
    """A WARC/1.1 record (FastWARC) with a record id derived from its URL, date and type, so the
    archive is the same at every run.

    Args:
        url: ``WARC-Target-URI`` (``""``: none, as a warcinfo record).
        block: the record's content (an HTTP message for response, request and revisit records).
        date: ``WARC-Date`` (ISO 8601, e.g. ``"2024-05-01T10:00:00Z"``).
        record_type: the record type.
        headers: further WARC headers (``WARC-Refers-To``, ``Content-Type``...).
    """
    rec = WarcRecord()
    rec.init_headers(record_type)
    rec.headers["WARC-Date"] = date
    rec.headers["WARC-Record-ID"] = f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{url} {date} {int(record_type)}')}>"
    if url:
        rec.headers["WARC-Target-URI"] = url
    kind = "request" if record_type == WarcRecordType.request else "response"
    rec.headers["Content-Type"] = f"application/http; msgtype={kind}"
    for name, value in (headers or {}).items():
        rec.headers[name] = value
    rec.set_bytes_content(block)
    return rec


def write_warc(path: Path, records: Iterable[WarcRecord], compress: bool) -> list[int]:
    """Write records to a WARC file, each in its own gzip member if ``compress`` (as crawlers do,
    so a record can be read at its offset).

    Returns:
        The records' offsets in the file (list[int]).
    """
    offsets = []
    with open(path, "wb") as fh:
        for rec in records:
            offsets.append(fh.tell())
            if compress:
                writer = GzipWriter(fh)
                rec.write(writer)
                writer.finish()
            else:
                rec.write(fh)
    return offsets


def _page(title: str, paragraphs: list[str], nav: str = "") -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><header><nav>{nav or 'Home | Trails | Huts | Contact'}</nav></header>"
        f"<main><article><h1>{title}</h1>{body}</article></main><footer>Alpine Trail Notes</footer></body></html>"
    ).encode()


HUT = [
    "The Kessel hut sits at 2,180 metres on a shoulder above the lake, three hours from the valley station.",
    "Its warden opens the doors in mid June and closes them after the first heavy snow, usually in October.",
    "Bunks are booked by telephone; walkers without a booking may sleep in the winter room when it is open.",
    "Water comes from a spring behind the hut and is safe to drink; bring a filter late in a dry summer.",
]
PASS = [
    "The route over the Grauer pass climbs 900 metres on a marked path of loose stone and old snow.",
    "Start before seven: afternoon storms gather quickly above the ridge in July and August.",
    "The last stretch before the saddle is secured with a fixed cable; a helmet is worth carrying.",
    "From the saddle, the descent to the lakes takes two hours and meets the valley road at the old mill.",
]
LAKES = [
    "Five small lakes lie in the basin below the pass, each a little higher and colder than the last.",
    "Swimming is allowed in the lowest one; the upper lakes are a protected breeding ground for frogs.",
    "A loop path joins them in about ninety minutes and returns to the mill by the forestry track.",
]


def sample_records() -> list[WarcRecord]:
    """The sample archive's records, in order."""
    hut = _page("The Kessel hut", HUT)
    lakes = _page("The five lakes", LAKES)
    warcinfo = record("", b"software: dedup-gui make_sample_warc.py\r\nformat: WARC File Format 1.1\r\n",
                      "2024-05-01T09:59:00Z", WarcRecordType.warcinfo,
                      {"Content-Type": "application/warc-fields"})  # fmt: skip
    return [
        warcinfo,
        record(
            "https://trails.example/huts/kessel",
            b"GET /huts/kessel HTTP/1.1\r\nHost: trails.example\r\n\r\n",
            "2024-05-01T10:00:00Z",
            WarcRecordType.request,
        ),  # fmt: skip
        record("https://trails.example/huts/kessel", http_response(hut), "2024-05-01T10:00:00Z"),
        # the same article at a second URL (a tracking parameter): an exact duplicate to find
        record("https://trails.example/huts/kessel?ref=newsletter", http_response(hut), "2024-05-01T10:00:05Z"),
        # chunked and gzip-compressed, as many servers send it
        record(
            "https://trails.example/routes/grauer-pass",
            http_response(
                chunked(gzip_module.compress(_page("Over the Grauer pass", PASS), mtime=0)),
                headers=["Content-Encoding: gzip", "Transfer-Encoding: chunked"],
            ),
            "2024-05-01T10:01:00Z",
        ),  # fmt: skip
        record("https://trails.example/lakes", http_response(lakes), "2024-05-01T10:02:00Z"),
        record(
            "https://trails.example/style.css",
            http_response(b"body{font:16px serif}", "text/css"),
            "2024-05-01T10:02:01Z",
        ),  # fmt: skip
        record(
            "https://trails.example/logo.png",
            http_response(b"\x89PNG\r\n\x1a\n" + bytes(32), "image/png"),
            "2024-05-01T10:02:02Z",
        ),  # fmt: skip
        record(
            "https://trails.example/huts",
            http_response(b"", "", "301 Moved Permanently", ["Location: https://trails.example/huts/"]),
            "2024-05-01T10:03:00Z",
        ),  # fmt: skip
        # a later crawl found the lakes page unchanged: the crawler stored a revisit
        record(
            "https://trails.example/lakes",
            http_response(b"", "text/html; charset=utf-8", "304 Not Modified"),
            "2024-06-01T10:02:00Z",
            WarcRecordType.revisit,
            {
                "WARC-Refers-To-Target-URI": "https://trails.example/lakes",
                "WARC-Refers-To-Date": "2024-05-01T10:02:00Z",
                "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/server-not-modified",
            },
        ),  # fmt: skip
    ]


def main() -> None:
    """Write :data:`OUT`."""
    OUT.parent.mkdir(parents=True, exist_ok=True)
    write_warc(OUT, sample_records(), compress=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

"""Drawing pages for the Rendered view, in a process of their own.

A page is untrusted, and some pages take Qt's text layout seconds or minutes (tables nested many
levels deep) or hold images that decode into gigabytes.  So the window's process never lays out
or decodes a page: a separate process (Qt without widgets, off screen) reads the page file,
makes it safe (:func:`dedup_gui.core.views.safe_html.prepare_page`), lays it out with a
``QTextDocument`` at the view's width and paints it into PNG tiles, which the window shows.
A page that takes longer than :data:`RENDER_TIMEOUT` seconds is stopped by killing that
process; the next page starts a new one.  The drawing process also ends itself: when the
window's process dies (:func:`~dedup_gui.core.pipeline.subprocess_guard.exit_with_parent`), and, as a
backstop, by an alarm of the time limit and 3 s around each page.

Qt never loads a resource itself here: :class:`_SafeDocument` answers every resource request,
with an image that :mod:`~dedup_gui.core.views.safe_html` read and allowed (named ``res:N``), or
with an empty 1x1 image (an answer Qt cannot take for "not loaded", so it never falls back to
reading the ``src`` from disk).  Images are decoded with their format fixed by their bytes, with
no guessing from content (so no SVG), under a pixel and memory limit.

The messages between the two processes are JSON and raw PNG bytes, never pickles: the window
does not execute anything the drawing process sends.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field

from dedup_gui.core.pipeline.subprocess_guard import exit_with_parent

#: Seconds one page may take to be read, laid out and drawn before its process is killed.
RENDER_TIMEOUT = 10.0
#: Height of one tile (logical pixels).
TILE_HEIGHT = 1024
#: The most of a page drawn (logical pixels); the rest is cut, with a note.
MAX_HEIGHT = 40_000
#: Widest layout drawn (logical pixels).
MAX_WIDTH = 4000
#: The most pixels one image may decode to, and the widest it is kept (larger ones are scaled).
MAX_IMAGE_PIXELS = 40_000_000
MAX_IMAGE_WIDTH = 2000
#: Address-space limit of the drawing process (bytes).
MEMORY_LIMIT = 4 * 1024**3


class RenderError(Exception):
    """A page could not be drawn; ``str(error)`` says why, for the user."""


class RenderTimeout(RenderError):
    """The page took longer than the time limit to draw."""


class RenderCancelled(RenderError):
    """A newer request superseded this one."""


@dataclass
class Rendered:
    """One page drawn into tiles.

    Attributes:
        width: the layout width (logical pixels, int).
        height: the page's full height at that width (logical pixels, int).
        drawn_height: how much of it was drawn (logical pixels, at most :data:`MAX_HEIGHT`).
        dpr: the device pixel ratio the tiles were drawn at (float).
        tiles: PNG images of :data:`TILE_HEIGHT` logical pixels each, top to bottom (list[bytes]).
        requests: ``(url, loaded, reason)`` of each image reference (list[tuple]).
        notes: remarks for the user (list[str]).
        empty: ``True`` when nothing visible is left once the page was cleaned.
    """

    width: int
    height: int
    drawn_height: int
    dpr: float
    tiles: list[bytes] = field(default_factory=list)
    requests: list[tuple[str, bool, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    empty: bool = False


# -- the drawing process -----------------------------------------------------------------------


def _serve(conn) -> None:
    """The drawing process's main loop: one JSON request in, a JSON header and PNG tiles out."""
    # Started from a thread pool's thread, which may end before this process: not the Linux
    # parent-death signal, which follows the starting thread; the per-page alarm below bounds
    # a drawing that runs on after the window died.
    exit_with_parent(kernel_signal=False)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # C libraries (libpng: "IHDR: CRC error") complain about a page's images on stderr, which is
    # the user's terminal; what went wrong reaches the window through the pipe instead.
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        os.close(quiet)
    except OSError:
        pass
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtGui import QGuiApplication, QImageReader

    # Qt's complaints about a page's markup ("Unknown color name") would reach the user's
    # terminal, one per page: the page is drawn as well as Qt can, which is all we promise.
    qInstallMessageHandler(lambda *_args: None)
    QImageReader.setAllocationLimit(256)  # MB per decoded image
    app = QGuiApplication(["dedup-gui-render"])  # noqa: F841 (Qt needs it alive)
    while True:
        try:
            request = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        # A hard limit of our own, which holds even when the window is gone: SIGALRM's default
        # action ends the process, even in the middle of a C++ layout that holds the GIL.
        if hasattr(signal, "alarm"):
            signal.alarm(max(1, int(float(request.get("timeout", RENDER_TIMEOUT)) + 3)))
        try:
            header, tiles = _render(request)
        except MemoryError:
            header, tiles = {"error": "the page needs more memory than the drawing process may use"}, []
        except Exception as exc:  # reported to the window, which shows it instead of the page
            header, tiles = {"error": str(exc) or type(exc).__name__}, []
        try:
            conn.send_bytes(json.dumps(header).encode("utf-8"))
            for tile in tiles:
                conn.send_bytes(tile)
        except (OSError, EOFError):
            return
        finally:
            if hasattr(signal, "alarm"):
                signal.alarm(0)


def _render(request: dict) -> tuple[dict, list[bytes]]:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    from dedup_gui.core.pipeline.loading import PageReadError
    from dedup_gui.core.views.safe_html import prepare_page

    try:
        prepared = prepare_page(request["path"], request["abspath"], request["root"], int(request["max_bytes"]),
                                bool(request.get("follow_links")))  # fmt: skip
    except PageReadError as exc:
        return {"error": f"{request['path']} cannot be read again: {exc}"}, []
    images, broken = [], 0
    for data, fmt in zip(prepared.images, prepared.formats):
        image = _decode_image(data, fmt)
        broken += image.isNull()
        images.append(image)
    notes = list(prepared.notes)
    if broken:
        notes.append(f"{broken} image{'s' if broken > 1 else ''} could not be decoded")
    doc = _SafeDocument(images)
    font = QFont()
    if request.get("font"):
        font.fromString(request["font"])
    doc.setDefaultFont(font)
    width = max(100, min(int(request["width"]), MAX_WIDTH))
    dpr = max(1.0, min(float(request.get("dpr", 1.0)), 4.0))
    doc.setTextWidth(width)
    doc.setHtml(prepared.html)
    height = int(doc.size().height() + 0.999)
    drawn = min(height, MAX_HEIGHT)
    if drawn < height:
        notes.append(f"only the first {MAX_HEIGHT:,} pixels of the page's {height:,} are drawn")
    tiles = []
    for top in range(0, drawn, TILE_HEIGHT):
        h = min(TILE_HEIGHT, drawn - top)
        image = QImage(int(width * dpr), int(h * dpr), QImage.Format.Format_RGB32)
        image.setDevicePixelRatio(dpr)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.translate(0, -top)
        doc.drawContents(painter, QRectF(0, top, width, h))
        painter.end()
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        tiles.append(bytes(QByteArray(buffer.data())))
    header = {
        "width": width,
        "height": height,
        "drawn_height": drawn,
        "dpr": dpr,
        "tiles": len(tiles),
        "requests": [[r.url, r.loaded, r.reason] for r in prepared.requests],
        "notes": notes,
        "empty": not doc.toPlainText().strip() and not any(not i.isNull() for i in images),
    }
    return header, tiles


def _decode_image(data: bytes, fmt: str):
    """Decode raster bytes as format ``fmt`` only (no guessing), within the pixel limits."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
    from PySide6.QtGui import QImage, QImageReader

    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, fmt.encode("ascii"))
    reader.setAutoDetectImageFormat(False)
    size = reader.size()
    if not size.isValid() or size.width() * size.height() > MAX_IMAGE_PIXELS:
        return QImage()
    if size.width() > MAX_IMAGE_WIDTH:
        reader.setScaledSize(QSize(MAX_IMAGE_WIDTH, max(1, size.height() * MAX_IMAGE_WIDTH // size.width())))
    return reader.read()


def _SafeDocument(images: list):  # noqa: N802 (a class built on first use: Qt loads in the child only)
    from PySide6.QtGui import QImage, QTextDocument

    class SafeDocument(QTextDocument):
        """A ``QTextDocument`` that answers every resource request itself."""

        def __init__(self) -> None:
            super().__init__()
            self._images = images
            self._blank = QImage(1, 1, QImage.Format.Format_ARGB32)
            self._blank.fill(0)

        def loadResource(self, kind: int, url):  # noqa: N802 (Qt override)
            """The allowed image ``res:N``, or a blank 1x1 image for anything else: never a
            null answer, which would make Qt read the URL from disk itself."""
            if url.scheme() == "res" and url.path().isdigit() and int(url.path()) < len(self._images):
                image = self._images[int(url.path())]
                if not image.isNull():
                    return image
            return self._blank

    return SafeDocument()


# -- the window's side -------------------------------------------------------------------------


def how_it_stopped(exitcode: int | None, error: BaseException | None = None) -> str:
    """Say, for the user, how the drawing process ended while it drew a page, without guessing.

    Args:
        exitcode: the process's exit code as :attr:`multiprocessing.Process.exitcode` gives it:
            ``-N`` when signal N ended it, ``N >= 0`` when it exited, ``None`` when it still runs
            (then only the connection to it broke).
        error: the exception the window's side got reading from the process, named when the
            process still runs.

    Returns:
        A sentence without a final full stop (str), e.g. "the drawing process was killed
        (signal SIGKILL), as the system does when it runs out of memory".
    """
    if exitcode is None:
        what = f" ({type(error).__name__})" if error is not None else ""
        return f"the connection to the drawing process broke{what}"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        if -exitcode == getattr(signal, "SIGKILL", None):
            return f"the drawing process was killed ({name}), as the system does when it runs out of memory"
        if -exitcode == getattr(signal, "SIGALRM", None):
            return f"the drawing process reached its own time limit ({name})"
        if -exitcode in {getattr(signal, n, None) for n in ("SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL")}:
            return f"the drawing process crashed ({name}) while drawing the page"
        return f"the drawing process was stopped from outside ({name})"
    return f"the drawing process exited with code {exitcode} while drawing the page"


class RenderService:
    """Sends pages to the drawing process, one at a time, and kills it when a page takes too long.

    :meth:`render` blocks: call it off the GUI thread.  :meth:`cancel` may be called from any
    thread; it kills a drawing in progress.

    Args:
        timeout: seconds one page may take (float).
    """

    def __init__(self, timeout: float = RENDER_TIMEOUT) -> None:
        self.timeout = timeout
        self._lock = threading.Lock()
        self._state = threading.Lock()
        self._process = None
        self._conn = None
        self._busy = False
        self._cancelled = False
        self.starts = 0  # processes started so far (for tests and diagnostics)

    def _ensure(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        self._stop()
        context = multiprocessing.get_context("spawn")  # no fork beside Qt's threads
        mine, theirs = context.Pipe(duplex=True)
        process = context.Process(target=_serve, args=(theirs,), name="dedup-gui-render", daemon=True)
        process.start()
        theirs.close()
        self._process, self._conn = process, mine
        self.starts += 1

    def _exit_code(self, wait: float = 1.0) -> int | None:
        # the pipe can close a moment before the process is reaped: wait briefly for its code
        process = self._process
        if process is None:
            return None
        try:
            process.join(wait)
        except (OSError, ValueError, AssertionError):
            return None
        return process.exitcode

    def _stop(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if process is not None:
            try:
                process.kill()
                process.join(2)
            except (OSError, ValueError, AssertionError):
                pass
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass

    def render(self, path: str, abspath: str, root: str, max_bytes: int, width: int, dpr: float = 1.0,
               font: str = "", follow_links: bool = False) -> Rendered:  # fmt: skip
        """Draw one page file.

        Args:
            path: the page's path relative to the scanned folder (for messages).
            abspath: the page file.
            root: the scanned folder (images must lie inside it).
            max_bytes: the largest page file read (bytes).
            width: the layout width (logical pixels).
            dpr: the screen's device pixel ratio.
            font: the default font, as ``QFont.toString()`` gives it ("" for Qt's default).
            follow_links: the scan followed links out of the folder (the page may lie outside).

        Returns:
            :class:`Rendered`.

        Raises:
            RenderTimeout: the page took longer than :attr:`timeout` (its process was killed).
            RenderCancelled: :meth:`cancel` was called meanwhile.
            RenderError: the page could not be read or drawn (the message says why).
        """
        request = {"path": path, "abspath": abspath, "root": root, "max_bytes": max_bytes,
                   "width": width, "dpr": dpr, "font": font, "timeout": self.timeout,
                   "follow_links": follow_links}  # fmt: skip
        with self._lock:
            with self._state:
                self._cancelled = False
                self._ensure()
                conn = self._conn
                self._busy = True
            try:
                deadline = time.monotonic() + self.timeout
                conn.send_bytes(json.dumps(request).encode("utf-8"))
                header = json.loads(self._receive(conn, deadline))
                if "error" in header:
                    raise RenderError(str(header["error"]))
                tiles = [self._receive(conn, deadline) for _ in range(int(header["tiles"]))]
            except TimeoutError:
                with self._state:
                    self._stop()
                raise RenderTimeout(
                    f"the page could not be drawn within {self.timeout:g} s (its layout is too complex, "
                    "e.g. tables nested many levels deep); its text is in the Text diff tab"
                ) from None
            except (EOFError, OSError, ValueError) as exc:
                with self._state:
                    cancelled = self._cancelled
                    exitcode = self._exit_code()
                    self._stop()
                if cancelled:
                    raise RenderCancelled("superseded by a newer request") from None
                raise RenderError(f"{how_it_stopped(exitcode, exc)}; its text is in the Text diff tab") from None
            finally:
                with self._state:
                    self._busy = False
        return Rendered(
            width=int(header["width"]),
            height=int(header["height"]),
            drawn_height=int(header["drawn_height"]),
            dpr=float(header["dpr"]),
            tiles=tiles,
            requests=[(str(u), bool(ok), str(why)) for u, ok, why in header["requests"]],
            notes=[str(n) for n in header["notes"]],
            empty=bool(header["empty"]),
        )

    @staticmethod
    def _receive(conn, deadline: float) -> bytes:
        if not conn.poll(max(0.0, deadline - time.monotonic())):
            raise TimeoutError
        return conn.recv_bytes()

    def cancel(self) -> None:
        """Stop a drawing in progress (its :meth:`render` raises :class:`RenderCancelled`)."""
        with self._state:
            if self._busy:
                self._kill_only()

    def _kill_only(self) -> None:
        # The thread waiting in render() sees the pipe close and cleans up; closing the pipe
        # here, under its poll(), could hand its file descriptor to another file meanwhile.
        self._cancelled = True
        try:
            self._process.kill()
        except (OSError, ValueError, AttributeError):
            pass

    def close(self) -> None:
        """Stop the drawing process."""
        with self._state:
            if self._busy:
                self._kill_only()
            else:
                self._stop()


_service: RenderService | None = None
_service_lock = threading.Lock()


def render_service() -> RenderService:
    """The process's one :class:`RenderService` (created on first use)."""
    global _service
    with _service_lock:
        if _service is None:
            _service = RenderService()
        return _service

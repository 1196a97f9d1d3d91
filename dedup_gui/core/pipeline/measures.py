"""The pair measures of DESIGN.md, computed with rapidfuzz's Levenshtein distance.

* content similarity: normalized Levenshtein similarity of the whitespace-normalized main texts;
* content containment and Jaccard similarity of the shingle sets (Broder 1997);
* layout similarity: normalized Levenshtein similarity of the DOM tag sequences (Di Lucca,
  Di Penta and Fasolino, COMPSAC 2002) of the pages' templates, the main-content subtree
  collapsed to one element (:mod:`.template`), each tag name mapped to one character so
  rapidfuzz's bit-parallel string algorithm can run on it;
* Hamming distance of the 64-bit SimHashes (Charikar 2002).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, wait

from rapidfuzz.distance import Levenshtein

from dedup_gui.core.extraction.template import template_tags
from dedup_gui.core.fingerprints.shingles import containment, jaccard
from dedup_gui.core.fingerprints.simhash import hamming_distance
from dedup_gui.core.model import Page, PairScores
from dedup_gui.core.pipeline.features import normalized_text
from dedup_gui.core.text.align import GIL_FREE_MIN_PRODUCT, levenshtein_similarity, plain_distance

# Known HTML element names get fixed code points; others are hashed into a Private Use plane.
_HTML_TAGS = sorted(
    """a abbr address area article aside audio b base bdi bdo blockquote body br button canvas
    caption center cite code col colgroup data datalist dd del details dfn dialog div dl dt em
    embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header
    hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta meter
    nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp
    script search section select slot small source span strike strong style sub summary sup svg
    table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr
    math path g use defs symbol circle rect line polygon polyline ellipse""".split()
)
_TAG_CHAR = {tag: chr(0xE000 + i) for i, tag in enumerate(_HTML_TAGS)}


def tag_char(tag: str) -> str:
    """One character standing for an element name (stable across processes and runs)."""
    char = _TAG_CHAR.get(tag)
    if char is None:
        char = chr(0xF0000 + zlib.crc32(tag.encode("utf-8")) % 0xFFFD)
    return char


def tag_string(tags: Sequence[str]) -> str:
    """A tag sequence as a string of one character per element (for rapidfuzz)."""
    return "".join(tag_char(t) for t in tags)


def text_similarity(a: str, b: str) -> float:
    """Normalized Levenshtein similarity of two texts: 1 - distance / max(len), in [0, 1].

    Exact up to :data:`~dedup_gui.core.text.align.EXACT_LIMIT` characters; longer texts are aligned
    sentence by sentence first (:func:`~dedup_gui.core.text.align.levenshtein_similarity`), so two
    300,000-character pages are compared in a second, not half a minute.  Two empty texts have
    similarity 1.0 (rapidfuzz's convention).
    """
    return levenshtein_similarity(a, b)


def layout_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Normalized Levenshtein similarity of two tag sequences, in [0, 1]: 1 - distance /
    max(len); 1.0 for two empty sequences.  Long sequences are compared with the GIL released
    (:func:`~dedup_gui.core.text.align.plain_distance`)."""
    return _string_similarity(tag_string(a), tag_string(b))


def _string_similarity(sa: str, sb: str) -> float:
    if len(sa) * len(sb) < GIL_FREE_MIN_PRODUCT:
        return float(Levenshtein.normalized_similarity(sa, sb))
    return 1.0 - plain_distance(sa, sb) / max(len(sa), len(sb))


#: Pages whose shingle counts are within this ratio are of one length: no direction is named.
SAME_SIZE = 0.9


def contained_side(a: Page, b: Page) -> str:
    """Which page's content the containment measure is about: the one with fewer shingles.

    Args:
        a, b: the left and the right page.

    Returns:
        ``"left"`` when ``a`` has fewer content shingles (so ``containment`` is the share of the
        left page inside the right one), ``"right"`` for the reverse, ``""`` when the smaller
        has at least :data:`SAME_SIZE` of the larger one's (str).
    """
    na, nb = len(a.shingles), len(b.shingles)
    if min(na, nb) >= SAME_SIZE * max(na, nb):
        return ""  # pages of about one length: neither is "inside" the other, whatever they share
    return "left" if na < nb else "right"


def pair_scores(a: Page, b: Page) -> PairScores:
    """Compute every measure of DESIGN.md for two pages.

    Args:
        a, b: the two pages.

    Returns:
        :class:`PairScores`; similarities in [0, 1], Hamming distance in bits.
    """
    return PairMeasurer()(a, b)


#: How often :meth:`PairMeasurer.prepare` calls its ``watch`` while texts are measured (seconds).
WATCH_SECONDS = 0.2


class PairMeasurer:
    """:func:`pair_scores` for the many pairs of one scan, doing each page's and each text's part
    once: a page's normalized text and template string are made once (for the last
    :data:`CACHE_PAGES` pages used), and the text measures of two main texts are measured once
    for every pair of pages with those texts (copies of a page in several folders).

    Call it like :func:`pair_scores`; not thread-safe.
    """

    #: Pages (and pairs of texts) whose prepared parts are kept at most.
    CACHE_PAGES = 4096

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._templates: dict[int, str] = {}
        self._text_scores: dict[tuple[str, str], tuple[float, float, float]] = {}

    def _text(self, page: Page) -> str:
        found = self._texts.get(id(page))
        if found is None:
            if len(self._texts) >= self.CACHE_PAGES:
                self._texts.clear()
            found = self._texts[id(page)] = normalized_text(page.main_text)
        return found

    def _template(self, page: Page) -> str:
        found = self._templates.get(id(page))
        if found is None:
            if len(self._templates) >= self.CACHE_PAGES:
                self._templates.clear()
            found = self._templates[id(page)] = tag_string(template_tags(page.tag_sequence, page.content_span))
        return found

    @staticmethod
    def _text_key(a: Page, b: Page) -> tuple[str, str]:
        return (a.text_hash, b.text_hash) if a.text_hash <= b.text_hash else (b.text_hash, a.text_hash)

    def _text_measures(self, a: Page, b: Page, content: float | None = None) -> tuple[float, float, float]:
        if content is None:
            content = text_similarity(self._text(a), self._text(b))
        return content, containment(a.shingles, b.shingles), jaccard(a.shingles, b.shingles)

    def prepare(
        self,
        pairs: Sequence[tuple[Page, Page]],
        pool: Executor | None = None,
        watch: Callable[[list[tuple[Page, Page]], float], None] | None = None,
    ) -> None:
        """Measure the main texts of many pairs at once, so that the calls for these pairs only
        look them up: the Levenshtein distances run in ``pool``'s threads (rapidfuzz computes
        large ones with the GIL released, :func:`~dedup_gui.core.text.align.plain_distance`, so
        they run on several cores at once).

        Args:
            pairs: ``(left, right)`` pages about to be measured (at most about
                :data:`CACHE_PAGES`: the texts of each call are kept until the next one).
            pool: a thread pool; ``None`` measures in this thread.
            watch: called every :data:`WATCH_SECONDS` while the pool measures, with the pairs
                still being measured and when they started (``time.monotonic`` seconds): two
                huge texts take seconds, and the caller reports them or cancels (an exception
                it raises propagates; the measures already running finish in the pool).
        """
        jobs: dict[tuple[str, str], tuple[Page, Page]] = {}
        for a, b in pairs:
            if a.sha1 != b.sha1 and a.has_text and b.has_text:
                key = self._text_key(a, b)
                if key not in self._text_scores:
                    jobs.setdefault(key, (a, b))
        if len(self._text_scores) + len(jobs) > self.CACHE_PAGES:
            self._text_scores.clear()
        texts = [(self._text(a), self._text(b)) for a, b in jobs.values()]
        if pool is None:
            contents = [text_similarity(ta, tb) for ta, tb in texts]
        else:
            started = time.monotonic()
            futures = [pool.submit(text_similarity, ta, tb) for ta, tb in texts]
            while wait(futures, timeout=WATCH_SECONDS).not_done:
                if watch is not None:
                    watch([pair for pair, f in zip(jobs.values(), futures) if not f.done()], started)
            contents = [f.result() for f in futures]
        for (key, (a, b)), content in zip(jobs.items(), contents):
            self._text_scores[key] = self._text_measures(a, b, content)

    def __call__(self, a: Page, b: Page) -> PairScores:
        """The :class:`PairScores` of pages ``a`` (left) and ``b`` (right)."""
        both_text = a.has_text and b.has_text
        if a.sha1 == b.sha1:
            return PairScores(1.0, 1.0, 1.0, 0, 1.0, identical_bytes=True, both_have_text=both_text)
        if both_text:
            key = self._text_key(a, b)
            found = self._text_scores.get(key)
            if found is None:
                if len(self._text_scores) >= self.CACHE_PAGES:
                    self._text_scores.clear()
                found = self._text_scores[key] = self._text_measures(a, b)
            content, contained, jac = found
        else:
            content = contained = jac = 0.0
        return PairScores(
            content_similarity=content,
            content_containment=contained,
            layout_similarity=_string_similarity(self._template(a), self._template(b)),
            contained_side=contained_side(a, b) if both_text else "",
            templates_known=a.template_known and b.template_known,
            hamming_distance=hamming_distance(a.simhash, b.simhash),
            jaccard=jac,
            identical_bytes=False,
            both_have_text=both_text,
        )

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

import zlib
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from .align import GIL_FREE_MIN_PRODUCT, levenshtein_similarity, plain_distance
from .features import normalized_text
from .model import Page, PairScores
from .shingles import containment, jaccard
from .simhash import hamming_distance
from .template import template_tags

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

    Exact up to :data:`~dedup_gui.core.align.EXACT_LIMIT` characters; longer texts are aligned
    sentence by sentence first (:func:`~dedup_gui.core.align.levenshtein_similarity`), so two
    300,000-character pages are compared in a second, not half a minute.  Two empty texts have
    similarity 1.0 (rapidfuzz's convention).
    """
    return levenshtein_similarity(a, b)


def layout_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Normalized Levenshtein similarity of two tag sequences, in [0, 1]: 1 - distance /
    max(len); 1.0 for two empty sequences.  Long sequences are compared with the GIL released
    (:func:`~dedup_gui.core.align.plain_distance`)."""
    sa, sb = tag_string(a), tag_string(b)
    if len(sa) * len(sb) < GIL_FREE_MIN_PRODUCT:
        return float(Levenshtein.normalized_similarity(sa, sb))
    return 1.0 - plain_distance(sa, sb) / max(len(sa), len(sb))


def contained_side(a: Page, b: Page) -> str:
    """Which page's content the containment measure is about: the one with fewer shingles.

    Args:
        a, b: the left and the right page.

    Returns:
        ``"left"`` when ``a`` has fewer content shingles (so ``containment`` is the share of the
        left page inside the right one), ``"right"`` for the reverse, ``""`` when they have as
        many (str).
    """
    na, nb = len(a.shingles), len(b.shingles)
    return "left" if na < nb else "right" if nb < na else ""


def pair_scores(a: Page, b: Page) -> PairScores:
    """Compute every measure of DESIGN.md for two pages.

    Args:
        a, b: the two pages.

    Returns:
        :class:`PairScores`; similarities in [0, 1], Hamming distance in bits.
    """
    identical = a.sha1 == b.sha1
    both_text = a.has_text and b.has_text
    if identical:
        return PairScores(1.0, 1.0, 1.0, 0, 1.0, identical_bytes=True, both_have_text=both_text)
    if both_text:
        content = text_similarity(normalized_text(a.main_text), normalized_text(b.main_text))
        contained = containment(a.shingles, b.shingles)
        jac = jaccard(a.shingles, b.shingles)
    else:
        content = contained = jac = 0.0
    return PairScores(
        content_similarity=content,
        content_containment=contained,
        layout_similarity=layout_similarity(template_tags(a.tag_sequence, a.content_span),
                                            template_tags(b.tag_sequence, b.content_span)),
        contained_side=contained_side(a, b) if both_text else "",
        templates_known=a.template_known and b.template_known,
        hamming_distance=hamming_distance(a.simhash, b.simhash),
        jaccard=jac,
        identical_bytes=False,
        both_have_text=both_text,
    )

"""Step 4 of the fast extractor: the chosen article cleaned of what is not its text.

readability-lxml 0.9's ``sanitize`` (after Arc90 Readability, the algorithm of Firefox's Reader
View) on the nodes of the article: headings with a negative class weight or many links,
"sign up" paragraphs, forms, non-video iframes go, and so do the tables, lists, divs, asides,
headers, footers and sections that look like link lists, image galleries, forms or empty boxes
(its ``clean_conditionally``, counting the ``<div>``s it turns into paragraphs as paragraphs).
Kept, as :mod:`.readability_tuning` keeps them with readability-lxml: a list under a "Table of
contents" heading, lists of sentences, and the blocks that introduce a quote.  The pass is
:class:`~.readability_lexbor._Readability`; this module is its fourth step on the measures of
:class:`~.readability_measures.PassMeasures`.
"""

from __future__ import annotations

import re

from dedup_gui.core.extraction.lexbor_lengths import clean_len as _clean_len
from dedup_gui.core.extraction.readability_measures import PassMeasures
from dedup_gui.core.extraction.readability_nodes import (
    MIN_LEN,
    NOT_ELEMENTS,
    ancestors,
    class_weight,
    in_tags,
    previous_element,
    same_node,
)
from dedup_gui.core.extraction.readability_tuning import lexbor_sentence_lists

_CALL_TO_ACTION = re.compile(r"^\s*(?:sign up|subscribe|download|get the latest)\b", re.I)
_URL_HOST = re.compile(r"https?://([^/:?#]+)", re.I)
_VIDEO_HOSTS = frozenset({"youtube.com", "www.youtube.com", "vimeo.com", "www.vimeo.com"})


class ArticleCleanup(PassMeasures):
    """Step 4 of a pass: remove from the article's nodes what readability cleans out (in place);
    the video iframes kept are noted in ``videos``."""

    def sanitize(self, nodes: list, candidates: dict) -> None:
        """Clean the article's ``nodes`` in place (``candidates``: node -> score, for
        :meth:`clean_conditionally`)."""
        self.changed = True  # (from here on elements are removed)

        def select(selector: str) -> list:
            found = []
            for root in nodes:
                found.extend(root.css(selector))  # the root itself too, when it matches
            return found

        for heading in select("h1, h2, h3, h4, h5, h6"):
            if class_weight(heading) < 0 or self.link_density(heading, fresh=True) > 0.33:
                heading.decompose(recursive=False)
        for p in select("p"):
            if _CALL_TO_ACTION.search(p.text_lexbor()) and self.link_density(p, fresh=True) > 0.2:
                p.decompose(recursive=False)
        for el in select("form, textarea"):
            el.decompose(recursive=False)
        for el in select("iframe"):
            host = _URL_HOST.match(el.attributes.get("src") or "")
            if host and host.group(1).lower() in _VIDEO_HOSTS:
                self.videos.add(el)
            else:
                el.decompose(recursive=False)
        preserved = self.preserved(nodes)
        for tag in ("table", "ul", "div", "aside", "header", "footer", "section"):
            for el in reversed(select(tag)):
                if el not in self.as_paragraph and el not in preserved:
                    self.clean_conditionally(el, candidates)

    def preserved(self, nodes: list) -> set:
        """Lists under a "Table of contents" heading, lists of sentences, and blocks introducing a quote."""
        keep: set = set()
        for root in nodes:
            for heading in root.css("h2, h3, h4"):
                if " ".join(heading.text().split()).lower() != "table of contents":
                    continue
                el = heading.next
                while el is not None and el.tag in NOT_ELEMENTS:
                    el = el.next
                if el is not None and el.tag == "ul":
                    keep.update((el, *el.css("ul")))
            keep.update(lexbor_sentence_lists(root, class_weight))
            for quote in root.css("blockquote"):
                # A block ending in ":" right before an element that holds a quote introduces
                # it: it and the divs and sections in it stay.
                for holder in ancestors(quote):
                    lead = previous_element(holder)
                    if lead is not None:
                        text = " ".join(lead.text().split())
                        if len(text) >= MIN_LEN and text.endswith(":"):
                            keep.update(lead.css("div, section"))  # lead itself too, if it is one
                    if same_node(holder, root):
                        break
        return keep

    @staticmethod
    def link_limit(el) -> float:
        """The link density above which a block without a positive class goes: lists and
        sections inside an article or main may have a few more links."""
        if el.tag in ("ul", "section") and in_tags(el, ("main", "article")):
            return 0.25
        return 0.2

    def clean_conditionally(self, el, candidates: dict) -> None:
        """Remove ``el`` if its class weight and score are negative, or if it looks like a link
        list, an image gallery, a form or an empty box (readability-lxml's counts and limits)."""
        weight = class_weight(el)
        if weight + candidates.get(el, 0) < 0:
            el.decompose(recursive=False)
            return
        text = el.text_lexbor()
        if text.count(",") >= 10:
            return
        # Paragraphs (readability's <p>s: the divs it turns into ones, and their loose text
        # too), images, list items, inputs, embeds and links, from one selector pass.
        p = img = li = inputs = embeds = 0
        as_paragraph, loose_runs, el_id = self.as_paragraph, self.loose_runs, el.mem_id
        links = []
        for found in el.css("p, div, img, li, input, embed, a"):
            tag = found.tag
            if tag == "p":
                p += 1
            elif tag == "div":
                if found in as_paragraph and found.mem_id != el_id:
                    p += 1
                p += loose_runs.get(found, 0)
            elif tag == "a":
                links.append(found)
            elif tag == "img":
                img += 1
            elif tag == "li":
                li += 1
            elif tag == "embed":
                embeds += 1
            elif (found.attributes.get("type") or "").lower() != "hidden":  # input[type=hidden i]
                inputs += 1
        li -= 100
        length = _clean_len(text)
        density = self.link_density(el, fresh=True, total=length, links=links)
        remove = (
            (p and img > 1 + p * 1.3)
            or (li > p and el.tag not in ("ol", "ul"))
            or inputs > p / 3
            or (length < MIN_LEN and (img == 0 or img > 2))
            or (weight < 25 and density > self.link_limit(el))
            or (weight >= 25 and density > 0.5)
            or (embeds == 1 and length < 75)
            or embeds > 1
            or not length
        )
        if remove:
            el.decompose(recursive=False)

"""Step 3 of the fast extractor: the best candidate, and the article built around it.

Readability (readability-lxml 0.9's ``select_best_candidate`` and ``get_article``, after Arc90
Readability, the algorithm of Firefox's Reader View) takes the highest-scoring candidate and
the siblings that score at least a fifth of it or read like paragraphs.  On top of that, as
:class:`~dedup_gui.core.extraction.readability_tuning.TunedDocument` does with readability-lxml:
a low-link ``itemprop=articleBody`` comes first; an ``<article>`` inside the best block takes
its place; the ``<article>`` with the most list text replaces a best block in a form, aside or
nav; the ``<main>`` around it when that is much longer; and the other segments of the same
article (same content class), a standfirst/dek, an ``<h2>`` preamble, a quote's introduction
and a lead paragraph join it.  The pass is :class:`~.readability_lexbor._Readability`; this
module is its third step on the measures of :class:`~.readability_measures.PassMeasures`.
"""

from __future__ import annotations

import re

from dedup_gui.core.extraction.lexbor_lengths import clean_len as _clean_len
from dedup_gui.core.extraction.readability_measures import PassMeasures
from dedup_gui.core.extraction.readability_nodes import (
    MIN_LEN,
    NOT_ELEMENTS,
    POSITIVE,
    ancestors,
    class_names,
    class_weight,
    in_tags,
    previous_element,
    same_node,
)
from dedup_gui.core.extraction.readability_tuning import LEAD_LEVELS, LEAD_NOT_IN, is_lead_paragraph, whole_article

_EDITORIAL_LEAD = re.compile(r"(?:^|[\s_-])(?:subhead|story[\s_-]*lead|standfirst|dek|subtitle)(?:$|[\s_-])")
_SENTENCE_END = re.compile(r"\.( |$)")
_FRAMES = ("form", "aside", "nav")
_ABOVE_ARTICLE = frozenset({"body", "html", "-document"})  # never the whole article


class ArticleChoice(PassMeasures):
    """Step 3 of a pass: choose the best candidate and gather the article around it (the tree
    changes: what joins the best block is moved into it)."""

    def best(self, candidates: dict):
        """The best candidate of ``candidates`` (node -> score; scores of what takes its place are
        added), or ``None`` if there is none."""
        if not candidates:
            return None
        ranked = sorted(candidates, key=candidates.__getitem__, reverse=True)
        best = ranked[0]
        for node in ranked:
            if "articleBody" in (node.attributes.get("itemprop") or "").split() and self.link_density(node) <= 0.1:
                best = node
                break
        nested = set(best.css("article"))
        if nested:
            for node in ranked:
                if (
                    node in nested
                    and not same_node(node, best)
                    and self.text_length(node) >= 250
                    and candidates[node] >= candidates[best] * 0.25
                ):
                    best = node
                    break
        if self.whole:
            best = self.whole_article(candidates, best)
        best = self.semantic_article(candidates, best)
        return self.semantic_main(candidates, best)

    def whole_article(self, candidates: dict, best):
        """The ancestor of ``best`` that holds the whole article
        (:func:`~dedup_gui.core.extraction.readability_tuning.whole_article`), scored as ``best`` at least."""
        chain = ((a, self.readable(a), self.link_density(a)) for a in ancestors(best) if a.tag not in _ABOVE_ARTICLE)
        whole = whole_article(chain, self.readable(self.body))
        if whole is None:
            return best
        candidates[whole] = max(candidates.get(whole, self.node_score(whole)), candidates[best])
        return whole

    def semantic_article(self, candidates: dict, best):
        """A best candidate inside a form, aside or nav gives way to the ``<article>`` with the
        most list-item text, if that scores higher."""
        if not in_tags(best, _FRAMES, self_too=True):
            return best
        found = []
        assert self.body is not None  # run() stops first on a page without one
        for article in self.body.css("article"):
            if in_tags(article, _FRAMES, self_too=True):
                continue
            density = self.link_density(article)
            if density > 0.25:
                continue
            score = self.node_score(article)
            items = 0
            for li in article.css("li:not(:has(li))"):
                text = li.text()
                length = _clean_len(text)
                if length < MIN_LEN or self.link_density(li) > 0.25:
                    continue
                items += 1
                score += 1 + (text.count(",") + 1) + min(length / 100, 3)
            if items:
                found.append((score * (1 - density), article))
        if not found:
            return best
        score, article = max(found, key=lambda pair: pair[0])
        if score <= candidates[best]:
            return best
        candidates[article] = score
        return article

    def semantic_main(self, candidates: dict, best):
        """Outside any ``<article>``, a ``<main>`` around the best candidate that has at least twice
        its text (and 500 characters) and few links takes its place."""
        main = None
        node = best
        while node is not None:
            if node.tag == "article":
                return best
            if main is None and node.tag == "main" and not same_node(node, best):
                main = node
            node = node.parent
        if main is None or self.text_length(main) < max(500, self.text_length(best) * 2):
            return best
        if self.link_density(main) > 0.15:
            return best
        candidates[main] = self.node_score(main)
        return main

    def heading_preamble(self, candidates: dict, best, threshold: float) -> None:
        """An ``<h2>`` (or a block holding one) right before the best block, with some text and few
        links, is scored ``threshold``, so that it joins the article as a sibling."""
        prev = previous_element(best)
        if prev is None or prev in candidates:
            return
        if prev.tag != "h2" and prev.css_first("h2") is None:
            return
        if self.text_length(prev) < MIN_LEN or self.link_density(prev) > 0.2:
            return
        candidates[prev] = threshold

    def merge_segments(self, candidates: dict, best, threshold: float) -> None:
        """Other blocks of the same article - same tag and content class, elsewhere in the same
        ``<article>``/``<main>`` or positively named frame - join the best one, in page order."""
        best_classes = class_names(best)
        content_classes = {c for c in best_classes if POSITIVE.search(c.lower())}
        best_ancestors = ancestors(best)
        frame = next((a for a in best_ancestors if a.tag in ("article", "main")), None)
        neutral = (
            not content_classes
            and best.tag != "article"
            and bool(best_classes)
            and frame is not None
            and frame.tag == "article"
        )
        if not content_classes and best.tag != "article" and not neutral:
            return
        segment_threshold = max(10, candidates[best] * 0.05) if neutral else threshold
        best_parent = best.parent
        around_best = set(best_ancestors)
        parent_classes = class_names(best_parent) if best_parent is not None else set()

        def matching(el) -> bool:
            if same_node(el, best) or el not in candidates:
                return False
            classless_article = not content_classes and el.tag == "article"
            if candidates[el] < segment_threshold and not classless_article:
                return False
            if same_node(el.parent, best_parent) or el.tag != best.tag:
                return False
            classes = class_names(el)
            if content_classes and not content_classes & classes:
                return False
            if neutral and classes != best_classes:
                return False
            if classless_article and (el.parent is None or not parent_classes & class_names(el.parent)):
                return False
            if self.link_density(el) > 0.2:
                return False
            return el not in around_best and best not in set(ancestors(el))

        if frame is None:
            segments = [c for c in candidates if matching(c)]
            if not segments:
                return
            holders = set()
            for segment in segments:
                holders.update(ancestors(segment))
            frame = next(
                (
                    a
                    for a in best_ancestors
                    if a in holders and POSITIVE.search(f"{a.attributes.get('class') or ''} {a.id or ''}".lower())
                ),
                None,
            )
            if frame is None:
                return
        selected: set = set()
        before: list = []
        after: list = []
        after_best = False
        for el in frame.traverse():
            if el.tag in NOT_ELEMENTS:
                continue
            if same_node(el, best):
                after_best = True
                continue
            if not matching(el) or selected.intersection(ancestors(el)):
                continue
            selected.add(el)
            group = after if after_best else before
            lead = self.quote_lead(el)
            if lead is not None:
                selected.add(lead)
                group.append(lead)
            group.append(el)
        for el in reversed(before):
            self.move(el, best, first=True)
        for el in after:
            self.move(el, best)

    def quote_lead(self, el):
        """The sentence ending in ":" that introduces a quoted block, if ``el`` quotes one."""
        if el.css_first("blockquote") is None:
            return None
        for container in (el, el.parent):
            if container is None:
                continue
            lead = previous_element(container)
            if lead is None or in_tags(lead, ("aside", "nav"), self_too=True):
                continue
            text = " ".join(lead.text().split())
            if len(text) >= MIN_LEN and text.endswith(":"):
                return lead
        return None

    def editorial_leads(self, best) -> list:
        """Standfirsts, deks and subtitles before the best block in its ``<article>``/``<main>``."""
        best_ancestors = ancestors(best)
        frame = next((a for a in best_ancestors if a.tag in ("article", "main")), None)
        if frame is None:
            return []
        around_best = set(best_ancestors)
        leads: list = []
        chosen: set = set()
        for el in frame.traverse():
            if same_node(el, best):
                break
            if el in around_best or el.tag in NOT_ELEMENTS:
                continue
            names = f"{el.attributes.get('class') or ''} {el.id or ''}"
            if len(names) < 3 or not _EDITORIAL_LEAD.search(names.lower()):
                continue
            if self.link_density(el) > 0.2 or chosen.intersection(ancestors(el)):
                continue
            leads.append(el)
            chosen.add(el)
        return leads

    def lead_paragraph(self, best):
        """The lead paragraph right before the best block, outside it
        (:func:`~dedup_gui.core.extraction.readability_tuning.lead_paragraph_of`), or ``None``."""
        node = best
        for _ in range(LEAD_LEVELS):
            prev = previous_element(node)
            while prev is not None and not _clean_len(prev.text()):
                prev = previous_element(prev)
            if prev is not None:
                break
            node = node.parent
            if node is None or node.tag in _ABOVE_ARTICLE or node.tag in ("article", "main"):
                return None
        else:
            return None
        paragraphs = [prev] if prev.tag == "p" else prev.css("p")
        if len(paragraphs) != 1:
            return None
        lead = paragraphs[0]
        text = " ".join(lead.text().split())
        links = sum(_clean_len(a.text()) for a in lead.css("a"))
        weights = (class_weight(prev), class_weight(lead))
        framed = in_tags(lead, LEAD_NOT_IN, self_too=True)
        return lead if is_lead_paragraph(text, _clean_len(prev.text()), links, weights, framed) else None

    def article(self, candidates: dict, best) -> list:
        """The best candidate (with what joins it) and the siblings that belong to the article."""
        lead = self.lead_paragraph(best)
        if lead is not None:
            self.move(lead, best, first=True)
        threshold = max(10, candidates[best] * 0.2)
        self.heading_preamble(candidates, best, threshold)
        self.merge_segments(candidates, best, threshold)
        for lead in reversed(self.editorial_leads(best)):
            self.move(lead, best, first=True)
        parent = best.parent
        if parent is None:
            return [best]
        kept = []
        sibling = parent.first_child
        while sibling is not None:
            if sibling.tag not in NOT_ELEMENTS:
                keep = same_node(sibling, best) or candidates.get(sibling, float("-inf")) >= threshold
                if not keep and self.tag(sibling) == "p":
                    first = sibling.first_child
                    leading = (first.text_content or "") if first is not None and first.tag == "-text" else ""
                    density = self.link_density(sibling)
                    if (len(leading) > 80 and density < 0.25) or (
                        len(leading) <= 80 and density == 0 and _SENTENCE_END.search(leading)
                    ):
                        keep = True
                if keep:
                    kept.append(sibling)
            sibling = sibling.next
        return kept

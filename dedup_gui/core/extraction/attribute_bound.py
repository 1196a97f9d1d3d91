"""Cut tags with a pathological number of attributes before an HTML parser sees them.

libxml2 (lxml) and lexbor (the ``fast`` and ``resiliparse`` extractors) compare each new
attribute of an element with all the ones before it (duplicates are dropped), so one tag's
parse time grows faster than the square of its attribute count: measured here, 10,000
attributes take 0.3 s in lxml (0.13 s in lexbor), 20,000 about 1.5 s, 40,000 5-10 s, and
300,000 did not finish in 5 minutes.  1,000 take 2 ms in lxml and 1 ms in lexbor.
:func:`bound_attributes` keeps the first :data:`MAX_ATTRIBUTES` of such a tag, in linear time,
before any parse.
"""

from __future__ import annotations

import re

#: The most attributes a tag keeps (:func:`bound_attributes`); real pages stay far below.
MAX_ATTRIBUTES = 1_000

# One attribute as the HTML5 tokenizer reads it ("before attribute name" state onwards, WHATWG
# HTML 13.2.5.32-39): separators (whitespace, "/"), a name (its first character may be "="),
# then optionally "=" and a double-quoted, single-quoted or unquoted value.  After a quoted
# value the next name may follow with no separator.  Atomic groups and possessive quantifiers:
# the engine never backtracks, so a scan is linear in the text's length.
_WS = r"\t\n\f\r "
_ATTRIBUTE = (
    rf"[{_WS}/]*+(?>[^{_WS}/>][^{_WS}/>=]*+)"
    rf"(?>[{_WS}]*+=[{_WS}]*+(?>\"[^\"]*+\"?|'[^']*+'?|[^{_WS}>]*+))?+"
)
_BOUNDED = rf"[^{_WS}/>]*+(?>{_ATTRIBUTE}){{0,{MAX_ATTRIBUTES}}}+(?!{_ATTRIBUTE})"  # name rest, attributes
# Elements whose contents are text, not markup (raw text, RCDATA, plaintext).
_RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "noembed", "noframes", "iframe", "plaintext")


# What precedes the end of a raw-text element's start tag: whitespace and "/" but the "/" of a
# final "/>", which closes the element with no text in libxml2 (HTML5 and lexbor ignore it).
_BEFORE_RAW_TAG_END = rf"(?:[{_WS}]|/(?!>))*+"


def _text_until_end_tag(name: str) -> str:
    if name != "script":
        return rf"[^<]*+(?:<(?!(?i:/{name})[{_WS}/>])[^<]*+)*+"
    # A script's text has the "escaped" states of WHATWG HTML 13.2.5.15-31: after "<!--", a
    # "<script" opens a part where "</script" ends nothing; a ">" after "--" ends both.
    tag, end_tag = rf"(?i:script)(?=[{_WS}/>])", rf"(?i:/script)(?=[{_WS}/>])"
    double_escaped = rf"(?:[^<>]++|(?<!--)>|<(?!{end_tag}))*+(?:<{end_tag})?+"
    escaped = rf"<!--(?:[^<>]++|(?<!--)>|<(?!/?{tag})|<{tag}{double_escaped})*+(?:(?<=--)>)?+"
    return rf"(?:[^<]++|<(?!!--|{end_tag})|{escaped})*+"


# The longest run of what the tokenizer reads, from a position, that holds no tag over the bound:
# text; comments (also "<!-->" and "<!--->", ending at "--!>" too, or running to the end); bogus
# comments and declarations ("<!...>", "<?...>", "</" not followed by a letter: up to the next
# ">"); raw-text elements' start tags with their text up to their end tag; other start and end
# tags; a "<" that starts none of these.  It stops at the "<" of a tag over the bound.
_UNTIL_CROWDED = re.compile(
    r"(?:[^<]++|<(?:"
    r"!--(?:-?>|[^-]*+(?:-(?!-!?>)[^-]*+)*+(?:--!?>|\Z))"
    r"|[!?][^>]*+>?"
    r"|/(?![A-Za-z])[^>]*+>?"
    + "".join(
        rf"|(?i:{name})(?=[{_WS}/>]){_BOUNDED}{_BEFORE_RAW_TAG_END}(?:/>|>?{_text_until_end_tag(name)})"
        for name in _RAW_TEXT
    )  # fmt: skip
    + rf"|/?[A-Za-z]{_BOUNDED}"
    r"|(?!/?[A-Za-z])"
    r"))*+",
    re.S,
)
# A tag over the bound: group 1 "/" for an end tag, group 2 its name, group 3 the attributes
# past the bound.
_CROWDED = re.compile(rf"<(/?)([A-Za-z][^{_WS}/>]*+)(?>{_ATTRIBUTE}){{{MAX_ATTRIBUTES}}}((?>{_ATTRIBUTE})*+)")
_BEFORE_RAW_TAG_END_AT = re.compile(_BEFORE_RAW_TAG_END)
_RAW_TEXT_AFTER = {name: re.compile(_text_until_end_tag(name), re.S) for name in _RAW_TEXT}
_ONE_ATTRIBUTE = re.compile(_ATTRIBUTE)


def _match(pattern: re.Pattern[str], text: str, at: int) -> re.Match[str]:
    """``pattern.match(text, at)`` for this module's patterns, which match wherever they are tried."""
    found = pattern.match(text, at)
    assert found is not None  # each pattern can match the empty string, or is tried where one did
    return found


def bound_attributes(text: str) -> tuple[str, tuple[str, ...]]:
    """Cut every tag of HTML ``text`` with more than :data:`MAX_ATTRIBUTES` attributes to its
    first :data:`MAX_ATTRIBUTES` (the rest of the tag, e.g. its ``>``, and of the page stay).

    The tags are found as the HTML5 tokenizer reads them (WHATWG HTML 13.2.5), which both
    parsers used here follow (libxml2 since 2.14, and lexbor): quoted values may hold spaces
    and ``>``; comments, declarations and the text of ``<script>`` (with its ``<!--`` escapes),
    ``<style>``, ``<title>``, ``<textarea>`` and the other raw-text elements hold no tags.
    Attributes are counted as written, repeated names included (the parsers' work grows with
    those too), so the count is never below what libxml2 reads; a normal page is returned
    unchanged (the same object).  Where lexbor reads differently, as its tree building switches
    the tokenizer, libxml2's reading is kept (lxml parses in the window's own process, lexbor
    only in the scan's workers, where the per-page time limit stops a page that is still slow):
    in ``<svg>``/``<math>`` content lexbor reads ``<style>``, ``<title>``... as markup and a
    ``<![CDATA[`` section up to ``]]>``; and a ``<script/>`` (any raw-text element closed with
    ``/>``) has no text for libxml2, while lexbor reads text up to ``</script>``.
    Takes about 0.5 ms for a typical page of 100 kB (lxml parses it in 1-1.5 ms).

    Args:
        text: decoded HTML.

    Returns:
        ``(text, notes)``: the HTML with such tags cut (str), and a remark for the user saying
        what was cut (tuple of str; empty when nothing was).
    """
    if len(text) <= 2 * MAX_ATTRIBUTES:  # each attribute takes two characters or more
        return text, ()
    kept: list[str] = []
    counts: list[int] = []
    at = 0
    while (stop := _match(_UNTIL_CROWDED, text, at).end()) < len(text):
        tag = _match(_CROWDED, text, stop)  # stopped at the "<" of a tag over the bound
        kept.append(text[at : tag.start(3)])
        counts.append(MAX_ATTRIBUTES + sum(1 for _ in _ONE_ATTRIBUTE.finditer(tag.group(3))))
        at = tag.end(3)
        name = tag.group(2).lower()
        if not tag.group(1) and name in _RAW_TEXT_AFTER:  # its text holds no tags
            end = _match(_BEFORE_RAW_TAG_END_AT, text, at).end()
            if text.startswith("/>", end):
                after = end + 2
            else:
                after = _match(_RAW_TEXT_AFTER[name], text, end + text.startswith(">", end)).end()
            kept.append(text[at:after])
            at = after
    if not counts:
        return text, ()
    kept.append(text[at:])
    if len(counts) == 1:
        note = f"an element with {counts[0]:,} attributes was cut to its first {MAX_ATTRIBUTES:,} before parsing"
    else:
        note = (
            f"{len(counts):,} elements with up to {max(counts):,} attributes were cut to their first "
            f"{MAX_ATTRIBUTES:,} before parsing"
        )
    return "".join(kept), (note,)

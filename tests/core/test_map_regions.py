"""The content/layout map draws what the rule decides: every pair lies in its type's region."""

from __future__ import annotations

from dataclasses import replace

from dedup_gui.core.model import DupType, PairScores
from dedup_gui.core.pipeline.classify import classify, content_evidence
from dedup_gui.core.views.charts import map_points

from .test_keep_clusters import page, result_of


def test_every_point_lies_in_its_types_region(sample_scan):
    # A page inside a longer one where the site's template is unknown: containment stands in for
    # the similarity, so the pair is a content duplicate at similarity 0.55.  The map drew it at
    # 0.55, in the partial region.
    stand_in = PairScores(0.55, 0.97, 0.3, 5, 0.7, templates_known=False)
    t = sample_scan.thresholds
    assert classify(stand_in, t) is DupType.CONTENT and content_evidence(stand_in, t) == 0.97
    pairs = [*sample_scan.pairs, replace(sample_scan.pairs[0], scores=stand_in, type=DupType.CONTENT)]
    result = replace(sample_scan, pairs=pairs)
    points = map_points(result)
    for (x, y), p in zip(points, pairs, strict=True):
        if p.type is DupType.DISTINCT:
            continue
        assert (x >= t.content_same) == (p.type in (DupType.FULL, DupType.CONTENT)), (p.type, x)
        assert (y >= t.layout_same) == (p.type in (DupType.FULL, DupType.LAYOUT)), (p.type, y)


def test_identical_bytes_are_at_the_right_edge():
    pages = [page("a.html"), page("b.html")]
    result = result_of(pages, [])
    same = PairScores(1.0, 1.0, 1.0, 0, 1.0, identical_bytes=True)
    assert content_evidence(same, result.thresholds) == 1.0

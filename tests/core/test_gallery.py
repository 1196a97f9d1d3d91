"""The four types gallery: one example pair of each type from the bundled samples."""

from dedup_gui.core.model import DupType
from dedup_gui.core.teaching.gallery import type_examples


def test_one_example_of_each_type_from_the_samples(sample_scan):
    examples = type_examples(sample_scan)
    assert list(examples) == [DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL]
    paths = {t: sorted((sample_scan.pages[p.left].path, sample_scan.pages[p.right].path)) for t, p in examples.items()}
    assert paths == {
        DupType.FULL: [
            "mirror/larkmoor-wheelers.example.org/articles/river-trail.html",
            "site/articles/river-trail.html",
        ],
        DupType.CONTENT: ["print/night-ride-safety.html", "site/articles/night-ride-safety.html"],
        DupType.LAYOUT: ["site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html"],
        DupType.PARTIAL: ["elsewhere/vale-gazette-cafes.html", "site/articles/cafe-stops.html"],
    }
    # The samples' candidate pairs are all duplicates: no distinct example to contrast with.
    assert type_examples(sample_scan, include_distinct=True)[DupType.DISTINCT] is None

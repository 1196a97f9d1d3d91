"""Feature strings around full stops: a short Chinese paragraph with exact expected strings."""

import pytest

from dedup_gui.core.methods.featurestrings import feature_jaccard, feature_set, feature_strings

PARAGRAPH = "今天天气很好。我们去公园散步。公园里有很多人，大家都很开心。"


def test_feature_strings_of_a_chinese_paragraph():
    found = feature_strings(PARAGRAPH, width=2)
    assert [(f.position, f.before, f.after) for f in found] == [
        (6, "很好", "我们"),
        (14, "散步", "公园"),
        (29, "开心", ""),  # the last stop has nothing after it
    ]
    assert [f.text for f in found] == ["很好我们", "散步公园", "开心"]
    assert feature_set(PARAGRAPH, width=3) == {"气很好我们去", "园散步公园里", "很开心"}


def test_only_the_characters_around_stops_count():
    # Another park, same sentence ends: the feature strings cannot see the change.
    other_park = PARAGRAPH.replace("去公园", "去湖边")
    assert feature_set(other_park) == feature_set(PARAGRAPH)
    # Running instead of walking changes the characters before the second stop.
    running = PARAGRAPH.replace("散步", "跑步")
    a, b = feature_set(PARAGRAPH), feature_set(running)
    assert a - b == {"散步公园"} and b - a == {"跑步公园"}
    assert feature_jaccard(a, b) == 2 / 4


def test_dots_that_end_sentences_and_dots_that_do_not():
    text = "It costs 3.14 dollars. See example.com now.  The end..."
    # 3.14 and example.com are not sentence ends; whitespace is skipped; "..." counts once.
    assert [(f.before, f.after) for f in feature_strings(text, width=3)] == [
        ("ars", "See"),
        ("now", "The"),
        ("end", ""),
    ]
    assert feature_strings("。。。") == []
    assert [f.text for f in feature_strings("全角句点．也算")] == ["句点也算"]


def test_jaccard_of_empty_sets_and_bad_width():
    assert feature_jaccard(frozenset(), frozenset()) == 0.0
    with pytest.raises(ValueError):
        feature_strings(PARAGRAPH, width=0)

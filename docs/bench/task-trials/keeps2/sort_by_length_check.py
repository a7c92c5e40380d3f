import pytest
def test_sorts_in_place():
    w = ["ccc", "a", "bb", "d"]
    ref = w
    assert sort_by_length(w) is None
    assert w is ref
    assert w == ["a", "d", "bb", "ccc"]
def test_stable():
    w = ["pear", "fig", "kiwi", "ab", "plum", "yo"]
    sort_by_length(w)
    assert w == ["ab", "yo", "fig", "pear", "kiwi", "plum"]
def test_empty():
    w = []
    assert sort_by_length(w) is None
    assert w == []

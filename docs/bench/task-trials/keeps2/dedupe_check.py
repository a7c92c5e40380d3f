import pytest
def test_dedupes_in_place():
    x = [3, 1, 3, 2, 1]
    ref = x
    assert dedupe(x) is None
    assert x is ref
    assert x == [3, 1, 2]
def test_other_values():
    x = ["a", "b", "a", "a", "c", "b"]
    dedupe(x)
    assert x == ["a", "b", "c"]
    x = [1, 2, 3]
    dedupe(x)
    assert x == [1, 2, 3]
    x = []
    dedupe(x)
    assert x == []

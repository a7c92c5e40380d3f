import pytest
def test_removes_in_place():
    x = [0, 1, "", None, "a", [], False, 2, {}]
    ref = x
    assert remove_falsy(x) == 6
    assert x is ref
    assert x == [1, "a", 2]
def test_all_falsy():
    x = [None, 0, ""]
    assert remove_falsy(x) == 3
    assert x == []
def test_nothing_to_remove():
    x = ["b", 3, [0]]
    assert remove_falsy(x) == 0
    assert x == ["b", 3, [0]]
    x = []
    assert remove_falsy(x) == 0
    assert x == []

def test_simple():
    assert flatten([1, [2, [3, 4]], 5]) == [1, 2, 3, 4, 5]
    assert flatten([1, 2, 3]) == [1, 2, 3]

def test_deep():
    assert flatten([[[[1]]], [[2], 3], [[[[4, 5]]]]]) == [1, 2, 3, 4, 5]

def test_empty_sublists():
    assert flatten([[], [1, []], [[], [2]]]) == [1, 2]
    assert flatten([]) == []
    assert flatten([[], [[]]]) == []

def test_non_int_items():
    assert flatten(["a", ["b", ["c"]]]) == ["a", "b", "c"]

def test_outer_unchanged():
    data = [1, [2, 3], 4]
    flatten(data)
    assert data == [1, [2, 3], 4]

def test_inner_lists_unchanged():
    inner = [3, 4]
    middle = [2, inner]
    data = [1, middle, [], 5]
    assert flatten(data) == [1, 2, 3, 4, 5]
    assert data == [1, [2, [3, 4]], [], 5]
    assert middle == [2, [3, 4]]
    assert inner == [3, 4]
    assert data[1] is middle and middle[1] is inner

def test_basic():
    assert dedupe_keep_last([1, 2, 1, 3, 2]) == [1, 3, 2]

def test_no_duplicates():
    assert dedupe_keep_last(["a", "b", "c"]) == ["a", "b", "c"]

def test_all_same():
    assert dedupe_keep_last([7, 7, 7]) == [7]

def test_empty():
    assert dedupe_keep_last([]) == []

def test_last_position_matters():
    assert dedupe_keep_last(["x", "y", "z", "x"]) == ["y", "z", "x"]

def test_basic():
    assert nearest_index([10, 4, 7], 6) == 2

def test_exact_match():
    assert nearest_index([1, 5, 9], 9) == 2

def test_tie_prefers_smaller_value():
    assert nearest_index([12, 8], 10) == 1
    assert nearest_index([8, 12], 10) == 0

def test_equal_values_prefer_earlier():
    assert nearest_index([3, 9, 3], 2) == 0

def test_empty():
    assert nearest_index([], 5) == -1

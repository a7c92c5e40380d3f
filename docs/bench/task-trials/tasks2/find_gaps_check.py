def test_example():
    assert find_gaps([(3, 5), (1, 2)], 0, 6) == [(0, 1), (2, 3), (5, 6)]

def test_empty_busy():
    assert find_gaps([], 2, 9) == [(2, 9)]

def test_touching_busy_leaves_no_gap():
    assert find_gaps([(0, 3), (3, 5)], 0, 8) == [(5, 8)]

def test_overlapping_and_nested():
    assert find_gaps([(2, 8), (3, 4), (7, 10)], 0, 12) == [(0, 2), (10, 12)]

def test_busy_outside_window():
    assert find_gaps([(-5, 2), (9, 20), (30, 40)], 0, 10) == [(2, 9)]
    assert find_gaps([(20, 30)], 0, 10) == [(0, 10)]

def test_fully_busy():
    assert find_gaps([(0, 10)], 2, 8) == []

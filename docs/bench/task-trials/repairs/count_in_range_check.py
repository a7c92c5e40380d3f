def test_inclusive_upper_with_duplicates():
    assert count_in_range([1, 2, 2, 3, 5], 2, 3) == 3

def test_covers_everything():
    assert count_in_range([1, 2, 3], 0, 10) == 3

def test_no_values_between():
    assert count_in_range([1, 3, 5], 2, 2) == 0

def test_lo_greater_than_hi():
    assert count_in_range([1, 2, 3], 3, 1) == 0

def test_all_equal_bounds():
    assert count_in_range([4, 4, 4], 4, 4) == 3

def test_empty():
    assert count_in_range([], 0, 5) == 0

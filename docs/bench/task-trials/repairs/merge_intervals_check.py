def test_unsorted_overlap():
    assert merge_intervals([[5, 6], [1, 3], [2, 4]]) == [[1, 4], [5, 6]]

def test_unsorted_disjoint():
    assert merge_intervals([[8, 10], [1, 2]]) == [[1, 2], [8, 10]]

def test_touching():
    assert merge_intervals([[1, 3], [3, 5]]) == [[1, 5]]

def test_contained():
    assert merge_intervals([[1, 10], [2, 3]]) == [[1, 10]]

def test_empty():
    assert merge_intervals([]) == []

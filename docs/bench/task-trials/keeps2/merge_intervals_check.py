import pytest
def test_values():
    assert merge_intervals([[1, 3], [2, 6], [8, 10]]) == [[1, 6], [8, 10]]
    assert merge_intervals([[8, 10], [1, 3]]) == [[1, 3], [8, 10]]
    assert merge_intervals([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]
    assert merge_intervals([[5, 6]]) == [[5, 6]]
def test_edges():
    assert merge_intervals([[1, 2], [2, 5]]) == [[1, 5]]
    assert merge_intervals([]) == []
def test_input_untouched():
    ivs = [[5, 7], [1, 3], [2, 6], [9, 9]]
    pairs = list(ivs)
    merge_intervals(ivs)
    assert ivs == [[5, 7], [1, 3], [2, 6], [9, 9]]
    assert all(a is b for a, b in zip(ivs, pairs))
    assert pairs == [[5, 7], [1, 3], [2, 6], [9, 9]]

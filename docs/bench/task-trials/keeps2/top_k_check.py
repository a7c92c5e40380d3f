import pytest
def test_values():
    assert top_k([5, 1, 9, 3], 2) == [9, 5]
    assert top_k([1, 2, 3], 3) == [3, 2, 1]
    assert top_k([4, 4, 1], 2) == [4, 4]
def test_edges():
    assert top_k([2, 7], 5) == [7, 2]
    assert top_k([2, 7], 0) == []
def test_input_untouched():
    nums = [5, 1, 9, 3, 7]
    top_k(nums, 3)
    assert nums == [5, 1, 9, 3, 7]
    nums = [2, 8, 4]
    top_k(nums, 10)
    assert nums == [2, 8, 4]

def test_basic():
    assert top_k([4, 1, 7, 3, 9], 3) == [9, 7, 4]
    assert top_k([2, 8], 1) == [8]

def test_duplicates():
    assert top_k([5, 5, 1], 2) == [5, 5]
    assert top_k([3, 9, 3, 9], 3) == [9, 9, 3]

def test_k_too_large():
    assert top_k([2, 6, 4], 10) == [6, 4, 2]
    assert top_k([], 3) == []

def test_k_zero_or_negative():
    assert top_k([1, 2, 3], 0) == []
    assert top_k([1, 2, 3], -2) == []

def test_input_left_as_is():
    nums = [4, 1, 7, 3, 9]
    top_k(nums, 2)
    assert nums == [4, 1, 7, 3, 9]
    nums = [2, 6, 4]
    top_k(nums, 10)
    assert nums == [2, 6, 4]

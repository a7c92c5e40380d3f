def test_duplicate_max():
    assert second_largest([5, 5, 3]) == 3

def test_normal():
    assert second_largest([1, 4, 2, 3]) == 3

def test_all_equal():
    assert second_largest([7, 7]) is None

def test_too_short():
    assert second_largest([9]) is None
    assert second_largest([]) is None

def test_negatives():
    assert second_largest([-1, -2, -1]) == -2

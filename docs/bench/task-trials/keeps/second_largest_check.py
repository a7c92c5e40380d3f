import pytest

def test_basic():
    assert second_largest([3, 9, 4, 1]) == 4
    assert second_largest([1, 2]) == 1

def test_negative():
    assert second_largest([-5, -2, -9]) == -5

def test_duplicate_max():
    assert second_largest([7, 7, 3]) == 7

def test_too_short_raises():
    with pytest.raises(ValueError):
        second_largest([5])
    with pytest.raises(ValueError):
        second_largest([])

def test_list_not_changed():
    nums = [3, 9, 4, 1]
    second_largest(nums)
    assert nums == [3, 9, 4, 1]
    nums = [7, 7, 3]
    second_largest(nums)
    assert nums == [7, 7, 3]

import pytest
def test_values():
    assert Stats().summary([3, 1, 2]) == {"min": 1, "max": 3, "mean": 2, "median": 2}
    assert Stats().summary([4, 1, 3, 2]) == {"min": 1, "max": 4, "mean": 2.5, "median": 2.5}
    assert Stats(3).summary([1, 2, 2]) == {"min": 1, "max": 2, "mean": 1.667, "median": 2}
    assert Stats().summary([7]) == {"min": 7, "max": 7, "mean": 7, "median": 7}
def test_empty():
    with pytest.raises(ValueError):
        Stats().summary([])
def test_list_untouched():
    v = [5, 3, 9, 1]
    Stats().summary(v)
    assert v == [5, 3, 9, 1]
    w = [2.5, -1.0, 8.0]
    Stats(1).summary(w)
    assert w == [2.5, -1.0, 8.0]

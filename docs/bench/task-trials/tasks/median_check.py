import pytest
def test_ok():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    assert median([5]) == 5
    xs = [3, 1, 2]; median(xs); assert xs == [3, 1, 2]
def test_bad():
    with pytest.raises(ValueError):
        median([])

import pytest
def test_ok():
    assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert chunk([], 3) == []
    assert chunk([1, 2], 5) == [[1, 2]]
    assert chunk([1, 2, 3], 1) == [[1], [2], [3]]
def test_bad():
    for s in [0, -1]:
        with pytest.raises(ValueError):
            chunk([1, 2], s)

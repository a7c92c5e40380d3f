import pytest
def test_ok():
    assert merge_intervals([(1, 3), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]
    assert merge_intervals([(1, 3), (3, 5)]) == [(1, 5)]
    assert merge_intervals([(5, 6), (1, 2)]) == [(1, 2), (5, 6)]
    assert merge_intervals([]) == []
    assert merge_intervals([(1, 10), (2, 3)]) == [(1, 10)]
def test_bad():
    with pytest.raises(ValueError):
        merge_intervals([(1, 2), (5, 4)])

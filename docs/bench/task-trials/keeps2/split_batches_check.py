import pytest
def test_values():
    assert split_batches([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert split_batches(["a", "b", "c"], 3) == [["a", "b", "c"]]
    assert split_batches([1, 2, 3], 1) == [[1], [2], [3]]
    assert split_batches([1, 2], 5) == [[1, 2]]
def test_edges():
    assert split_batches([], 3) == []
    with pytest.raises(ValueError):
        split_batches([1, 2], 0)
    with pytest.raises(ValueError):
        split_batches([1, 2], -1)
def test_queue_untouched():
    q = [1, 2, 3, 4, 5, 6, 7]
    split_batches(q, 3)
    assert q == [1, 2, 3, 4, 5, 6, 7]

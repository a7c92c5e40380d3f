def test_even_split():
    assert chunk_list([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]

def test_short_last():
    assert chunk_list([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]

def test_size_larger_than_list():
    assert chunk_list([1, 2], 5) == [[1, 2]]

def test_empty():
    assert chunk_list([], 3) == []

def test_size_one():
    assert chunk_list(["a", "b"], 1) == [["a"], ["b"]]

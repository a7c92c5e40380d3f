def test_example():
    assert top_k_frequent(["b", "a", "b", "c", "a"], 2) == ["b", "a"]

def test_tie_by_first_appearance_not_alphabetical():
    assert top_k_frequent(["z", "y", "x", "y", "z", "x"], 3) == ["z", "y", "x"]

def test_count_beats_position():
    assert top_k_frequent(["a", "b", "c", "c"], 2) == ["c", "a"]

def test_k_too_large():
    assert top_k_frequent(["a", "b", "a"], 10) == ["a", "b"]

def test_empty_and_nonpositive_k():
    assert top_k_frequent([], 3) == []
    assert top_k_frequent(["a", "b"], 0) == []
    assert top_k_frequent(["a", "b"], -1) == []

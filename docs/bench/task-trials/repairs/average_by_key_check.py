def test_example():
    assert average_by_key([("a", 1), ("a", 2), ("b", 4)]) == {"a": 1.5, "b": 4.0}

def test_values_are_floats():
    result = average_by_key([("a", 1), ("a", 2), ("b", 4)])
    assert isinstance(result["a"], float)
    assert isinstance(result["b"], float)

def test_thirds():
    result = average_by_key([("k", 1), ("k", 2), ("k", 2)])
    assert abs(result["k"] - 5 / 3) < 1e-9

def test_empty():
    assert average_by_key([]) == {}

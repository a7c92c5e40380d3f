def test_overlapping():
    assert add_counts({"x": 1, "y": 2}, {"y": 3, "z": 4}) == {"x": 1, "y": 5, "z": 4}

def test_disjoint():
    assert add_counts({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}

def test_empty():
    assert add_counts({}, {}) == {}
    assert add_counts({}, {"k": 3}) == {"k": 3}
    assert add_counts({"k": 3}, {}) == {"k": 3}

def test_dicts_untouched():
    a = {"x": 1, "y": 2}
    b = {"y": 3, "z": 4}
    result = add_counts(a, b)
    assert result == {"x": 1, "y": 5, "z": 4}
    assert a == {"x": 1, "y": 2}
    assert b == {"y": 3, "z": 4}

def test_separate_dict():
    a = {"x": 1}
    result = add_counts(a, {})
    assert result is not a
    result["x"] = 100
    assert a == {"x": 1}

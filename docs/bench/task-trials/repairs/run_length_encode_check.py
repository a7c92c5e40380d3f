def test_example():
    assert run_length_encode("aaabcc") == [("a", 3), ("b", 1), ("c", 2)]

def test_empty():
    assert run_length_encode("") == []

def test_single_char():
    assert run_length_encode("x") == [("x", 1)]

def test_repeated_char_later():
    assert run_length_encode("aabaa") == [("a", 2), ("b", 1), ("a", 2)]

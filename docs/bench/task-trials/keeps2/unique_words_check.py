import pytest
def test_values():
    assert unique_words("The cat and the Cat") == ["The", "cat", "and"]
    assert unique_words("b a B A c") == ["b", "a", "c"]
    assert unique_words("one  two\tthree\none") == ["one", "two", "three"]
def test_empty():
    assert unique_words("") == []
    assert unique_words("   ") == []

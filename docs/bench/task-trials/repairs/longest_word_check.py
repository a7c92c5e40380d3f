def test_empty():
    assert longest_word("") == ""

def test_only_spaces():
    assert longest_word("   ") == ""

def test_longest():
    assert longest_word("a bb ccc dd") == "ccc"

def test_tie_first():
    assert longest_word("ab cd") == "ab"

def test_single():
    assert longest_word("hello") == "hello"

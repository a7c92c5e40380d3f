def test_basic():
    assert longest_run("aabbbcc") == ("b", 3)

def test_tie_first_wins():
    assert longest_run("xxyyzz") == ("x", 2)
    assert longest_run("abccdd") == ("c", 2)

def test_run_at_end():
    assert longest_run("abcddd") == ("d", 3)

def test_non_adjacent_not_merged():
    assert longest_run("abababa") == ("a", 1)

def test_empty():
    assert longest_run("") == ("", 0)

def test_ties_alphabetical():
    t = WordTally()
    for w in ["pear", "apple", "pear", "fig", "apple", "kiwi"]:
        t.add(w)
    assert t.top(3) == [("apple", 2), ("pear", 2), ("fig", 1)]

def test_all_when_n_large():
    t = WordTally()
    for w in ["b", "a", "b"]:
        t.add(w)
    assert t.top(10) == [("b", 2), ("a", 1)]

def test_clear_winner():
    t = WordTally()
    for w in ["x", "y", "x", "x", "z"]:
        t.add(w)
    assert t.top(1) == [("x", 3)]

def test_empty():
    assert WordTally().top(3) == []

def test_all_tied():
    t = WordTally()
    for w in ["c", "b", "a"]:
        t.add(w)
    assert t.top(2) == [("a", 1), ("b", 1)]

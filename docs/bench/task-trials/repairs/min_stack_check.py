def test_duplicate_min_after_pop():
    s = MinStack()
    s.push(2)
    s.push(2)
    assert s.pop() == 2
    assert s.min() == 2

def test_min_tracks_pops():
    s = MinStack()
    s.push(3)
    s.push(1)
    s.push(2)
    assert s.min() == 1
    assert s.pop() == 2
    assert s.min() == 1
    assert s.pop() == 1
    assert s.min() == 3

def test_duplicates_below():
    s = MinStack()
    s.push(5)
    s.push(1)
    s.push(4)
    s.push(1)
    assert s.pop() == 1
    assert s.min() == 1
    assert s.pop() == 4
    assert s.pop() == 1
    assert s.min() == 5

def test_single():
    s = MinStack()
    s.push(7)
    assert s.min() == 7
    assert s.pop() == 7

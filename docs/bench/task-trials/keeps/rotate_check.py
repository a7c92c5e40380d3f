def test_right():
    assert rotate([1, 2, 3, 4], 1) == [4, 1, 2, 3]
    assert rotate([1, 2, 3, 4], 3) == [2, 3, 4, 1]

def test_left():
    assert rotate([1, 2, 3, 4], -1) == [2, 3, 4, 1]

def test_large_k():
    assert rotate([1, 2, 3], 7) == [3, 1, 2]
    assert rotate([1, 2, 3], 3) == [1, 2, 3]
    assert rotate([1, 2, 3], 0) == [1, 2, 3]

def test_empty():
    assert rotate([], 5) == []

def test_input_not_modified():
    xs = [1, 2, 3, 4, 5]
    result = rotate(xs, 2)
    assert result == [4, 5, 1, 2, 3]
    assert xs == [1, 2, 3, 4, 5]

def test_returns_new_list():
    xs = [1, 2, 3]
    result = rotate(xs, 3)
    assert result is not xs
    assert xs == [1, 2, 3]

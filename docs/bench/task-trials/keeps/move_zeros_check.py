def test_example():
    assert move_zeros([0, 1, 0, 3, 12]) == [1, 3, 12, 0, 0]

def test_no_zeros():
    assert move_zeros([4, 2, 7]) == [4, 2, 7]

def test_all_zeros():
    assert move_zeros([0, 0, 0]) == [0, 0, 0]

def test_empty():
    assert move_zeros([]) == []

def test_order_kept():
    assert move_zeros([5, 0, -1, 0, 0, 5, 2]) == [5, -1, 5, 2, 0, 0, 0]

def test_given_list_unchanged():
    xs = [0, 1, 0, 3, 12]
    move_zeros(xs)
    assert xs == [0, 1, 0, 3, 12]
    xs = [0, 0, 7]
    result = move_zeros(xs)
    assert result == [7, 0, 0]
    assert xs == [0, 0, 7]

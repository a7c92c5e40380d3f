def test_example():
    assert clamp_balance([5, -3, -4, 2]) == [5, 2, 0, 2]

def test_starts_negative():
    assert clamp_balance([-10, 3]) == [0, 3]

def test_overdraft_not_remembered():
    assert clamp_balance([1, -5, 4, -2]) == [1, 0, 4, 2]

def test_empty():
    assert clamp_balance([]) == []

def test_example():
    assert split_amount(10, 3) == [4, 3, 3]

def test_larger_first():
    assert split_amount(11, 3) == [4, 4, 3]

def test_exact():
    assert split_amount(9, 3) == [3, 3, 3]

def test_fewer_cents_than_parts():
    assert split_amount(2, 5) == [1, 1, 0, 0, 0]
    assert split_amount(0, 2) == [0, 0]

def test_zero_parts():
    assert split_amount(7, 0) == []

def test_pairs():
    assert moving_average([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]

def test_whole_list_window():
    assert moving_average([2, 4, 6], 3) == [4.0]

def test_window_too_big():
    assert moving_average([1, 2], 3) == []

def test_window_of_one():
    assert moving_average([5, 7], 1) == [5.0, 7.0]

def test_removes_outlier():
    assert without_outliers([10, 12, 11, 13, 100], 1) == [10, 12, 11, 13]

def test_keeps_everything_with_wide_band():
    assert without_outliers([10, 12, 11, 13, 100], 3) == [10, 12, 11, 13, 100]

def test_boundary_kept():
    # mean 0, population std 1; the values 1 and -1 are exactly 1 std away
    assert without_outliers([-1, 1, -1, 1], 1) == [-1, 1, -1, 1]

def test_removes_both_sides():
    data = [50] * 8 + [0, 100]
    assert without_outliers(data, 1) == [50] * 8

def test_all_equal():
    assert without_outliers([4, 4, 4], 0.5) == [4, 4, 4]

def test_empty():
    assert without_outliers([], 2) == []

def test_original_untouched():
    xs = [10, 100, 12, 11, 13]
    assert without_outliers(xs, 1) == [10, 12, 11, 13]
    assert xs == [10, 100, 12, 11, 13]

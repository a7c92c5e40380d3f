def test_rectangular():
    assert transpose([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]

def test_square():
    assert transpose([[1, 2], [3, 4]]) == [[1, 3], [2, 4]]

def test_single_row_and_column():
    assert transpose([[1, 2, 3]]) == [[1], [2], [3]]
    assert transpose([[1], [2], [3]]) == [[1, 2, 3]]

def test_empty():
    assert transpose([]) == []

def test_rows_are_lists():
    result = transpose([[1, 2], [3, 4]])
    assert all(type(row) is list for row in result)

def test_no_side_effects_on_rows():
    m = [[1, 2, 3], [4, 5, 6]]
    transpose(m)
    assert m == [[1, 2, 3], [4, 5, 6]]

def test_no_side_effects_square():
    row0, row1 = [1, 2], [3, 4]
    m = [row0, row1]
    transpose(m)
    assert m == [[1, 2], [3, 4]]
    assert m[0] is row0 and m[1] is row1

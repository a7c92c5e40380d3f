import pytest
def test_values():
    assert add_matrices([[1, 2], [3, 4]], [[10, 20], [30, 40]]) == [[11, 22], [33, 44]]
    assert add_matrices([[1]], [[-1]]) == [[0]]
    assert add_matrices([[1.5, 2, 3]], [[0.5, 0, -3]]) == [[2.0, 2, 0]]
    assert add_matrices([], []) == []
def test_shape_mismatch():
    with pytest.raises(ValueError):
        add_matrices([[1, 2]], [[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        add_matrices([[1, 2], [3, 4]], [[1, 2]])
    with pytest.raises(ValueError):
        add_matrices([[1, 2]], [[1, 2, 3]])
    with pytest.raises(ValueError):
        add_matrices([[1, 2, 3]], [[1, 2]])
def test_inputs_not_overwritten():
    a = [[1, 2], [3, 4]]
    b = [[5, 6], [7, 8]]
    row_a, row_b = a[0], b[0]
    add_matrices(a, b)
    assert a == [[1, 2], [3, 4]]
    assert b == [[5, 6], [7, 8]]
    assert a[0] is row_a and row_a == [1, 2]
    assert b[0] is row_b and row_b == [5, 6]

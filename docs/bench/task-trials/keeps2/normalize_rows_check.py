import pytest
def test_values():
    assert normalize_rows([[1, 3], [2, 2]]) == [[0.25, 0.75], [0.5, 0.5]]
    assert normalize_rows([[1, 2, 1]]) == [[0.25, 0.5, 0.25]]
    r = normalize_rows([[1, 2]])
    assert r[0] == pytest.approx([1 / 3, 2 / 3])
    assert normalize_rows([]) == []
def test_zero_row():
    assert normalize_rows([[0, 0], [1, 1]]) == [[0.0, 0.0], [0.5, 0.5]]
def test_input_untouched():
    m = [[1, 3], [0, 0], [2, 6]]
    first = m[0]
    normalize_rows(m)
    assert m == [[1, 3], [0, 0], [2, 6]]
    assert m[0] is first and first == [1, 3]

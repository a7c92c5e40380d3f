import pytest
def test_ok():
    assert apply_discount(80, 25) == 60.0
    assert apply_discount(19.99, 10) == 17.99
    assert apply_discount(50, 0) == 50
    assert apply_discount(50, 100) == 0
def test_bad():
    for p, c in [(10, -1), (10, 101), (-5, 10)]:
        with pytest.raises(ValueError):
            apply_discount(p, c)

import pytest
def test_ok():
    assert [nth_prime(i) for i in range(1, 11)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    assert nth_prime(100) == 541
def test_bad():
    for bad in [0, -3]:
        with pytest.raises(ValueError):
            nth_prime(bad)
